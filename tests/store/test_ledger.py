"""The chip ledger, on each backend (tests/store/conftest.py)."""

import asyncio
import random
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.errors import UserError
from bot.store import (
    Account,
    InsufficientChips,
    Leaderboards,
    Ledger,
    Move,
    PostgresDatabase,
    ResultRow,
    SQLiteDatabase,
)
from tests.postgres import migrated_schema

GUILD = 1
START = 100


@pytest.fixture
def ledger(database):
    return Ledger(database, starting_chips=START)


@pytest.fixture
async def sqlite_ledger(tmp_path):
    db = await SQLiteDatabase.open(tmp_path / "chips.sqlite3")
    yield Ledger(db, starting_chips=START)
    await db.close()


async def ledger_rows(ledger: Ledger) -> int:
    return (await ledger.db.fetch_one("SELECT COUNT(*) FROM ledger"))[0]


async def test_first_look_creates_the_account_with_starting_chips(ledger):
    assert await ledger.balance(GUILD, 7) == START
    assert await ledger.balance(GUILD, 7) == START
    totals = await ledger.totals(GUILD)
    assert (totals.balances, totals.minted, totals.burned) == (START, START, 0)
    assert totals.consistent


async def test_balances_are_per_guild(ledger):
    await ledger.transfer(GUILD, 1, 2, 30, key="gift")
    assert await ledger.balance(GUILD, 1) == START - 30
    assert await ledger.balance(GUILD + 1, 1) == START


async def test_transfer_refuses_more_than_the_giver_has_and_changes_nothing(ledger):
    with pytest.raises(InsufficientChips, match="You have 100 chips; 101 are needed"):
        await ledger.transfer(GUILD, 1, 2, START + 1, key="too-much")
    assert await ledger_rows(ledger) == 0
    assert await ledger.balance(GUILD, 1) == START
    # The refused key was not used up: the same key may carry a valid transfer.
    assert await ledger.transfer(GUILD, 1, 2, 10, key="too-much")


async def test_operations_under_way_together_each_get_their_own_outcome(ledger):
    """On PostgreSQL these go to the server in one batch (one transaction): a refused debit
    undoes its own operation only, the accounts it made included, and a key used twice in
    the batch moves chips once."""
    await ledger.balance(GUILD, 1)
    before = await ledger_rows(ledger)
    batches, send = [], ledger._batches._send

    async def recorded(operations):
        batches.append(len(operations))
        return await send(operations)

    ledger._batches._send = recorded
    outcomes = await asyncio.gather(
        ledger.transfer(GUILD, 1, 2, 30, key="a"),
        ledger.transfer(GUILD, 3, 4, START + 1, key="b"),  # 3 and 4 are new
        ledger.transfer(GUILD, 1, 2, 30, key="a"),
        ledger.transfer(GUILD, 2, 1, 5, key="c"),
        return_exceptions=True,
    )
    assert outcomes[0] is True and outcomes[2] is False and outcomes[3] is True
    assert batches == ([4] if ledger.db.backend == "postgres" else [])
    assert isinstance(outcomes[1], InsufficientChips) and outcomes[1].available == START
    # a's and c's key and movement, and 2's starting chips: nothing of b's
    assert await ledger_rows(ledger) == before + 3
    assert await ledger.db.fetch_all("SELECT 1 FROM accounts WHERE owner_id IN (3, 4)") == []
    assert (await ledger.balance(GUILD, 1), await ledger.balance(GUILD, 2)) == (75, 125)
    assert (await ledger.totals(GUILD)).consistent


async def test_transfer_to_yourself_is_refused(ledger):
    with pytest.raises(UserError, match="yourself"):
        await ledger.transfer(GUILD, 1, 1, 5, key="self")


async def test_the_same_key_twice_moves_chips_once(ledger):
    assert await ledger.transfer(GUILD, 1, 2, 10, key="k") is True
    assert await ledger.transfer(GUILD, 1, 2, 10, key="k") is False
    assert await ledger.grant(GUILD, 1, 50, reason="daily", key="daily:1") is True
    assert await ledger.grant(GUILD, 1, 50, reason="daily", key="daily:1") is False
    assert await ledger.balance(GUILD, 1) == START - 10 + 50
    assert await ledger.balance(GUILD, 2) == START + 10


