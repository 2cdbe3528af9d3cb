"""Tables on Discord, for every game: the lobby, the table message kept up to date, private
hands and controls by DM with an ephemeral "My hand" fallback, and the action buttons.

Every button and select is a dynamic item whose custom_id carries the table id (and, for
actions, the prompt version and the action), so it works after a restart and answers
"this prompt has expired" once stale. Renderers get views, never the engine state, so no
public message can show a hidden card.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import io
import logging
import math
import re
import time
import typing
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import discord
import orjson
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from bot.discord.errors import handle_error
from bot.discord.format import plural, relative_time, signed_chips
from bot.discord.replies import (
    acknowledge_if_late,
    edit_clicked,
    expired,
    redraw_clicked,
    send_answer,
    send_followup,
)
from bot.engine import Action, Event, GameSpec, HandEnded
from bot.errors import InvalidComponent, UserError
from bot.games.ai import policy_for
from bot.tables import Table, action_token
from bot.tables.events import SeatLeft, TableClosed, TableStarted
from bot.tables.limits import AI_DELAY, BUY_IN, TURN_SECONDS, Bounds

if TYPE_CHECKING:
    from bot.app import CardTableBot
    from bot.store import SeatRecord

log = logging.getLogger(__name__)

RECENT_LINES = 6
MAX_SELECT_OPTIONS = 25
MAX_SELECTS = 4  # a message has 5 rows: one for buttons, up to four selects
ROWS, ROW_WIDTH, MAX_COMPONENTS = 5, 5, 25  # a message's rows, each five buttons or one select
BOARD_FILE = "board.png"
SIDE_NAMES = "ABCDEF"
UNKNOWN_CHANNEL = 10003  # Discord's error code when a channel or thread is gone
PRUNE_HOOKS_FROM = 1024  # followup webhooks kept before expired ones are swept
# A player who answered in a DM this recently is taken to be watching it: their next decision
# is edited into that message rather than sent anew (see TablePresenter._edit_watched).
WATCHING_SECONDS = 30.0


class GameUI:
    """What a game's cog tells the presenter: how its views and events read."""

    game_id: str
    colour = discord.Colour.dark_green()
    controls_on_table = False  # a personal game: play on the table message itself, no DMs

    # A game that shows a picture on its table message defines `image(view) -> PNG bytes`;
    # it is rendered off the event loop. Games without one skip that work entirely.
    image: Callable[[BaseModel], bytes] | None = None

    def closed_embed(self, table: Table, view: BaseModel, names: list[str]) -> discord.Embed | None:
        return None

    def score_noun(self, options: BaseModel) -> tuple[str, str]:
        """What a match score counts, singular and plural: points, or cards won, or wins."""
        return "point", "points"

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        """The controls under a player's private hand (by default one per listed action)."""
        return action_controls(table, seat, self)

    def public_embed(self, table: Table, view: BaseModel, names: list[str]) -> discord.Embed:
        raise NotImplementedError

    def private_embed(self, table: Table, view: BaseModel, names: list[str]) -> discord.Embed:
        raise NotImplementedError

    def action_label(self, view: BaseModel, action: Action) -> str:
        return action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        return None

    def hand_summary(self, table: Table, view: BaseModel, names: list[str]) -> discord.Embed | None:
        """A channel message when a hand ends (the showdown players must notice)."""
        return None

    def options_text(self, options: BaseModel) -> str:
        return ", ".join(
            f"{name.replace('_', ' ')}: {value}" for name, value in options.model_dump().items()
        )


@dataclass(frozen=True)
class DMPrompt:
    channel_id: int
    message_id: int
    prompt: int
    hook: ReplyHook | None = None  # sent through a click's followup: edited through it too


@dataclass(frozen=True)
class Watched:
    """A DM its player just answered in (`TablePresenter.answer_landed`): whose, where, the
    click's webhook (which edits it as the click's own message, outside the bot's rate limit)
    and when the answer showed."""

    member_id: int
    channel_id: int
    message_id: int
    hook: ReplyHook
    at: float


@dataclass
class ReplyHook:
    """A click's followup webhook. Its token lives 15 minutes; we stop a minute early."""

    webhook: discord.Webhook
    until: float

    LIFE: ClassVar[float] = 14 * 60

    def live(self) -> bool:
        return time.monotonic() < self.until


