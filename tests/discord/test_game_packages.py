"""A game owns itself: its package under bot/games holds its engine (rules, AI, spec) and its
presentation (ui.py, its GameUI; picture.py when it draws one; rules.md, what `/<game> rules`
shows), and only the presentation may import Discord. The bot finds the cogs (bot/app.py):
every registered game must come out of them with its GameUI and its slash commands."""

import importlib
import re
import tomllib
from fnmatch import fnmatch
from importlib import resources

import pytest

from bot.engine import GameSpec
from bot.games import GAMES
from bot.games.backhand import AUTO_DEAL_BELOW, BUST_OVER, PUSH_HIGH, PUSH_LOW
from bot.games.calabrasella import SLAM_PAYMENT
from bot.games.calabrasella.ui import DEFAULT_BUY_IN, WORST_CASE
from bot.games.delphi import MAX_RULE_LENGTH, RULE_SECONDS
from bot.games.delphi.library import LIBRARY
from bot.games.terrapin.liars.rules import MAX_RAISE
from bot.games.totit.rules import HAND_SIZE, HEADS_UP_HAND_SIZE, TABLE_CARDS
from cogs.soliterrapin import IDLE_SECONDS
from tests import ROOT
from tests.discord.test_discord_port import imported_modules, module_name

GAMES_DIR = ROOT / "bot" / "games"
# The modules of a game's package that show it on Discord; every other module stays pure.
PRESENTATION = ("ui", "picture")


def package_of(spec: GameSpec) -> str:
    """The game's package: its state's module is `<package>.<module>`."""
    return spec.state_model.__module__.rpartition(".")[0]


def rules_text(spec: GameSpec) -> str:
    return importlib.import_module(f"{package_of(spec)}.ui").RULES


async def test_every_game_comes_out_of_the_cogs_with_its_ui_and_commands(world):
    """Loading every cog registers a GameUI, from the game's own ui module, for each game in
    bot.games.GAMES, and adds its cog, whose `/<group> rules` answers with its rules.md."""
    bot = world.bot
    without_ui = [spec.id for spec in GAMES if spec.id not in bot.presenter.games]
    assert without_ui == [], "no GameUI registered by the cogs"
    assert len(bot.presenter.games) == len(GAMES)  # and none for a game not in GAMES
    for spec in GAMES:
        ui = bot.presenter.games[spec.id]
        assert type(ui).__module__ == f"{package_of(spec)}.ui", spec.id
        cog = bot.get_cog(spec.name)
        assert cog is not None, f"{spec.name} has no cog"
        group = cog.__cog_group_name__
        reply = await world.tester.slash(world.alice, world.channel, f"{group} rules")
        (embed,) = reply.response.embeds
        assert embed["title"] == f"{spec.name}: rules"
        assert embed["description"] == rules_text(spec)


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.id)
def test_a_game_package_holds_its_ui_and_its_rules(spec):
    package = package_of(spec)
    folder = ROOT.joinpath(*package.split("."))
    assert (folder / "ui.py").is_file()
    on_disk = (folder / "rules.md").read_text(encoding="utf-8")
    assert on_disk.endswith("\n") and not on_disk.endswith("\n\n")
    assert all(line == line.strip() for line in on_disk.splitlines())
    # As the bot reads it (package data, so an installed bot has it), less the last newline.
    packaged = resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")
    assert rules_text(spec) == packaged.removesuffix("\n") == on_disk.removesuffix("\n")
    assert rules_text(spec).startswith(f"**{spec.name}**")
    assert "**House decisions.**" in rules_text(spec)


