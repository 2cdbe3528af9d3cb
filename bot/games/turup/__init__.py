"""Turup: its rules (rules.py), its AI (ai.py) and its spec (spec.py). On Discord: its GameUI
(ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.turup.rules import (
    Capture,
    Captured,
    Dealt,
    NewCards,
    Place,
    Placed,
    RoundScored,
    RoundStarted,
    TurupAction,
    TurupOptions,
    TurupState,
    TurupView,
    packs_for,
    packs_for_players,
)
from bot.games.turup.spec import TURUP

__all__ = [
    "TURUP",
    "Capture",
    "Captured",
    "Dealt",
    "NewCards",
    "Place",
    "Placed",
    "RoundScored",
    "RoundStarted",
    "TurupAction",
    "TurupOptions",
    "TurupState",
    "TurupView",
    "packs_for",
    "packs_for_players",
]
