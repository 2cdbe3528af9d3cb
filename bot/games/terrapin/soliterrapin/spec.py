"""Soliterrapin as the registry knows it: its rules."""

from pydantic import TypeAdapter

from bot.cards import decktet
from bot.engine import GameSpec
from bot.games.terrapin.soliterrapin.rules import (
    SoliterrapinAction,
    SoliterrapinOptions,
    SoliterrapinState,
    daily_deal,
    new_soliterrapin,
)
from bot.i18n import N_

SOLITERRAPIN = GameSpec(
    id="soliterrapin",
    name=N_("Soliterrapin"),
    min_players=1,
    max_players=1,
    options_model=SoliterrapinOptions,
    state_model=SoliterrapinState,
    actions=TypeAdapter(SoliterrapinAction),
    deck=decktet.deck,
    create=new_soliterrapin,
    solo=True,
    deal_from=daily_deal,
)
