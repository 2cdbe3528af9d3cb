"""Botifarra as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import spanish_deck
from bot.engine import GameSpec
from bot.games.botifarra.ai import BotifarraPolicy
from bot.games.botifarra.records import BotifarraAction, BotifarraOptions
from bot.games.botifarra.rules import SEATS, SIDES, BotifarraState, new_botifarra
from bot.i18n import N_

BOTIFARRA = GameSpec(
    id="botifarra",
    name=N_("Botifarra"),
    min_players=SEATS,
    max_players=SEATS,
    options_model=BotifarraOptions,
    state_model=BotifarraState,
    actions=TypeAdapter(BotifarraAction),
    deck=spanish_deck,
    create=new_botifarra,
    sides=SIDES,
    ai=BotifarraPolicy(),
    searches=True,
)
