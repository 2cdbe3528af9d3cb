"""After a restart: every unfinished table loaded and shown again, its deadline re-armed and
its players away caught up; and the runtime's end (a deleted channel, a shutdown).

`Resume` holds the shared core (core.py), play (play.py), its `Scheduler` (the clock) and the
lobby (lobby.py): it asks the clock to arm each table it loads, play to play for the seats
away, and the lobby to close the tables of a deleted channel."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import timedelta

from bot.engine import Event, registry
from bot.errors import UserError
from bot.store import TableRecord, TableStatus
from bot.tables.core import RuntimeCore
from bot.tables.events import BOT_REMOVED, CHANNEL_DELETED, TableClosed, TableResumed
from bot.tables.lobby import Lobby
from bot.tables.play import Play, Scheduler
from bot.tables.table import Table

log = logging.getLogger(__name__)

RESUME_GRACE = timedelta(seconds=10)


class Resume:
    """Tables carried over a restart: a resumed table plays on, and a deleted channel closes
    its tables."""

    def __init__(self, core: RuntimeCore, play: Play, scheduler: Scheduler, lobby: Lobby) -> None:
        self.core, self.play, self.scheduler, self.lobby = core, play, scheduler, lobby

    async def resume(self) -> list[Table]:
        """Load every unfinished table of this process's guilds, re-arm its deadline and show
        it again (its message is redrawn where it is behind: see TableMessages.still_drawn). A
        table closed just before the bot stopped, whose message did not show that yet, is
        shown closed."""
        resumed = []
        records = await self.core.store.open_tables(self.core.shards)
        await self.core.store.forget_drawn(self.core.shards)
        for record in records:
            table = self._restored(record)
            if record.deadline and not (table.state and table.state.awaiting_next_hand()):
                # Players with a decision get time to see the table again; the next hand
                # waits for no one, so it is dealt as it was due.
                record.deadline = max(record.deadline, self.core.clock() + RESUME_GRACE)
            self.core.tables[table.id] = table
            self.scheduler.arm(table)
            resumed.append(table)
        for table in resumed:
            self.core.show(table, [TableResumed(), *await self._catch_up(table)])
        for record in await self.core.store.undrawn_closes(self.core.shards):
            closed = self._restored(record)  # shown, never played again
            self.core.show(closed, [await self._close_of(closed)])
        return resumed

    @staticmethod
    def _restored(record: TableRecord) -> Table:
        """The table its record saved."""
        game = registry.get(record.game_id)
        table = Table(record, game, game.options_model.model_validate_json(record.options))
        if record.state:
            table.keep(game.restore(record.state))
        return table

    async def _close_of(self, table: Table) -> TableClosed:
        """A closed table's close as its step told it, read back from what that step saved:
        the match's results (placings, scores, nets) and, for every seat still seated, its
        buy-in and winnings back to its balance."""
        match = await self.core.store.match_results(table.id)
        nets = {seat: net for seat, (_, _, net) in match.items()}
        nets = nets or await self.core.store.net_results(table.id)
        seats = range(len(table.seats))
        scores = [match[seat][1] for seat in seats] if match else []
        known = [score for score in scores if score is not None]
        return TableClosed(
            payouts=[
                0 if seat.left else table.record.buy_in + nets.get(seat.seat, 0)
                for seat in table.seats
            ],
            placings=[match[seat][0] for seat in seats] if match else [],
            scores=known if known and len(known) == len(scores) else None,
            nets=[nets.get(seat, 0) for seat in seats],
        )

    async def _catch_up(self, table: Table) -> list[Event]:
        """What the live table would have done: play at once for players away or leaving."""
        if table.record.status != TableStatus.PLAYING:
            return []
        async with table.lock:
            return await self.play.play_for_away(table)

    async def channel_gone(self, channel_id: int) -> None:
        """The channel (or thread) was deleted: its tables close and pay everyone out."""
        await self._close_all(lambda t: t.record.channel_id == channel_id, CHANNEL_DELETED)

    async def guild_gone(self, guild_id: int) -> None:
        """The bot was removed from the server: its tables there close and pay everyone out
        (nothing can be shown there any more; players hear by DM)."""
        await self._close_all(lambda t: t.record.guild_id == guild_id, BOT_REMOVED)

    async def _close_all(self, where: Callable[[Table], bool], why: str) -> None:
        for table in [t for t in self.core.tables.values() if where(t)]:
            with contextlib.suppress(UserError):  # it closed meanwhile
                await self.lobby.close(
                    table.id, None, can_manage=True, key=f"gone:{table.id}", why=why
                )

    async def shutdown(self) -> None:
        core = self.core
        core.shutting_down = True
        for turn in list(core.ai_turns):  # an AI yet to act acts again after the restart
            turn.cancel()
        if core.renders:
            await asyncio.wait(core.renders, timeout=core.render_grace)
        if core.renders:  # Discord's rate limit held them up; the restart shows every table
            log.info("dropping %d renders still waiting at shutdown", len(core.renders))
            for render in list(core.renders):
                render.cancel()
            await asyncio.wait(core.renders, timeout=core.render_grace)
        await core.store.save_shown([table.record for table in core.tables.values()])
        for table in core.tables.values():
            if table.timer:
                table.timer.cancel()
            if isinstance(table.timer, asyncio.Task):
                with contextlib.suppress(asyncio.CancelledError):
                    await table.timer
