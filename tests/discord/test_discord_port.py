"""bot/discord depends on a narrow port (bot/discord/port.py), not on the bot: the running bot,
its runtime and its presenter (and the parts the presenter hands out) have every member the port
names, with the same parameters, and no module below bot/app.py imports it, so there is no
import cycle through it. And the runtime, the store and the engine import no game's package:
games reach them by their specs."""

import ast
import inspect
from pathlib import Path
from typing import Protocol

from bot.discord.port import (
    Answers,
    DiscordCalls,
    GameLook,
    PresenterHost,
    PrivateViews,
    Runtime,
    TableHost,
)
from tests import ROOT

BOT = ROOT / "bot"


def members(port: type) -> dict[str, object]:
    """What a Protocol declares (its bases' too), by name."""
    declared: dict[str, object] = {}
    for cls in reversed(port.__mro__):
        if cls is object or cls is Protocol or not getattr(cls, "_is_protocol", False):
            continue
        declared |= {name: getattr(cls, name, None) for name in cls.__annotations__}
        declared |= {
            name: value
            for name, value in vars(cls).items()
            if not name.startswith("_") and (callable(value) or isinstance(value, property))
        }
    return declared


def parameters(function: object) -> list[tuple[str, object]]:
    listed = inspect.signature(function).parameters.values()
    return [(p.name, p.kind) for p in listed if p.name != "self"]


def assert_satisfies(implementer: object, port: type) -> None:
    for name, declared in members(port).items():
        assert hasattr(implementer, name), (
            f"{type(implementer).__name__} lacks {port.__name__}.{name}"
        )
        if callable(declared) and not isinstance(declared, property):
            found = getattr(implementer, name)
            assert parameters(found) == parameters(declared), f"{port.__name__}.{name} differs"


async def test_the_bot_its_runtime_and_its_presenter_satisfy_the_port(world):
    bot = world.bot
    for port in (DiscordCalls, PresenterHost, TableHost):
        assert_satisfies(bot, port)
    assert_satisfies(bot.runtime, Runtime)
    assert_satisfies(bot.presenter, Answers)
    assert_satisfies(bot.presenter.hands, PrivateViews)  # the parts it hands out too
    for ui in bot.presenter.games.values():
        assert_satisfies(ui, GameLook)


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, type-checking imports included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(BOT.parent).with_suffix("").parts).removesuffix(".__init__")


def test_no_module_below_the_app_imports_it():
    importers = {
        module_name(path) for path in BOT.rglob("*.py") if "bot.app" in imported_modules(path)
    }
    assert importers - {"bot.app", "bot.__main__"} == set()


def test_the_discord_layer_has_no_import_cycle():
    """Type-checking imports count: a cycle through them is a cycle to read."""
    paths = [*BOT.joinpath("discord").rglob("*.py"), BOT / "app.py"]
    modules = {module_name(path): imported_modules(path) for path in paths}
    edges = {name: imported & modules.keys() - {name} for name, imported in modules.items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, "import cycle: " + " -> ".join([*path, name])
        if name in done:
            return
        for imported in edges[name]:
            visit(imported, (*path, name))
        done.add(name)

    for name in edges:
        visit(name, ())


def game_package(module: str) -> str | None:
    """`lowball` for bot.games.lowball.phh; None outside bot/games' subfolders."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["bot", "games"] and len(parts) > 2 else None


def test_the_runtime_store_and_engine_name_no_game():
    """A game's own knowledge (its rules, formats, teams) reaches the generic layers through
    its GameSpec, never by importing its package: bot.games itself (which registers them all)
    and the shared mechanics beside the packages are all they may import from bot/games."""
    games = {path.name for path in (BOT / "games").iterdir() if path.is_dir()} - {"__pycache__"}
    assert {"lowball", "dou_dizhu", "terrapin"} <= games  # the packages are where it looks
    naming = {
        module_name(path): sorted(m for m in imported_modules(path) if game_package(m) in games)
        for layer in ("tables", "store", "engine")
        for path in BOT.joinpath(layer).rglob("*.py")
    }
    assert {module: found for module, found in naming.items() if found} == {}
