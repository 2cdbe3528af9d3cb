"""Provincial Terrapin: its rules (rules.py), its AI (ai.py) and its spec (spec.py). On Discord:
its GameUI (ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.terrapin.provincial.rules import (
    CALL,
    Discard,
    DrawDeck,
    DrawDiscard,
    Exchanged,
    Fist,
    FistClosed,
    FistsOpened,
    HandStarted,
    ProvincialAction,
    ProvincialOptions,
    ProvincialState,
    ProvincialView,
    SeatView,
    SetStake,
    StakeSet,
)
from bot.games.terrapin.provincial.spec import PROVINCIAL

__all__ = [
    "CALL",
    "PROVINCIAL",
    "Discard",
    "DrawDeck",
    "DrawDiscard",
    "Exchanged",
    "Fist",
    "FistClosed",
    "FistsOpened",
    "HandStarted",
    "ProvincialAction",
    "ProvincialOptions",
    "ProvincialState",
    "ProvincialView",
    "SeatView",
    "SetStake",
    "StakeSet",
]
