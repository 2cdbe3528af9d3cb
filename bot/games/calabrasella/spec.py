"""Calabrasella as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import italian_deck
from bot.engine import GameSpec
from bot.games.calabrasella.ai import CalabrasellaPolicy
from bot.games.calabrasella.cards import PLAYERS
from bot.games.calabrasella.records import CalabrasellaAction, CalabrasellaOptions
from bot.games.calabrasella.rules import CalabrasellaState, new_calabrasella
from bot.i18n import N_

CALABRASELLA = GameSpec(
    id="calabrasella",
    name=N_("Calabrasella"),
    min_players=PLAYERS,
    max_players=PLAYERS,
    options_model=CalabrasellaOptions,
    state_model=CalabrasellaState,
    actions=TypeAdapter(CalabrasellaAction),
    deck=italian_deck,
    create=new_calabrasella,
    uses_chips=True,
    one_against_the_others=True,
    ai=CalabrasellaPolicy(),
    searches=True,
)
