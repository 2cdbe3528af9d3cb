"""Provincial Terrapin as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.games.terrapin.provincial.ai import ProvincialPolicy
from bot.games.terrapin.provincial.rules import ProvincialAction, ProvincialOptions, ProvincialState
from bot.games.terrapin.table import terrapin_spec
from bot.i18n import N_

PROVINCIAL = terrapin_spec(
    game_id="provincial",
    name=N_("Provincial Terrapin"),
    state_model=ProvincialState,
    options_model=ProvincialOptions,
    actions=TypeAdapter(ProvincialAction),
    ai=ProvincialPolicy(),
    # The fists chosen in secret are no cards: each world forgets the others' and has them
    # chosen again (ProvincialPolicy.shape_world), so the search reads none.
    searches=True,
)
