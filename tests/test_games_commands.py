"""Every game's `/… new` takes its buy-in and turn-time bounds from bot/tables/limits.py."""

import contextlib
import importlib

import pytest
from discord.ext import commands

from bot.tables.limits import BUY_IN, TURN_SECONDS, Bounds

GAME_COGS = [
    "cogs.big_two",
    "cogs.dou_dizhu",
    "cogs.liars_terrapin",
    "cogs.provincial_terrapin",
    "cogs.temptation_terrapin",
    "cogs.western_terrapin",
]


@contextlib.contextmanager
def moved(bounds: Bounds, low: int, high: int):
    """Change the (frozen) bounds in place, so every module holding them sees the change."""
    before = bounds.low, bounds.high
    object.__setattr__(bounds, "low", low)
    object.__setattr__(bounds, "high", high)
    try:
        yield
    finally:
        object.__setattr__(bounds, "low", before[0])
        object.__setattr__(bounds, "high", before[1])


def new_command_ranges(module_name: str) -> dict[str, tuple[int, int]]:
    """The declared range of each option of the cog's `new`, as the module builds it now."""
    module = importlib.reload(importlib.import_module(module_name))
    (cog,) = {
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, commands.GroupCog)
        if value is not commands.GroupCog
    }
    (new,) = [c for c in cog.__cog_app_commands__ if c.name == "new"]
    return {p.name: (p.min_value, p.max_value) for p in new.parameters}


@pytest.mark.parametrize("module_name", GAME_COGS)
def test_buy_in_and_turn_time_options_follow_the_table_limits(module_name):
    try:
        with moved(BUY_IN, 20, 500), moved(TURN_SECONDS, 30, 600):
            ranges = new_command_ranges(module_name)
    finally:
        new_command_ranges(module_name)  # build it again with the real bounds
    points_game = module_name == "cogs.big_two"  # played for points: no buy-in
    assert ranges["turn_seconds"] == (30, 600)
    assert ranges.get("buy_in") == (None if points_game else (20, 500))
