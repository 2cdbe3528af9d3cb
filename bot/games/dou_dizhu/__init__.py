"""Dou Dizhu: its rules (rules.py; combinations in combos.py, every legal play in plays.py;
options, actions, events and views in records.py), its AI (ai.py) and its spec (spec.py). On
Discord: its GameUI (ui.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.dou_dizhu.combos import (
    ACE,
    RED_JOKER,
    TWO,
    Combo,
    check_play,
    classify,
    combo_of,
    order,
)
from bot.games.dou_dizhu.plays import Holding, legal_plays
from bot.games.dou_dizhu.records import (
    Bid,
    BidMade,
    DouDizhuAction,
    DouDizhuOptions,
    DouDizhuView,
    HandStarted,
    LandlordChosen,
    Redeal,
    Settled,
)
from bot.games.dou_dizhu.rules import DouDizhuState
from bot.games.dou_dizhu.spec import DOU_DIZHU

__all__ = [
    "ACE",
    "DOU_DIZHU",
    "RED_JOKER",
    "TWO",
    "Bid",
    "BidMade",
    "Combo",
    "DouDizhuAction",
    "DouDizhuOptions",
    "DouDizhuState",
    "DouDizhuView",
    "HandStarted",
    "Holding",
    "LandlordChosen",
    "Redeal",
    "Settled",
    "check_play",
    "classify",
    "combo_of",
    "legal_plays",
    "order",
]
