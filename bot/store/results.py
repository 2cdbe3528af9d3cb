"""Result rows: who placed where at a game, with what chips and score, and how they are written
to and read back from the results table.

Apart from the ledger and the ratings because both use them: the ledger writes them under an
operation's key, the ratings rate them, and neither needs the other to know what a result is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from bot.store.db import Transaction


@dataclass(frozen=True)
class ResultRow:
    game_id: str
    member_id: int
    seat: int
    placing: int
    chip_net: int
    score: int | None = None
    table_id: int | None = None
    variant: str | None = None
    scope: str = "hand"  # "hand", "settle" (chips no hand accounted for) or "match"
    with_ai: bool = False  # played at a table with AI seats


# ResultRow's fields, which are also the results table's columns.
RESULT_FIELDS = tuple(field.name for field in fields(ResultRow))


async def write_results(
    tx: Transaction, guild_id: int, key: str, results: Sequence[ResultRow]
) -> None:
    """The rows, written under the operation `key` in the caller's transaction."""
    await tx.many(
        'INSERT INTO results (op_key, guild_id, game_id, table_id, member_id, seat, "placing",'
        " score, chip_net, variant, scope, with_ai)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                key,
                guild_id,
                result.game_id,
                result.table_id,
                result.member_id,
                result.seat,
                result.placing,
                result.score,
                result.chip_net,
                result.variant,
                result.scope,
                result.with_ai,
            )
            for result in results
        ],
    )


async def every_operation(tx: Transaction) -> dict[str, tuple[int, list[ResultRow]]]:
    """Every result, by the operation that recorded it: key -> (guild, its rows), in the order
    the results were recorded."""
    operations: dict[str, tuple[int, list[ResultRow]]] = {}  # in the order first seen
    columns = ", ".join(f'"{name}"' for name in RESULT_FIELDS)
    for key, guild_id, *values in await tx.all(
        f"SELECT op_key, guild_id, {columns} FROM results ORDER BY id"
    ):
        row = ResultRow(**dict(zip(RESULT_FIELDS, values, strict=True)))
        operations.setdefault(key, (guild_id, []))[1].append(row)
    return operations
