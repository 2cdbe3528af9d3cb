"""A tournament in Discord: its message (settings, players, the round's matches with links to
their threads, the bracket or the standings, the result), its Register / Unregister / Start /
Leave buttons, each match's thread with its players called to it, and the Discord scheduled
event that reminds members of the start. `TournamentPresenter` is the runtime's
`TournamentListener` (bot/tables/tournaments.py)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol, Self, cast

import discord

from bot.discord.custom_ids import CustomId, Field, number
from bot.discord.errors import handle_error
from bot.discord.languages import Speakers, SpeaksToClicker
from bot.discord.replies import send_answer
from bot.discord.retries import DISCORD_TROUBLE, Retries
from bot.discord.threads import edit_else_post
from bot.discord.tournament_picture import bracket_png
from bot.discord.tournament_text import tournament_embed
from bot.discord.web_links import OPEN_ON_THE_WEB, WebLinkHost, web_link
from bot.engine import registry
from bot.errors import UserError
from bot.i18n import N_, _, n_, speaking
from bot.store.tournaments import (
    MatchRecord,
    Progress,
    TournamentRecord,
    TournamentStatus,
    TournamentStore,
)
from bot.tables.tournament_draws import rounds_planned

if TYPE_CHECKING:
    import re

    from bot.tables.tournaments import Tournaments

log = logging.getLogger(__name__)

BUTTON = CustomId("tourney", (Field("action", "register|unregister|start|leave"), number("id")))
LABELS = {
    "register": (N_("Register"), discord.ButtonStyle.success),
    "unregister": (N_("Unregister"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
    "leave": (N_("Leave tournament"), discord.ButtonStyle.danger),
}
EVENT_HOURS = 3  # how long the scheduled event says the tournament lasts
BRACKET_FILE = "bracket.png"


class TournamentHost(WebLinkHost, Protocol):
    """What the presenter and the buttons ask of the bot (and what signs the page's link)."""

    tournaments: Tournaments
    tournament_store: TournamentStore

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    def get_channel(self, id: int, /) -> Any: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    @property
    def speakers(self) -> Speakers: ...


class TournamentPresenter:
    """Draws each tournament's message, makes its threads and keeps its scheduled event."""

    def __init__(self, host: TournamentHost) -> None:
        self.host = host
        self.drawing: dict[int, asyncio.Lock] = {}
        self.messages: dict[int, int] = {}  # message id -> tournament id
        self.events_tried: set[int] = set()
        self.event_status: dict[int, TournamentStatus] = {}
        self.pending = 0  # messages being drawn (a test waits for none before it looks)
        self.retries = Retries(self._draw_again)  # tournaments whose message Discord failed

    @contextlib.contextmanager
    def _working(self) -> Iterator[None]:
        self.pending += 1
        try:
            yield
        finally:
            self.pending -= 1

    async def tournament_changed(self, record: TournamentRecord) -> None:
        with self._working():
            await self._redraw(record)

    async def _redraw(self, record: TournamentRecord) -> None:
        """Drawn in the server's language, whoever's click changed it."""
        async with self.drawing.setdefault(record.id, asyncio.Lock()):
            fresh = await self.host.tournament_store.load(record.id)
            assert fresh is not None  # tournaments are never deleted
            progress = await self.host.tournament_store.progress(record.id)
            with self._speaking_for(record):
                embed = tournament_embed(fresh, progress)
                files = await _bracket(fresh, progress)
                if files:
                    embed.set_image(url=f"attachment://{BRACKET_FILE}")
                page = await web_link(self.host, fresh.guild_id, f"/tournament/{fresh.id}")
                await self._draw(fresh, embed, controls(fresh, page), files)
                await self._keep_event(fresh)

    async def repost(self, record: TournamentRecord) -> None:
        """Post the message anew at the bottom of the channel (`/tournament show`, its thread
        archived); the old one goes."""
        with self._working():
            await self.host.tournament_store.set_message(record.id, None)
            await self._redraw(record)
            if record.message_id is not None:
                channel = self.host.get_partial_messageable(record.channel_id)
                await self._remove(channel.get_partial_message(record.message_id))

    def message_deleted(self, message_id: int) -> None:
        """A moderator deleted a tournament's message: it is posted again."""
        tournament_id = self.messages.pop(message_id, None)
        if tournament_id is not None:
            asyncio.get_running_loop().create_task(self._repost_deleted(tournament_id))

    def _draw_again(self, tournament_id: int) -> None:
        asyncio.get_running_loop().create_task(self._redraw_again(tournament_id))

    async def _redraw_again(self, tournament_id: int) -> None:
        record = await self.host.tournament_store.load(tournament_id)
        if record is not None:
            await self.tournament_changed(record)

    async def _repost_deleted(self, tournament_id: int) -> None:
        record = await self.host.tournament_store.load(tournament_id)
        if record is not None:
            await self.repost(record)

    async def _draw(
        self,
        record: TournamentRecord,
        embed: discord.Embed,
        view: discord.ui.View,
        files: list[discord.File],
    ) -> None:
        channel = self.host.get_partial_messageable(record.channel_id)
        try:
            posted, archived = await edit_else_post(channel, record.message_id, embed, view, files)
        except DISCORD_TROUBLE as error:  # drawn again after a pause
            log.warning("Discord failed tournament %s's message: %r", record.id, error)
            self.retries.failed(record.id)
            return
        except discord.HTTPException as error:  # lost access (the bot removed, say)
            log.warning("could not show tournament %s's message: %s", record.id, error)
            return
        self.retries.succeeded(record.id)
        if posted is None:  # edited in place
            assert record.message_id is not None
            self.messages[record.message_id] = record.id
            return
        await self.host.tournament_store.set_message(record.id, posted.id)
        self.messages[posted.id] = record.id
        if archived is not None:
            await self._remove(archived)

    async def _remove(self, old: discord.PartialMessage) -> None:
        """Delete a message that was the tournament's (not a moderator's deletion: not posted
        again)."""
        self.messages.pop(old.id, None)
        with contextlib.suppress(discord.HTTPException):
            await old.delete()

    # ---- threads ------------------------------------------------------------------------------

    def _speaking_for(self, record: TournamentRecord) -> contextlib.AbstractContextManager[None]:
        return speaking(self.host.speakers.server(record.guild_id))

    async def match_channel(
        self, record: TournamentRecord, match: MatchRecord, names: dict[int, str]
    ) -> int:
        game, tournament = registry.get(record.game_id), str(record.id)
        called = " ".join(f"<@{member}>" for member in match.players)
        with self._speaking_for(record):
            name = _(
                "{game} #{tournament} · round {round}, table {table}",
                game=_(game.name),
                tournament=tournament,
                round=match.round,
                table=match.number,
            )
            starts = _(
                "{players}: round {round}, table {table} of tournament #{tournament} "
                "({game}) starts now. Your table is below; your hand comes by DM (or My "
                "hand).",
                players=called,
                round=match.round,
                table=match.number,
                tournament=tournament,
                game=_(game.name),
            )
        where = record.channel_id
        parent = self.host.get_channel(record.channel_id)
        if isinstance(parent, discord.TextChannel):
            try:
                thread = await parent.create_thread(
                    name=name[:100], type=discord.ChannelType.public_thread
                )
                where = thread.id
            except discord.HTTPException:
                log.info("no thread for tournament %s: playing in its channel", record.id)
        with contextlib.suppress(discord.HTTPException):
            await self.host.get_partial_messageable(where).send(
                starts, allowed_mentions=discord.AllowedMentions(users=True)
            )
        return where

    # ---- the scheduled event ------------------------------------------------------------------

    async def _keep_event(self, record: TournamentRecord) -> None:
        """The start's Discord event: made while registering (where the bot may manage
        events), then started, ended or cancelled with the tournament."""
        guild = self.host.get_guild(record.guild_id)
        if guild is None:
            return
        try:
            if record.event_id is None:
                await self._make_event(guild, record)
            elif self.event_status.get(record.id) != record.status:
                await self._move_event(guild, record)
        except discord.HTTPException as error:
            log.info("tournament %s's scheduled event: %s", record.id, error)

    async def _make_event(self, guild: discord.Guild, record: TournamentRecord) -> None:
        if (
            record.starts_at is None
            or record.status != TournamentStatus.REGISTERING
            or record.id in self.events_tried
        ):
            return
        self.events_tried.add(record.id)
        game, channel = registry.get(record.game_id), f"<#{record.channel_id}>"
        event = await guild.create_scheduled_event(
            name=_("{game} tournament #{tournament}", game=_(game.name), tournament=str(record.id)),
            start_time=record.starts_at,
            end_time=record.starts_at + timedelta(hours=EVENT_HOURS),
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=channel,
            description=_("Register in {channel} before it starts.", channel=channel),
        )
        await self.host.tournament_store.set_event(record.id, event.id)
        record.event_id = event.id
        self.event_status[record.id] = record.status

    async def _move_event(self, guild: discord.Guild, record: TournamentRecord) -> None:
        assert record.event_id is not None
        event = await guild.fetch_scheduled_event(record.event_id)
        if record.status == TournamentStatus.CANCELLED and event.status in (
            discord.EventStatus.scheduled,
        ):
            await event.cancel()
        elif (
            record.status == TournamentStatus.PLAYING
            and event.status is discord.EventStatus.scheduled
        ):
            await event.start()
        elif record.status == TournamentStatus.FINISHED:
            if event.status is discord.EventStatus.scheduled:
                await event.start()
            await event.end()
        self.event_status[record.id] = record.status


async def _bracket(record: TournamentRecord, progress: Progress) -> list[discord.File]:
    """An elimination's bracket as a picture, once its first round is drawn (the message's
    text keeps the rounds too, for those who don't load images)."""
    if record.format != "elimination" or not (progress.matches or progress.byes):
        return []
    png = await asyncio.to_thread(bracket_png, progress, rounds_planned(record, progress))
    # A new File each time: discord.py reads and closes the one it sends.
    return [discord.File(io.BytesIO(png), filename=BRACKET_FILE)]


def controls(record: TournamentRecord, page: str | None = None) -> discord.ui.View:
    """The buttons of its status, and its web page's link (`page`) if pages are on."""
    view = discord.ui.View(timeout=None)
    actions = {
        TournamentStatus.REGISTERING: ("register", "unregister", "start"),
        TournamentStatus.PLAYING: ("leave",),
    }.get(record.status, ())
    for action in actions:
        view.add_item(TournamentButton(action, record.id))
    if page is not None:
        view.add_item(discord.ui.Button(label=_(OPEN_ON_THE_WEB), url=page))
    return view


class TournamentButton(
    SpeaksToClicker, discord.ui.DynamicItem[discord.ui.Button], template=BUTTON.template
):
    """Register, Unregister, Start (the host's) and Leave, on the tournament's message."""

    def __init__(self, action: str, id: int) -> None:
        self.action, self.tournament_id = action, id
        label, style = LABELS[action]
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_(label), style=style, custom_id=BUTTON.format(action, id)
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(**BUTTON.read(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await send_answer(interaction, await self._run(interaction), ephemeral=True)
        except Exception as error:  # dynamic items have no view to report through
            await handle_error(interaction, error, f"tournament {self.action}")

    async def _run(self, interaction: discord.Interaction) -> str:
        runner = cast("TournamentHost", interaction.client).tournaments
        member, key = interaction.user.id, f"tourney:{self.action}:{interaction.id}"
        record = await runner.get(self.tournament_id)
        if record.guild_id != interaction.guild_id:
            raise UserError(_("That tournament is not this server's."))
        manager = bool(
            interaction.permissions.manage_guild or interaction.permissions.manage_events
        )
        if self.action == "register":
            await runner.register(record.id, member, interaction.user.display_name, key)
            if not record.buy_in:
                return _(
                    "You are registered for tournament #{tournament}.", tournament=str(record.id)
                )
            return n_(
                "You are registered for tournament #{tournament}; your buy-in of {count} chip "
                "is in its prize pool.",
                "You are registered for tournament #{tournament}; your buy-in of {count} chips "
                "is in its prize pool.",
                record.buy_in,
                tournament=str(record.id),
            )
        if self.action == "unregister":
            await runner.unregister(record.id, member, key)
            if record.buy_in:
                return _("You are no longer registered; your buy-in is back in your balance.")
            return _("You are no longer registered.")
        if self.action == "start":
            await runner.start(record.id, member, can_manage=manager)
            return _("The tournament has started: the first round's tables are opening.")
        await runner.leave(record.id, member)
        return _(
            "You left the tournament: your turns at your table are played for you until its "
            "match ends, and you are drawn into no later round."
        )
