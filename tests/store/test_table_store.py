import dataclasses
from datetime import UTC, datetime

import pytest

from bot.engine import Action
from bot.errors import UserError
from bot.store import (
    Account,
    ActionRecord,
    ChipOperation,
    Database,
    InsufficientChips,
    Ledger,
    Move,
    StaleTable,
    TableRecord,
    TableStatus,
    TableStore,
)

GUILD, CHANNEL = 1, 10


@pytest.fixture
async def store(tmp_path):
    db = await Database.open(tmp_path / "tables.sqlite3")
    yield TableStore(db, Ledger(db, starting_chips=100))
    await db.close()


def lobby() -> TableRecord:
    return TableRecord(0, GUILD, CHANNEL, "western", TableStatus.LOBBY, 7, 40, "{}", 60)


async def test_every_seat_field_survives_a_reload(store):
    table = await store.create(lobby(), "Host", key="open")
    await store.add_seat(table, 8, "Guest", key="join")
    await store.start(table, '{"s": 1}', datetime(2026, 1, 1, tzinfo=UTC))
    guest = table.seats[1]
    guest.left, guest.leaving, guest.timeouts, guest.away, guest.dm_failed, guest.prompt = (
        True,
        True,
        2,
        True,
        True,
        5,
    )
    await store.save_seats(table)
    (loaded,) = await store.open_tables()
    assert [dataclasses.asdict(s) for s in loaded.seats] == [
        dataclasses.asdict(s) for s in table.seats
    ]
    assert (loaded.status, loaded.state, loaded.deadline) == (
        TableStatus.PLAYING,
        '{"s": 1}',
        table.deadline,
    )
    assert type(loaded.status) is TableStatus


async def test_one_open_table_per_channel_and_buy_ins_are_taken(store):
    table = await store.create(lobby(), "Host", key="open")
    with pytest.raises(UserError, match="already open"):
        await store.create(lobby(), "Host", key="open-2")
    assert await store.ledger.escrow(GUILD, table.id) == 40
    with pytest.raises(InsufficientChips):
        await store.add_seat(dataclasses.replace(table, buy_in=500), 9, "Poor", key="poor")
    assert len((await store.open_tables())[0].seats) == 1


async def test_a_step_is_all_or_nothing(store):
    table = await store.create(lobby(), "Host", key="open")
    await store.start(table, "{}", None)
    too_much = Move(Account.table(table.id), Account.member(7), 41, "cash-out")
    with pytest.raises(InsufficientChips):
        await store.commit(
            table,
            state='{"new": 1}',
            deadline=None,
            action=ActionRecord(0, Action(kind="pass")),
            chips=[ChipOperation("out", "cash_out", [too_much])],
        )
    (loaded,) = await store.open_tables()
    assert (loaded.version, loaded.state) == (0, "{}")
    assert await store.db.fetch_all("SELECT * FROM table_actions") == []
    await store.commit(
        table, state='{"new": 1}', deadline=None, action=ActionRecord(0, Action(kind="pass"))
    )
    logged = await store.db.fetch_all("SELECT seat, action, timed_out FROM table_actions")
    assert [tuple(row) for row in logged] == [(0, '{"kind":"pass"}', 0)]  # the model's JSON
    stale = dataclasses.replace(table, version=0)
    with pytest.raises(StaleTable):
        await store.commit(stale, state="{}", deadline=None)