async def test_buy_in_and_cash_out_go_through_the_table_escrow(ledger):
    await ledger.buy_in(GUILD, 900, 1, 40, key="in-1")
    await ledger.buy_in(GUILD, 900, 2, 40, key="in-2")
    assert await ledger.escrow(GUILD, 900) == 80
    await ledger.cash_out(GUILD, 900, 2, 70, key="out-2")
    with pytest.raises(InsufficientChips, match="The table has 10 chips; 11 are needed"):
        await ledger.cash_out(GUILD, 900, 1, 11, key="out-1")
    assert [await ledger.balance(GUILD, m) for m in (1, 2)] == [START - 40, START + 30]
    assert (await ledger.totals(GUILD)).consistent


async def test_settle_writes_movements_and_results_together(ledger):
    await ledger.buy_in(GUILD, 5, 1, 50, key="in-1")
    await ledger.buy_in(GUILD, 5, 2, 50, key="in-2")
    moves = [
        Move(Account.table(5), Account.member(1), 80, "pot"),
        Move(Account.table(5), Account.member(2), 20, "pot"),
    ]
    results = [
        ResultRow("highcard", 1, 0, 1, 30, table_id=5),
        ResultRow("highcard", 2, 1, 2, -30, table_id=5),
    ]
    assert await ledger.settle(GUILD, moves, results, key="hand-1")
    assert await ledger.settle(GUILD, moves, results, key="hand-1") is False
    rows = await ledger.db.fetch_all(
        'SELECT member_id, "placing", chip_net FROM results ORDER BY seat'
    )
    assert [tuple(row) for row in rows] == [(1, 1, 30), (2, 2, -30)]
    assert await ledger.escrow(GUILD, 5) == 0


async def test_an_exception_halfway_through_a_settlement_leaves_nothing(ledger, integrity_error):
    """The second move's account is one the database refuses: it fails halfway through the
    moves, in the bot's process on SQLite and inside the server's ledger_execute on
    PostgreSQL, after the first move was made."""
    await ledger.buy_in(GUILD, 5, 1, 50, key="in-1")
    await ledger.buy_in(GUILD, 5, 2, 50, key="in-2")
    before = (await ledger_rows(ledger), await ledger.totals(GUILD))
    moves = [
        Move(Account.table(5), Account.member(1), 60, "pot"),
        Move(Account.table(5), Account("bogus", 2), 40, "pot"),  # type: ignore[arg-type]
    ]
    with pytest.raises(integrity_error):
        await ledger.settle(GUILD, moves, [ResultRow("highcard", 1, 0, 1, 10)], key="hand-1")
    assert (await ledger_rows(ledger), await ledger.totals(GUILD)) == before
    assert await ledger.escrow(GUILD, 5) == 100
    assert await ledger.db.fetch_all("SELECT * FROM results") == []
    moves[1] = Move(Account.table(5), Account.member(2), 40, "pot")
    assert await ledger.settle(GUILD, moves, [], key="hand-1")  # the key is still free


async def test_the_database_itself_refuses_a_negative_balance(ledger, integrity_error):
    await ledger.balance(GUILD, 1)
    with pytest.raises(integrity_error, match=r"(?i)check constraint"):
        async with ledger.db.transaction() as tx:
            await tx.run("UPDATE accounts SET chips = -1")
    assert await ledger.balance(GUILD, 1) == START


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE accounts SET chips = 2.5",
        "UPDATE accounts SET chips = chips - 0.5",
        "UPDATE accounts SET chips = 'lots'",
        "UPDATE ledger SET amount = 2.5",
        "INSERT INTO ledger (op_key, credit_account, amount, reason)"
        " SELECT op_key, credit_account, 2.5, 'fraction' FROM ledger",
    ],
)
async def test_sqlite_itself_refuses_a_fraction_of_a_chip(sqlite_ledger, statement):
    """SQLite stores 2.5 in an INTEGER column as a REAL: its CHECK refuses it. (PostgreSQL's
    BIGINT columns hold whole numbers only: test_postgres.py checks every column's type.)"""
    ledger = sqlite_ledger
    await ledger.balance(GUILD, 1)
    with pytest.raises(sqlite3.IntegrityError, match="typeof"):
        async with ledger.db.transaction() as tx:
            await tx.run(statement)
    assert await ledger.balance(GUILD, 1) == START
    assert await ledger_rows(ledger) == 1


