"""Skill ratings, written with the results that make them, on each backend
(tests/store/conftest.py)."""

import os
import random
import sqlite3
import subprocess
import sys

import pytest
from openskill.models import PlackettLuce

from bot import eventloop
from bot.store import (
    Account,
    ChipOperation,
    Ledger,
    Move,
    ResultRow,
    TableRecord,
    TableStatus,
    TableStore,
)
from bot.store.ratings import PLAYED_FOR_WEIGHT, Rating
from bot.store.sqlite import SQLiteDatabase
from tests import ROOT

GUILD, CHANNEL = 1, 10
MODEL = PlackettLuce()
PRIOR = MODEL.rating()


@pytest.fixture
def ledger(database):
    return Ledger(database, starting_chips=100)


@pytest.fixture
def tables(database, ledger):
    return TableStore(database, ledger)


def match(game: str, placings: dict[int, int], **fields) -> list[ResultRow]:
    """A match's result rows: member -> placing, one seat each in member order."""
    return [
        ResultRow(game, member, seat, placing, 0, scope="match", **fields)
        for seat, (member, placing) in enumerate(placings.items())
    ]


def hand(game: str, placings: dict[int, int], **fields) -> list[ResultRow]:
    return [
        ResultRow(game, member, seat, placing, 0, scope="hand", **fields)
        for seat, (member, placing) in enumerate(placings.items())
    ]


async def ratings(ledger: Ledger, game: str = "bigtwo") -> dict[int, Rating]:
    rows = await ledger.db.fetch_all(
        "SELECT member_id FROM ratings WHERE guild_id = ? AND game_id = ?", GUILD, game
    )
    found = {}
    for (member,) in rows:
        (rating,) = await ledger.ratings.member(GUILD, member, game)
        found[member] = rating
    return found


async def seated(
    tables: TableStore, game: str, members: list[int], channel: int = CHANNEL, **flags
) -> TableRecord:
    """A table of `game` in play with `members` seated in order, in `channel`; `flags`: seat
    -> its flags."""
    record = TableRecord(0, GUILD, channel, game, TableStatus.LOBBY, members[0], 0, "{}", 60)
    table = await tables.create(record, "Host", key=f"open:{game}")
    for member in members[1:]:
        await tables.add_seat(table, member, "Guest", key=f"join:{game}:{member}")
    await tables.start(table, "{}", None)
    for seat, changes in flags.items():
        for name, value in changes.items():
            setattr(table.seats[int(seat)], name, value)
    await tables.save_seats(table)
    return table


async def test_a_match_rates_its_players_once_in_the_transaction_of_its_results(ledger):
    rows = match("bigtwo", {1: 1, 2: 2, 3: 3})
    assert await ledger.settle(GUILD, [], rows, key="close:1")
    assert await ledger.settle(GUILD, [], rows, key="close:1") is False  # the same key: nothing
    rated = await ratings(ledger)
    assert rated[1].mu > PRIOR.mu > rated[3].mu
    assert [(rated[m].matches, rated[m].wins) for m in (1, 2, 3)] == [(1, 1), (1, 0), (1, 0)]
    expected = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1.0, 2.0, 3.0])
    assert rated[2].mu == pytest.approx(expected[1][0].mu)
    (last,) = await ledger.ratings.recent(GUILD, 1, "bigtwo", limit=5)
    assert (last.placing, last.skill) == (1, pytest.approx(rated[1].skill))
    assert last.change == pytest.approx(rated[1].skill - (PRIOR.mu - 3 * PRIOR.sigma))


async def test_a_failing_payout_changes_no_rating(ledger, tables, integrity_error):
    """A table's step rates a match, then a payout of the same step fails: the whole step is
    undone, the rating with it."""
    table = await seated(tables, "bigtwo", [1, 2])
    await ledger.settle(GUILD, [], match("bigtwo", {1: 1, 2: 2}), key="close:1")
    before = await ratings(ledger)
    rated = ChipOperation("close:2", "cash_out", (), match("bigtwo", {1: 2, 2: 1}))
    bogus = Move(Account.table(table.id), Account("bogus", 2), 1, "pot")  # type: ignore[arg-type]
    with pytest.raises(integrity_error):
        await tables.commit(
            table,
            state="{}",
            deadline=None,
            chips=[rated, ChipOperation("pay", "cash_out", [bogus])],
        )
    assert await ratings(ledger) == before
    assert len(await ledger.ratings.recent(GUILD, 1, "bigtwo", limit=5)) == 1


async def test_tied_players_share_a_rank(ledger):
    await ledger.settle(GUILD, [], match("bigtwo", {1: 1, 2: 1, 3: 3}), key="close:1")
    rated = await ratings(ledger)
    assert rated[1].mu == pytest.approx(rated[2].mu) and rated[2].mu > PRIOR.mu > rated[3].mu
    assert (rated[1].wins, rated[2].wins) == (1, 1)


