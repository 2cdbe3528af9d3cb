"""bench/ai.py's paired comparison: a seat's gain is measured against the same deal played with
every seat at the baseline level, so a seat at that very level gains exactly nothing. And its
`--seeing-all`, whose search plays out the true deal."""

from __future__ import annotations

import random

import bot.games  # noqa: F401  (registers every game)
import bot.games.expert as expert
from bench.ai import TrueWorlds, paired, play_deal, see_everything
from bot.engine import registry
from bot.games.expert import DEFAULT_BUDGET


def test_a_deal_replays_alike_for_the_same_levels_and_seed():
    totit = registry.get("totit")
    options = totit.options_model()
    levels = ["standard", "beginner", "standard"]
    first = play_deal(totit, options, levels, 7, {}, [], DEFAULT_BUDGET)
    assert play_deal(totit, options, levels, 7, {}, [], DEFAULT_BUDGET) == first


def test_a_seat_at_the_baseline_level_gains_exactly_nothing():
    line = paired(registry.get("totit"), "standard", "standard", 3, 0, DEFAULT_BUDGET)
    assert "9 seat-hands" in line
    assert "+0.000 (95% CI +0.000 to +0.000)" in line


def test_seeing_all_plays_the_search_out_in_the_true_deal(monkeypatch):
    """`--seeing-all`: every world the search plays out holds the hidden hands as they are;
    the honest search's worlds deal them again."""
    totit = registry.get("totit")
    state = totit.new_match(None, [0, 0, 0], 5)
    seat, rng = 0, random.Random(1)
    theirs = [sorted(map(str, hand)) for hand in state.hands[1:]]

    def hands_in(worlds: expert.Worlds) -> list[list[str]]:
        world = totit.restore(worlds.sample(rng))
        return [sorted(map(str, hand)) for hand in world.hands[1:]]

    assert hands_in(expert.Worlds(state, seat)) != theirs
    monkeypatch.setattr(expert, "Worlds", expert.Worlds)  # put back after the test
    monkeypatch.setattr(expert, "shapes_worlds", expert.shapes_worlds)
    see_everything()
    assert expert.Worlds is TrueWorlds and not expert.shapes_worlds(totit)
    assert hands_in(expert.Worlds(state, seat)) == theirs
