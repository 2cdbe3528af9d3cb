"""bench/ai.py's paired comparison: a seat's gain is measured against the same deal played with
every seat at the baseline level, so a seat at that very level gains exactly nothing."""

from __future__ import annotations

import bot.games  # noqa: F401  (registers every game)
from bench.ai import paired, play_deal
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
