"""The store's modules import one another one way only: there is no import cycle among them.
Imports under TYPE_CHECKING or inside a function count, so no cycle hides behind one."""

from graphlib import CycleError, TopologicalSorter

import pytest

from tests.discord.test_discord_port import BOT, imported_modules, module_name


def store_imports() -> dict[str, set[str]]:
    """Each bot.store module, with the bot.store modules it imports."""
    modules = {
        module_name(path): imported_modules(path) for path in BOT.joinpath("store").rglob("*.py")
    }
    return {name: imported & modules.keys() - {name} for name, imported in modules.items()}


def test_the_store_has_no_import_cycle():
    graph = store_imports()
    # The ledger records results and has them rated; the ratings rate results, knowing nothing
    # of the ledger; the boards read what the ledger keeps, and neither knows the other.
    assert {"bot.store.ratings", "bot.store.results"} <= graph["bot.store.ledger"]
    assert "bot.store.results" in graph["bot.store.ratings"]
    assert "bot.store.leaderboards" not in graph["bot.store.ledger"]
    assert "bot.store.ledger" not in graph["bot.store.leaderboards"]
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        pytest.fail("import cycle: " + " -> ".join(error.args[1]))
