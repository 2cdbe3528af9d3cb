"""Persistence of game tables: lobby seats with their buy-ins, snapshots, actions, closing.

Every method here is one transaction. `commit` writes a step of play (snapshot, version,
deadline, seat flags, the action record and any chip movements or results) all at once, so a
crash leaves either the whole step or none of it. The records it writes are in
bot/store/records.py; its reads, which change nothing, in bot/store/table_reads.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from bot.errors import UserError
from bot.i18n import _
from bot.shards import EVERY_SHARD, Shards
from bot.store.db import Database, Transaction
from bot.store.ledger import Account, Ledger, Move
from bot.store.one_statement import step_in_one_statement
from bot.store.records import (
    ActionRecord,
    ChipOperation,
    SeatRecord,
    StaleTable,
    TableRecord,
    TableStatus,
)
from bot.store.table_reads import TableReads


class TableStore(TableReads):
    def __init__(self, database: Database, ledger: Ledger) -> None:
        super().__init__(database)
        self.ledger = ledger

    async def create(
        self,
        table: TableRecord,
        creator_name: str,
        key: str,
        once: tuple[str, str] | None = None,
        side: int | None = None,
    ) -> TableRecord:
        """A new lobby with its creator seated and their buy-in in the table's escrow.
        `once` = (key, refusal): a key that may open a table only once (a daily challenge)."""

        async def write(tx: Transaction) -> None:
            if once and not await self.ledger.claim_once(tx, table.guild_id, once[0], "once"):
                raise UserError(once[1])
            if await self._open_here(tx, table):
                if table.solo:
                    raise UserError(_("You already have a game going in this channel."))
                raise UserError(_("A table is already open in this channel."))
            await self._insert(tx, table)
            table.status = TableStatus.LOBBY
            creator = await self._seat(tx, table, table.creator_id, creator_name, key, side)
            table.seats = [creator]

        await self.db.step(write)
        return table

    @staticmethod
    async def _insert(tx: Transaction, table: TableRecord) -> None:
        """The table's row, as a lobby (a step saves its state and status), and its id."""
        created = await tx.one(
            "INSERT INTO game_tables (guild_id, channel_id, game_id, status, creator_id, buy_in,"
            " options, turn_seconds, solo, ai_delay, deal_seed, deal_commitment, deal_input,"
            " tournament_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            table.guild_id,
            table.channel_id,
            table.game_id,
            table.creator_id,
            table.buy_in,
            table.options,
            table.turn_seconds,
            table.solo,
            table.ai_delay,
            table.deal_seed,
            table.deal_commitment,
            table.deal_input,
            table.tournament_id,
        )
        assert created is not None  # the row the INSERT just made
        table.id = created[0]

    @staticmethod
    async def _open_here(tx: Transaction, table: TableRecord) -> bool:
        """Whether the channel already has an open table (for a personal game: one of the
        creator's), checked inside the creating transaction so no race gets past it."""
        sql = "SELECT 1 FROM game_tables WHERE channel_id = ? AND status != 'closed' AND solo = ?"
        params: tuple = (table.channel_id, table.solo)
        if table.solo:
            sql += " AND creator_id = ?"
            params += (table.creator_id,)
        return await tx.one(sql, *params) is not None

    async def create_playing(
        self,
        table: TableRecord,
        seats: Sequence[SeatRecord],
        state: str,
        deadline: datetime | None,
        link: Callable[[Transaction, int], Awaitable[None]],
    ) -> TableRecord:
        """A tournament's table, opened in play with its players seated (no lobby, no
        buy-in: its chips are tournament chips) and `link`ed to its match, in one
        transaction: a crash leaves the match with its table or with none."""

        async def write(tx: Transaction) -> None:
            await self._insert(tx, table)
            await tx.many(
                "INSERT INTO table_seats (table_id, seat, member_id, name, side, ai, ai_level)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table.id, s.seat, s.member_id, s.name, s.side, s.ai, s.ai_level) for s in seats],
            )
            await self._write_table(tx, table, TableStatus.PLAYING, state, 0, deadline)
            await link(tx, table.id)

        await self.db.step(write)
        table.seats = list(seats)
        return table

    async def add_seat(
        self,
        table: TableRecord,
        member_id: int,
        name: str,
        key: str,
        side: int | None = None,
        *,
        ai_level: str | None = None,
    ) -> SeatRecord:
        """A seat joins the lobby with its buy-in (an AI's, `ai_level` given, from the house)."""

        async def write(tx: Transaction) -> SeatRecord:
            return await self._seat(tx, table, member_id, name, key, side, ai_level=ai_level)

        seat = await self.db.step(write)
        table.seats.append(seat)
        return seat

    async def _seat(
        self,
        tx: Transaction,
        table: TableRecord,
        member_id: int,
        name: str,
        key: str,
        side: int | None = None,
        *,
        ai_level: str | None = None,
    ) -> SeatRecord:
        number = 1 + max((s.seat for s in table.seats), default=-1)
        ai = ai_level is not None
        await tx.run(
            "INSERT INTO table_seats (table_id, seat, member_id, name, side, ai, ai_level)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            table.id,
            number,
            member_id,
            name,
            side,
            ai,
            ai_level,
        )
        seat = SeatRecord(number, member_id, name, side=side, ai=ai, ai_level=ai_level)
        move = Move(seat.account, Account.table(table.id), table.buy_in, "buy-in")
        await self.ledger.execute_in(tx, table.guild_id, key, "buy_in", [move])
        return seat

    async def remove_seat(self, table: TableRecord, seat: SeatRecord, key: str) -> None:
        """A lobby seat leaves: its buy-in goes back."""

        async def write(tx: Transaction) -> None:
            await tx.run(
                "DELETE FROM table_seats WHERE table_id = ? AND seat = ?", table.id, seat.seat
            )
            move = Move(Account.table(table.id), seat.account, table.buy_in, "leave lobby")
            await self.ledger.execute_in(tx, table.guild_id, key, "cash_out", [move])

        await self.db.step(write)
        table.seats.remove(seat)

    async def set_message(self, table: TableRecord, message_id: int | None) -> None:
        async def write(tx: Transaction) -> None:
            await tx.run("UPDATE game_tables SET message_id = ? WHERE id = ?", message_id, table.id)

        await self.db.step(write)
        table.message_id = message_id

    async def start(
        self,
        table: TableRecord,
        state: str,
        deadline: datetime | None,
        order: list[SeatRecord] | None = None,
    ) -> None:
        """Seats are renumbered 0..n-1 in `order` (join order by default) and the first
        snapshot is written."""
        order = order or sorted(table.seats, key=lambda s: s.seat)

        async def write(tx: Transaction) -> None:
            for number, seat in enumerate(order):
                await tx.run(
                    "UPDATE table_seats SET seat = ? WHERE table_id = ? AND member_id = ?",
                    -1 - number,
                    table.id,
                    seat.member_id,
                )
                seat.seat = number
            await tx.run("UPDATE table_seats SET seat = -1 - seat WHERE table_id = ?", table.id)
            await tx.run(
                "UPDATE game_tables SET deal_input = ? WHERE id = ?", table.deal_input, table.id
            )
            await self._write_table(tx, table, TableStatus.PLAYING, state, 0, deadline)

        await self.db.step(write)
        table.seats.sort(key=lambda s: s.seat)

    async def commit(
        self,
        table: TableRecord,
        *,
        state: str,
        deadline: datetime | None,
        action: ActionRecord | None = None,
        chips: Sequence[ChipOperation] = (),
        status: TableStatus | None = None,
        occupant: SeatRecord | None = None,
    ) -> None:
        """One step of play, atomically; raises StaleTable if someone else moved first. A step
        that closes the table marks its close undrawn, until the table message shows it.
        `occupant`: a seat that changed hands in the step (an AI player took it), written
        with who sits in it now."""
        version, status = table.version + 1, status or table.status
        logged = None if action is None else action.action.model_dump_json()

        async def write(tx: Transaction) -> list[tuple[SeatRecord, tuple]]:
            changed = await tx.run(
                "UPDATE game_tables SET state = ?, version = ?, deadline = ?, status = ?,"
                " close_undrawn = ? WHERE id = ? AND version = ?",
                state,
                version,
                _iso(deadline),
                status,
                status == TableStatus.CLOSED,
                table.id,
                table.version,
            )
            if changed != 1:
                raise StaleTable(f"table {table.id} is no longer at version {table.version}")
            if action is not None:
                await tx.run(
                    "INSERT INTO table_actions (table_id, version, seat, action, timed_out)"
                    " VALUES (?, ?, ?, ?, ?)",
                    table.id,
                    version,
                    action.seat,
                    logged,
                    action.timed_out,
                )
            written = await self._write_seats(tx, table)
            if occupant is not None:
                await _write_occupant(tx, table, occupant)
            for operation in chips:
                await self._execute(tx, table, operation)
            return written

        if chips or occupant or self.db.backend != "postgres":
            written = await self.db.step(write)
        else:
            written = _changed_seats(table)
            await step_in_one_statement(
                self.db, table, written, state, _iso(deadline), status, action, logged
            )
        self._saved(written)
        table.state, table.version, table.deadline = state, version, deadline
        table.status = status

    async def _execute(self, tx: Transaction, table: TableRecord, operation: ChipOperation) -> None:
        """The operation's results and chip movements; a tournament's table moves no chip
        (its stacks are tournament chips), but records its results all the same."""
        moves = () if table.tournament_id is not None else operation.moves
        await self.ledger.execute_in(
            tx, table.guild_id, operation.key, operation.kind, moves, operation.results
        )

    async def close_lobby(self, table: TableRecord, key: str) -> None:
        """Cancel before the start: every buy-in goes back."""
        moves = [
            Move(
                Account.table(table.id),
                s.account,
                table.buy_in,
                "table cancelled",
            )
            for s in table.seats
        ]

        async def write(tx: Transaction) -> None:
            await tx.run(
                "UPDATE game_tables SET status = 'closed', close_undrawn = 1 WHERE id = ?", table.id
            )
            await self.ledger.execute_in(tx, table.guild_id, key, "cash_out", moves)

        await self.db.step(write)
        table.status = TableStatus.CLOSED

    async def close_drawn(self, table_id: int) -> None:
        """The table's message now shows it closed (or can't be drawn: its channel is gone)."""

        async def write(tx: Transaction) -> None:
            await tx.run("UPDATE game_tables SET close_undrawn = 0 WHERE id = ?", table_id)

        await self.db.step(write)

    async def _write_table(
        self,
        tx: Transaction,
        table: TableRecord,
        status: TableStatus,
        state: str,
        version: int,
        deadline: datetime | None,
    ) -> None:
        # The starting snapshot is also the match's first state, which its hands replay from.
        await tx.run(
            "UPDATE game_tables SET status = ?, state = ?, first_state = ?, version = ?,"
            " deadline = ? WHERE id = ?",
            status,
            state,
            state,
            version,
            _iso(deadline),
            table.id,
        )
        table.status, table.state, table.version, table.deadline = status, state, version, deadline

    async def _write_seats(
        self, tx: Transaction, table: TableRecord
    ) -> list[tuple[SeatRecord, tuple]]:
        """Write the seats whose flags changed: (seat, flags) for `_saved` once committed."""
        written = _changed_seats(table)
        for s, flags in written:
            await tx.run(
                "UPDATE table_seats SET has_left = ?, leaving = ?, timeouts = ?, away = ?,"
                " dm_failed = ?, prompt = ?, prompted = ? WHERE table_id = ? AND seat = ?",
                *flags,
                table.id,
                s.seat,
            )
        return written

    @staticmethod
    def _saved(written: list[tuple[SeatRecord, tuple]]) -> None:
        for seat, flags in written:
            seat.saved = flags

    async def set_sides(self, table: TableRecord, sides: dict[int, int]) -> None:
        """Lobby seats (by seat number) move to the given sides."""

        async def write(tx: Transaction) -> None:
            for number, side in sides.items():
                await tx.run(
                    "UPDATE table_seats SET side = ? WHERE table_id = ? AND seat = ?",
                    side,
                    table.id,
                    number,
                )

        await self.db.step(write)
        for seat in table.seats:
            seat.side = sides.get(seat.seat, seat.side)

    async def save_shown(self, tables: Sequence[TableRecord]) -> None:
        """At shutdown: which prompt each seat was last shown (for seats changed since their
        table's last step) and what each table message shows. The restarted bot then sends
        none of those prompts again, and redraws only the messages it must."""
        shown = [
            (seat.prompted, table.id, seat.seat)
            for table in tables
            for seat in table.seats
            if seat.flags() != seat.saved
        ]

        async def write(tx: Transaction) -> None:
            await tx.many(
                "UPDATE table_seats SET prompted = ? WHERE table_id = ? AND seat = ?", shown
            )
            await tx.many(
                "UPDATE game_tables SET drawn = ? WHERE id = ?",
                [(table.drawn, table.id) for table in tables],
            )

        await self.db.step(write)

    async def forget_drawn(self, shards: Shards = EVERY_SHARD) -> None:
        """Once read at start-up: the messages may change before the next shutdown records
        them, and a crash must not leave an old fingerprint to be trusted."""
        in_shards, params = shards.where()

        async def write(tx: Transaction) -> None:
            await tx.run(
                f"UPDATE game_tables SET drawn = NULL WHERE drawn IS NOT NULL AND {in_shards}",
                *params,
            )

        await self.db.step(write)

    async def give_seat_to_ai(
        self, table: TableRecord, seat: SeatRecord, member_id: int, name: str, level: str
    ) -> None:
        """A departing member's seat in a points match goes to an AI player: no chip moves."""

        async def write(tx: Transaction) -> None:
            await tx.run(
                "UPDATE table_seats SET member_id = ?, name = ?, ai = 1, ai_level = ?,"
                " leaving = 0, away = 0, timeouts = 0 WHERE table_id = ? AND seat = ?",
                member_id,
                name,
                level,
                table.id,
                seat.seat,
            )

        await self.db.step(write)
        seat.member_id, seat.name, seat.ai, seat.ai_level = member_id, name, True, level
        seat.leaving = seat.away = False
        seat.timeouts = 0
        seat.saved = seat.flags()

    async def save_seats(self, table: TableRecord) -> None:
        async def write(tx: Transaction) -> list[tuple[SeatRecord, tuple]]:
            return await self._write_seats(tx, table)

        written = await self.db.step(write)
        self._saved(written)


def _changed_seats(table: TableRecord) -> list[tuple[SeatRecord, tuple]]:
    """The seats whose flags changed since last saved, with their flags now."""
    return [(seat, flags) for seat in table.seats if (flags := seat.flags()) != seat.saved]


async def _write_occupant(tx: Transaction, table: TableRecord, seat: SeatRecord) -> None:
    await tx.run(
        "UPDATE table_seats SET member_id = ?, name = ?, ai = ?, ai_level = ?"
        " WHERE table_id = ? AND seat = ?",
        seat.member_id,
        seat.name,
        seat.ai,
        seat.ai_level,
        table.id,
        seat.seat,
    )


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