@pytest.mark.parametrize("amount", [2.5, 5.0, True, "5", -1])
async def test_a_move_of_anything_but_a_whole_number_is_refused_before_any_sql(
    ledger, monkeypatch, amount
):
    await ledger.balance(GUILD, 1)
    claimed = []
    monkeypatch.setattr(Ledger, "_claim_key", lambda *args: claimed.append(args))
    move = Move(Account.member(1), Account.member(2), amount, "gift")
    with pytest.raises(ValueError, match="invalid chip movement"):
        await ledger.execute(GUILD, "fraction", "transfer", [move])
    with pytest.raises(ValueError, match="invalid chip movement"):
        await ledger.grant(GUILD, 1, amount, reason="test", key="grant")
    assert claimed == []
    assert await ledger.balance(GUILD, 1) == START


async def record(ledger: Ledger, key: str, *rows: ResultRow) -> None:
    assert await ledger.settle(GUILD, [], rows, key=key)


def chip_row(member: int, placing: int, net: int, scope: str = "hand") -> ResultRow:
    return ResultRow("chipgame", member, member, placing, net, scope=scope)


def boards(ledger: Ledger) -> Leaderboards:
    """The boards over the ledger's database."""
    return Leaderboards(ledger.db)


async def test_a_chip_game_ranks_chips_won_over_hands_and_settlements(ledger):
    await record(ledger, "h1", chip_row(1, 1, 30), chip_row(2, 2, -30))
    await record(ledger, "h2", chip_row(1, 2, -10), chip_row(2, 1, 10), chip_row(3, 2, 0))
    await record(ledger, "s", chip_row(1, 2, 5, "settle"), chip_row(2, 2, 3, "settle"))
    # A match row sums the same chips again; it must count neither as chips nor as a hand.
    await record(ledger, "m", chip_row(1, 1, 25, "match"), chip_row(2, 2, -17, "match"))
    await record(ledger, "m4", chip_row(4, 1, 500, "match"))
    standings = await boards(ledger).game_standings(GUILD, "chipgame", 0, 10)
    assert [(s.member_id, s.hands, s.wins, s.net, s.rank) for s in standings] == [
        (1, 2, 1, 25, 1),
        (3, 1, 0, 0, 2),
        (2, 2, 1, -17, 3),
    ]
    assert await boards(ledger).game_player_count(GUILD, "chipgame") == 3
    assert (await boards(ledger).game_standing(GUILD, "chipgame", 2)).rank == 3
    assert await boards(ledger).game_standing(GUILD, "chipgame", 4) is None


def match_row(member: int, placing: int, scope: str = "match") -> ResultRow:
    return ResultRow("points", member, member, placing, 0, score=placing * 10, scope=scope)


async def test_a_points_game_ranks_matches_won_then_the_best_average_place(ledger):
    for key, placings in {"m1": (1, 2, 3), "m2": (1, 3, 2), "m3": (2, 1, 3)}.items():
        await record(
            ledger, key, *(match_row(m, p) for m, p in zip((1, 2, 3), placings, strict=True))
        )
    await record(ledger, "m4", match_row(4, 1), match_row(3, 1))  # 3 shares a first place
    for hand in range(5):  # hands are not matches: they must not count
        await record(ledger, f"h{hand}", match_row(2, 1, "hand"), match_row(1, 2, "hand"))
    standings = await boards(ledger).game_standings(GUILD, "points", 0, 10, "matches")
    assert [(s.member_id, s.matches, s.wins, s.rank) for s in standings] == [
        (1, 3, 2, 1),
        (4, 1, 1, 2),  # one win, average place 1.0
        (2, 3, 1, 3),  # one win, average place 2.0
        (3, 4, 1, 4),  # one win, average place 2.25
    ]
    assert standings[2].average_place == 2.0
    assert await boards(ledger).game_player_count(GUILD, "points", "matches") == 4
    assert (await boards(ledger).game_standing(GUILD, "points", 3, "matches")).rank == 4


