"""Crash as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.cards import french_deck
from bot.engine import GameSpec
from bot.games.crash.ai import CrashPolicy
from bot.games.crash.ranking import MAX_SEATS, MIN_SEATS
from bot.games.crash.records import CrashAction, CrashOptions
from bot.games.crash.rules import CrashState, new_crash
from bot.i18n import N_

CRASH = GameSpec(
    id="crash",
    name=N_("Crash"),
    min_players=MIN_SEATS,
    max_players=MAX_SEATS,
    options_model=CrashOptions,
    state_model=CrashState,
    actions=TypeAdapter(CrashAction),
    deck=french_deck,
    create=new_crash,
    ai=CrashPolicy(),
    searches=True,
)
