"""Game tables in the store, on each backend (tests/store/conftest.py)."""

import dataclasses
from datetime import UTC, datetime

import pytest

from bot.engine import Action
from bot.errors import UserError
from bot.shards import Shards
from bot.store import (
    Account,
    ActionRecord,
    ChipOperation,
    GuildSettings,
    InsufficientChips,
    Ledger,
    Move,
    ResultRow,
    StaleTable,
    TableRecord,
    TableStatus,
    TableStore,
)

GUILD, CHANNEL = 1, 10


@pytest.fixture
def store(database):
    return TableStore(database, Ledger(database, starting_chips=100))


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


async def test_a_step_moving_no_chips_writes_its_table_action_and_changed_seats_or_nothing(
    store,
):
    """On PostgreSQL such a step is one statement: all of it is written, or (a stale step)
    none of it, not even its seats."""
    table = await store.create(lobby(), "Host", key="open")
    await store.add_seat(table, 8, "Guest", key="join")
    await store.start(table, "{}", None)
    host, guest = table.seats
    host.prompt, guest.timeouts, guest.away, guest.prompted = 1, 1, True, 1
    deadline = datetime(2026, 1, 2, tzinfo=UTC)
    fold = ActionRecord(1, Action(kind="fold"), timed_out=True)
    await store.commit(table, state='{"n": 1}', deadline=deadline, action=fold)
    (loaded,) = await store.open_tables()
    assert (loaded.version, loaded.state, loaded.deadline) == (1, '{"n": 1}', deadline)
    assert [dataclasses.asdict(s) for s in loaded.seats] == [
        dataclasses.asdict(s) for s in table.seats
    ]
    logged = await store.db.fetch_all("SELECT version, seat, action, timed_out FROM table_actions")
    assert [tuple(row) for row in logged] == [(1, 1, '{"kind":"fold"}', 1)]
    stale = dataclasses.replace(
        table, version=0, seats=[dataclasses.replace(s) for s in table.seats]
    )
    stale.seats[0].left = True
    with pytest.raises(StaleTable):
        await store.commit(stale, state="{}", deadline=None, action=fold)
    (again,) = await store.open_tables()
    assert (again.version, again.seats[0].left) == (1, False)
    assert len(await store.db.fetch_all("SELECT * FROM table_actions")) == 1


async def test_a_lobby_with_an_ai_seat_and_sides_is_cancelled_and_every_buy_in_goes_back(store):
    ledger = store.ledger
    assert await ledger.fund_house(GUILD, 100, reason="bankroll", key="fund")
    table = await store.create(lobby(), "Host", key="open", side=0)
    await store.add_seat(table, 8, "Guest", key="join-8", side=1)
    await store.add_seat(table, -1, "Robot", key="join-ai", ai_level="standard")
    await store.set_sides(table, {0: 1, 2: 0})
    await store.remove_seat(table, table.seats[1], key="leave-8")
    assert await ledger.balance(GUILD, 8) == 100
    assert (await ledger.house_balance(GUILD), await ledger.escrow(GUILD, table.id)) == (60, 80)
    (loaded,) = await store.open_tables()
    assert [(s.member_id, s.side, s.ai) for s in loaded.seats] == [(7, 1, False), (-1, 0, True)]

    await store.close_lobby(table, key="cancel")
    assert await store.open_tables() == []
    assert (await ledger.house_balance(GUILD), await ledger.balance(GUILD, 7)) == (100, 100)
    assert await ledger.escrow(GUILD, table.id) == 0
    (undrawn,) = await store.undrawn_closes()
    assert (undrawn.id, undrawn.status) == (table.id, TableStatus.CLOSED)
    await store.close_drawn(table.id)
    assert await store.undrawn_closes() == []


