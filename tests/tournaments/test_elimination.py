import pytest

from bot.tournaments.elimination import advancers, next_round, plan_exists, ranking
from bot.tournaments.model import Played, Result, Round, Table
from tests.tournaments.helpers import Decide, by_seed, played, unfinished


def play_out(seeds, table_size, least, decide: Decide, withdrawn=()) -> list[Played]:
    history: list[Played] = []
    while (round_ := next_round(seeds, table_size, least, history, withdrawn)) is not None:
        history.append(played(round_, decide))
    return history


def seatings(history: list[Played]) -> list[tuple[list[tuple[int, ...]], tuple[int, ...]]]:
    return [([table.players for table in p.round.tables], p.round.byes) for p in history]


def test_eight_at_two_seat_tables_play_three_rounds_without_byes():
    seeds = list(range(1, 9))
    history = play_out(seeds, 2, 2, by_seed(seeds))
    assert seatings(history) == [
        ([(1, 8), (2, 7), (3, 6), (4, 5)], ()),  # serpentine: top seeds meet late
        ([(1, 4), (2, 3)], ()),
        ([(1, 2)], ()),
    ]
    assert all(table.advance == 1 for p in history for table in p.round.tables)
    assert ranking(seeds, history) == [1, 2, 3, 4, 5, 6, 7, 8]


def test_six_at_two_seat_tables_give_the_best_seed_left_a_bye_in_round_two():
    seeds = list(range(1, 7))
    history = play_out(seeds, 2, 2, by_seed(seeds, upsets=True))
    assert seatings(history) == [
        ([(1, 6), (2, 5), (3, 4)], ()),
        ([(5, 6)], (4,)),  # 4 is the best seed of the field 4, 5, 6
        ([(4, 6)], ()),
    ]
    assert ranking(seeds, history)[:3] == [6, 4, 5]


def test_nine_at_three_seat_tables_play_three_tables_then_a_final():
    seeds = list(range(1, 10))
    history = play_out(seeds, 3, 2, by_seed(seeds))
    assert seatings(history) == [([(1, 6, 7), (2, 5, 8), (3, 4, 9)], ()), ([(1, 2, 3)], ())]


def test_four_at_dou_dizhu_tables_send_two_on_beside_a_bye():
    seeds = [10, 20, 30, 40]
    history = play_out(seeds, 3, 3, by_seed(seeds))
    first = history[0].round
    assert first.tables == (Table((20, 30, 40), advance=2),)
    assert first.byes == (10,)
    assert history[1].round.tables == (Table((10, 20, 30), advance=1),)
    assert len(history) == 2
    assert ranking(seeds, history) == [10, 20, 30, 40]


@pytest.mark.parametrize(
    ("field", "table_size", "least", "exists"),
    [
        (0, 2, 2, False),
        (1, 2, 2, False),
        (2, 2, 2, True),
        (2, 3, 3, False),
        (3, 3, 3, True),
        (4, 3, 3, True),
        (5, 4, 4, True),
        (3, 7, 4, False),
        (40, 7, 7, True),
    ],
)
def test_plan_exists(field, table_size, least, exists):
    assert plan_exists(field, table_size, least) is exists


@pytest.mark.parametrize(("table_size", "least"), [(2, 1), (3, 4), (1, 1)])
def test_tables_that_cannot_be_are_refused(table_size, least):
    with pytest.raises(ValueError):
        plan_exists(4, table_size, least)


def test_no_round_while_a_table_is_playing():
    seeds = list(range(1, 9))
    round_ = next_round(seeds, 2, 2, [])
    assert round_ is not None
    half = Played(round_, (Result((1, 8), (1, 2)), None, None, None))
    assert not half.finished
    assert next_round(seeds, 2, 2, [half]) is None
    assert next_round(seeds, 2, 2, [unfinished(round_)]) is None


def test_no_round_for_a_lone_entrant_or_none():
    assert next_round([5], 2, 2, []) is None
    assert next_round([], 2, 2, []) is None
    assert ranking([5], []) == [5]


def test_no_round_when_too_few_are_left_for_a_table():
    seeds = [1, 2, 3, 4]
    history = [played(next_round(seeds, 3, 3, []), by_seed(seeds))]
    assert next_round(seeds, 3, 3, history, withdrawn={3}) is not None  # 4 goes on instead
    assert next_round(seeds, 3, 3, history, withdrawn={3, 4}) is None  # 1 and 2: no table


def test_advancers_go_by_placing_then_by_seed():
    seeds = [4, 3, 2, 1]
    table = Table((1, 2, 3, 4), advance=2)
    assert advancers(table, Result((1, 2, 3, 4), (3, 1, 1, 3)), seeds) == [3, 2]
    assert advancers(table, Result((1, 2, 3, 4), (2, 2, 2, 1)), seeds) == [4, 3]


def test_a_withdrawn_winner_is_replaced_by_the_next_best():
    seeds = [1, 2, 3]
    table = Table((1, 2, 3), advance=2)
    result = Result((1, 2, 3), (1, 2, 3))
    assert advancers(table, result, seeds, withdrawn={1}) == [2, 3]
    assert advancers(table, result, seeds, withdrawn={1, 3}) == [2]
    assert advancers(table, result, seeds, withdrawn={1, 2, 3}) == []


def test_a_result_must_be_its_tables():
    with pytest.raises(ValueError):
        advancers(Table((1, 2), advance=1), Result((2, 1), (1, 2)), [1, 2])


def test_a_withdrawn_winner_is_not_seated_and_the_loser_goes_on():
    seeds = list(range(1, 9))
    history = [played(next_round(seeds, 2, 2, []), by_seed(seeds))]
    round_ = next_round(seeds, 2, 2, history, withdrawn={1})
    assert round_ is not None
    assert [table.players for table in round_.tables] == [(2, 8), (3, 4)]


def test_ranking_puts_the_withdrawn_last_in_their_own_order():
    seeds = list(range(1, 9))
    history = [played(next_round(seeds, 2, 2, []), by_seed(seeds))]
    history.append(played(next_round(seeds, 2, 2, history, withdrawn={1}), by_seed(seeds)))
    history += play_out_from(seeds, history, withdrawn={1, 5})
    assert ranking(seeds, history, withdrawn={1, 5}) == [2, 3, 4, 8, 6, 7, 1, 5]


def play_out_from(seeds, history, withdrawn) -> list[Played]:
    more: list[Played] = []
    while (round_ := next_round(seeds, 2, 2, [*history, *more], withdrawn)) is not None:
        more.append(played(round_, by_seed(seeds)))
    return more


def test_ranking_mid_round_keeps_those_still_playing_above_those_out():
    seeds = list(range(1, 9))
    round_ = next_round(seeds, 2, 2, [])
    assert round_ is not None
    results = (Result((1, 8), (1, 2)), None, None, Result((4, 5), (2, 1)))
    assert ranking(seeds, [Played(round_, results)]) == [1, 5, 2, 3, 6, 7, 4, 8]


def test_rounds_are_numbered_from_one():
    seeds = list(range(1, 17))
    history = play_out(seeds, 2, 2, by_seed(seeds))
    assert [p.round.number for p in history] == [1, 2, 3, 4]
    assert isinstance(history[0].round, Round)
