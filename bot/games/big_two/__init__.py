"""Big Two: its rules (rules.py), its AI (ai.py) and its spec (spec.py). On Discord: its GameUI
(ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.big_two.rules import (
    BigTwoAction,
    BigTwoOptions,
    BigTwoState,
    BigTwoView,
    Combo,
    HandStarted,
    cards_left_points,
    check_play,
    classify,
    legal_plays,
    value,
)
from bot.games.big_two.spec import BIG_TWO

__all__ = [
    "BIG_TWO",
    "BigTwoAction",
    "BigTwoOptions",
    "BigTwoState",
    "BigTwoView",
    "Combo",
    "HandStarted",
    "cards_left_points",
    "check_play",
    "classify",
    "legal_plays",
    "value",
]