async def test_a_hand_played_to_its_close_keeps_its_results_and_what_was_shown(store):
    table = await store.create(lobby(), "Host", key="open")
    await store.add_seat(table, 8, "Guest", key="join")
    await store.set_message(table, 555)
    guest, host = table.seats[1], table.seats[0]
    await store.start(table, '{"hand": 1}', None, order=[guest, host])
    assert [(s.seat, s.member_id) for s in table.seats] == [(0, 8), (1, 7)]
    pot = [Move(Account.table(table.id), Account.member(8), 80, "pot")]
    results = [
        ResultRow("western", 8, 0, 1, 40, score=12, table_id=table.id),
        ResultRow("western", 7, 1, 2, -40, score=3, table_id=table.id),
        ResultRow("western", 8, 0, 1, 40, score=12, table_id=table.id, scope="match"),
    ]
    await store.commit(
        table,
        state='{"hand": 2}',
        deadline=datetime(2026, 11, 22, 15, 2, tzinfo=UTC),
        action=ActionRecord(0, Action(kind="fold"), timed_out=True),
        chips=[ChipOperation("hand-1", "settle", pot, results)],
        status=TableStatus.CLOSED,
    )
    assert await store.net_results(table.id) == {0: 40, 1: -40}
    assert await store.match_results(table.id) == {0: (1, 12, 40)}
    assert await store.ledger.balance(GUILD, 8) == 140
    (closed,) = await store.undrawn_closes()
    assert (closed.message_id, closed.version, closed.state) == (555, 1, '{"hand": 2}')
    assert closed.deadline == datetime(2026, 11, 22, 15, 2, tzinfo=UTC)

    table.seats[0].prompted, table.drawn = 1, "face"
    await store.save_shown([table])
    (saved,) = await store.undrawn_closes()
    assert (saved.seats[0].prompted, saved.seats[1].prompted, saved.drawn) == (1, None, "face")
    await store.forget_drawn()
    assert (await store.undrawn_closes())[0].drawn is None


async def test_a_personal_game_is_one_per_member_in_a_channel(store):
    solo = dataclasses.replace(lobby(), solo=True, buy_in=0)
    await store.create(solo, "Host", key="solo-7")
    await store.create(dataclasses.replace(solo, creator_id=8), "Guest", key="solo-8")
    with pytest.raises(UserError, match="already have a game going"):
        await store.create(dataclasses.replace(solo), "Host", key="solo-7b")
    assert sorted(t.creator_id for t in await store.open_tables()) == [7, 8]
    assert all(t.solo for t in await store.open_tables())


async def test_a_daily_challenge_key_opens_a_table_once(store):
    first = await store.create(lobby(), "Host", key="open", once=("daily:7", "Once a day."))
    await store.close_lobby(first, key="cancel")
    with pytest.raises(UserError, match="Once a day"):
        await store.create(lobby(), "Host", key="open-2", once=("daily:7", "Once a day."))
    assert await store.ledger.balance(GUILD, 7) == 100


async def test_a_guild_allows_ai_seats_until_it_says_otherwise(store):
    settings = GuildSettings(store.db)
    assert await settings.ai_seats(GUILD) is True
    await settings.set_ai_seats(GUILD, False)
    assert await settings.ai_seats(GUILD) is False
    await settings.set_ai_seats(GUILD, True)
    assert await settings.ai_seats(GUILD) is True
    assert await settings.ai_seats(GUILD + 1) is True


async def test_a_process_loads_and_forgets_only_the_tables_of_its_shards(store):
    """Two processes over one database, each with half of 2 shards (bot/shards.py): each sees
    the tables of its own guilds only, in SQL as in Python."""
    guilds = {shard: (1_000_000 + shard) << 22 for shard in (0, 1)}  # one guild per shard
    tables = {}
    for shard, guild in guilds.items():
        record = dataclasses.replace(lobby(), guild_id=guild, channel_id=CHANNEL + shard)
        tables[shard] = await store.create(record, "Host", key=f"open-{shard}")
        tables[shard].drawn = "face"
        await store.save_shown([tables[shard]])
    for shard in (0, 1):
        mine = Shards(2, (shard,))
        assert [t.guild_id for t in await store.open_tables(mine)] == [guilds[shard]]
        assert mine.owns(guilds[shard]) and not mine.owns(guilds[1 - shard])
    await store.forget_drawn(Shards(2, (0,)))
    drawn = {t.guild_id: t.drawn for t in await store.open_tables()}
    assert drawn == {guilds[0]: None, guilds[1]: "face"}
    assert await store.guild_of(tables[1].id) == guilds[1]
    assert await store.guild_of(tables[1].id + 100) is None