async def test_partners_are_rated_as_one_team(ledger, tables):
    table = await seated(tables, "botifarra", [1, 2, 3, 4])
    await tables.set_sides(table, {0: 0, 1: 1, 2: 0, 3: 1})
    rows = match("botifarra", {1: 1, 2: 2, 3: 1, 4: 2}, table_id=table.id)
    await ledger.settle(GUILD, [], rows, key="close:1")
    rated = await ratings(ledger, "botifarra")
    two = [MODEL.rating(), MODEL.rating()]
    winners, _ = MODEL.rate([two, [MODEL.rating(), MODEL.rating()]], ranks=[1.0, 2.0])
    assert rated[1].mu == pytest.approx(winners[0].mu) == pytest.approx(rated[3].mu)
    assert rated[2].mu == pytest.approx(rated[4].mu) and rated[2].mu < PRIOR.mu


async def test_dou_dizhu_rates_the_landlord_against_the_two_peasants(ledger):
    await ledger.settle(GUILD, [], hand("doudizhu", {1: 1, 2: 2, 3: 2}), key="hand:1")
    rated = await ratings(ledger, "doudizhu")
    landlord, peasants = MODEL.rate([[MODEL.rating()], [MODEL.rating(), MODEL.rating()]])
    assert rated[1].mu == pytest.approx(landlord[0].mu)
    assert rated[2].mu == pytest.approx(peasants[0].mu) == pytest.approx(rated[3].mu)
    alone = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1.0, 2.0, 2.0])
    assert rated[1].mu != pytest.approx(alone[0][0].mu)  # not three players each alone


async def test_a_seat_played_for_moves_only_part_of_the_way(ledger, tables):
    table = await seated(tables, "bigtwo", [1, 2, 3], **{"2": {"away": True}})
    rows = match("bigtwo", {1: 2, 2: 3, 3: 1}, table_id=table.id)
    await ledger.settle(GUILD, [], rows, key="close:1")
    rated = await ratings(ledger)
    full = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[2.0, 3.0, 1.0])
    assert rated[1].mu == pytest.approx(full[0][0].mu)
    assert rated[3].mu - PRIOR.mu == pytest.approx(PLAYED_FOR_WEIGHT * (full[2][0].mu - PRIOR.mu))
    weights = await ledger.db.fetch_all(
        "SELECT member_id, weight FROM rating_changes ORDER BY member_id"
    )
    assert [tuple(row) for row in weights] == [(1, 1.0), (2, 1.0), (3, PLAYED_FOR_WEIGHT)]


@pytest.mark.parametrize(
    "rows",
    [
        pytest.param(match("bigtwo", {1: 1, 2: 2}, with_ai=True), id="a table with AI seats"),
        pytest.param(hand("backhand", {1: 1, 2: 2}), id="a house game"),
        pytest.param(hand("soliterrapin", {1: 1}), id="a personal game"),
        pytest.param(match("western", {1: 1, 2: 2}), id="a chip game's close"),
        pytest.param(match("bigtwo", {1: 1, 2: 1}), id="a match nobody won alone"),
        pytest.param(match("nosuchgame", {1: 1, 2: 2}), id="a game the bot doesn't play"),
    ],
)
async def test_what_is_not_rated(ledger, rows):
    assert await ledger.settle(GUILD, [], rows, key="close:1")
    assert await ledger.db.fetch_all("SELECT * FROM ratings") == []
    assert await ledger.db.fetch_all("SELECT * FROM rating_changes") == []


async def test_ai_seats_never_get_a_rating(ledger):
    """A table with AI seats isn't rated; an AI's row (member id below zero) never is."""
    ai = ResultRow("western", -1, 2, 2, 0, with_ai=True)
    await ledger.settle(GUILD, [], [*hand("western", {1: 1, 2: 2}, with_ai=True), ai], key="1")
    unflagged = ResultRow("western", -1, 2, 2, 0)
    await ledger.settle(GUILD, [], [*hand("western", {1: 2, 2: 1}), unflagged], key="2")
    assert sorted(await ratings(ledger, "western")) == [1, 2]
    assert (await ratings(ledger, "western"))[1].matches == 1


async def test_one_lucky_win_does_not_top_a_board_of_seasoned_players(ledger):
    """Five evenly matched members play fifty matches each; a newcomer then beats the best of
    them once. The newcomer's mean is the highest of all, but the board ranks by mu - 3 sigma
    and lists only members with enough matches."""
    chooser, seasoned = random.Random(43), [1, 2, 3, 4, 5]
    for number in range(50):
        order = chooser.sample(seasoned, len(seasoned))
        placings = {member: order.index(member) + 1 for member in seasoned}
        await ledger.settle(GUILD, [], match("bigtwo", placings), key=f"close:{number}")
    best = (await ledger.ratings.board(GUILD, "bigtwo", 10, 0, 10))[0].member_id
    await ledger.settle(GUILD, [], match("bigtwo", {99: 1, best: 2}), key="close:lucky")

    board = await ledger.ratings.board(GUILD, "bigtwo", 10, 0, 10)
    assert [rating.member_id for rating in board] != [] and 99 not in [r.member_id for r in board]
    assert await ledger.ratings.board_size(GUILD, "bigtwo", 10) == 5
    lucky = await ledger.ratings.place(GUILD, "bigtwo", 99, 10)
    assert lucky is not None and (lucky.rank, lucky.matches, lucky.wins) == (0, 1, 1)
    assert lucky.mu > max(rating.mu for rating in board)  # by its mean alone it would top
    everyone = await ledger.ratings.board(GUILD, "bigtwo", 1, 0, 10)
    assert [rating.member_id for rating in everyone][-1] == 99


