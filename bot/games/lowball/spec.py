"""Triple Draw Lowball as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import french_deck
from bot.engine import GameSpec
from bot.games.lowball.ai import LowballPolicy
from bot.games.lowball.phh import PHH
from bot.games.lowball.rules import LowballAction, LowballOptions, LowballState, new_lowball
from bot.i18n import N_

LOWBALL = GameSpec(
    id="lowball",
    name=N_("Triple Draw Lowball"),
    min_players=2,
    max_players=6,
    options_model=LowballOptions,
    state_model=LowballState,
    actions=TypeAdapter(LowballAction),
    deck=french_deck,
    create=new_lowball,
    uses_chips=True,
    ai=LowballPolicy(),
    searches=True,
    hand_history=PHH,
)
