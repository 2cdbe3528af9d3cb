"""Western Terrapin: its rules (rules.py), its AI (ai.py) and its spec (spec.py). On Discord:
its GameUI (ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.terrapin.western.rules import (
    Drew,
    HandStarted,
    SeatView,
    Stand,
    Take,
    WesternAction,
    WesternOptions,
    WesternState,
    WesternView,
)
from bot.games.terrapin.western.spec import WESTERN

__all__ = [
    "WESTERN",
    "Drew",
    "HandStarted",
    "SeatView",
    "Stand",
    "Take",
    "WesternAction",
    "WesternOptions",
    "WesternState",
    "WesternView",
]
