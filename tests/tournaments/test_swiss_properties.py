"""Swiss rounds for many fields and table sizes, with random results and withdrawals."""

import random

import pytest

from bot.tournaments.model import Played, Round
from bot.tournaments.swiss import byes_needed, next_round, standings
from tests.tournaments.helpers import played, random_results

SIZES = [(k, least) for k in range(2, 7) for least in range(2, k + 1)]
ROUNDS = 4


def check_round(round_: Round, seeds, history, withdrawn: set[int], k: int, least: int):
    active = [m for m in seeds if m not in withdrawn]
    seated = [m for table in round_.tables for m in table.players]
    assert sorted(seated + list(round_.byes)) == sorted(active), "not everyone has one place"
    assert len(round_.byes) == byes_needed(len(active), k, least)
    sizes = [len(table.players) for table in round_.tables]
    assert all(least <= size <= k for size in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert len(sizes) == -(-len(seated) // k), "not the fewest tables"
    byes_so_far = {line.member_id: line.byes for line in standings(seeds, history)}
    if round_.byes:
        assert max(byes_so_far[m] for m in round_.byes) <= min(byes_so_far[m] for m in seated)


@pytest.mark.parametrize(("k", "least"), SIZES)
def test_every_round_seats_the_active_players_once(k, least):
    for field in range(2, 21):
        rng = random.Random(f"swiss {field}/{k}/{least}")
        seeds = rng.sample(range(1000, 2000), field)
        history: list[Played] = []
        withdrawn: set[int] = set()
        while True:
            if rng.random() < 0.3:
                withdrawn.add(rng.choice(seeds))
            round_ = next_round(seeds, k, least, ROUNDS, history, withdrawn)
            if round_ is None:
                break
            check_round(round_, seeds, history, withdrawn, k, least)
            history.append(played(round_, random_results(rng)))
        active = field - len(withdrawn)
        assert len(history) == ROUNDS or (active < least and len(history) < ROUNDS)
        order = [line.member_id for line in standings(seeds, history, withdrawn=withdrawn)]
        assert sorted(order) == sorted(seeds)
        assert set(order[active:]) == withdrawn
