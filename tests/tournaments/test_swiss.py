import itertools
import random

import pytest

from bot.tournaments.model import Played, Result, Round, Standing, Table
from bot.tournaments.swiss import BYE_POINTS, byes_needed, next_round, points, standings
from tests.tournaments.helpers import by_seed, placings_from, played, random_results, unfinished


@pytest.mark.parametrize(
    ("placings", "expected"),
    [
        ((1, 2), [3, 0]),
        ((2, 1), [0, 3]),
        ((1, 1), [1, 1]),
        ((1, 2, 3), [3, 1, 0]),
        ((1, 1, 3), [2, 2, 0]),
        ((1, 2, 2), [3, 0, 0]),
        ((1, 1, 1), [1, 1, 1]),
        ((1, 2, 3, 4), [3, 2, 1, 0]),
        ((1, 1, 3, 4), [2, 2, 1, 0]),
        ((1, 2, 2, 2), [3, 1, 1, 1]),
        ((4, 3, 2, 1), [0, 1, 2, 3]),
    ],
)
def test_points_by_place(placings, expected):
    assert [points(placings, seat) for seat in range(len(placings))] == expected


def test_a_table_of_one_scores_nothing():
    with pytest.raises(ValueError):
        points((1,), 0)


def table_round(number, *tables, byes=()) -> Round:
    return Round(number, tuple(Table(players) for players in tables), byes)


def test_standings_count_points_buchholz_matches_and_byes():
    round_ = table_round(1, (1, 2, 3), byes=(4,))
    history = [Played(round_, (Result((1, 2, 3), (1, 2, 3)),))]
    assert standings([1, 2, 3, 4], history) == [
        Standing(member_id=1, points=3, buchholz=1, matches=1, byes=0),
        Standing(member_id=4, points=BYE_POINTS, buchholz=0, matches=0, byes=1),
        Standing(member_id=2, points=1, buchholz=3, matches=1, byes=0),
        Standing(member_id=3, points=0, buchholz=4, matches=1, byes=0),
    ]


def test_buchholz_counts_an_opponent_once_per_meeting():
    history = [
        Played(table_round(1, (1, 2)), (Result((1, 2), (1, 2)),)),
        Played(table_round(2, (1, 2)), (Result((1, 2), (2, 1)),)),
    ]
    assert [line.buchholz for line in standings([1, 2], history)] == [6, 6]


def test_ties_break_by_buchholz_then_rating_then_seed_and_the_withdrawn_go_last():
    round_ = table_round(1, (1, 2), (3, 4), (5, 6))
    results = (Result((1, 2), (1, 1)), Result((3, 4), (1, 1)), Result((5, 6), (1, 1)))
    history = [Played(round_, results)]
    ratings = {5: 2.0, 2: 9.0, 3: None}
    order = [line.member_id for line in standings(range(1, 7), history, ratings, {2})]
    assert order == [5, 1, 3, 4, 6, 2]


def test_an_unfinished_table_counts_nothing_yet():
    history = [unfinished(table_round(1, (1, 2)))]
    assert [line.points + line.matches for line in standings([1, 2], history)] == [0, 0]


@pytest.mark.parametrize(
    ("players", "table_size", "least", "byes"),
    [(9, 3, 2, 0), (7, 3, 3, 1), (8, 3, 3, 2), (5, 4, 3, 1), (10, 4, 2, 0), (1, 2, 2, None)],
)
def test_byes_are_as_few_as_the_tables_allow(players, table_size, least, byes):
    assert byes_needed(players, table_size, least) == byes


def test_tables_are_the_fewest_and_as_even_as_possible():
    round_ = next_round(list(range(1, 11)), 4, 2, 3, [])
    assert round_ is not None
    assert [len(table.players) for table in round_.tables] == [4, 3, 3]
    assert round_.byes == ()
    assert all(table.advance == 0 for table in round_.tables)


def test_the_bye_goes_to_the_lowest_standing_without_one():
    seeds = list(range(1, 8))
    history: list[Played] = []
    bye_takers = []
    for _ in range(3):
        round_ = next_round(seeds, 3, 3, 3, history)
        assert round_ is not None
        bye_takers += round_.byes
        history.append(played(round_, by_seed(seeds)))
    assert bye_takers[0] == 7
    assert len(set(bye_takers)) == 3
    assert next_round(seeds, 3, 3, 3, history) is None


def test_no_round_while_a_table_plays_or_once_the_rounds_are_played():
    seeds = [1, 2, 3, 4]
    first = next_round(seeds, 2, 2, 1, [])
    assert first is not None
    assert next_round(seeds, 2, 2, 1, [unfinished(first)]) is None
    assert next_round(seeds, 2, 2, 1, [played(first, by_seed(seeds))]) is None


def test_the_withdrawn_are_not_seated():
    seeds = list(range(1, 7))
    round_ = next_round(seeds, 2, 2, 2, [], withdrawn={2, 5})
    assert round_ is not None
    assert sorted(m for table in round_.tables for m in table.players) == [1, 3, 4, 6]


def test_too_few_left_for_a_table_ends_the_rounds():
    assert next_round([1, 2, 3], 3, 3, 5, [], withdrawn={3}) is None


def test_tables_take_the_nearest_points_and_seat_in_standing_order():
    seeds = list(range(1, 9))
    first = next_round(seeds, 4, 4, 2, [])
    assert first is not None
    history = [played(first, by_seed(seeds))]
    second = next_round(seeds, 4, 4, 2, history)
    assert second is not None
    assert [table.players for table in second.tables] == [(1, 5, 2, 6), (3, 7, 4, 8)]


def all_weak_orders(size: int) -> list[tuple[int, ...]]:
    scores = itertools.product(range(size), repeat=size)
    return sorted({placings_from(score) for score in scores})


def test_nine_at_three_seat_tables_never_meet_twice_in_two_rounds():
    seeds = list(range(1, 10))
    first = next_round(seeds, 3, 2, 3, [])
    assert first is not None
    assert [len(table.players) for table in first.tables] == [3, 3, 3]
    met = {pair for table in first.tables for pair in pairs(table.players)}
    for placings in itertools.product(all_weak_orders(3), repeat=3):
        results = tuple(map(Result, (t.players for t in first.tables), placings))
        second = next_round(seeds, 3, 2, 3, [Played(first, results)])
        assert second is not None
        assert [len(table.players) for table in second.tables] == [3, 3, 3]
        assert not met & {pair for table in second.tables for pair in pairs(table.players)}


def pairs(players) -> set[frozenset[int]]:
    return {frozenset(pair) for pair in itertools.combinations(players, 2)}


@pytest.mark.parametrize("seed", range(20))
def test_eight_heads_up_over_three_rounds_meet_no_one_twice(seed):
    seeds = list(range(1, 9))
    rng_results = random_results(random.Random(seed))
    history: list[Played] = []
    while (round_ := next_round(seeds, 2, 2, 3, history)) is not None:
        history.append(played(round_, rng_results))
    meetings = [pair for p in history for table in p.round.tables for pair in pairs(table.players)]
    assert len(history) == 3
    assert len(meetings) == len(set(meetings)) == 12
