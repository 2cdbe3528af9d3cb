"""A step of play that moves no chips, on PostgreSQL, as one statement (`TableStore.commit`):
one round trip to the server instead of five or six, each of which waits for the bot's busy
event loop."""

from __future__ import annotations

from bot.store.db import Database
from bot.store.records import ActionRecord, SeatRecord, StaleTable, TableRecord, TableStatus

# A data-modifying WITH: the action and the seats are written only where the table moved from
# the version it was at.
STEP_IN_ONE_STATEMENT = """
WITH moved AS (
    UPDATE game_tables SET state = ?, version = version + 1, deadline = ?, status = ?,
        close_undrawn = ?
    WHERE id = ? AND version = ? RETURNING id, version
), logged AS (
    INSERT INTO table_actions (table_id, version, seat, action, timed_out)
    SELECT id, version, ?, ?, ? FROM moved WHERE ?::boolean
), seats AS (
    UPDATE table_seats SET has_left = given.has_left, leaving = given.leaving,
        timeouts = given.timeouts, away = given.away, dm_failed = given.dm_failed,
        prompt = given.prompt, prompted = given.prompted
    FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[],
        ?::bigint[], ?::bigint[])
        AS given (seat, has_left, leaving, timeouts, away, dm_failed, prompt, prompted)
    WHERE table_seats.table_id IN (SELECT id FROM moved) AND table_seats.seat = given.seat
)
SELECT count(*) FROM moved
"""


async def step_in_one_statement(
    db: Database,
    table: TableRecord,
    written: list[tuple[SeatRecord, tuple]],
    state: str,
    deadline: str | None,
    status: TableStatus,
    action: ActionRecord | None,
    logged: str | None,
) -> None:
    """The table, its action (`logged`: its JSON) and the seats whose flags changed
    (`written`), in a transaction of its own, committed as it ends."""
    rows = [(s.seat, *flags) for s, flags in written]  # the seat, then its flags
    numbers = [[int(row[i]) for row in rows] for i in range(7)]  # seat ... prompt
    prompted = [row[7] for row in rows]  # the one that may be NULL
    ((moved,),) = await db.fetch_all(
        STEP_IN_ONE_STATEMENT,
        state,
        deadline,
        status,
        status == TableStatus.CLOSED,
        table.id,
        table.version,
        None if action is None else action.seat,
        logged,
        action is not None and action.timed_out,
        action is not None,
        *numbers,
        prompted,
    )
    if moved != 1:
        raise StaleTable(f"table {table.id} is no longer at version {table.version}")
