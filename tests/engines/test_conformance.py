"""Every game (bot.games.GAMES), and the test-only High Card game, pass the conformance test."""

import pytest

from bot.games import GAMES
from tests.conformance import cheap_cover, check_game, met_by_seed, times_needed
from tests.tinygame import TINY

# Long games play shorter here (a lower target, fewer cards): the same rules, met sooner.
QUICKER = {"delphi": {"cards": 12}, "lastone": {"threshold": 80}, "porrazo": {"target": 31}}

# The audit (check_game) costs about a playout's steps times the views it checks, and a
# random seed spends most of that on what earlier seeds already met. So each game is audited
# over seeds chosen to meet everything its first 24 seeds (REFERENCE) meet, as the audit
# tells it apart: every kind of decision (optional, secret, asked in words), every kind of
# action and how it was chosen (legal, sampled, default, in words; the table's next hand, a
# player leaving, a window closing), every event (public, private), the pause between hands,
# the house holding chips, players leaving with chips: each twice (once if the 24 meet it
# once), and each table size once. So each of the audit's checks still runs on each of
# those cases, at a fifth of the steps of 12 to 24 seeds a game (7,231 against 37,563).
# The seeds were picked among the first 48 by `cheap_cover`; the test below keeps them
# covering as the games change, and names seeds that do when they no longer do.
AUDITED_SEEDS = {
    "backhand": [7, 15, 20, 23, 25, 38, 40],
    "bigtwo": [21, 27, 35, 40],
    "botifarra": [2, 10, 13, 35, 42],
    "calabrasella": [7, 10, 11, 14, 23, 25, 32],
    "crash": [0, 11, 13, 30],
    "delphi": [2, 9, 10, 15, 26, 38],
    "doudizhu": [25, 33, 35, 42],
    "lastone": [0, 16, 22, 39, 43],
    "liars": [1, 9, 10, 12, 20, 41],
    "lowball": [5, 14, 31, 43, 47],
    "porrazo": [7, 8, 30, 33],
    "provincial": [15, 22, 26, 37, 41, 42],
    "soliterrapin": [1, 2, 5, 6],
    "temptation": [0, 2, 9, 13, 23, 28],
    "totit": [0, 5, 8, 9, 21, 42],
    "turup": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    "western": [7, 9, 14, 34, 35, 37, 42],
}
REFERENCE = range(24)
CANDIDATES = range(48)


@pytest.mark.parametrize("spec", [TINY, *GAMES], ids=lambda spec: spec.id)
@pytest.mark.slow
def test_game_conforms(spec):
    check_game(spec, seeds=AUDITED_SEEDS.get(spec.id, REFERENCE), options=QUICKER.get(spec.id))


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.id)
@pytest.mark.slow
def test_the_audited_seeds_meet_all_that_the_first_24_meet(spec):
    """Played without the audit (a few percent of its time): if a change to a game makes the
    audited seeds miss something, this names seeds that meet it all."""
    options = QUICKER.get(spec.id)
    audited = AUDITED_SEEDS[spec.id]
    met = met_by_seed(spec, sorted({*REFERENCE, *audited}), options=options)
    reference = [thing for seed in REFERENCE for thing in met[seed].things]
    needed = {thing: min(times_needed(thing), reference.count(thing)) for thing in reference}
    for thing, times in needed.items():
        if sum(thing in met[seed].things for seed in audited) < times:
            candidates = met | met_by_seed(spec, set(CANDIDATES) - met.keys(), options=options)
            pytest.fail(
                f"{spec.id}'s audited seeds meet {thing} fewer than {times} times: make its "
                f"AUDITED_SEEDS {cheap_cover(candidates, needed)}"
            )
