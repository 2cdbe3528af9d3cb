"""Delphi as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import french_deck
from bot.engine import GameSpec
from bot.games.delphi.ai import POLICY
from bot.games.delphi.records import DelphiAction, DelphiOptions
from bot.games.delphi.rules import DelphiState, new_delphi
from bot.i18n import N_

DELPHI = GameSpec(
    id="delphi",
    name=N_("Delphi"),
    min_players=3,
    max_players=7,
    options_model=DelphiOptions,
    state_model=DelphiState,
    actions=TypeAdapter(DelphiAction),
    deck=french_deck,
    create=new_delphi,
    turn_seconds=30,
    ai=POLICY,
)
