"""Porrazo as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import french_deck
from bot.engine import GameSpec
from bot.games.porrazo.ai import PorrazoPolicy
from bot.games.porrazo.plays import MAX_SEATS, MIN_SEATS
from bot.games.porrazo.records import PorrazoAction, PorrazoOptions
from bot.games.porrazo.rules import PorrazoState, new_porrazo, partnership_sides
from bot.i18n import N_

PORRAZO = GameSpec(
    id="porrazo",
    name=N_("Porrazo"),
    min_players=MIN_SEATS,
    max_players=MAX_SEATS,
    options_model=PorrazoOptions,
    state_model=PorrazoState,
    actions=TypeAdapter(PorrazoAction),
    deck=french_deck,
    create=new_porrazo,
    sides=partnership_sides,
    ai=PorrazoPolicy(),
    searches=True,
)
