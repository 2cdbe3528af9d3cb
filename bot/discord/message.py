"""The table message: one per table, edited in place as the table changes.

Edits are paced per channel (Discord's limit is per channel, which tables may share): a burst
of changes is shown by one later edit with the table as it then is. A click on a game played on
the table message redraws it in its answer instead, and the paced writer then skips that
version. What the message shows is fingerprinted, so a restarted bot doesn't redraw what is
drawn already. Renderers get views, never the engine state, so no public message can show a
hidden card.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import math
import time
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any

import discord
import orjson

from bot.discord.controls import Controls, lobby_controls, table_controls
from bot.discord.format import relative_time, side_letter
from bot.discord.game_ui import GameUI, action_controls
from bot.discord.lines import TableLines
from bot.discord.port import PresenterHost
from bot.discord.replies import redraw_clicked
from bot.discord.retries import DISCORD_TROUBLE, Retries
from bot.discord.threads import UNKNOWN_CHANNEL, edit_else_post
from bot.engine import Event
from bot.i18n import _, n_, speaking
from bot.store import TableRecord
from bot.tables import Table, TableStatus
from bot.tables.events import BOT_REMOVED, TableClosed, TableResumed
from bot.text import chips, signed_chips

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"


class TableMessages:
    def __init__(
        self,
        host: PresenterHost,
        games: Mapping[str, GameUI],
        lines: TableLines,
        edit_seconds: float,
    ) -> None:
        self.host, self.games, self.lines = host, games, lines
        self.closings: dict[int, TableClosed] = {}  # table -> its close, drawn on its message
        self.cleanups: set[asyncio.Task] = set()
        # One edit every `edit_seconds` in a channel, counted from when the last one was
        # answered: its request reached Discord before that, so Discord sees them at least
        # that far apart however long a draw or a request takes. channel -> then.
        self.edit_seconds = edit_seconds
        self.last_edit: dict[int, float] = {}
        self.channel_turns: dict[int, asyncio.Lock] = {}  # one writer at a time in a channel
        self.stale: set[int] = set()  # tables whose message is behind
        self.answered: dict[int, int] = {}  # table -> version a click's answer drew (on_table)
        self.writers: dict[int, asyncio.Task] = {}
        self.retries = Retries(self._show_again)  # tables whose channel work Discord failed

    def forget(self, table_id: int) -> None:
        self.answered.pop(table_id, None)
        self.closings.pop(table_id, None)
        self.retries.forget(table_id)

    def _show_again(self, table_id: int) -> None:
        """After Discord's trouble: drawn again by a render (none once shutdown has begun)."""
        table = self.host.runtime.tables.get(table_id)
        if table is not None:
            self.host.runtime.show(table, [])

    def channel(self, table: Table) -> discord.PartialMessageable:
        return self.host.get_partial_messageable(
            table.record.channel_id, guild_id=table.record.guild_id
        )

    async def in_channel(self, table: Table, work: Coroutine[Any, Any, None]) -> None:
        """Do `work` in the table's channel: a failed write (a deleted channel, lost
        permissions) is logged, never raised; a channel that is gone closes its tables."""
        try:
            await work
        except discord.NotFound as error:
            if error.code != UNKNOWN_CHANNEL:
                raise
            log.info("table %s lost its channel %s", table.id, table.record.channel_id)
            self._later(self.host.runtime.channel_gone(table.record.channel_id))
        except DISCORD_TROUBLE as error:  # drawn again after a pause
            log.warning("Discord failed to show table %s in its channel: %r", table.id, error)
            self.retries.failed(table.id)
        except discord.HTTPException as error:
            log.warning("could not show table %s in its channel: %s", table.id, error)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` outside this render (it changes the table, which renders again)."""
        task = asyncio.create_task(work)
        self.cleanups.add(task)
        task.add_done_callback(self.cleanups.discard)

    # ---- writing it, paced -----------------------------------------------------------------

    def update(self, table: Table) -> None:
        """Show the table as it now is, without holding up this render: one writer per table
        writes at most once per `edit_seconds`, and changes made while it waits (or while the
        write waits its turn at Discord) are shown by its next write."""
        self.stale.add(table.id)
        if table.id in self.writers:
            return
        writer = asyncio.create_task(self._write_while_stale(table))
        self.writers[table.id] = writer
        renders = self.host.runtime.renders
        renders.add(writer)  # the table is still being shown
        writer.add_done_callback(renders.discard)

    async def _write_while_stale(self, table: Table) -> None:
        ui, channel = self.games[table.game.id], table.record.channel_id
        try:
            while table.id in self.stale:
                if self._drawn_in_answer(table):  # then it takes no turn of the channel's
                    self.stale.discard(table.id)
                    continue
                async with self._channel_turn(channel):
                    await self._wait_for_turn(channel)
                    self.stale.discard(table.id)
                    if not self._drawn_in_answer(table):
                        await self.in_channel(table, self._write(table, ui))
                        self.last_edit[channel] = time.monotonic()
        except Exception:
            log.exception("could not show table %s", table.id)
        finally:
            del self.writers[table.id]

    def _channel_turn(self, channel: int) -> asyncio.Lock:
        turn = self.channel_turns.get(channel)
        if turn is None:
            turn = self.channel_turns[channel] = asyncio.Lock()
        return turn

    async def _wait_for_turn(self, channel: int) -> None:
        wait = self.last_edit.get(channel, -math.inf) + self.edit_seconds - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)

    def _drawn_in_answer(self, table: Table) -> bool:
        """Whether a click's answer already drew the table as it now is."""
        return self.answered.get(table.id) == table.record.version

    async def still_drawn(self, table: Table, events: Sequence[Event]) -> bool:
        """After a restart, whether the table message already shows the table as it is (as
        when the bot shut down cleanly, no deadline moved): then it is not drawn again. A
        burst of redraws would spend Discord's global limit for ten seconds at 500 tables,
        holding up the players' own DMs. A message deleted meanwhile comes back at the
        table's next change, or by /table show."""
        resumed = len(events) == 1 and isinstance(events[0], TableResumed)
        if table.record.drawn is None or not resumed:
            return False
        async with table.lock:
            face = self.table_message(table, self.games[table.game.id], table.names())[2]
        return face == table.record.drawn

    async def _write(self, table: Table, ui: GameUI) -> None:
        embed, view, files, face = await self._draw(table, ui)
        await self._post(table, embed, view, files)
        table.record.drawn = face
        self.retries.succeeded(table.id)

    async def _post(
        self,
        table: Table,
        embed: discord.Embed,
        view: discord.ui.View | None,
        files: list[discord.File],
    ) -> None:
        kept = table.record.message_id or None
        posted, archived = await edit_else_post(self.channel(table), kept, embed, view, files)
        if posted is None:
            return
        await self.host.runtime.set_message(table, posted.id)
        if archived is not None:  # the old one, frozen in the thread above the new
            with contextlib.suppress(discord.HTTPException):
                await archived.delete()

    async def _draw(
        self, table: Table, ui: GameUI
    ) -> tuple[discord.Embed, Controls | None, list[discord.File], str]:
        """The table message as the table now is, and its face (see `table_message`).
        Drawn under the table's lock: a step changes the table across awaits (the status
        before the state, at the start), and the writer runs beside the runtime."""
        async with table.lock:
            embed, view, face = self.table_message(table, ui, table.names())
            board = table.view(None) if table.state is not None and ui.image else None
        files = []
        if board is not None and ui.image is not None:
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
            self.update(table)  # the writer shows it after all
            raise

    async def draw_close(self, table: Table) -> None:
        """The table message shows the close (with the standings) before anything more is
        said: then the store forgets that it didn't, so a bot stopped before this point draws
        it when it starts again, and one stopped after announces nothing twice."""
        writer = self.writers.get(table.id)
        if writer is not None:
            await writer
        await self.host.runtime.store.close_drawn(table.id)

    # ---- what it shows ---------------------------------------------------------------------

    def table_message(
        self, table: Table, ui: GameUI, names: list[str]
    ) -> tuple[discord.Embed, Controls | None, str]:
        """The table message, and its face: a fingerprint of the table's version and of all
        the message shows but the latest lines, which a restarted bot no longer has."""
        with speaking(self.host.speakers.server(table.record.guild_id)):
            embed, view = self._face(table, ui, names)
            face = fingerprint(table.record.version, embed, view)
            recent = self.lines.recent.get(table.id)
            if recent and table.record.status == TableStatus.PLAYING and not ui.controls_on_table:
                latest = "\n".join(recent)[-1024:]
                embed.add_field(name=_("Latest"), value=latest, inline=False)
        return embed, view, face

    def _face(
        self, table: Table, ui: GameUI, names: list[str]
    ) -> tuple[discord.Embed, Controls | None]:
        status = table.record.status
        if status == TableStatus.LOBBY:
            return lobby_embed(table, ui, names), lobby_controls(table)
        if status == TableStatus.CLOSED:
            return self._closed_embed(table, ui, names), None
        embed = ui.public_embed(table, table.view(None), names)
        keep_commitment_shown(embed, table)
        pending = table.required_seats()  # never who holds an optional choice
        if ui.controls_on_table:
            return embed, action_controls(table, pending[0], ui) if pending else None
        if pending and table.record.deadline:
            who = ", ".join(names[s] for s in pending)
            deadline = relative_time(table.record.deadline)
            waiting = _("{players} · time runs out {when}", players=who, when=deadline)
            embed.add_field(name=_("Waiting for"), value=waiting, inline=False)
        elif table.awaiting_next_hand() and table.record.deadline:
            embed.add_field(
                name=_("Next hand"),
                value=_("dealt {when}", when=relative_time(table.record.deadline)),
                inline=False,
            )
        return embed, table_controls(table)

    def _closed_embed(self, table: Table, ui: GameUI, names: list[str]) -> discord.Embed:
        """The game's own closed table, else the last lines; and the final standings."""
        embed = table.state and ui.closed_embed(table, table.view(None), names)
        if not embed:
            embed = discord.Embed(
                title=_("{game}: the table is closed", game=_(table.game.name)),
                colour=discord.Colour.dark_grey(),
            )
            recent = self.lines.recent.get(table.id)
            if recent:
                embed.description = "\n".join(recent)
        closing = self.closings.get(table.id)
        if closing is not None and closing.placings and not table.record.solo:
            title, lines = standings(table, closing, names, ui.score_noun(table.options))
            embed.add_field(name=title, value="\n".join(lines)[:1024], inline=False)
        if table.record.deal_seed:
            unseeded = table.game.unseeded_deal(table.options)
            revealed = unseeded or seed_revealed(table.record)
            embed.add_field(name=_("Deals"), value=revealed, inline=False)
        return embed


def lobby_embed(table: Table, ui: GameUI, names: list[str]) -> discord.Embed:
    game, record = table.game, table.record
    embed = discord.Embed(title=_("{game}: a table is open", game=_(game.name)), colour=ui.colour)
    players = _("Players ({seated}/{most})", seated=len(names), most=game.max_players)
    if table.sides:
        for side in range(table.sides):
            members = [s.name for s in table.seats if s.side == side] or [_("nobody yet")]
            embed.add_field(name=_("Side {side}", side=side_letter(side)), value="\n".join(members))
        embed.add_field(name=players, value=_("Partners sit across."), inline=False)
    else:
        seated = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(names))
        embed.add_field(name=players, value=seated or _("nobody yet"), inline=False)
    if game.chips_for(table.options):
        embed.add_field(name=_("Buy-in"), value=chips(record.buy_in))
    embed.add_field(name=_("Turn time"), value=_("{seconds} s", seconds=record.turn_seconds))
    options = ui.options_text(table.options) or _("none")
    embed.add_field(name=_("Options"), value=options, inline=False)
    starts = n_(
        "Starts with {count}+ players: the host presses Start.",
        "Starts with {count}+ players: the host presses Start.",
        game.min_players,
    )
    commitment = promised_deals(table)
    if commitment:  # the seed itself is shown once the table closes
        starts += "\n" + _(
            "Deals commitment (SHA-256 of the table seed): {commitment}", commitment=commitment
        )
    embed.set_footer(text=starts)
    return embed


def promised_deals(table: Table) -> str | None:
    """The commitment the table shows: none where the deal comes from elsewhere (a daily
    deck), as the seed would promise nothing."""
    if table.game.unseeded_deal(table.options) is not None:
        return None
    return table.record.deal_commitment


def keep_commitment_shown(embed: discord.Embed, table: Table) -> None:
    """A table in play keeps its commitment in sight, shortened: finding another seed whose
    SHA-256 starts with the same 16 digits is out of anyone's reach."""
    commitment = promised_deals(table)
    if commitment:
        line = _("Deals commitment {commitment}…", commitment=commitment[:16])
        footer = embed.footer.text
        embed.set_footer(
            text=f"{footer}\n{line}" if footer else line, icon_url=embed.footer.icon_url
        )


def seed_revealed(record: TableRecord) -> str:
    """A closed table's seed and commitment, for anyone to check its deals with."""
    lines = [
        _("Seed `{seed}`", seed=record.deal_seed),
        _("Commitment `{commitment}`", commitment=record.deal_commitment),
    ]
    if record.deal_input is not None:
        lines.append(_("Start click `{click}`", click=str(record.deal_input)))
    lines.append(_("Check them with /table verify (README: Verifiable deals)."))
    return "\n".join(lines)


def fingerprint(version: int, embed: discord.Embed, view: Controls | None) -> str:
    """A short digest of a message's version, embed and controls."""
    parts = [version, embed.to_dict(), view.components() if view is not None else None]
    return hashlib.blake2b(orjson.dumps(parts), digest_size=12).hexdigest()


def standings_embed(
    table: Table, closed: TableClosed, names: list[str], noun: tuple[str, str]
) -> discord.Embed:
    """The final standings of a match, as a message of their own."""
    title, lines = standings(table, closed, names, noun)
    embed = discord.Embed(
        title=_("{game}: {result}", game=_(table.game.name), result=title),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    tournament = table.record.tournament_id
    if tournament:
        footer = _(
            "Final standings of a match of tournament #{tournament} (tournament chips)",
            tournament=str(tournament),
        )
    else:
        footer = _("Final standings")
    embed.set_footer(text=footer)
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
            n_(*noun, closed.scores[first])
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
        together = _(" and ").join(winners)
        return _("{players} share first place!", players=together), lines
    if table.sides:
        return _("{partners} win!", partners=winners[0]), lines
    return _("{player} wins!", player=winners[0]), lines


def closed_out_of_sight(table: Table, returned: int, why: str) -> str:
    """The DM telling a player their table closed where nothing can be shown any more: its
    channel (or match's thread) deleted, or the bot removed from the server."""
    return bot_removed(table, returned) if why == BOT_REMOVED else channel_deleted(table, returned)


def bot_removed(table: Table, returned: int) -> str:
    game = _(table.game.name)
    if table.record.tournament_id is not None:
        return _(
            "The bot was removed from the server of your {game} match, so its tournament was "
            "cancelled and every buy-in went back.",
            game=game,
        )
    if returned:
        return _(
            "The bot was removed from the server of your {game} table, so the table closed: "
            "{chips} went back to your balance there.",
            game=game,
            chips=chips(returned),
        )
    return _(
        "The bot was removed from the server of your {game} table, so the table closed.",
        game=game,
    )


def channel_deleted(table: Table, returned: int) -> str:
    """The DM telling a player their table's channel (or match's thread) was deleted."""
    game = _(table.game.name)
    if table.record.tournament_id is not None:
        return _(
            "The thread of your {game} match was deleted, so the match ended as it stood.",
            game=game,
        )
    if returned:
        return _(
            "The channel of your {game} table was deleted, so the table closed: {chips} went "
            "back to your balance.",
            game=game,
            chips=chips(returned),
        )
    return _("The channel of your {game} table was deleted, so the table closed.", game=game)
