"""Running the real bot against the fake Discord: the fixture every end-to-end test uses.

The bot's store is SQLite unless a test is marked `both_backends`: tests/conftest.py then runs
it once per backend, PostgreSQL in a schema of the test's own (tests/postgres.py)."""

from __future__ import annotations

import asyncio
import atexit
import logging
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import discord.gateway
import discord.http
import pytest
import yarl
from pydantic import SecretStr

from bot.app import CardTableBot
from bot.settings import Settings
from bot.store import Ledger, SQLiteDatabase, open_database
from bot.store.backends import BACKENDS
from tests.fakediscord import Channel, FakeDiscord, Guild, Tester, User
from tests.fakediscord.ratelimits import RateLimits


async def eventually(condition, timeout: float = 5.0, what: str = "the condition") -> None:
    """Wait for `condition()` to hold: for real timers, without betting on a fixed sleep."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(0.02)


class ErrorRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime(2026, 11, 22, 15, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now


UNPACED = 100_000  # the most `requests_per_second` takes: the bot's pacer never waits


@dataclass
class World:
    fake: FakeDiscord
    tester: Tester
    guild: Guild
    channel: Channel
    settings: Settings
    clock: Clock
    members: dict[str, User]
    bots: list[tuple[CardTableBot, asyncio.Task]] = field(default_factory=list)
    runtime_options: dict = field(default_factory=lambda: {"new_seed": lambda: 20261122})
    bot_options: dict = field(default_factory=dict)  # more CardTableBot arguments
    expected_errors: list[str] = field(default_factory=list)

    def enforce_discords_limits(self, limits: RateLimits | None = None) -> RateLimits:
        """The fake answers 429 past Discord's limits, and the bot keeps its own pace again."""
        self.fake.rate_limits = limits or RateLimits()
        self.bot.pacer.per_second = Settings.model_fields["requests_per_second"].default
        return self.fake.rate_limits

    def expect_error_log(self, text: str) -> None:
        """Let one ERROR log record containing `text` pass (for tests of the error path)."""
        self.expected_errors.append(text)

    def __getattr__(self, name: str) -> User:
        try:
            return self.members[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def bot(self) -> CardTableBot:
        return self.bots[-1][0]

    async def start_bot(self, ready_within: float = 5) -> CardTableBot:
        """Start a bot process (a new one after `stop_bot` is a restart on the same database)."""
        client = CardTableBot(
            self.settings,
            clock=self.clock,
            runtime_options=self.runtime_options,
            guild_ready_timeout=0.01,
            **self.bot_options,
        )
        await client.login(self.fake.token)
        task = asyncio.create_task(client.connect(reconnect=False))
        await asyncio.wait_for(client.wait_until_ready(), ready_within)
        self.bots.append((client, task))
        drawing = client.tournament_presenter
        self.tester.bot_busy = lambda: bool(
            client.runtime.renders or client.tournaments.tasks or drawing.pending
        )
        return client

    async def stop_bot(self) -> None:
        client, task = self.bots[-1]
        if not client.is_closed():
            await client.close()
        await asyncio.wait_for(task, 5)


async def make_world(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_url: str | None = None
) -> World:
    """The fake Discord with a server, members and the bot's settings: SQLite in `tmp_path`,
    or the PostgreSQL database at `database_url`."""
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )
    guild = fake.add_guild()
    channel = fake.add_channel(guild)
    members = {name: fake.add_member(guild, name.title()) for name in ("alice", "bob", "carol")}
    members["admin"] = fake.add_member(guild, "Admin", manage_guild=True)
    members["robot"] = fake.add_member(guild, "Robot", bot=True)
    if database_url is None:
        shutil.copyfile(await migrated_sqlite(), tmp_path / "bot.sqlite3")
    settings = Settings(
        _env_file=None,
        discord_token=fake.token,
        database_path=tmp_path / "bot.sqlite3",
        database_url=None if database_url is None else SecretStr(database_url),
        starting_chips=1000,
        daily_chips=100,
        table_edit_seconds=0,  # every edit at once; tests of the pacing set their own
        # The fake enforces no rate limit unless a test asks it to (`enforce_discords_limits`),
        # so the bot needn't wait for Discord's pace either: a long game's hundreds of calls
        # would otherwise take seconds of waiting at 45 a second.
        requests_per_second=UNPACED,
    )
    clock = Clock()
    fake.clock = clock  # Discord's now (a scheduled event's start) is the bot's
    return World(fake, Tester(fake), guild, channel, settings, clock, members)


_migrated: list[Path] = []


async def migrated_sqlite() -> Path:
    """A fresh SQLite database with every migration applied, made once a process: a test's
    bot starts on a copy of it (its migrations cost 8 ms of CPU a bot; tests/store tests
    them from an empty file)."""
    if not _migrated:
        folder = tempfile.mkdtemp(prefix="migrated-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = Path(folder) / "bot.sqlite3"
        database = await SQLiteDatabase.open(path)
        await database.close()
        _migrated.append(path)
    return _migrated[0]


@pytest.fixture
def store_backend() -> str:
    """The bot's backend: SQLite, or each in turn for a test marked `both_backends`."""
    return "sqlite"


@pytest.fixture
def world_database_url(store_backend: str, request: pytest.FixtureRequest) -> str | None:
    """None for SQLite; for PostgreSQL the URL of a migrated, empty schema of the test's own
    (skipped without a server)."""
    if store_backend == "postgres":
        return request.getfixturevalue("migrated_postgres_url")
    return None


async def assert_chips_conserved(settings: Settings) -> None:
    """The bot's database, opened again once the bot is gone: balances + escrows + the house
    = minted - burned, whatever the test did."""
    database = await open_database(settings)
    try:
        totals = await Ledger(database, starting_chips=0).totals()
    finally:
        await database.close()
    assert totals.consistent, f"chips not conserved: {totals}"


@pytest.fixture
async def world(tmp_path, monkeypatch, store_backend, world_database_url):
    errors = ErrorRecords()
    logging.getLogger().addHandler(errors)
    world = await make_world(tmp_path, monkeypatch, world_database_url)
    try:
        await world.start_bot()
        assert isinstance(world.bot.database, BACKENDS[store_backend])  # no silent fallback
        yield world
        await world.tester.idle()
    finally:
        for client, task in world.bots:
            if not client.is_closed():
                await client.close()
            await asyncio.wait_for(task, 5)
        await world.fake.stop()
        logging.getLogger().removeHandler(errors)
    assert not world.fake.unknown_routes, (
        f"the bot used routes the fake lacks: {world.fake.unknown_routes}"
    )
    unexpected = [r.getMessage() for r in errors.records]
    for text in world.expected_errors:
        found = next((m for m in unexpected if text in m), None)
        assert found, f"expected an error log containing {text!r}"
        unexpected.remove(found)
    assert not unexpected, f"the bot logged errors: {unexpected}"
    await assert_chips_conserved(world.settings)
