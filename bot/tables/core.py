"""What every stage of the runtime shares, handed to each as a component: the open tables and
finding one under its lock, where they are saved, the clock and the runtime's settings, and the
listener (the Discord layer) told of each change, in order, on a per-table queue. It asks
nothing of the stages."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.engine import Event
from bot.errors import UserError
from bot.i18n import _
from bot.shards import Shards
from bot.store import GuildSettings, Ledger, TableStatus, TableStore
from bot.tables.table import Table

log = logging.getLogger(__name__)


class TableListener(Protocol):
    async def table_changed(self, table: Table, events: Sequence[Event]) -> None: ...


class RuntimeCore:
    """The state every stage shares, and the plumbing they all use (one per runtime, built
    by TableRuntime, whose parameters say the defaults)."""

    def __init__(
        self,
        store: TableStore,
        ledger: Ledger,
        listener: TableListener,
        *,
        clock: Callable[[], datetime],
        between_hands: timedelta,
        table_seed: Callable[[], bytes],
        new_seed: Callable[[], int] | None,
        shards: Shards,
    ) -> None:
        self.store, self.ledger, self.listener = store, ledger, listener
        # The tables of these shards' guilds are this process's to act on (bot/shards.py).
        self.shards = shards
        self.clock, self.between_hands = clock, between_hands
        # Each table's seed, drawn when it opens: its matches deal from it and the Start click
        # (bot/engine/deals.py). Tests only: `new_seed` deals the old way from a fixed number
        # instead, so their deals stay what they were (a verify of such a table mismatches).
        self.table_seed, self.new_seed = table_seed, new_seed
        self.tables: dict[int, Table] = {}
        self.renders: set[asyncio.Task] = set()
        self.render_grace = 5.0  # seconds renders may still take at shutdown
        self.ai_turns: set[asyncio.Task] = set()
        self.shutting_down = False  # from then on no render starts (see `show`)
        self.guilds = GuildSettings(store.db)
        # Tests only: decks (card codes) the next match deals first (an exact deal, set before
        # Start rather than by editing a live state).
        self.stacked: list[list[str]] = []
        # Told of each change as it is shown: the tournaments (a hand or a close at one of
        # their tables moves them on).
        self.observers: list[Callable[[Table, Sequence[Event]], None]] = []

    # ---- finding tables ---------------------------------------------------------------------

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise UserError(_("This table is closed."))
        return table

    @contextlib.asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[Table]:
        """The table under its lock, refused once closed (a Cancel may have won the race)."""
        table = self.get(table_id)
        async with table.lock:
            if table.record.status == TableStatus.CLOSED:
                raise UserError(_("This table is closed."))
            yield table

    def in_channel(self, channel_id: int) -> Table | None:
        """The channel's table (personal games don't count: several may share a channel)."""
        return next(
            (
                t
                for t in self.tables.values()
                if t.record.channel_id == channel_id and not t.record.solo
            ),
            None,
        )

    # ---- telling the Discord layer ------------------------------------------------------------

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the table's message (None: post a new one at the next render), under the
        table's lock like every other write."""
        async with table.lock:
            await self.store.set_message(table.record, message_id)

    def show(self, table: Table, events: Sequence[Event]) -> None:
        """Render after the caller has answered its interaction, in the order changes happened
        (the render lock hands over in FIFO order); a failed render never undoes a change.
        Once shutdown has begun, a change (a click still being handled) is left to the next
        start, which redraws every table that is behind: a render begun now could outlive
        the bot's connection to Discord."""
        if self.shutting_down:
            return
        for observe in self.observers:
            observe(table, events)
        task = asyncio.create_task(self._render(table, list(events)))
        self.renders.add(task)
        task.add_done_callback(self.renders.discard)

    async def _render(self, table: Table, events: list[Event]) -> None:
        async with table.render_lock:
            try:
                await self.listener.table_changed(table, events)
            except Exception:
                log.exception("could not show table %s", table.id)
