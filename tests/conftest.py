import asyncio
import logging
import threading

import discord.gateway
import discord.http
import pytest
import yarl
from hypothesis import settings

from bot.eventloop import new_event_loop
from bot.store.backends import BACKENDS
from tests.e2e import (  # noqa: F401  (the end-to-end fixture, for every test module)
    store_backend,
    world,
    world_database_url,
)
from tests.fakediscord import FakeDiscord
from tests.postgres import (  # noqa: F401  (fixtures)
    SKIP_REASON,
    migrated_postgres_url,
    migrated_schemas,
    postgres_server,
    postgres_url,
)
from tests.web.browser import SKIP_REASON as NO_BROWSER
from tests.web.browser import browser, chromium_driver  # noqa: F401  (fixtures)

# Property tests check properties, not speed: a loaded 2-core CI must not fail them on time.
settings.register_profile("project", deadline=None)
settings.load_profile("project")


@pytest.fixture
def restore_logging():
    """main() configures logging for the process; put it back for the tests after."""
    handlers, level = logging.root.handlers[:], logging.root.level
    discord_level = logging.getLogger("discord").level
    yield
    logging.root.handlers[:] = handlers
    logging.root.setLevel(level)
    logging.getLogger("discord").setLevel(discord_level)


@pytest.fixture
def fake_discord_in_a_thread(monkeypatch):
    """The fake Discord on its own loop, for tests that call the blocking entry point."""
    loop = asyncio.new_event_loop()
    fake = FakeDiscord()
    loop.run_until_complete(fake.start())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )
    yield fake
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.run_until_complete(fake.stop())
    loop.close()


# The fixtures that run the bot against the fake Discord: a test that takes one is end to end.
E2E_FIXTURES = {"world", "fake_discord_in_a_thread"}


@pytest.hookimpl(tryfirst=True)  # before `-m "not e2e"` deselects by the marker
def pytest_collection_modifyitems(items):
    """Mark e2e every test that takes an end-to-end fixture, however indirectly, so that
    `make test-fast` leaves it out without each module having to say so. And run the slow
    tests first: the workers share out the quick ones as they finish, rather than one worker
    still running a long test at the end."""
    for item in items:
        if E2E_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def e2e_tests_are_marked(request):
    """A test that starts the fake Discord another way (make_world, a bench) fails until it is
    marked e2e, so that `make test-fast` can never run one by mistake."""
    starts = FakeDiscord.starts
    yield
    if FakeDiscord.starts != starts and request.node.get_closest_marker("e2e") is None:
        pytest.fail("it starts the fake Discord: mark it @pytest.mark.e2e", pytrace=False)


def pytest_generate_tests(metafunc):
    """A test marked `both_backends` runs once per store backend (`test_x[postgres]`): its
    `world` takes the backend from the `store_backend` fixture this parametrizes."""
    if metafunc.definition.get_closest_marker("both_backends") is None:
        return
    if "store_backend" not in metafunc.fixturenames:
        raise pytest.UsageError(
            f"{metafunc.definition.nodeid} is marked both_backends but takes no `world`"
        )
    metafunc.parametrize("store_backend", list(BACKENDS))


def pytest_asyncio_loop_factories(config, item):
    """Every async test runs on the event loop the bot runs on (uvloop where installed)."""
    return {"the bot's loop": new_event_loop}


def pytest_terminal_summary(terminalreporter):
    """One line when the PostgreSQL tests were skipped for want of a server, one when the
    browser tests were for want of Chromium, and how to run them (pytest lists no skip reasons
    by default)."""
    skipped = skipped_for(terminalreporter, SKIP_REASON)
    if skipped:
        reason = skipped[0].longrepr[2].removeprefix("Skipped: ")
        terminalreporter.write_line(
            f"{len(skipped)} PostgreSQL tests skipped ({reason}): start PostgreSQL there with "
            "a database named test (trust authentication), or set TEST_DATABASE_URL to another "
            "server, to run them; REQUIRE_POSTGRES=1 makes a missing server fail the run."
        )
    if browserless := skipped_for(terminalreporter, NO_BROWSER):
        terminalreporter.write_line(
            f"{len(browserless)} browser tests skipped ({NO_BROWSER}): install Debian's chromium "
            "and chromium-driver packages to run them; REQUIRE_BROWSER=1 makes their absence "
            "fail the run."
        )


def skipped_for(terminalreporter, reason: str) -> list:
    return [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if reason in str(report.longrepr)
    ]
