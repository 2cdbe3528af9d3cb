"""Totit: its rules (rules.py), its AI (ai.py) and its spec (spec.py). On Discord: its GameUI
(ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.totit.rules import (
    HAND_SIZE,
    HEADS_UP_HAND_SIZE,
    TABLE_CARDS,
    Capture,
    Captured,
    Dealt,
    HandScored,
    TotitAction,
    TotitOptions,
    TotitState,
    TotitView,
    Trail,
    Trailed,
    capture_reason,
    pairs_in,
    trail_reason,
)
from bot.games.totit.spec import TOTIT

__all__ = [
    "HAND_SIZE",
    "HEADS_UP_HAND_SIZE",
    "TABLE_CARDS",
    "TOTIT",
    "Capture",
    "Captured",
    "Dealt",
    "HandScored",
    "TotitAction",
    "TotitOptions",
    "TotitState",
    "TotitView",
    "Trail",
    "Trailed",
    "capture_reason",
    "pairs_in",
    "trail_reason",
]
