"""Crash: its rules (rules.py; the hand ranking in ranking.py, good arrangements in planner.py;
options, actions, events and views in records.py), its AI (ai.py) and its spec (spec.py). On
Discord: its GameUI (ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.crash.planner import Planner, expected_points, fill_hands
from bot.games.crash.ranking import (
    HAND_CARDS,
    MAX_HANDS,
    Category,
    arrangement_problem,
    brag_key,
    category,
    hand_name,
    pair_count,
)
from bot.games.crash.records import (
    Arrange,
    Bonus,
    CrashAction,
    CrashOptions,
    CrashView,
    DeclareSixPairs,
    HandResult,
    HandStarted,
    HandVoid,
    PositionResult,
    Ready,
    RevealStraight,
    SeatView,
    Showdown,
    StraightRevealed,
)
from bot.games.crash.rules import CrashState
from bot.games.crash.spec import CRASH

__all__ = [
    "CRASH",
    "HAND_CARDS",
    "MAX_HANDS",
    "Arrange",
    "Bonus",
    "Category",
    "CrashAction",
    "CrashOptions",
    "CrashState",
    "CrashView",
    "DeclareSixPairs",
    "HandResult",
    "HandStarted",
    "HandVoid",
    "Planner",
    "PositionResult",
    "Ready",
    "RevealStraight",
    "SeatView",
    "Showdown",
    "StraightRevealed",
    "arrangement_problem",
    "brag_key",
    "category",
    "expected_points",
    "fill_hands",
    "hand_name",
    "pair_count",
]
