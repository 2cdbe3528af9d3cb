"""Backhand as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.engine import GameSpec
from bot.games.backhand.ai import BackhandPolicy
from bot.games.backhand.cards import packs_for
from bot.games.backhand.records import BackhandAction, BackhandOptions, house_cover, plays_for_chips
from bot.games.backhand.rules import BackhandState, new_backhand
from bot.i18n import N_

BACKHAND = GameSpec(
    id="backhand",
    name=N_("Backhand"),
    min_players=1,
    max_players=7,
    options_model=BackhandOptions,
    state_model=BackhandState,
    actions=TypeAdapter(BackhandAction),
    deck_by_seats=packs_for,
    create=new_backhand,
    uses_chips=plays_for_chips,
    house=True,
    house_cover=house_cover,
    least_buy_in=lambda options: options.min_bet,
    # Its Standard AI already plays and bets for the most chips (bot/games/backhand/ai.py),
    # so its Expert plays as Standard: nothing to search.
    ai=BackhandPolicy(),
)
