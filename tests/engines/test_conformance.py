"""Every game (bot.games.GAMES), and the test-only High Card game, pass the conformance test."""

import pytest

from bot.games import GAMES
from tests.conformance import check_game, met_by_seed
from tests.tinygame import TINY

# Long games play shorter here (a lower target, fewer cards): the same rules, met sooner.
QUICKER = {"delphi": {"cards": 12}, "lastone": {"threshold": 80}, "porrazo": {"target": 31}}

# The games are audited over check_game's 24 seeds, but these, the costliest to audit (about
# half this test's CPU over 24 seeds), over fewer. There, everything the audit tells apart
# that their 24 seeds meet is met at least twice: every kind of decision (optional, secret,
# asked in words), every kind of action and how it was chosen (legal, sampled, default, in
# words; the table's next hand, a player leaving, a window closing), every event (public,
# private), the pause between hands, the house holding chips, players leaving with chips,
# every seat count. So each of the audit's checks still runs on each of those cases, twice at
# least. Measured: the first five meet all of it within 3 to 5 seeds, twice within 6 to 10;
# the Terrapin games, Totit and Crash twice within 8 to 12, Backhand within 16 (Porrazo,
# Lowball, Turup and Calabrasella meet something once only in 16); the test below keeps that
# so as the games change (the audit draws from its own stream: it plays the same matches).
FEWER_SEEDS = {
    **dict.fromkeys(["lastone", "delphi", "doudizhu", "botifarra", "bigtwo"], 12),
    **dict.fromkeys(["provincial", "western", "temptation", "liars", "soliterrapin"], 12),
    **dict.fromkeys(["totit", "crash"], 12),
    "backhand": 16,
}
FULL_SEEDS = 24  # check_game's own


@pytest.mark.parametrize("spec", [TINY, *GAMES], ids=lambda spec: spec.id)
@pytest.mark.slow
def test_game_conforms(spec):
    seeds = FEWER_SEEDS.get(spec.id, FULL_SEEDS)
    check_game(spec, seeds=seeds, options=QUICKER.get(spec.id))


@pytest.mark.parametrize(
    "spec", [spec for spec in GAMES if spec.id in FEWER_SEEDS], ids=lambda spec: spec.id
)
@pytest.mark.slow
def test_fewer_seeds_meet_twice_all_that_the_full_seeds_meet(spec):
    """Played without the audit (a few percent of its time): if a change to a game makes
    something rarer, this says to audit it over more seeds."""
    met = met_by_seed(spec, FULL_SEEDS, options=QUICKER.get(spec.id))
    fewer = met[: FEWER_SEEDS[spec.id]]
    for thing in set().union(*met):
        times = sum(thing in seed for seed in fewer)
        assert times >= 2, (
            f"{spec.id}'s first {len(fewer)} seeds meet {thing} {times} times: raise its "
            "FEWER_SEEDS"
        )
