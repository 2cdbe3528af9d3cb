"""Every game's `/… new` takes its buy-in and turn-time bounds from bot/limits.py, and
the game's own options from its options model."""

import contextlib
import importlib
import typing

import pytest
from discord.ext import commands

import bot.games  # noqa: F401  (registers every game)
from bot.engine import registry
from bot.limits import AI_DELAY, BUY_IN, TURN_SECONDS, Bounds

# Each table game's cog: its game id and the options `/<game> new` takes, in order.
GAMES = {
    "cogs.backhand": (
        "backhand",
        [
            "buy_in",
            "mode",
            "min_bet",
            "max_bet",
            "target",
            "hand_limit",
            "turn_seconds",
            "ai_delay",
        ],
    ),
    "cogs.big_two": ("bigtwo", ["target", "turn_seconds", "ai_delay"]),
    "cogs.botifarra": ("botifarra", ["target", "turn_seconds", "ai_delay"]),
    "cogs.calabrasella": ("calabrasella", ["buy_in", "turn_seconds", "ai_delay"]),
    "cogs.crash": ("crash", ["target", "turn_seconds", "ai_delay"]),
    "cogs.delphi": (
        "delphi",
        ["oracle", "bot_hands", "difficulty", "cards", "turn_seconds", "ai_delay"],
    ),
    "cogs.dou_dizhu": ("doudizhu", ["buy_in", "turn_seconds", "ai_delay"]),
    "cogs.last_one": (
        "lastone",
        ["hand_size", "threshold", "melee_seconds", "turn_seconds", "ai_delay"],
    ),
    "cogs.lowball": ("lowball", ["buy_in", "small_bet", "turn_seconds", "ai_delay"]),
    "cogs.liars_terrapin": ("liars", ["buy_in", "turn_seconds", "ai_delay"]),
    "cogs.porrazo": ("porrazo", ["partnerships", "target", "turn_seconds", "ai_delay"]),
    "cogs.provincial_terrapin": (
        "provincial",
        ["buy_in", "stake_limit", "turn_seconds", "ai_delay"],
    ),
    "cogs.temptation_terrapin": ("temptation", ["buy_in", "turn_seconds", "ai_delay"]),
    "cogs.totit": ("totit", ["trail_when_able", "turn_seconds", "ai_delay"]),
    "cogs.turup": ("turup", ["rounds", "turn_seconds", "ai_delay"]),
    "cogs.western_terrapin": (
        "western",
        ["buy_in", "raise_limit", "allow_check", "turn_seconds", "ai_delay"],
    ),
}
GAME_COGS = list(GAMES)


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
    points_game = not registry.get(GAMES[module_name][0]).uses_chips  # no buy-in
    assert ranges["turn_seconds"] == (30, 600)
    assert ranges["ai_delay"] == (AI_DELAY.low, AI_DELAY.high)
    assert ranges.get("buy_in") == (None if points_game else (20, 500))


@pytest.mark.parametrize("module_name", GAME_COGS)
def test_new_takes_each_option_of_the_game_with_its_bounds_and_description(module_name):
    """`/<game> new` is generated from the game's options model (table_game_cog): one slash
    option per field, bounded and described by the field, between the buy-in and turn time."""
    game_id, names = GAMES[module_name]
    spec = registry.get(game_id)
    module = importlib.import_module(module_name)
    (cog,) = {
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, commands.GroupCog)
        if value is not commands.GroupCog
    }
    assert cog.__cog_group_name__ == game_id
    (new,) = [c for c in cog.__cog_app_commands__ if c.name == "new"]
    parameters = {p.name: p for p in new.parameters}
    assert list(parameters) == names  # as the README's table lists them
    for name, field in spec.options_model.model_fields.items():
        parameter = parameters[name]
        assert field.description, name
        assert parameter.description.startswith(f"{field.description} (default "), name
        assert parameter.default == field.default and not parameter.required, name
        if field.annotation is bool:
            assert parameter.min_value is None and parameter.max_value is None, name
            continue
        if typing.get_origin(field.annotation) is typing.Literal:  # a choice
            choices = [choice.value for choice in parameter.choices]
            assert choices == list(typing.get_args(field.annotation)), name
            continue
        low = next(m.ge for m in field.metadata if hasattr(m, "ge"))
        high = next(m.le for m in field.metadata if hasattr(m, "le"))
        assert (parameter.min_value, parameter.max_value) == (low, high), name
