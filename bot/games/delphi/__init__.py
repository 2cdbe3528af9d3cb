"""Delphi: its rules (rules.py; options, actions, events and views in records.py), the bot
oracle's library of secret rules (library.py), its AI (ai.py) and its spec (spec.py). On
Discord: its GameUI (ui.py), its layout picture (picture.py) and its rules text (rules.md),
which only the bot's cog imports.
"""

from bot.games.delphi.records import (
    ABSTAIN,
    CORRECT,
    INCORRECT,
    MAX_RULE_LENGTH,
    NO,
    RULE_SECONDS,
    UNJUDGED,
    YES,
    Answer,
    CardTurned,
    DelphiAction,
    DelphiOptions,
    DelphiView,
    DrawRule,
    HandResult,
    HandScored,
    OracleWrites,
    Revealed,
    RuleSealed,
    StarterTurned,
    Verdict,
    WriteRule,
)
from bot.games.delphi.rules import DelphiState, oracle_score, player_scores
from bot.games.delphi.spec import DELPHI

__all__ = [
    "ABSTAIN",
    "CORRECT",
    "DELPHI",
    "INCORRECT",
    "MAX_RULE_LENGTH",
    "NO",
    "RULE_SECONDS",
    "UNJUDGED",
    "YES",
    "Answer",
    "CardTurned",
    "DelphiAction",
    "DelphiOptions",
    "DelphiState",
    "DelphiView",
    "DrawRule",
    "HandResult",
    "HandScored",
    "OracleWrites",
    "Revealed",
    "RuleSealed",
    "StarterTurned",
    "Verdict",
    "WriteRule",
    "oracle_score",
    "player_scores",
]