def test_the_rules_files_are_package_data():
    """`pip install .` copies every game's rules.md beside its ui module."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = pyproject["tool"]["setuptools"]["package-data"]
    for spec in GAMES:
        patterns = [*package_data.get("*", []), *package_data.get(package_of(spec), [])]
        assert any(fnmatch("rules.md", pattern) for pattern in patterns), spec.id


def test_only_a_games_presentation_imports_discord():
    """A game's rules, AI, spec and the shared mechanics import neither discord.py nor the
    Discord layer (bot.discord): only its ui module, and its picture module, show it there."""
    importing = {}
    for path in GAMES_DIR.rglob("*.py"):
        discord = sorted(
            name
            for name in imported_modules(path)
            if name.partition(".")[0] == "discord" or f"{name}.".startswith("bot.discord.")
        )
        if discord:
            importing[module_name(path)] = discord
    presentation = {name for name in importing if name.rpartition(".")[2] in PRESENTATION}
    assert {name: found for name, found in importing.items() if name not in presentation} == {}
    assert len({name for name in presentation if name.endswith(".ui")}) == len(GAMES)


def test_only_the_cogs_import_a_games_presentation():
    """The engine, the tables and the Discord layer know a game by its spec and its registered
    GameUI: in bot/, only a game's presentation imports a presentation module (its picture)."""

    def presentation(module: str) -> bool:
        return module.startswith("bot.games.") and module.rpartition(".")[2] in PRESENTATION

    importing = {
        module_name(path): sorted(m for m in imported_modules(path) if presentation(m))
        for path in GAMES_DIR.parent.rglob("*.py")
        if not presentation(module_name(path))
    }
    assert {name: found for name, found in importing.items() if found} == {}


def test_the_picture_modules_are_a_games():
    """picture.py names a game's picture: it sits in a game's package, beside its ui."""
    pictures = sorted(GAMES_DIR.rglob("picture.py"))
    assert [path.parent.relative_to(GAMES_DIR).as_posix() for path in pictures] == [
        "delphi",
        "terrapin/soliterrapin",
    ]
    assert all((path.parent / "ui.py").is_file() for path in pictures)


# What the rules say of a number the code holds: the text was once formatted from it.
STATED = {
    "backhand": [
        f"take your hand over {BUST_OVER}: you can never stand",
        f"A hand under {AUTO_DEAL_BELOW} is dealt cards until it reaches {AUTO_DEAL_BELOW}.",
        f"From {AUTO_DEAL_BELOW} on, **Hit** (one card: over {BUST_OVER} you bust",
        f"if it would have taken you over {BUST_OVER}, else you lose",
        f"totalling {PUSH_LOW}-{PUSH_HIGH} make a push hand",
        f"(one card: {BUST_OVER} or less wins, over it loses)",
    ],
    "calabrasella": [
        f"35-0 pays {SLAM_PAYMENT} each way.",
        f"a defender {SLAM_PAYMENT} chips and the declarer {WORST_CASE}, and the table",
        f"The default buy-in, {DEFAULT_BUY_IN}, covers the costliest hand twice.",
    ],
    "delphi": [
        f"from a library of {len(LIBRARY)} rules",
        f"A rule holds at most {MAX_RULE_LENGTH} characters",
        f"always has at least {RULE_SECONDS // 60} minutes to write a rule",
    ],
    "liars": [f"at most {MAX_RAISE} above the last one (so the first claim is 1 to {MAX_RAISE})"],
    "totit": [
        f"**Deal.** {TABLE_CARDS} cards face up to the table, then {HAND_SIZE} to each player "
        f"({HEADS_UP_HAND_SIZE} each with two players)",
    ],
    "soliterrapin": ["board left alone for an hour is abandoned"],
}
TERRAPIN = ("liars", "provincial", "soliterrapin", "temptation", "western")
SCORING = re.compile(r"\*\*Scoring\.\*\* A hand is your private cards .*? after the first\.")


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.id)
def test_the_rules_state_the_numbers_the_code_plays_by(spec):
    for sentence in STATED.get(spec.id, []):
        assert sentence in rules_text(spec), sentence
    if spec.id == "soliterrapin":
        assert IDLE_SECONDS == 3600


def test_the_terrapin_variants_score_in_the_same_words():
    """One scoring, stated alike by every Terrapin variant; the chip games warn alike that
    chips carried in the pot stay at the table."""
    texts = {spec.id: rules_text(spec) for spec in GAMES if spec.id in TERRAPIN}
    found = [SCORING.search(text) for text in texts.values()]
    assert len(found) == len(TERRAPIN) and all(found)
    (stated,) = {match[0] for match in found if match}
    assert "Aces and Crowns score 5 more for each further card of the rank" in stated
    carried = (
        "Chips carried in the pot to the next hand stay at the table when you leave: you give "
        "up your share of them (Leave warns you first)."
    )
    assert all(carried in texts[game] for game in ("provincial", "temptation", "western"))
