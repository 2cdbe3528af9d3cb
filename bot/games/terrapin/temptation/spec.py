"""Temptation Terrapin as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.games.terrapin.table import terrapin_spec
from bot.games.terrapin.temptation.ai import TemptationPolicy
from bot.games.terrapin.temptation.rules import TemptationAction, TemptationOptions, TemptationState
from bot.i18n import N_

TEMPTATION = terrapin_spec(
    game_id="temptation",
    name=N_("Temptation Terrapin"),
    state_model=TemptationState,
    options_model=TemptationOptions,
    actions=TypeAdapter(TemptationAction),
    ai=TemptationPolicy(),
)
