"""A table's deal seed, commitment and Start click in the store, on each backend: kept from
the lobby through a restart, and found by commitment once the table is closed, in its own
guild only."""

import dataclasses

import pytest

from bot.store import Ledger, TableRecord, TableStatus, TableStore

GUILD, CHANNEL = 1, 10
SEED = "ab" * 32
COMMITMENT = "cd" * 32
CLICK = 1_234_567_890_123_456_789  # a Discord snowflake: past 32 bits


@pytest.fixture
def store(database):
    return TableStore(database, Ledger(database, starting_chips=100))


def lobby(channel: int = CHANNEL, guild: int = GUILD) -> TableRecord:
    return TableRecord(
        0,
        guild,
        channel,
        "western",
        TableStatus.LOBBY,
        7,
        0,
        "{}",
        60,
        deal_seed=SEED,
        deal_commitment=COMMITMENT,
    )


def deal_fields(table: TableRecord) -> tuple:
    return table.deal_seed, table.deal_commitment, table.deal_input


async def test_the_seed_and_the_start_click_survive_a_reload(store):
    table = await store.create(lobby(), "Host", key="open")
    (loaded,) = await store.open_tables()
    assert deal_fields(loaded) == (SEED, COMMITMENT, None)
    table.deal_input = CLICK
    await store.start(table, "{}", None)
    (loaded,) = await store.open_tables()
    assert deal_fields(loaded) == (SEED, COMMITMENT, CLICK)


async def test_a_table_is_found_by_its_commitment_once_closed_and_in_its_guild_only(store):
    table = await store.create(lobby(), "Host", key="open")
    other = await store.create(
        dataclasses.replace(lobby(CHANNEL + 1), deal_commitment="ef" * 32), "Host", key="open-2"
    )
    assert await store.closed_with_commitment(GUILD, COMMITMENT) is None  # still open
    table.deal_input = CLICK
    await store.start(table, '{"s": 1}', None)
    await store.commit(table, state='{"s": 2}', deadline=None, status=TableStatus.CLOSED)
    await store.close_lobby(other, key="cancel")
    found = await store.closed_with_commitment(GUILD, COMMITMENT)
    assert found is not None
    assert (found.id, found.state, len(found.seats)) == (table.id, '{"s": 2}', 1)
    assert deal_fields(found) == (SEED, COMMITMENT, CLICK)
    assert await store.closed_with_commitment(GUILD + 1, COMMITMENT) is None
    cancelled = await store.closed_with_commitment(GUILD, "ef" * 32)
    assert cancelled is not None and cancelled.deal_input is None