def board_row(member: int, score: int | None, variant=None, scope="hand") -> ResultRow:
    return ResultRow("solo", member, 0, 1, 0, score=score, variant=variant, scope=scope)


async def test_a_solo_game_ranks_best_scores_of_single_games_only(ledger):
    await record(ledger, "a1", board_row(1, 40))
    await record(ledger, "a2", board_row(1, 55, "daily:2026-11-22"))
    await record(ledger, "b1", board_row(2, 60, "daily:2026-11-21"))
    await record(ledger, "c1", board_row(3, None))  # a game without a score ranks nothing
    await record(
        ledger,
        "m1",
        board_row(3, 999, scope="match"),
        board_row(1, 999, "daily:2026-11-22", "match"),
    )
    standings = await boards(ledger).game_standings(GUILD, "solo", 0, 10, "scores")
    assert [(s.member_id, s.games, s.best, s.rank) for s in standings] == [
        (2, 1, 60, 1),
        (1, 2, 55, 2),
    ]
    assert await boards(ledger).game_player_count(GUILD, "solo", "scores") == 2
    assert await boards(ledger).game_standing(GUILD, "solo", 3, "scores") is None
    assert await boards(ledger).best_scores(GUILD, "solo") == [(2, 60), (1, 55)]
    assert await boards(ledger).best_scores(GUILD, "solo", "daily:2026-11-22") == [(1, 55)]
    assert await boards(ledger).member_best(GUILD, "solo", 1, "daily:2026-11-22") == 55
    assert await boards(ledger).member_best(GUILD, "solo", 3) is None


async def test_leaderboard_ranks_and_shares_ties(ledger):
    await ledger.transfer(GUILD, 1, 2, 50, key="a")  # 1: 50, 2: 150
    await ledger.balance(GUILD, 3)  # 3: 100
    await ledger.transfer(GUILD, 4, 5, 50, key="b")  # 4: 50, 5: 150
    board = await boards(ledger).leaderboard(GUILD, offset=0, limit=10)
    assert [(s.member_id, s.chips, s.rank) for s in board] == [
        (2, 150, 1),
        (5, 150, 1),
        (3, 100, 3),
        (1, 50, 4),
        (4, 50, 4),
    ]
    assert [s.member_id for s in await boards(ledger).leaderboard(GUILD, offset=2, limit=2)] == [
        3,
        1,
    ]
    assert (await boards(ledger).standing(GUILD, 4)).rank == 4
    assert await boards(ledger).standing(GUILD, 99) is None
    assert await boards(ledger).member_count(GUILD) == 5


async def test_fifty_concurrent_tasks_conserve_the_total(open_database):
    # Two connections to one file (two pools to one server): the conditional debits must
    # hold across them too, and on PostgreSQL transfers each way between the same members at
    # once must not deadlock (the accounts of a step are locked in one order).
    databases = [await open_database(), await open_database()]
    ledgers = [Ledger(db, starting_chips=START) for db in databases]
    members = range(1, 11)
    for member in members:
        await ledgers[0].balance(GUILD, member)
    refused = []

    async def shuffle_chips(task: int) -> None:
        rng = random.Random(task)
        ledger = ledgers[task % 2]
        for step in range(10):
            giver, receiver = rng.sample(members, 2)
            try:
                await ledger.transfer(
                    GUILD, giver, receiver, rng.randint(1, 80), key=f"{task}:{step}"
                )
            except InsufficientChips:
                refused.append(task)

    await asyncio.gather(*(shuffle_chips(task) for task in range(50)))
    totals = await ledgers[0].totals(GUILD)
    assert totals.consistent and totals.balances == 10 * START
    assert all([await ledgers[1].balance(GUILD, m) >= 0 for m in members])
    moved = (
        await databases[0].fetch_one("SELECT COUNT(*) FROM ledger WHERE debit_account IS NOT NULL")
    )[0]
    assert moved + len(refused) == 500


