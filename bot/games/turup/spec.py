"""Turup as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.engine import GameSpec
from bot.games.turup.ai import TurupPolicy
from bot.games.turup.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TurupAction,
    TurupOptions,
    TurupState,
    new_turup,
    packs_for,
)
from bot.i18n import N_

TURUP = GameSpec(
    id="turup",
    name=N_("Turup"),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options_model=TurupOptions,
    state_model=TurupState,
    actions=TypeAdapter(TurupAction),
    deck_by_seats=packs_for,
    create=new_turup,
    ai=TurupPolicy(),
    searches=True,
)
