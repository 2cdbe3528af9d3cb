"""Triple Draw Lowball: its rules (rules.py), its AI (ai.py) and its spec (spec.py). On Discord:
its GameUI (ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.lowball.rules import (
    BETTING_ROUNDS,
    DRAWS,
    HAND_SIZE,
    MAX_BETS,
    CardsDrawn,
    Draw,
    Drew,
    HandResult,
    HandStarted,
    LowballAction,
    LowballOptions,
    LowballState,
    LowballView,
    Revealed,
    SeatView,
    ShownHand,
    StandPat,
    StubReshuffled,
    describe,
    low_strength,
)
from bot.games.lowball.spec import LOWBALL

__all__ = [
    "BETTING_ROUNDS",
    "DRAWS",
    "HAND_SIZE",
    "LOWBALL",
    "MAX_BETS",
    "CardsDrawn",
    "Draw",
    "Drew",
    "HandResult",
    "HandStarted",
    "LowballAction",
    "LowballOptions",
    "LowballState",
    "LowballView",
    "Revealed",
    "SeatView",
    "ShownHand",
    "StandPat",
    "StubReshuffled",
    "describe",
    "low_strength",
]
