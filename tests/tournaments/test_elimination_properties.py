"""Every field size from 2 to 40 at every table size and least from 2 to 7, played out with
random results: the plan holds at every round."""

import random

import pytest

from bot.tournaments.elimination import advancers, next_round, plan_exists, ranking
from bot.tournaments.model import Played
from tests.tournaments.helpers import played, random_results

SIZES = [(k, least) for k in range(2, 8) for least in range(2, k + 1)]
FIELDS = range(2, 41)


def expected_field(seeds, last: Played, withdrawn) -> set[int]:
    field = set(last.round.byes)
    for table, result in last.finished_tables():
        field |= set(advancers(table, result, seeds, withdrawn))
    return field - set(withdrawn)


def check_round(played_: Played, field: set[int], withdrawn: set[int], k: int, least: int):
    round_ = played_.round
    seated = [member for table in round_.tables for member in table.players]
    everyone = seated + list(round_.byes)
    assert len(everyone) == len(set(everyone)), "someone has two places"
    assert set(everyone) == field, "the field is not exactly seated or given byes"
    assert not set(everyone) & withdrawn, "a withdrawn member is seated"
    for table in round_.tables:
        assert least <= len(table.players) <= k
        assert 1 <= table.advance < len(table.players)


def play(seeds, k, least, rng: random.Random, withdraw_chance: float):
    """Plays to the end, checking each round; members withdraw between rounds by chance.
    Returns the history and who withdrew."""
    history: list[Played] = []
    withdrawn: set[int] = set()
    while True:
        if rng.random() < withdraw_chance:
            withdrawn.add(rng.choice(seeds))
        field = expected_field(seeds, history[-1], withdrawn) if history else set(seeds)
        round_ = next_round(seeds, k, least, history, withdrawn)
        if round_ is None:
            assert len(field - withdrawn) < least, "a playable field was left unplayed"
            return history, withdrawn
        history.append(played(round_, random_results(rng)))
        check_round(history[-1], field - withdrawn, withdrawn, k, least)
        assert round_.number == len(history) <= len(seeds)
        assert set(round_.byes) - withdrawn <= expected_field(seeds, history[-1], withdrawn)


@pytest.mark.parametrize(("k", "least"), SIZES)
def test_a_plannable_field_plays_to_a_final_and_a_champion(k, least):
    for field in FIELDS:
        rng = random.Random(f"{field}/{k}/{least}")
        seeds = rng.sample(range(1000, 2000), field)
        if not plan_exists(field, k, least):
            assert next_round(seeds, k, least, []) is None
            continue
        history, _ = play(seeds, k, least, rng, withdraw_chance=0)
        final = history[-1]
        assert len(final.round.tables) == 1 and final.round.byes == (), f"no final for {field}"
        (champion,) = advancers(final.round.tables[0], final.results[0], seeds)
        order = ranking(seeds, history)
        assert order[0] == champion
        assert sorted(order) == sorted(seeds)


@pytest.mark.parametrize(("k", "least"), SIZES)
def test_withdrawals_keep_the_rounds_whole(k, least):
    for field in FIELDS:
        rng = random.Random(f"withdrawals {field}/{k}/{least}")
        seeds = rng.sample(range(1000, 2000), field)
        history, withdrawn = play(seeds, k, least, rng, withdraw_chance=0.5)
        order = ranking(seeds, history, withdrawn)
        assert sorted(order) == sorted(seeds)
        assert set(order[len(order) - len(withdrawn) :]) == withdrawn
        left = expected_field(seeds, history[-1], withdrawn) if history else set()
        if len(left) == 1:  # a champion, by the final or by the others withdrawing
            assert order[0] in left


@pytest.mark.parametrize(("k", "least"), SIZES)
def test_plans_exist_for_every_field_a_table_can_seat(k, least):
    assert not plan_exists(least - 1, k, least)
    assert all(plan_exists(field, k, least) for field in range(least, 200))
