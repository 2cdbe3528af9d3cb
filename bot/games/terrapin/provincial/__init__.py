"""Provincial Terrapin: its rules (rules.py), its AI (ai.py) and its spec (spec.py)."""

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
