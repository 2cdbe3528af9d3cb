"""The tournaments' store on both backends: buy-ins into the tournament's own account and back,
a key used twice moving nothing, status changes that only one step wins, the payout and the
refunds adding up, and each process finding only its own guilds' tournaments."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.shards import Shards
from bot.store import Ledger
from bot.store.tournaments import (
    MatchRecord,
    TournamentRecord,
    TournamentStatus,
    TournamentStore,
)

GUILD = 5 << 22  # a snowflake whose shard, of two, is 1
ALICE, BOB, CAROL = 11, 12, 13


def tournament(guild: int = GUILD, buy_in: int = 30, max_players: int = 8) -> TournamentRecord:
    return TournamentRecord(
        0, guild, 1, ALICE, "bigtwo", "elimination", buy_in, 2, 0, None, max_players,
        "top2", 0, 60, 0, 60, "{}", seed="00", commitment="11",
    )  # fmt: skip


@pytest.fixture
def ledger(database) -> Ledger:
    return Ledger(database, starting_chips=100)


@pytest.fixture
def store(database, ledger) -> TournamentStore:
    return TournamentStore(database, ledger)


async def pool(ledger: Ledger, record: TournamentRecord) -> int:
    """The guild's tournaments' pools (the test's tournament's, the others being empty)."""
    return (await ledger.totals(record.guild_id)).tournaments


async def test_buy_ins_go_into_the_pool_once_and_come_back_on_unregistering(store, ledger):
    record = await store.create(tournament())
    await store.register(record, ALICE, "Alice", key="a")
    await store.register(record, BOB, "Bob", key="b")
    with pytest.raises(UserError, match="registered already"):
        await store.register(record, BOB, "Bob", key="b-again")
    assert await pool(ledger, record) == 60
    assert await ledger.balance(GUILD, BOB) == 70
    await store.unregister(record, BOB, key="u")
    with pytest.raises(UserError, match="not registered"):
        await store.unregister(record, BOB, key="u-again")
    assert await pool(ledger, record) == 30 and await ledger.balance(GUILD, BOB) == 100
    assert [e.member_id for e in (await store.progress(record.id)).entries] == [ALICE]


async def test_a_refused_registration_changes_nothing(store, ledger):
    record = await store.create(tournament(buy_in=150, max_players=2))
    with pytest.raises(UserError, match="You have 100 chips; 150 are needed"):
        await store.register(record, ALICE, "Alice", key="a")
    assert (await store.progress(record.id)).entries == []
    free = await store.create(tournament(buy_in=0, max_players=2))
    for member in (ALICE, BOB):
        await store.register(free, member, str(member), key=f"free-{member}")
    with pytest.raises(UserError, match=r"full \(2 players\)"):
        await store.register(free, CAROL, "Carol", key="c")
    assert len((await store.progress(free.id)).entries) == 2


async def test_only_one_step_moves_the_status_on(store):
    record = await store.create(tournament())
    await store.register(record, ALICE, "Alice", key="a")
    await store.register(record, BOB, "Bob", key="b")
    first = [MatchRecord(1, 1, (ALICE, BOB), 1)]
    await store.begin(record, [(ALICE, None), (BOB, 2.0)], first, [])
    with pytest.raises(UserError, match="moved on"):
        await store.begin(record, [(ALICE, None), (BOB, 2.0)], first, [])
    with pytest.raises(UserError, match="registration is only open before the start"):
        await store.register(record, CAROL, "Carol", key="c")
    await store.add_round(record.id, 1, first, [])  # drawn again after a crash: the same
    progress = await store.progress(record.id)
    assert len(progress.matches) == 1 and progress.byes == {1: ()}
    assert [e.seed_rank for e in progress.entries] == [1, 2]


async def test_the_payout_empties_the_pool_into_the_prizes(store, ledger):
    record = await store.create(tournament())
    for member in (ALICE, BOB, CAROL):
        await store.register(record, member, str(member), key=f"r-{member}")
    await store.begin(record, [(ALICE, None), (BOB, None), (CAROL, None)], [], [])
    await store.finish(record, [BOB, ALICE, CAROL], {BOB: 59, ALICE: 31})
    assert await pool(ledger, record) == 0
    assert [await ledger.balance(GUILD, m) for m in (ALICE, BOB, CAROL)] == [101, 129, 70]
    with pytest.raises(UserError, match="moved on"):
        await store.finish(record, [BOB, ALICE, CAROL], {BOB: 59, ALICE: 31})
    places = {e.member_id: (e.place, e.prize) for e in (await store.progress(record.id)).entries}
    assert places == {BOB: (1, 59), ALICE: (2, 31), CAROL: (3, 0)}
    assert await store.placings_of(GUILD, BOB) == [("bigtwo", 1, 3)]


async def test_a_cancel_refunds_everyone_and_happens_once(store, ledger):
    record = await store.create(tournament())
    for member in (ALICE, BOB):
        await store.register(record, member, str(member), key=f"r-{member}")
    await store.cancel(record, "Cancelled by the host.")
    with pytest.raises(UserError, match="moved on"):
        await store.cancel(record, "again")
    assert [await ledger.balance(GUILD, m) for m in (ALICE, BOB)] == [100, 100]
    assert (await store.load(record.id)).status == TournamentStatus.CANCELLED


async def test_each_process_finds_its_own_guilds_unfinished_tournaments(store):
    mine = await store.create(tournament(GUILD))
    theirs = await store.create(tournament(GUILD + (1 << 22)))  # shard 0 of two
    await store.create(tournament(GUILD))
    await store.cancel(await store.create(tournament(GUILD)), "gone")
    found = await store.unfinished(Shards(2, (1,)))
    assert mine.id in [t.id for t in found] and theirs.id not in [t.id for t in found]
    assert len(found) == 2
    assert [t.id for t in await store.unfinished(Shards(2, (0,)))] == [theirs.id]
