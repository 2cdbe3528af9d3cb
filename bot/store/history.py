"""What hand histories read: the hands played in a channel, with who won what, and a table's
first state and logged actions, from which bot/tables/history.py replays its hands. Reads only:
a history costs no write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.db import Database, Row


@dataclass(frozen=True)
class SeatName:
    seat: int
    member_id: int
    name: str
    ai: bool = False


@dataclass(frozen=True)
class HandResult:
    """One seat's result of a hand, as written when the hand ended."""

    seat: int
    won: bool  # among the hand's winners
    chip_net: int
    score: int | None


@dataclass(frozen=True)
class PlayedHand:
    table_id: int
    game_id: str
    hand: int  # the game's own hand number at that table
    replayable: bool  # the table has its first state (started after migration 018)
    seats: tuple[SeatName, ...]
    results: tuple[HandResult, ...]
    closed: bool = False  # the table has closed (its web page shows it)


@dataclass(frozen=True)
class LoggedStep:
    """A row of table_actions: the step that took the table to `version`."""

    version: int
    seat: int | None
    action: str  # the action's JSON
    timed_out: bool


@dataclass(frozen=True)
class TableLog:
    table_id: int
    guild_id: int
    channel_id: int
    game_id: str
    closed: bool
    options: str  # the options model's JSON
    buy_in: int
    solo: bool
    first_state: str | None
    state: str | None
    seats: tuple[SeatName, ...]
    steps: tuple[LoggedStep, ...]


class HistoryStore:
    def __init__(self, database: Database) -> None:
        self.db = database

    async def hands_in_channel(
        self, guild_id: int, channel_id: int, limit: int
    ) -> list[PlayedHand]:
        """The last `limit` hands whose results were written at this channel's tables, open or
        closed, newest first."""
        keys = await self.db.fetch_all(
            "SELECT r.table_id, r.op_key, MAX(r.id) AS newest FROM results r"
            " JOIN game_tables t ON t.id = r.table_id"
            " WHERE t.guild_id = ? AND t.channel_id = ? AND r.scope = 'hand'"
            " GROUP BY r.table_id, r.op_key ORDER BY newest DESC LIMIT ?",
            guild_id,
            channel_id,
            limit,
        )
        # A hand's results are written under the key "hand:<table>:<hand>" (settlement.py).
        return [await self._played_hand(int(row[0]), str(row[1])) for row in keys]

    async def hands_at_table(self, table_id: int) -> list[PlayedHand]:
        """Every hand whose results were written at the table, in the order played: three
        reads, however many hands (a long match's page)."""
        table = await self._table(table_id)
        if table is None:
            return []
        seats = await self._seats(table_id)
        rows = await self.db.fetch_all(
            'SELECT op_key, seat, "placing", chip_net, score FROM results'
            " WHERE table_id = ? AND scope = 'hand' AND seat >= 0 ORDER BY id",
            table_id,
        )
        by_hand: dict[str, list[HandResult]] = {}
        for key, seat, placing, chip_net, score in rows:
            by_hand.setdefault(str(key), []).append(HandResult(seat, placing == 1, chip_net, score))
        return [
            played(table_id, table, key, seats, sorted(results, key=lambda r: r.seat))
            for key, results in by_hand.items()
        ]

    async def _table(self, table_id: int) -> Row | None:
        return await self.db.fetch_one(
            "SELECT game_id, first_state IS NOT NULL, status FROM game_tables WHERE id = ?",
            table_id,
        )

    async def _played_hand(self, table_id: int, key: str) -> PlayedHand:
        table = await self._table(table_id)
        assert table is not None  # the results' own table
        rows = await self.db.fetch_all(
            'SELECT seat, "placing", chip_net, score FROM results'
            " WHERE table_id = ? AND op_key = ? AND scope = 'hand' AND seat >= 0 ORDER BY seat",
            table_id,
            key,
        )
        results = [HandResult(row[0], row[1] == 1, row[2], row[3]) for row in rows]
        return played(table_id, table, key, await self._seats(table_id), results)

    async def _seats(self, table_id: int) -> tuple[SeatName, ...]:
        rows = await self.db.fetch_all(
            "SELECT seat, member_id, name, ai FROM table_seats WHERE table_id = ? ORDER BY seat",
            table_id,
        )
        return tuple(SeatName(row[0], row[1], row[2], bool(row[3])) for row in rows)

    async def table_log(self, table_id: int) -> TableLog | None:
        """A table's first state, current state, seats and every logged step, in order."""
        row = await self.db.fetch_one(
            "SELECT guild_id, channel_id, game_id, status, options, buy_in, solo, first_state,"
            " state FROM game_tables WHERE id = ?",
            table_id,
        )
        if row is None:
            return None
        steps = await self.db.fetch_all(
            "SELECT version, seat, action, timed_out FROM table_actions"
            " WHERE table_id = ? ORDER BY version",
            table_id,
        )
        return TableLog(
            table_id,
            guild_id=row[0],
            channel_id=row[1],
            game_id=row[2],
            closed=row[3] == "closed",
            options=row[4],
            buy_in=row[5],
            solo=bool(row[6]),
            first_state=row[7],
            state=row[8],
            seats=await self._seats(table_id),
            steps=tuple(LoggedStep(s[0], s[1], s[2], bool(s[3])) for s in steps),
        )


def played(
    table_id: int,
    table: Row,
    key: str,
    seats: tuple[SeatName, ...],
    results: Sequence[HandResult],
) -> PlayedHand:
    """A hand from its table's row (game, replayable, status) and its results under `key`."""
    # A hand's results are written under the key "hand:<table>:<hand>" (settlement.py).
    return PlayedHand(
        table_id,
        str(table[0]),
        int(key.rsplit(":", 1)[1]),
        bool(table[1]),
        seats,
        tuple(results),
        closed=table[2] == "closed",
    )
