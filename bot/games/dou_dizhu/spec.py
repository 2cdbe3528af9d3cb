"""Dou Dizhu as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import french_deck
from bot.engine import GameSpec
from bot.games.dou_dizhu.ai import DouDizhuPolicy
from bot.games.dou_dizhu.records import DouDizhuAction, DouDizhuOptions
from bot.games.dou_dizhu.rules import DouDizhuState, new_dou_dizhu
from bot.i18n import N_

DOU_DIZHU = GameSpec(
    id="doudizhu",
    name=N_("Dou Dizhu"),
    min_players=3,
    max_players=3,
    options_model=DouDizhuOptions,
    state_model=DouDizhuState,
    actions=TypeAdapter(DouDizhuAction),
    deck=lambda: french_deck(jokers=True),
    create=new_dou_dizhu,
    uses_chips=True,
    one_against_the_others=True,
    ai=DouDizhuPolicy(),
    searches=True,
)