# ---- rebuilding every rating from the results -------------------------------------------------


async def held(ledger: Ledger) -> list[tuple]:
    rows = await ledger.db.fetch_all(
        "SELECT guild_id, game_id, member_id, mu, sigma, matches, wins FROM ratings"
        " ORDER BY guild_id, game_id, member_id"
    )
    return [(*row[:3], pytest.approx(row[3]), pytest.approx(row[4]), *row[5:]) for row in rows]


async def changes(ledger: Ledger) -> list[tuple]:
    rows = await ledger.db.fetch_all(
        'SELECT op_key, game_id, member_id, "placing", weight, rating, change FROM rating_changes'
        " ORDER BY op_key, game_id, member_id"
    )
    return [(*row[:5], pytest.approx(row[5]), pytest.approx(row[6])) for row in rows]


async def played_history(ledger: Ledger, tables: TableStore) -> None:
    """Results of several games and guilds, a seat played for and partners among them."""
    away = await seated(tables, "bigtwo", [1, 2, 3], **{"2": {"away": True}})
    await ledger.settle(GUILD, [], match("bigtwo", {1: 2, 2: 3, 3: 1}, table_id=away.id), key="a")
    partners = await seated(tables, "botifarra", [1, 2, 3, 4], channel=CHANNEL + 1)
    await tables.set_sides(partners, {0: 0, 1: 1, 2: 0, 3: 1})
    rows = match("botifarra", {1: 1, 2: 2, 3: 1, 4: 2}, table_id=partners.id)
    await ledger.settle(GUILD, [], rows, key="b")
    await ledger.settle(GUILD, [], match("bigtwo", {1: 1, 2: 2, 3: 3}), key="c")
    await ledger.settle(GUILD + 1, [], hand("doudizhu", {1: 1, 2: 2, 3: 2}), key="d")
    await ledger.settle(GUILD, [], match("bigtwo", {1: 1, 2: 2}, with_ai=True), key="e")


async def test_a_rebuild_gives_back_the_ratings_the_results_made(ledger, tables):
    """The seats' flags have changed since (the away seat came back): the weight each result
    was rated with is what counts, not the flags now."""
    await played_history(ledger, tables)
    before, changed = await held(ledger), await changes(ledger)
    await ledger.db.fetch_all("UPDATE table_seats SET away = ?", False)
    rebuilt = await ledger.ratings.rebuild()
    assert (rebuilt.operations, rebuilt.rated, rebuilt.ratings) == (5, 13, 10)
    assert await held(ledger) == before
    assert await changes(ledger) == changed


async def test_a_rebuild_rates_results_recorded_before_ratings_existed(ledger, tables):
    await played_history(ledger, tables)
    live = {(row[1], row[2]): row for row in await held(ledger)}
    for table in ("rating_changes", "ratings"):  # as a database from before migration 017
        await ledger.db.fetch_all(f"DELETE FROM {table}")
    await ledger.ratings.rebuild()
    rebuilt = {(row[1], row[2]): row for row in await held(ledger)}
    assert rebuilt.keys() == live.keys()
    assert [row[5:] for row in rebuilt.values()] == [row[5:] for row in live.values()]  # counts
    assert rebuilt[("botifarra", 1)] == live[("botifarra", 1)]
    # Who was played for then is not known: the away seat's result now counts in full.
    away_skill = rebuilt[("bigtwo", 3)][3]
    assert away_skill != live[("bigtwo", 3)][3]
    weights = await ledger.db.fetch_all("SELECT DISTINCT weight FROM rating_changes")
    assert [tuple(row) for row in weights] == [(1.0,)]


@pytest.mark.slow  # a process started
def test_the_command_rebuilds_a_stopped_bots_ratings(tmp_path):
    async def recorded(path):
        database = await SQLiteDatabase.open(path)
        ledger = Ledger(database, starting_chips=100)
        await ledger.settle(GUILD, [], match("bigtwo", {1: 1, 2: 2, 3: 3}), key="close:1")
        await database.fetch_all("DELETE FROM rating_changes")
        await database.fetch_all("DELETE FROM ratings")
        await database.close()

    path = tmp_path / "cardtable.sqlite3"
    eventloop.run(recorded(path))
    done = subprocess.run(
        [sys.executable, "-m", "bot", "rebuild-ratings"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "Rated 3 members' results of 1 recorded operation again: 3 ratings (one per server, "
        "game and member)."
    )
    with sqlite3.connect(path) as database:
        assert database.execute("SELECT count(*) FROM ratings").fetchone() == (3,)
