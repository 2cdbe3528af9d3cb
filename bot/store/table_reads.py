"""Reading saved game tables: the open ones a process resumes, one table as saved now, those
whose close was never drawn, and what a table's results account for so far.

Apart from the writes (bot/store/tables.py): these run outside any transaction and change
nothing, while each write is a transaction of its own. TableStore is a TableReads, so callers
read and write through the one store.
"""

from __future__ import annotations

from datetime import datetime

from bot.shards import EVERY_SHARD, Shards
from bot.store.db import Database
from bot.store.records import SeatRecord, TableRecord, TableStatus


class TableReads:
    """The saved tables and their results, read outside any step."""

    def __init__(self, database: Database) -> None:
        self.db = database

    async def open_tables(self, shards: Shards = EVERY_SHARD) -> list[TableRecord]:
        """The unfinished tables of the guilds of `shards` (those a process acts on)."""
        return await self._tables("status != 'closed'", shards)

    async def load(self, table_id: int) -> TableRecord:
        """The table as it is saved now, with its seats."""
        (record,) = await self._tables("id = ?", EVERY_SHARD, table_id)
        return record

    async def undrawn_closes(self, shards: Shards = EVERY_SHARD) -> list[TableRecord]:
        """Tables closed whose message the bot had not yet drawn closed when it stopped."""
        return await self._tables("status = 'closed' AND close_undrawn = 1", shards)

    async def guild_of(self, table_id: int) -> int | None:
        """The guild of a table, open or closed; None for no such table."""
        row = await self.db.fetch_one("SELECT guild_id FROM game_tables WHERE id = ?", table_id)
        return None if row is None else int(row[0])

    async def closed_with_commitment(self, guild_id: int, commitment: str) -> TableRecord | None:
        """The guild's closed table whose deals were committed to by `commitment`, if any."""
        found = await self._tables(
            "status = 'closed' AND guild_id = ? AND deal_commitment = ?",
            EVERY_SHARD,
            guild_id,
            commitment,
        )
        return found[0] if found else None

    async def _tables(self, where: str, shards: Shards, *values: object) -> list[TableRecord]:
        """The tables `where` (with its `values`) holds in the guilds of `shards`, with their
        seats, by id."""
        in_shards, params = shards.where()
        rows = await self.db.fetch_all(
            "SELECT id, guild_id, channel_id, game_id, status, creator_id, buy_in, options,"
            " turn_seconds, message_id, state, version, deadline, solo, ai_delay, drawn,"
            " deal_seed, deal_commitment, deal_input, tournament_id"
            f" FROM game_tables WHERE {where} AND {in_shards} ORDER BY id",
            *values,
            *params,
        )
        tables = []
        for row in rows:
            fields = dict(row)  # the columns are named as TableRecord's fields
            fields["status"] = TableStatus(fields["status"])
            fields["deadline"] = _parse(fields["deadline"])
            fields["solo"] = bool(fields["solo"])
            table = TableRecord(**fields)
            seats = await self.db.fetch_all(
                "SELECT seat, member_id, name, has_left AS left, leaving, timeouts, away,"
                " dm_failed, prompt, side, ai, ai_level, prompted FROM table_seats"
                " WHERE table_id = ? ORDER BY seat",
                table.id,
            )
            table.seats = [SeatRecord(**dict(row)) for row in seats]
            for seat in table.seats:
                seat.left, seat.leaving = bool(seat.left), bool(seat.leaving)
                seat.away, seat.dm_failed = bool(seat.away), bool(seat.dm_failed)
                seat.ai = bool(seat.ai)
                seat.saved = seat.flags()
            tables.append(table)
        return tables

    async def net_results(self, table_id: int) -> dict[int, int]:
        """Per seat, the chips the results of whoever sits in it now account for so far (a
        seat an AI player took over: the AI's, not those of the player who left it)."""
        rows = await self.db.fetch_all(
            "SELECT r.seat, CAST(SUM(r.chip_net) AS BIGINT) FROM results r JOIN table_seats s"
            " ON s.table_id = r.table_id AND s.seat = r.seat AND s.member_id = r.member_id"
            " WHERE r.table_id = ? AND r.scope IN ('hand', 'settle') GROUP BY r.seat",
            table_id,
        )
        return {row[0]: row[1] for row in rows}

    async def hands_recorded(self, table_id: int) -> int:
        """How many hands of the table's match have their results recorded."""
        row = await self.db.fetch_aggregate(
            "SELECT COUNT(DISTINCT op_key) FROM results WHERE table_id = ? AND scope = 'hand'",
            table_id,
        )
        return int(row[0])

    async def match_results(self, table_id: int) -> dict[int, tuple[int, int | None, int]]:
        """Per seat, its final (placing, score, chip net) at this table, once its match is
        recorded (a personal game's never is)."""
        rows = await self.db.fetch_all(
            'SELECT seat, "placing", score, chip_net FROM results WHERE table_id = ?'
            " AND scope = 'match'",
            table_id,
        )
        return {row[0]: (row[1], row[2], row[3]) for row in rows}


def _parse(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None
