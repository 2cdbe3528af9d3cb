"""The game protocol (protocol.py: a game's state, its records, its AI), the game spec
(spec.py), errors, seeded RNG and the registry of games."""

from bot.engine.errors import IllegalAction
from bot.engine.protocol import (
    Action,
    Decision,
    DecisionKind,
    Event,
    GameState,
    HandByHand,
    HandEnded,
    HandStarted,
    HouseBanked,
    MatchEnded,
    Policy,
    TextAnswers,
    UnlistedActions,
    Viewer,
    Windows,
    placings,
)
from bot.engine.rng import Rng
from bot.engine.spec import GameSpec, HandHistoryFormat, HandMove

__all__ = [
    "Action",
    "Decision",
    "DecisionKind",
    "Event",
    "GameSpec",
    "GameState",
    "HandByHand",
    "HandEnded",
    "HandHistoryFormat",
    "HandMove",
    "HandStarted",
    "HouseBanked",
    "IllegalAction",
    "MatchEnded",
    "Policy",
    "Rng",
    "TextAnswers",
    "UnlistedActions",
    "Viewer",
    "Windows",
    "placings",
]
