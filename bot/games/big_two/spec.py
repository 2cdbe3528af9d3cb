"""Big Two as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import french_deck
from bot.engine import GameSpec
from bot.games.big_two.ai import BigTwoPolicy
from bot.games.big_two.rules import BigTwoAction, BigTwoOptions, BigTwoState, new_big_two
from bot.i18n import N_

BIG_TWO = GameSpec(
    id="bigtwo",
    name=N_("Big Two"),
    min_players=2,
    max_players=4,
    options_model=BigTwoOptions,
    state_model=BigTwoState,
    actions=TypeAdapter(BigTwoAction),
    deck=french_deck,
    create=new_big_two,
    ai=BigTwoPolicy(),
    searches=True,
)
