"""Liar's Terrapin: its rules (rules.py), its AI (ai.py) and its spec (spec.py). On Discord: its
GameUI (ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.terrapin.liars.rules import (
    MAX_RAISE,
    Accept,
    Accepted,
    Challenge,
    Challenged,
    Claim,
    Claimed,
    Discarded,
    DiscardOne,
    DoneDiscarding,
    Draw,
    Drew,
    HandStarted,
    LiarsAction,
    LiarsOptions,
    LiarsState,
    LiarsView,
    SeatView,
)
from bot.games.terrapin.liars.spec import LIARS

__all__ = [
    "LIARS",
    "MAX_RAISE",
    "Accept",
    "Accepted",
    "Challenge",
    "Challenged",
    "Claim",
    "Claimed",
    "DiscardOne",
    "Discarded",
    "DoneDiscarding",
    "Draw",
    "Drew",
    "HandStarted",
    "LiarsAction",
    "LiarsOptions",
    "LiarsState",
    "LiarsView",
    "SeatView",
]