class TablePresenter:
    """The runtime's listener: renders every change to Discord."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.games: dict[str, GameUI] = {}
        self.recent: dict[int, deque[str]] = {}
        # (table, seat) -> the DM whose controls answer the seat's open prompt, to strip them
        # once that prompt moves on (a timeout, the hand ending).
        self.dm_controls: dict[tuple[int, int], DMPrompt] = {}
        # Seats whose DMs failed this hand: not tried again before the next deal. Members told
        # in the channel once per table, so a closed inbox isn't announced every hand.
        self.dm_failed: set[tuple[int, int]] = set()
        self.dm_notice: set[tuple[int, int]] = set()
        # Seats whose click changed the table but whose answer Discord refused as too late,
        # on a message the bot can't edit: their hand goes by DM at the next render.
        self.unanswered: set[tuple[int, int]] = set()
        self.private_lines: dict[tuple[int, int], deque[str]] = {}  # private events, per seat
        # (table, seat) -> the first private event a seat's own click told it: the click's
        # answer showed it (`news_in_answer`), so its render sends that seat no DM for it.
        self.told_in_answer: dict[tuple[int, int], Event] = {}
        self.closings: dict[int, TableClosed] = {}  # table -> its close, drawn on its message
        self.cleanups: set[asyncio.Task] = set()
        # Table message edits are paced: one every `edit_seconds` in a channel (Discord's limit
        # is per channel, which tables may share), a burst of changes shown by one later edit
        # with the table as it then is. channel -> when its latest edit went or will go.
        self.edit_seconds = bot.settings.table_edit_seconds
        self.last_edit: dict[int, float] = {}
        self.stale: set[int] = set()  # tables whose message is behind
        self.answered: dict[int, int] = {}  # table -> version a click's answer drew (on_table)
        self.writers: dict[int, asyncio.Task] = {}
        # member -> the followup webhook of their latest click in their DMs (at any table):
        # their hands and prompts go through it while its token lives, outside Discord's limit
        # on the bot's own calls.
        self.reply_hooks: dict[int, ReplyHook] = {}
        self.pruned_at = PRUNE_HOOKS_FROM
        # member -> the bot's newest message in their DMs, as far as it knows; and, per seat,
        # the DM its player's click was last answered in, while nothing came after there.
        self.newest_in_dms: dict[int, int] = {}
        self.watched: dict[tuple[int, int], Watched] = {}
        self.watching_seconds = WATCHING_SECONDS

    def register(self, ui: GameUI) -> None:
        self.games[ui.game_id] = ui

    # ---- the runtime's listener --------------------------------------------------------

    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        ui = self.games[table.game.id]
        names = table.names()
        self._remember_lines(table, ui, events, names)
        dealt = any(isinstance(e, TableStarted) or e.kind == "hand_started" for e in events)
        if dealt:  # a new deal: DMs that failed before are tried again
            self.dm_failed = {key for key in self.dm_failed if key[0] != table.id}
        closed = next((e for e in events if isinstance(e, TableClosed)), None)
        channel_gone = closed is not None and closed.why == "channel_deleted"
        if closed is not None:
            self.closings[table.id] = closed
        # A failed channel write (a deleted channel, lost permissions) must never stop the
        # private prompts below: players still get their turns.
        if not channel_gone:
            await self._in_channel(table, self._show_in_channel(table, ui, closed, events, names))
        if table.record.status == "playing" and not ui.controls_on_table:
            told = self._told(table, events)
            await self._send_private(table, ui, names, everyone=dealt, told=told)
        await self._expire_dm_controls(table)
        if channel_gone:
            await self.bot.runtime.store.close_drawn(table.id)  # there is nothing to draw on
            await self._tell_channel_deleted(table, events, closed)
        if table.record.status == "closed":
            self._forget(table.id)

    def _forget(self, table_id: int) -> None:
        """A closed table's traces (its DM controls were expired above)."""
        self.recent.pop(table_id, None)
        self.answered.pop(table_id, None)
        self.closings.pop(table_id, None)
        for keyed in (self.private_lines, self.dm_controls, self.watched, self.told_in_answer):
            for key in [key for key in keyed if key[0] == table_id]:
                del keyed[key]
        self.dm_failed = {key for key in self.dm_failed if key[0] != table_id}
        self.dm_notice = {key for key in self.dm_notice if key[0] != table_id}

    def _remember_lines(
        self, table: Table, ui: GameUI, events: Sequence[Event], names: list[str]
    ) -> None:
        lines = self.recent.setdefault(table.id, deque(maxlen=RECENT_LINES))
        batch: list[str] = []
        for event in events:
            if event.kind == "hand_started":
                # The last hand's showdown named cards that are hidden again now.
                lines.clear()
                lines.extend(batch)
                for seat in range(len(names)):
                    self.private_lines.pop((table.id, seat), None)
            line = self._line(table, ui, event, names)
            if line and event.public:
                lines.append(line)
                batch.append(line)
            elif line:  # a private event: only its audience's DMs / My hand show it
                for seat in event.audience:
                    key = (table.id, seat)
                    self.private_lines.setdefault(key, deque(maxlen=RECENT_LINES)).append(line)

    async def _show_in_channel(
        self,
        table: Table,
        ui: GameUI,
        closed: TableClosed | None,
        events: Sequence[Event],
        names: list[str],
    ) -> None:
        if not await self._still_drawn(table, ui, events):
            self._update_table_message(table)
        if closed is not None:
            await self._draw_close(table)
        if any(isinstance(e, HandEnded) for e in events) and table.state is not None:
            summary = ui.hand_summary(table, table.view(None), names)
            if summary:
                await self._channel(table).send(embed=summary)
        if closed and closed.placings and not table.record.solo:
            noun = ui.score_noun(table.options)
            await self._channel(table).send(embed=standings_embed(table, closed, names, noun))

    async def _draw_close(self, table: Table) -> None:
        """The table message shows the close (with the standings) before anything more is
        said: then the store forgets that it didn't, so a bot stopped before this point draws
        it when it starts again, and one stopped after announces nothing twice."""
        writer = self.writers.get(table.id)
        if writer is not None:
            await writer
        await self.bot.runtime.store.close_drawn(table.id)

    async def _in_channel(self, table: Table, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except discord.NotFound as error:
            if error.code != UNKNOWN_CHANNEL:
                raise
            log.info("table %s lost its channel %s", table.id, table.record.channel_id)
            self._later(self.bot.runtime.channel_gone(table.record.channel_id))
        except discord.HTTPException as error:
            log.warning("could not show table %s in its channel: %s", table.id, error)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` outside this render (it changes the table, which renders again)."""
        task = asyncio.create_task(work)
        self.cleanups.add(task)
        task.add_done_callback(self.cleanups.discard)

    def _line(self, table: Table, ui: GameUI, event: Event, names: list[str]) -> str | None:
        if event.kind == "timed_out":
            taken = event.action.replace("_", " ")  # a secret choice: its kind only
            if event.taken is not None and table.state is not None:
                taken = ui.action_label(table.view(None), event.taken)
            return f"⏰ {names[event.seat]} ran out of time: {taken}."
        if event.kind == "seat_left":
            return f"{names[event.seat]} left the table with {event.chips} chips."
        if event.kind == "table_resumed":
            return "The bot restarted; the game goes on."
        if event.kind == "table_closed":
            paid = ", ".join(
                f"{names[s]} {chips:,}" for s, chips in enumerate(event.payouts) if chips
            )
            return f"The table is closed. Back to balances: {paid or 'nothing left to pay'}."
        return ui.event_line(event, names)

    # ---- the table message ---------------------------------------------------------------

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(
            table.record.channel_id, guild_id=table.record.guild_id
        )

    def _update_table_message(self, table: Table) -> None:
        """Show the table as it now is, without holding up this render: one writer per table
        writes at most once per `edit_seconds`, and changes made while it waits (or while the
        write waits its turn at Discord) are shown by its next write."""
        self.stale.add(table.id)
        if table.id in self.writers:
            return
        writer = asyncio.create_task(self._write_while_stale(table))
        self.writers[table.id] = writer
        self.bot.runtime.renders.add(writer)  # the table is still being shown
        writer.add_done_callback(self.bot.runtime.renders.discard)

    async def _write_while_stale(self, table: Table) -> None:
        ui, channel = self.games[table.game.id], table.record.channel_id
        try:
            while table.id in self.stale:
                if self._drawn_in_answer(table):  # then it takes no turn of the channel's
                    self.stale.discard(table.id)
                    continue
                now = time.monotonic()
                turn = max(now, self.last_edit.get(channel, -math.inf) + self.edit_seconds)
                self.last_edit[channel] = turn  # taken: another table here writes after it
                if turn > now:
                    await asyncio.sleep(turn - now)
                self.stale.discard(table.id)
                if not self._drawn_in_answer(table):
                    await self._in_channel(table, self._write_table_message(table, ui))
        except Exception:
            log.exception("could not show table %s", table.id)
        finally:
            del self.writers[table.id]

    def _drawn_in_answer(self, table: Table) -> bool:
        """Whether a click's answer already drew the table as it now is."""
        return self.answered.get(table.id) == table.record.version

    async def _still_drawn(self, table: Table, ui: GameUI, events: Sequence[Event]) -> bool:
        """After a restart, whether the table message already shows the table as it is (as
        when the bot shut down cleanly, no deadline moved): then it is not drawn again. A
        burst of redraws would spend Discord's global limit for ten seconds at 500 tables,
        holding up the players' own DMs. A message deleted meanwhile comes back at the
        table's next change, or by /table show."""
        if table.record.drawn is None or [e.kind for e in events] != ["table_resumed"]:
            return False
        async with table.lock:
            _, _, face = self.table_message(table, ui, table.names())
        return face == table.record.drawn

    async def _write_table_message(self, table: Table, ui: GameUI) -> None:
        embed, view, files, face = await self._draw(table, ui)
        await self._post_table_message(table, embed, view, files)
        table.record.drawn = face

    async def _post_table_message(
        self,
        table: Table,
        embed: discord.Embed,
        view: discord.ui.View | None,
        files: list[discord.File],
    ) -> None:
        channel = self._channel(table)
        if table.record.message_id:
            try:
                message = channel.get_partial_message(table.record.message_id)
                await message.edit(embed=embed, view=view, attachments=files)
                return
            except discord.NotFound as error:
                if error.code == UNKNOWN_CHANNEL:
                    raise
                log.info("table %s lost its message; posting a new one", table.id)
        message = await channel.send(embed=embed, view=view, files=files)
        await self.bot.runtime.set_message(table, message.id)

    async def _draw(
        self, table: Table, ui: GameUI
    ) -> tuple[discord.Embed, discord.ui.View | None, list[discord.File], str]:
        """The table message as the table now is, and its face (see `table_message`).
        Drawn under the table's lock: a step changes the table across awaits (the status
        before the state, at the start), and the writer runs beside the runtime."""
        async with table.lock:
            embed, view, face = self.table_message(table, ui, table.names())
            board = table.view(None) if table.state is not None and ui.image else None
        files = []
        if board is not None:
            png = await asyncio.to_thread(ui.image, board)
            files = [discord.File(io.BytesIO(png), filename=BOARD_FILE)]
            embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed, view, files, face

    async def answer_on_table(self, interaction: discord.Interaction, table: Table) -> None:
        """A click on the table's own message (a game played there) is answered by redrawing
        that message: at once, and outside Discord's limits on the bot's own edits, which a
        channel's tables share. The writer then skips that version."""
        if interaction.message is None or interaction.message.id != table.record.message_id:
            if not interaction.response.is_done():  # else acknowledged already, as late
                await interaction.response.defer()  # an older copy: the writer shows the table
            return
        self.answered[table.id] = table.record.version  # before the writer can look
        try:
            embed, view, files, face = await self._draw(table, self.games[table.game.id])
            await redraw_clicked(interaction, embed=embed, view=view, attachments=files)
            table.record.drawn = face
        except BaseException:
            self.answered.pop(table.id, None)
            self._update_table_message(table)  # the writer shows it after all
            raise

    def table_message(
        self, table: Table, ui: GameUI, names: list[str]
    ) -> tuple[discord.Embed, discord.ui.View | None, str]:
        """The table message, and its face: a fingerprint of the table's version and of all
        the message shows but the latest lines, which a restarted bot no longer has."""
        embed, view = self._table_face(table, ui, names)
        face = fingerprint(table.record.version, embed, view)
        recent = self.recent.get(table.id)
        if recent and table.record.status == "playing" and not ui.controls_on_table:
            embed.add_field(name="Latest", value="\n".join(recent)[-1024:], inline=False)
        return embed, view, face

    def _table_face(
        self, table: Table, ui: GameUI, names: list[str]
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        status = table.record.status
        if status == "lobby":
            return self._lobby_embed(table, ui, names), lobby_controls(table)
        if status == "closed":
            closed = table.state and ui.closed_embed(table, table.view(None), names)
            embed = closed or self._closed_embed(table, ui, names)
            closing = self.closings.get(table.id)
            if closing is not None and closing.placings and not table.record.solo:
                noun = ui.score_noun(table.options)
                title, lines = standings(table, closing, names, noun)
                embed.add_field(name=title, value="\n".join(lines)[:1024], inline=False)
            return embed, None
        embed = ui.public_embed(table, table.view(None), names)
        pending = table.required_seats()  # never who holds an optional choice
        if ui.controls_on_table:
            return embed, action_controls(table, pending[0], ui) if pending else None
        if pending and table.record.deadline:
            who = ", ".join(names[s] for s in pending)
            deadline = relative_time(table.record.deadline)
            embed.add_field(
                name="Waiting for", value=f"{who} · time runs out {deadline}", inline=False
            )
        elif table.state.awaiting_next_hand() and table.record.deadline:
            embed.add_field(
                name="Next hand",
                value=f"dealt {relative_time(table.record.deadline)}",
                inline=False,
            )
        return embed, table_controls(table)

    def _lobby_embed(self, table: Table, ui: GameUI, names: list[str]) -> discord.Embed:
        game, record = table.game, table.record
        embed = discord.Embed(title=f"{game.name}: a table is open", colour=ui.colour)
        count = f"({len(names)}/{game.max_players})"
        if table.sides:
            for side in range(table.sides):
                members = [s.name for s in table.seats if s.side == side] or ["nobody yet"]
                embed.add_field(name=f"Side {SIDE_NAMES[side]}", value="\n".join(members))
            embed.add_field(name=f"Players {count}", value="Partners sit across.", inline=False)
        else:
            seated = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(names)) or "nobody yet"
            embed.add_field(name=f"Players {count}", value=seated, inline=False)
        if game.chips_for(table.options):
            embed.add_field(name="Buy-in", value=f"{record.buy_in:,} chips")
        embed.add_field(name="Turn time", value=f"{record.turn_seconds} s")
        embed.add_field(
            name="Options", value=ui.options_text(table.options) or "none", inline=False
        )
        embed.set_footer(text=f"Starts with {game.min_players}+ players: the host presses Start.")
        return embed

    def _closed_embed(self, table: Table, ui: GameUI, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"{table.game.name}: the table is closed", colour=discord.Colour.dark_grey()
        )
        recent = self.recent.get(table.id)
        if recent:
            embed.description = "\n".join(recent)
        return embed

    # ---- private views: DMs and "My hand" ------------------------------------------------

    def private_message(
        self, table: Table, seat: int, news: Sequence[str] = ()
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        ui = self.games[table.game.id]
        return self.private_embed(table, seat, news), ui.private_controls(table, seat)

    def private_embed(self, table: Table, seat: int, news: Sequence[str] = ()) -> discord.Embed:
        ui = self.games[table.game.id]
        embed = ui.private_embed(table, table.view(seat), table.names())
        decision = table.decision(seat)
        if decision is not None:  # what the game asks of this seat, in its own words
            name = "You may, if you like" if decision.optional else "Your move"
            embed.add_field(name=name, value=decision.prompt, inline=False)
        private = [*self.private_lines.get((table.id, seat), ()), *news][-RECENT_LINES:]
        if private:
            embed.add_field(name="Just for you", value="\n".join(private)[-1024:], inline=False)
        return embed

    def news_in_answer(self, table: Table, seat: int, events: Sequence[Event]) -> list[str]:
        """The lines of what a seat's own click told it privately (its render remembers them
        later), for the click's answer to show with the seat's next prompt. That render then
        sends the seat no DM, which would repeat the prompt with its buttons live twice."""
        mine = [event for event in events if not event.public and seat in event.audience]
        if mine:
            self.told_in_answer[(table.id, seat)] = mine[0]
        ui, names = self.games[table.game.id], table.names()
        return [line for event in mine if (line := self._line(table, ui, event, names))]

    def _told(self, table: Table, events: Sequence[Event]) -> set[int]:
        """The seats `events` told something privately, but for the seat whose click they
        come from when its answer showed them (`news_in_answer`)."""
        told = {seat for event in events if not event.public for seat in event.audience}
        for seat in list(told):
            shown = self.told_in_answer.get((table.id, seat))
            if shown is not None and any(event is shown for event in events):
                del self.told_in_answer[(table.id, seat)]
                told.discard(seat)
        return told

    async def _send_private(
        self,
        table: Table,
        ui: GameUI,
        names: list[str],
        *,
        everyone: bool,
        told: set[int] = frozenset(),
    ) -> None:
        """DM each seat whose decision just opened or who was just told something privately
        (everyone when cards were dealt). A new message says it, which Discord notifies,
        unless it is only a decision following the seat's own answer moments ago: that is
        edited into the DM answered in (`_edit_watched`)."""
        pending, replaced = set(table.pending_seats()), []
        for record in table.seats:
            key = (table.id, record.seat)
            fresh_prompt = record.seat in pending and record.prompted != record.prompt
            news = everyone or record.seat in told or key in self.unanswered
            self.unanswered.discard(key)
            if record.left or record.ai or key in self.dm_failed or not (news or fresh_prompt):
                continue
            watched = self.watched.pop(key, None)
            if record.seat in pending:
                record.prompted = record.prompt
            embed, view = self.private_message(table, record.seat)
            try:
                edited = None if news else await self._edit_watched(watched, embed, view)
                channel_id, message_id, hook = edited or await self._deliver(
                    key, record.member_id, embed, view
                )
            except discord.Forbidden:
                self.dm_failed.add(key)
                await self._in_channel(table, self._dms_closed_notice(table, record.member_id))
                continue
            self.newest_in_dms[record.member_id] = message_id
            older = self.dm_controls.pop(key, None)  # a newer DM answers now
            if older is not None and older.message_id != message_id:
                replaced.append(older)
            if view is not None:
                self.dm_controls[key] = DMPrompt(channel_id, message_id, record.prompt, hook)
        for older in replaced:  # once every seat has its DM: no buttons shown that expired
            await self._strip(table, older)

    async def _deliver(
        self, key: tuple[int, int], member_id: int, embed: discord.Embed, view
    ) -> tuple[int, int, ReplyHook | None]:
        """Send a seat its hand in its DMs: as a followup to its latest click there while that
        click's token lives (answers to interactions don't count against the bot's own rate
        limit, so a busy bot still prompts at once), else as a plain DM. Returns the DM
        channel's id and the message's, and the hook it went through."""
        hook = self.reply_hooks.get(member_id)
        if hook is not None and hook.live():
            try:
                return *await send_followup(hook.webhook, embed=embed, view=view), hook
            except discord.HTTPException as error:
                log.info("a followup for table %s seat %s failed: %s", *key, error)
                self.reply_hooks.pop(member_id, None)
        try:
            return *await self._plain_dm(member_id, embed, view), None
        except discord.NotFound:  # a DM channel remembered from before is gone: open anew
            await self.bot.dm_channels.forget(member_id)
            return *await self._plain_dm(member_id, embed, view), None

    async def _edit_watched(
        self, watched: Watched | None, embed: discord.Embed, view
    ) -> tuple[int, int, None] | None:
        """Edit a seat's new decision into the DM its player answered in, when that answer came
        moments ago and nothing came after it there: they are watching that message, so it
        needs no new one to be noticed (Delphi's next card once everyone answered). Otherwise
        (None) a new message says it, which Discord notifies: Discord doesn't notify edits,
        and a player who answered a while ago may have gone. The bot can't see what a member
        writes in its DMs: a line written since sits just below the edited prompt."""
        if watched is None or not watched.hook.live():
            return None
        if self.newest_in_dms.get(watched.member_id) != watched.message_id:
            return None
        if time.monotonic() - watched.at > self.watching_seconds:
            return None
        try:
            await edit_clicked(watched.hook.webhook, embed=embed, view=view)
        except discord.HTTPException as error:
            log.info("could not edit a prompt into DM %s: %s", watched.message_id, error)
            return None
        return watched.channel_id, watched.message_id, None

    async def _plain_dm(self, member_id: int, embed: discord.Embed, view) -> tuple[int, int]:
        dm = await self.dm(member_id)
        return dm.id, (await dm.send(embed=embed, view=view)).id

    async def dm(self, member_id: int) -> discord.PartialMessageable:
        """The member's DM channel: discord.py keeps only the last 128, and opening one costs a
        REST call, so their ids are remembered (bot.store.dms)."""
        channel_id = await self.bot.dm_channels.get(member_id)
        if channel_id is None:
            channel_id = (await self.bot.create_dm(discord.Object(member_id))).id
            await self.bot.dm_channels.remember(member_id, channel_id)
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _dms_closed_notice(self, table: Table, member_id: int) -> None:
        if (table.id, member_id) in self.dm_notice:
            return
        self.dm_notice.add((table.id, member_id))
        view = buttons(table.id, "hand")
        await self._channel(table).send(
            f"<@{member_id}>, I can't send you direct messages: use the **My hand** "
            "button (here or on the table) to see your cards and play.",
            view=view,
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    async def _expire_dm_controls(self, table: Table) -> None:
        """Strip the controls from DMs whose prompt moved on, so only live buttons show."""
        for seat in table.seats:
            key = (table.id, seat.seat)
            prompt = self.dm_controls.get(key)
            if prompt is None:
                continue
            live = table.record.status == "playing" and not seat.left
            if live and seat.seat in table.pending_seats() and seat.prompt == prompt.prompt:
                continue
            del self.dm_controls[key]
            await self._strip(table, prompt)

    async def _strip(self, table: Table, prompt: DMPrompt) -> None:
        """Take the controls off a DM whose prompt moved on."""
        try:
            if prompt.hook is not None and prompt.hook.live():
                await prompt.hook.webhook.edit_message(prompt.message_id, view=None)
            else:
                channel = self.bot.get_partial_messageable(prompt.channel_id)
                await channel.get_partial_message(prompt.message_id).edit(view=None)
        except discord.HTTPException as error:
            log.info("could not expire an old prompt of table %s: %s", table.id, error)

    async def _tell_channel_deleted(
        self, table: Table, events: Sequence[Event], closed: TableClosed
    ) -> None:
        """Everyone still seated hears by DM that the table closed and what they got back."""
        back = {e.seat: e.chips for e in events if isinstance(e, SeatLeft)}
        for seat, chips in enumerate(closed.payouts):
            if chips or seat not in back:
                back[seat] = back.get(seat, 0) + chips
        for seat, chips in back.items():
            if table.seats[seat].ai:
                continue
            member_id = table.seats[seat].member_id
            text = (
                f"The channel of your {table.game.name} table was deleted, so the table closed"
                + (f": {chips:,} chips went back to your balance." if chips else ".")
            )
            try:
                dm = await self.dm(member_id)
                self.newest_in_dms[member_id] = (await dm.send(text)).id
            except discord.HTTPException:
                log.info("could not tell member %s that table %s closed", member_id, table.id)

    async def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of the channel (the old one goes)."""
        old = table.record.message_id
        await self.bot.runtime.set_message(table, None)
        self.bot.runtime.show(table, [])
        if old:
            with contextlib.suppress(discord.HTTPException):
                await self._channel(table).get_partial_message(old).delete()

    def answered_in(
        self, interaction: discord.Interaction, table_id: int, seat: int, prompt: int | None
    ) -> None:
        """A player's action redraws the message it came from. In a DM, that message now
        holds the seat's controls (for `prompt`), or none."""
        if interaction.guild_id is not None or interaction.message is None:
            return
        key = (table_id, seat)
        if prompt is None:
            self.dm_controls.pop(key, None)
        else:
            self.dm_controls[key] = DMPrompt(interaction.channel_id, interaction.message.id, prompt)

    async def answer_refused(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: SeatRecord,
        embed: discord.Embed,
        view: discord.ui.View | None,
    ) -> None:
        """Discord refused the answer to a click that changed the table (its 3 s ran out): the
        clicked message is edited as the bot edits its own messages, or, where it can't be (an
        ephemeral "My hand"), the seat's hand and any prompt go by DM."""
        log.info("table %s seat %s: a click's answer came too late", table.id, seat.seat)
        clicked = self.bot.get_partial_messageable(interaction.channel_id)
        try:
            await clicked.get_partial_message(interaction.message.id).edit(embed=embed, view=view)
        except discord.HTTPException:
            seat.prompted = None
            self.dm_controls.pop((table.id, seat.seat), None)
            self.unanswered.add((table.id, seat.seat))
            self.bot.runtime.show(table, [])

    async def in_own_dms(self, interaction: discord.Interaction) -> bool:
        """Whether a click (or form) came from its member's own DMs (False: from a server's
        channel). One placed in another member's DMs is refused: no real client can send it,
        and answered it would redraw their message and send the clicker's prompts there."""
        if interaction.guild_id is not None:
            return False
        if interaction.channel_id != (await self.dm(interaction.user.id)).id:
            raise InvalidComponent()
        return True

    def answer_landed(self, interaction: discord.Interaction, table_id: int, seat: int) -> None:
        """A player's click in their DMs was answered by redrawing its message, which shows
        their answer and no decision: the next one, if it follows soon, may be edited into it
        (`_edit_watched`)."""
        if interaction.guild_id is not None or interaction.message is None:
            return
        now = time.monotonic()
        hook = ReplyHook(interaction.followup, now + ReplyHook.LIFE)
        message_id = interaction.message.id
        watched = Watched(interaction.user.id, interaction.channel_id, message_id, hook, now)
        self.watched[(table_id, seat)] = watched

    def clicked_in_dms(self, interaction: discord.Interaction, *, refused: bool) -> None:
        """Keep the followup webhook of a member's latest answered click in their DMs. A
        refusal is a message of its own there, below the bot's last prompt."""
        if interaction.guild_id is not None or not interaction.response.is_done():
            return
        if refused:
            self.newest_in_dms.pop(interaction.user.id, None)
        now = time.monotonic()
        hook = ReplyHook(interaction.followup, now + ReplyHook.LIFE)
        self.reply_hooks[interaction.user.id] = hook
        if len(self.reply_hooks) > self.pruned_at * 2:  # now and then, drop the expired
            self.reply_hooks = {k: h for k, h in self.reply_hooks.items() if h.until > now}
            self.pruned_at = max(PRUNE_HOOKS_FROM, len(self.reply_hooks))

    async def keep_reply_hooks(self) -> None:
        """At shutdown: the followup tokens still live, for the restarted bot."""
        monotonic, now = time.monotonic(), time.time()
        live = {
            member: (hook.webhook.token, now + hook.until - monotonic)
            for member, hook in self.reply_hooks.items()
            if hook.live() and hook.webhook.token
        }
        await self.bot.dm_channels.keep_reply_tokens(live)

    async def restore_reply_hooks(self) -> None:
        """At start-up: the tokens the last shutdown kept. Until its players click again, a
        restarted bot would otherwise send every hand and prompt as a plain DM, against its
        limit of 50 calls a second."""
        monotonic, now = time.monotonic(), time.time()
        for member, (token, expires) in (await self.bot.dm_channels.reply_tokens(now)).items():
            webhook = discord.Webhook.partial(self.bot.application_id, token, client=self.bot)
            self.reply_hooks[member] = ReplyHook(webhook, monotonic + expires - now)

    def message_deleted(self, message_id: int) -> None:
        """A table message was deleted (a moderator): post it again at once."""
        for table in list(self.bot.runtime.tables.values()):
            if table.record.message_id == message_id:
                self.bot.runtime.show(table, [])


def standings_embed(
    table: Table, closed: TableClosed, names: list[str], noun: tuple[str, str]
) -> discord.Embed:
    """The final standings of a match, as a message of their own."""
    title, lines = standings(table, closed, names, noun)
    embed = discord.Embed(
        title=f"{table.game.name}: {title}",
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text="Final standings")
    return embed


def standings(
    table: Table, closed: TableClosed, names: list[str], noun: tuple[str, str]
) -> tuple[str, list[str]]:
    """The final standings of a match: who won, and a line per seat best first (partners
    together)."""
    seats = range(len(names))
    groups = [[seat for seat in seats if seat % table.sides == side] for side in range(table.sides)]
    groups = groups if table.sides else [[seat] for seat in seats]
    groups.sort(key=lambda group: (closed.placings[group[0]], group[0]))
    lines = []
    for group in groups:
        first = group[0]
        result = (
            plural(closed.scores[first], *noun)
            if closed.scores
            else signed_chips(sum(closed.nets[seat] for seat in group))
        )
        who = " & ".join(names[seat] for seat in group)
        lines.append(f"**{closed.placings[first]}.** {who} · {result}")
    winners = [
        " & ".join(names[seat] for seat in group)
        for group in groups
        if closed.placings[group[0]] == 1
    ]
    if len(winners) > 1:
        title = f"{' and '.join(winners)} share first place"
    else:
        title = f"{winners[0]} {'win' if table.sides else 'wins'}"
    return f"{title}!", lines


# ---- components ----------------------------------------------------------------------------


def lobby_controls(table: Table) -> discord.ui.View:
    sides = ("switch", "shuffle") if table.sides else ()
    ai = ("add_ai", "remove_ai") if policy_for(table.game) else ()
    return buttons(table.id, "join", "leave", "start", "cancel", *ai, *sides)


def table_controls(table: Table) -> discord.ui.View:
    return buttons(table.id, "hand", "leave")


class Controls(discord.ui.View):
    """The components of one message, written as Discord's JSON. Every control the bot draws
    is a dynamic item, built by discord.py from its custom_id when used: sending one needs
    only its look (`look` on each item class). Building discord.ui items just to send them
    took some 5% of the bot's CPU at 500 busy tables. Rows fill as a discord.py View's do:
    the row given, else the first with room; a select takes a whole row."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self._rows: list[list[dict[str, Any]]] = [[] for _ in range(ROWS)]
        self._widths = [0] * ROWS

    def button(
        self, *, custom_id: str, label: str, style: discord.ButtonStyle, row: int | None = None
    ) -> None:
        look = {"type": 2, "style": style.value, "disabled": False, "custom_id": custom_id}
        if label:
            look["label"] = label
        self._place(look, 1, row)

    def select(self, *, custom_id: str, placeholder: str, options: list[tuple[str, str]]) -> None:
        """A select of (value, label) options."""
        look = {
            "type": 3,
            "custom_id": custom_id,
            "min_values": 1,
            "max_values": 1,
            "disabled": False,
            "required": True,
            "placeholder": placeholder,
            "options": [
                {"label": label, "value": value, "default": False} for value, label in options
            ],
        }
        self._place(look, ROW_WIDTH, None)

    def _place(self, look: dict[str, Any], width: int, row: int | None) -> None:
        if sum(map(len, self._rows)) >= MAX_COMPONENTS:
            raise ValueError("maximum number of children exceeded")
        if row is None:
            row = next(
                (r for r, used in enumerate(self._widths) if used + width <= ROW_WIDTH), None
            )
            if row is None:
                raise ValueError("could not find open space for item")
        elif self._widths[row] + width > ROW_WIDTH:
            raise ValueError(f"item would not fit at row {row}")
        self._widths[row] += width
        self._rows[row].append(look)

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self._rows if row]


def fingerprint(version: int, embed: discord.Embed, view: discord.ui.View | None) -> str:
    """A short digest of a message's version, embed and controls."""
    parts = [version, embed.to_dict(), view.to_components() if view is not None else None]
    return hashlib.blake2b(orjson.dumps(parts), digest_size=12).hexdigest()


def select_item(look: dict[str, Any]) -> discord.ui.Select:
    """The discord.ui select a dynamic item wraps, from its look (see `Controls.select`)."""
    options = [discord.SelectOption(label=label, value=value) for value, label in look["options"]]
    return discord.ui.Select(**{**look, "options": options})


def buttons(table_id: int, *verbs: str) -> discord.ui.View:
    view = Controls()
    for verb in verbs:
        view.button(**TableButton.look(table_id, verb))
    return view


def action_controls(table: Table, seat: int, ui: GameUI) -> discord.ui.View | None:
    """Buttons for one-off actions; selects for a kind that comes in several choices (split
    over several selects past 25, so every legal choice can be picked)."""
    actions = table.legal_actions(seat)
    if not actions:
        return None
    prompt = table.seats[seat].prompt
    view = Controls()
    decision = table.decision(seat)
    if decision.text_question:  # answered in words, in a modal
        view.button(**TextButton.look(table.id, prompt))
        return view
    state_view = table.view(seat)
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(action.kind, []).append(action)
    for kind, group in by_kind.items():
        if len(group) == 1:
            label = ui.action_label(state_view, group[0])
            view.button(**ActionButton.look(table.id, prompt, action_token(group[0]), label))
            continue
        options = [(action_token(a), ui.action_label(state_view, a)) for a in spread(group)]
        chunks = [
            options[i : i + MAX_SELECT_OPTIONS] for i in range(0, len(options), MAX_SELECT_OPTIONS)
        ]
        for part, chunk in enumerate(chunks):
            view.select(**ActionSelect.look(table.id, prompt, kind, chunk, part))
    return view


def spread(actions: list[Action], limit: int = MAX_SELECT_OPTIONS * MAX_SELECTS) -> list[Action]:
    """At most `limit` of the choices: all when they fit, else evenly spaced with both ends."""
    if len(actions) <= limit:
        return actions
    step = (len(actions) - 1) / (limit - 1)
    return [actions[round(i * step)] for i in range(limit)]


class TableItem:
    """Shared by the table's dynamic items: errors go through the one handler."""

    # How a late click is acknowledged before anything is done: as an update of the message
    # it is on ("update"), or with a private "thinking..." ("private"). None: not at all (a
    # modal must be the first answer).
    late: ClassVar[Literal["update", "private"] | None] = "update"

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter, own_dms, refused = interaction.client.presenter, False, False
        try:
            if self.late:
                await acknowledge_if_late(interaction, privately=self.late == "private")
            own_dms = await presenter.in_own_dms(interaction)
            await self.run(interaction, interaction.client)
        except Exception as error:
            refused = True
            await handle_error(interaction, error, f"table control {self.custom_id!r}")
        if own_dms:
            presenter.clicked_in_dms(interaction, refused=refused)
        self.untangle(interaction)

    def untangle(self, interaction: discord.Interaction) -> None:
        """Let a handled click be freed at once. discord.py leaves a reference cycle per
        click: the interaction and its cached response. Left, it took some 35 objects per
        click (the message, users, embeds, buttons) to the garbage collector's full
        collections, which at 500 busy tables paused the loop for up to 0.6 s. Nothing uses
        either once the callback is done."""
        with contextlib.suppress(AttributeError):
            del interaction._cs_response  # discord.py's cache of `interaction.response`

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        raise NotImplementedError

    @staticmethod
    def chosen(interaction: discord.Interaction) -> list[str]:
        """A select's chosen values, as the click carries them."""
        values = interaction.data.get("values")
        return [str(value) for value in values] if isinstance(values, list) else []


def can_manage(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions and interaction.permissions.manage_guild)


class TableButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=(
        r"tb:(?P<table>\d+):"
        r"(?P<verb>join|leave|confirm_leave|start|cancel|hand|switch|shuffle|add_ai|remove_ai)"
    ),
):
    """The table's own buttons: the lobby's Join / Leave / Start / Cancel / Add AI /
    Remove AI, and My hand."""

    late = "private"

    LOOKS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
        "cancel": ("Cancel", discord.ButtonStyle.danger),
        "hand": ("My hand", discord.ButtonStyle.primary),
        "confirm_leave": ("Leave now", discord.ButtonStyle.danger),
        "switch": ("Switch side", discord.ButtonStyle.secondary),
        "shuffle": ("Shuffle sides", discord.ButtonStyle.secondary),
        "add_ai": ("Add AI", discord.ButtonStyle.secondary),
        "remove_ai": ("Remove AI", discord.ButtonStyle.secondary),
    }

    def __init__(self, table_id: int, verb: str) -> None:
        self.table_id, self.verb = table_id, verb
        super().__init__(discord.ui.Button(**self.look(table_id, verb)))

    @classmethod
    def look(cls, table_id: int, verb: str) -> dict[str, Any]:
        label, style = cls.LOOKS[verb]
        return {"label": label, "style": style, "custom_id": f"tb:{table_id}:{verb}"}

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> TableButton:
        return cls(int(match["table"]), match["verb"])

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        table = bot.runtime.get(self.table_id)
        # These buttons only ever live in the table's channel: one pressed anywhere else, or
        # by a member who can't see that channel, was forged.
        permissions = interaction.permissions
        if interaction.channel_id != table.record.channel_id or not permissions.view_channel:
            raise InvalidComponent()
        if self.verb == "hand":
            await self.show_hand(interaction, bot)
            return
        runtime, user, key = bot.runtime, interaction.user, f"{self.verb}:{interaction.id}"
        if self.verb == "join":
            await runtime.join(self.table_id, user.id, user.display_name, key)
            reply = "You joined the table."
        elif self.verb in ("leave", "confirm_leave"):
            confirmed = self.verb == "confirm_leave"
            reply = await runtime.leave(self.table_id, user.id, key, confirmed=confirmed)
            if reply is None:  # a game in play: asked once more
                await self.confirm_leave(interaction, table)
                return
        elif self.verb == "switch":
            side = await runtime.switch_side(self.table_id, user.id)
            reply = f"You are on side {SIDE_NAMES[side]} now."
        elif self.verb == "shuffle":
            await runtime.shuffle_sides(self.table_id, user.id, can_manage=can_manage(interaction))
            reply = "The sides are shuffled."
        elif self.verb in ("add_ai", "remove_ai"):
            change = runtime.add_ai if self.verb == "add_ai" else runtime.remove_ai
            name = await change(self.table_id, user.id, can_manage=can_manage(interaction), key=key)
            reply = f"{name} {'sits down' if self.verb == 'add_ai' else 'left the table'}."
        elif self.verb == "start":
            await runtime.start(self.table_id, user.id, can_manage=can_manage(interaction))
            reply = "The game has started: your cards are in your DMs (or press My hand)."
        else:
            await runtime.cancel(
                self.table_id, user.id, can_manage=can_manage(interaction), key=key
            )
            reply = "The table is cancelled; every buy-in went back."
        await send_answer(interaction, content=reply, ephemeral=True)

    async def confirm_leave(self, interaction: discord.Interaction, table: Table) -> None:
        """Leaving a game in play is asked once more, saying what it gives up."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        if table.state.can_leave_now(seat.seat):
            text = "Leave the table? Your chips go back to your balance."
        else:
            text = "Leave the table? You leave when this hand ends; your turns are played for you."
        warning = table.state.leave_warning(seat.seat)
        if warning:
            text += f"\n{warning}"
        view = buttons(table.id, "confirm_leave")
        await send_answer(interaction, content=text, view=view, ephemeral=True)

    async def show_hand(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        table = bot.runtime.get(self.table_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state is None:
            raise UserError("You are not playing at this table.")
        await bot.runtime.back(self.table_id, interaction.user.id)
        embed, view = bot.presenter.private_message(table, seat.seat)
        await send_answer(
            interaction, embed=embed, view=view or discord.utils.MISSING, ephemeral=True
        )


async def play(
    interaction: discord.Interaction,
    bot: CardTableBot,
    table_id: int,
    prompt: int,
    token: str | None = None,
    action: Action | None = None,
) -> None:
    """Apply a player's choice, then show them their updated hand in the same message (or,
    for a game played on the table message, the redrawn table message)."""
    table = bot.runtime.get(table_id)
    events = await bot.runtime.act(table_id, interaction.user.id, prompt, token, action)
    if bot.presenter.games[table.game.id].controls_on_table:
        await bot.presenter.answer_on_table(interaction, table)
        return
    table = bot.runtime.tables.get(table_id)
    seat = table.seat_of(interaction.user.id) if table else None
    if table is None or seat is None or table.state is None:
        await redraw_clicked(interaction, content="The table has closed.", embed=None, view=None)
        return
    news = bot.presenter.news_in_answer(table, seat.seat, events)
    embed, view = bot.presenter.private_message(table, seat.seat, news)
    seat.prompted = seat.prompt  # shown here, with what the click told the seat: no DM needed
    bot.presenter.answered_in(interaction, table_id, seat.seat, seat.prompt if view else None)
    try:
        await redraw_clicked(interaction, embed=embed, view=view)
    except discord.NotFound as error:
        if not expired(error):
            raise
        await bot.presenter.answer_refused(interaction, table, seat, embed, view)
        return
    if seat.seat not in table.pending_seats():  # they await the others now, in that message
        bot.presenter.answer_landed(interaction, table_id, seat.seat)


class ActionButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ta:(?P<table>\d+):(?P<prompt>\d+):(?P<token>[\w.+\-]+)",
):
    def __init__(self, table_id: int, prompt: int, token: str, label: str = "") -> None:
        self.table_id, self.prompt, self.token = table_id, prompt, token
        super().__init__(discord.ui.Button(**self.look(table_id, prompt, token, label)))

    @staticmethod
    def look(table_id: int, prompt: int, token: str, label: str = "") -> dict[str, Any]:
        danger = token in ("fold", "abandon")
        style = discord.ButtonStyle.danger if danger else discord.ButtonStyle.primary
        return {
            "label": label or token,
            "style": style,
            "custom_id": f"ta:{table_id}:{prompt}:{token}",
        }

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> ActionButton:
        return cls(int(match["table"]), int(match["prompt"]), match["token"])

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        await play(interaction, bot, self.table_id, self.prompt, self.token)


class ActionSelect(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ts:(?P<table>\d+):(?P<prompt>\d+):(?P<kind>\w+):?(?P<part>\d*)",
):
    def __init__(
        self,
        table_id: int,
        prompt: int,
        kind: str,
        options: list[tuple[str, str]] | None = None,
        part: int = 0,
    ) -> None:
        self.table_id, self.prompt = table_id, prompt
        super().__init__(select_item(self.look(table_id, prompt, kind, options or [], part)))

    @staticmethod
    def look(
        table_id: int, prompt: int, kind: str, options: list[tuple[str, str]], part: int = 0
    ) -> dict[str, Any]:
        """Its custom_id, placeholder and (token, label) options."""
        options = options or [("-", "-")]  # a select needs one (dispatch passes none)
        span = (
            f" ({options[0][1]} to {options[-1][1]})"
            if part or len(options) == MAX_SELECT_OPTIONS
            else ""
        )
        return {
            "custom_id": f"ts:{table_id}:{prompt}:{kind}:{part}",
            "placeholder": f"{kind.replace('_', ' ').title()}{span}…"[:150],
            "options": options,
        }

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> ActionSelect:
        return cls(
            int(match["table"]), int(match["prompt"]), match["kind"], part=int(match["part"] or 0)
        )

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        values = self.chosen(interaction)
        if len(values) != 1:
            raise InvalidComponent()
        await play(interaction, bot, self.table_id, self.prompt, values[0])


class TextButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tq:(?P<table>\d+):(?P<prompt>\d+)",
):
    """Opens a modal for a decision answered in free text (a secret word, a rule)."""

    late = None  # a modal must be the first answer

    def __init__(self, table_id: int, prompt: int) -> None:
        self.table_id, self.prompt = table_id, prompt
        super().__init__(discord.ui.Button(**self.look(table_id, prompt)))

    @staticmethod
    def look(table_id: int, prompt: int, label: str = "Write your answer") -> dict[str, Any]:
        return {
            "label": label,
            "style": discord.ButtonStyle.primary,
            "custom_id": f"tq:{table_id}:{prompt}",
        }

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> TextButton:
        return cls(int(match["table"]), int(match["prompt"]))

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        question = open_question(bot.runtime.get(self.table_id), interaction.user.id, self.prompt)
        await interaction.response.send_modal(TextModal(self.table_id, self.prompt, question))


def open_question(table: Table, member_id: int, prompt: int) -> str:
    """The question `member_id` is to answer in words at `prompt`, or why they can't."""
    seat = table.seat_of(member_id)
    if seat is None or table.state is None:
        raise UserError("You are not seated at this table.")
    decision = table.decision(seat.seat)
    if decision is None or not decision.text_question or seat.prompt != prompt:
        raise UserError("This prompt has expired.")
    return decision.text_question


ANSWER = "answer"  # the custom_id of a form's one text input


class TextModal(discord.ui.Modal):
    """The form asking the question. Its submit is `TextAnswer`'s, found by its custom_id as
    a click finds its button: a form left open while the bot restarted still works. So it is
    stopped before it is sent, and discord.py keeps no copy of it waiting for the submit."""

    def __init__(self, table_id: int, prompt: int, question: str) -> None:
        super().__init__(title="Your answer", custom_id=TextAnswer.custom_id_of(table_id, prompt))
        answer = discord.ui.TextInput(custom_id=ANSWER, max_length=300)
        self.add_item(discord.ui.Label(text=question[:45], component=answer))
        self.stop()


class TextAnswer(TableItem):
    """A submitted form (`TextModal`): its answer goes to the game as the seat's action.
    Dispatched by the bot's `on_interaction` by its custom_id (`TEMPLATE`)."""

    TEMPLATE: ClassVar[re.Pattern[str]] = re.compile(r"tm:(?P<table>\d+):(?P<prompt>\d+)")

    def __init__(self, table_id: int, prompt: int) -> None:
        self.table_id, self.prompt = table_id, prompt
        self.custom_id = self.custom_id_of(table_id, prompt)

    @staticmethod
    def custom_id_of(table_id: int, prompt: int) -> str:
        return f"tm:{table_id}:{prompt}"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> TextAnswer:
        return cls(int(match["table"]), int(match["prompt"]))

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        table = bot.runtime.get(self.table_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state is None:
            raise UserError("You are not seated at this table.")
        action = table.state.text_action(seat.seat, form_answer(interaction.data or {}))
        await play(interaction, bot, self.table_id, self.prompt, action=action)


def form_answer(data: dict[str, Any]) -> str:
    """The answer a form's submit carries (its input in a row, or in a label); empty if none."""
    for row in data.get("components") or []:
        for field in row.get("components") or [row.get("component") or {}]:
            if field.get("custom_id") == ANSWER:
                return str(field.get("value") or "")
    return ""


TABLE_ITEMS = (TableButton, ActionButton, ActionSelect, TextButton)
TABLE_FORMS = (TextAnswer,)


DEFAULT_AI_DELAY = 2  # seconds: an AI seems to think, and players can follow its moves
DEFAULT_BUY_IN = 100  # chips; a game whose hand can cost more asks for more (table_game_cog)

# ---- what every game's slash commands share ---------------------------------------------------


async def open_table_command(
    interaction: discord.Interaction,
    game: GameSpec,
    options: BaseModel,
    buy_in: int,
    turn_seconds: int | None,
    ai_delay: int = 2,
) -> None:
    """`/<game> new`: open a lobby in this channel with the caller seated."""
    bot: CardTableBot = interaction.client
    user = interaction.user
    # Checked again here: a modified client can send any value past Discord's own checks.
    chips = game.chips_for(options)
    buy_in = BUY_IN.check(buy_in) if chips else 0
    least = game.least_buy_in(options) if chips and game.least_buy_in else 0
    if buy_in < least:
        raise UserError(
            f"With these options a {game.name} player needs at least {least:,} chips: "
            f"raise the buy-in to {least:,} or more."
        )
    default = game.turn_seconds or bot.settings.turn_timeout_seconds
    turn_seconds = TURN_SECONDS.check(turn_seconds or default)
    await bot.runtime.open(
        game,
        options,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        creator_id=user.id,
        creator_name=user.display_name,
        buy_in=buy_in,
        turn_seconds=turn_seconds,
        key=f"open:{interaction.id}",
        ai_delay=AI_DELAY.check(ai_delay),
    )
    seated = "you are seated" + (f" with a buy-in of {buy_in:,} chips" if chips else "")
    await send_answer(
        interaction,
        f"Your {game.name} table is open: {seated}. "
        "Others join with the Join button; press Start when everyone is in.",
        ephemeral=True,
    )


async def rules_command(interaction: discord.Interaction, game: GameSpec, rules: str) -> None:
    """`/<game> rules`: the rules as played here, and this channel's table options."""
    bot: CardTableBot = interaction.client
    embed = discord.Embed(title=f"{game.name}: rules", description=rules)
    table = bot.runtime.in_channel(interaction.channel_id) if interaction.channel_id else None
    if table is not None and table.game.id == game.id:
        record = table.record
        parts = [
            f"buy-in {record.buy_in:,}" if game.chips_for(table.options) else "",
            f"turn time {record.turn_seconds} s",
            bot.presenter.games[game.id].options_text(table.options),
        ]
        embed.add_field(name="This table", value=" · ".join(part for part in parts if part))
    await send_answer(interaction, embed=embed, ephemeral=True)


def table_game_cog(group: str, game: GameSpec, rules: str, *, buy_in: int = DEFAULT_BUY_IN) -> type:
    """The cog of a table game: `/<group> new`, whose options are the game's own options
    (bounds, choices and descriptions from its options model), a buy-in for chip games (by
    default `buy_in`) and a turn time; and `/<group> rules`."""

    @app_commands.guild_only()
    class TableGame(
        commands.GroupCog, name=game.name, group_name=group, group_description=f"{game.name} tables"
    ):
        def __init__(self, bot: CardTableBot) -> None:
            self.bot = bot

        new = new_table_command(game, buy_in)

        @app_commands.command(name="rules", description=f"How {game.name} is played here.")
        async def rules(self, interaction: discord.Interaction) -> None:
            await rules_command(interaction, game, rules)

    return TableGame


def new_table_command(game: GameSpec, buy_in: int = DEFAULT_BUY_IN) -> app_commands.Command:
    """`/<game> new` with one slash option per field of the game's options model."""

    async def new(self, interaction: discord.Interaction, **values: Any) -> None:
        buy_in = values.pop("buy_in", 0)
        turn_seconds = values.pop("turn_seconds", None)
        ai_delay = values.pop("ai_delay", DEFAULT_AI_DELAY)
        try:
            options = game.options_model(**values)
        except ValidationError as invalid:
            raise UserError(options_refusal(invalid)) from None
        await open_table_command(interaction, game, options, buy_in, turn_seconds, ai_delay)

    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [
        inspect.Parameter("self", keyword),
        inspect.Parameter("interaction", keyword, annotation=discord.Interaction),
    ]
    described: dict[str, str] = {}
    if game.uses_chips:  # in some mode at least
        parameters.append(
            inspect.Parameter("buy_in", keyword, annotation=bounded(BUY_IN), default=buy_in)
        )
        described["buy_in"] = f"Chips each player brings to the table (default {buy_in:,})"
    for name, field in game.options_model.model_fields.items():
        annotation = slash_type(name, field)
        parameters.append(
            inspect.Parameter(name, keyword, annotation=annotation, default=field.default)
        )
        described[name] = described_option(name, field)
    turn = bounded(TURN_SECONDS) | None
    parameters.append(inspect.Parameter("turn_seconds", keyword, annotation=turn, default=None))
    parameters.append(
        inspect.Parameter(
            "ai_delay", keyword, annotation=bounded(AI_DELAY), default=DEFAULT_AI_DELAY
        )
    )
    described["ai_delay"] = (
        f"Seconds an AI player waits before it acts (default {DEFAULT_AI_DELAY})"
    )
    described["turn_seconds"] = (
        f"Time for each decision (default {game.turn_seconds} s)"
        if game.turn_seconds
        else "Time for each decision (default from the bot's settings)"
    )
    new.__signature__ = inspect.Signature(parameters)
    new.__qualname__ = "TableGame.new"  # a method: discord.py then skips `self`
    new.__discord_app_commands_param_description__ = described
    return app_commands.command(
        name="new", description=f"Open a {game.name} table in this channel."
    )(new)


def options_refusal(invalid: ValidationError) -> str:
    """The options model's own sentence for options that don't go together (min > max)."""
    reasons = [error["msg"].removeprefix("Value error, ") for error in invalid.errors()]
    return " ".join(reasons)


def described_option(name: str, field: FieldInfo) -> str:
    """The option's description with its default, which a slash command doesn't show."""
    default = field.default
    shown = ("yes" if default else "no") if isinstance(default, bool) else default
    about = field.description or name.replace("_", " ").capitalize()
    return f"{about} (default {shown})"[:100]


def bounded(bounds: Bounds) -> Any:
    """A slash option bounded like `bounds` (Discord's client enforces it, the bot again)."""
    return app_commands.Range[int, bounds.low, bounds.high]


def slash_type(name: str, field: FieldInfo) -> Any:
    """The slash option type for an options-model field: bounded ints, bools, choices."""
    if field.annotation is bool or typing.get_origin(field.annotation) is typing.Literal:
        return field.annotation
    if field.annotation is int:
        low = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
        high = next((m.le for m in field.metadata if hasattr(m, "le")), None)
        if low is not None and high is not None:
            return app_commands.Range[int, low, high]
    raise TypeError(f"option {name!r} needs bounds (ge, le) or choices to be a slash option")
