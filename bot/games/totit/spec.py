"""Totit as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import totit_deck
from bot.engine import GameSpec
from bot.games.totit.ai import TotitPolicy
from bot.games.totit.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TotitAction,
    TotitOptions,
    TotitState,
    new_totit,
)
from bot.i18n import N_

TOTIT = GameSpec(
    id="totit",
    name=N_("Totit"),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options_model=TotitOptions,
    state_model=TotitState,
    actions=TypeAdapter(TotitAction),
    deck=totit_deck,
    create=new_totit,
    ai=TotitPolicy(),
    searches=True,
)
