"""Temptation Terrapin: its rules (rules.py), its AI (ai.py) and its spec (spec.py). On Discord:
its GameUI (ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.terrapin.temptation.rules import (
    Bought,
    Buy,
    Decline,
    HandStarted,
    SeatView,
    TemptationAction,
    TemptationOptions,
    TemptationState,
    TemptationView,
)
from bot.games.terrapin.temptation.spec import TEMPTATION

__all__ = [
    "TEMPTATION",
    "Bought",
    "Buy",
    "Decline",
    "HandStarted",
    "SeatView",
    "TemptationAction",
    "TemptationOptions",
    "TemptationState",
    "TemptationView",
]