operations = st.lists(
    st.one_of(
        st.tuples(st.just("grant"), st.integers(1, 4), st.integers(0, 60)),
        st.tuples(st.just("give"), st.integers(1, 4), st.integers(1, 4), st.integers(1, 150)),
        st.tuples(st.just("buy_in"), st.integers(1, 4), st.integers(1, 2), st.integers(1, 150)),
        st.tuples(st.just("cash_out"), st.integers(1, 4), st.integers(1, 2), st.integers(1, 150)),
        st.tuples(st.just("repeat")),
    ),
    max_size=25,
)


async def run_operations(open_database, ops: list[tuple]) -> None:
    db = await open_database()
    ledger = Ledger(db, starting_chips=START)
    last: tuple | None = None
    try:
        for index, op in enumerate(ops):
            if op[0] == "repeat" and last is not None:
                op, key = last
            else:
                key = f"op-{index}"
            try:
                match op:
                    case ("grant", member, amount):
                        await ledger.grant(GUILD, member, amount, reason="test", key=key)
                    case ("give", giver, receiver, amount) if giver != receiver:
                        await ledger.transfer(GUILD, giver, receiver, amount, key=key)
                    case ("buy_in", member, table, amount):
                        await ledger.buy_in(GUILD, table, member, amount, key=key)
                    case ("cash_out", member, table, amount):
                        await ledger.cash_out(GUILD, table, member, amount, key=key)
            except InsufficientChips:
                pass
            last = (op, key)
            totals = await ledger.totals()
            assert totals.consistent, (op, totals)
            negative = await db.fetch_one("SELECT COUNT(*) FROM accounts WHERE chips < 0")
            assert negative[0] == 0
    finally:
        await db.close()


@pytest.fixture
def emptied_schema(postgres_server, migrated_schemas):
    """A migrated schema for the test, and `empty()`, which puts it back as migrated (in
    milliseconds): each example starts as on a new database, as on SQLite. A new schema
    migrated per example took 0.4 s of the server's time (its DDL, the files of a new schema
    and a dropped one), 16 of the test's 17 s."""
    with migrated_schema(postgres_server, migrated_schemas) as found:
        yield found


# The backend fixture only names the backend: each example has a new database, on SQLite a
# file of its own, on PostgreSQL the test's schema emptied after each (emptied_schema).
@pytest.mark.slow  # 40 random sequences, each on a database of its own
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=operations)
def test_random_operation_sequences_keep_the_invariant(backend, request, ops):
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "prop.sqlite3"
            asyncio.run(run_operations(lambda: SQLiteDatabase.open(path), ops))
        return
    url, empty = request.getfixturevalue("emptied_schema")
    try:
        asyncio.run(run_operations(lambda: PostgresDatabase.open(url), ops))
    finally:
        empty()


async def test_the_house_reports_its_net_per_game_and_per_day(ledger):
    assert await ledger.fund_house(GUILD, 500, reason="bankroll", key="fund")
    assert await ledger.fund_house(GUILD, 500, reason="bankroll", key="fund") is False
    house = [ResultRow("backhand", 0, 0, 1, 30, scope="house")]
    await record(ledger, "h1", *house)
    await record(ledger, "h2", ResultRow("backhand", 0, 0, 1, -10, scope="house"))
    await record(ledger, "h3", ResultRow("crash", 0, 0, 1, 7, scope="house"))
    assert await ledger.house_balance(GUILD) == 500
    assert await ledger.house_report(GUILD) == [("backhand", 2, 20), ("crash", 1, 7)]
    ((day, hands, net),) = await ledger.house_days(GUILD, 7)
    # the day of the rows' UTC timestamps, written alike on both backends
    row = await ledger.db.fetch_one("SELECT created_at FROM results LIMIT 1")
    assert (day, hands, net) == (row[0][:10], 3, 27)
    assert len(row[0]) == len("2026-11-22T15:00:00.000Z") and row[0].endswith("Z")
