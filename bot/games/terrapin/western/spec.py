"""Western Terrapin as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.games.terrapin.table import terrapin_spec
from bot.games.terrapin.western.ai import WesternPolicy
from bot.games.terrapin.western.rules import WesternAction, WesternOptions, WesternState
from bot.i18n import N_

WESTERN = terrapin_spec(
    game_id="western",
    name=N_("Western Terrapin"),
    state_model=WesternState,
    options_model=WesternOptions,
    actions=TypeAdapter(WesternAction),
    ai=WesternPolicy(),
)
