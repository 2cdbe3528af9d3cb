"""The game protocol, errors, seeded RNG and the registry of games."""

from bot.engine.errors import IllegalAction
from bot.engine.protocol import (
    Action,
    Decision,
    Event,
    GameSpec,
    GameState,
    HandEnded,
    HandHistoryFormat,
    HandMove,
    HandStarted,
    MatchEnded,
    Policy,
    Viewer,
    placings,
)
from bot.engine.rng import Rng

__all__ = [
    "Action",
    "Decision",
    "Event",
    "GameSpec",
    "GameState",
    "HandEnded",
    "HandHistoryFormat",
    "HandMove",
    "HandStarted",
    "IllegalAction",
    "MatchEnded",
    "Policy",
    "Rng",
    "Viewer",
    "placings",
]
