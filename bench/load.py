"""Load: N tables of mixed games at once, every player scripted, against the bot running in a
process of its own, through the fake Discord with Discord's rate limits on.

    .venv/bin/python bench/load.py --tables 10 100 500 [--seconds 30] [--think S | --rate R]
        [--database-url postgresql://user@host/database [--processes N]]

This process runs the fake Discord and the scripted players; the bot runs in a child process as
`python -m bot` runs it (orjson, uvloop, gc.freeze after start-up) with its own database, so
its CPU and memory are its own, as in production where Discord is elsewhere. (The child is
forked from a server process that has imported the bot, tests/bot_process.py's bot_context: it
starts in a fraction of the time, and measures the same.) The database is
SQLite in a temporary file, or with --database-url a schema on that PostgreSQL server made for
the run and dropped after it (so the server needs no empty database, and the bot's tables there
are never touched). For each N: every table opens by `/<game> new`, its players join and start
by button (some tables fill seats with AI players), then for `--seconds` every scripted player
acts once its prompt has reached its DMs (after a mean of `--think` seconds, or at its turn
among R a second with `--rate`), choosing a random legal action (read from the table's saved
state in the database) and sending its button's custom_id. A table that ends opens again.
Reported: interactions answered per second, handling time (INTERACTION_CREATE sent -> the
callback's request received, p50/p99; inside the bot's process, with its event loop's lag; and
from that sending to the bot's callback request), REST calls per player action, 429s, the bot
process's CPU (its garbage collector's share and pauses) and, on PostgreSQL, the server's CPU
(its processes on this machine, every client's but the players' own reads: run it where nothing
else uses the server) and both together, per interaction; the bot's resident memory per table,
and a restart (the bot process stopped and a new one started): the time until all N tables are
loaded and take actions again, and until every table message and prompt has been refreshed. At
the end the ledger is audited: it balances, and holds as many chips as when the tables had
opened.

With --processes N (PostgreSQL), the bot runs as N processes of one shard each (SHARD_COUNT=N,
SHARD_IDS=i), the tables spread over a guild per shard, and --rate is offered to each process.
Each process's line gives its tables' interactions per second, their p50/p99 as the fake timed
them, and its CPU per interaction of its tables. Discord brings every DM click to shard 0's
process, which forwards those on the other processes' tables: that work is in its CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import contextvars
import cProfile
import gc
import itertools
import logging
import multiprocessing
import os
import pickle
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Protocol, TypeVar, get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg
import discord.gateway
import discord.http
import discord.state
import discord.webhook.async_
import yarl

from bench.postgres import fresh_schema, postgres_cpu, postgres_cpu_since
from bot import eventloop
from bot.app import CardTableBot
from bot.collector import YOUNG_COLLECTION_AFTER, set_young_threshold
from bot.engine import registry
from bot.settings import Durability, Settings
from bot.store import Database, Ledger, PostgresDatabase, SQLiteDatabase, Totals
from bot.store.postgres import describe, numbered
from bot.store.tables import TableStore
from bot.tables import action_token
from bot.tables.runtime import TableRuntime
from tests.bot_process import bot_context, start_until_ready
from tests.e2e import ErrorRecords
from tests.fakediscord import FakeDiscord
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.server import ANSWER_WITHIN, Channel, Message, User
from tests.fakediscord.tester import NotAnswered, Tester

# (game, scripted players, AI seats, options of /<game> new)
MIX = [
    ("bigtwo", 3, 0, {}),
    ("doudizhu", 3, 0, {"buy_in": 100}),
    ("botifarra", 2, 2, {"ai_delay": 1}),
    ("western", 3, 0, {"buy_in": 200}),
    ("lowball", 3, 0, {"buy_in": 200}),
    ("calabrasella", 3, 0, {"buy_in": 100}),
    ("totit", 2, 0, {}),
    ("turup", 1, 2, {"ai_delay": 1}),
    ("porrazo", 2, 0, {}),
    ("lastone", 3, 0, {}),
]
# Enough that random play never leaves a host short of a buy-in to open the next table: a
# refused `/<game> new` opens none, and the run stops (OPEN_WITHIN) with the bot's reply.
STARTING_CHIPS = 10_000_000
OPEN_WITHIN = 30.0  # s, for a table asked for to show its lobby
SLICE_SECONDS = 10
CLOSED_TABLES = "SELECT id FROM game_tables WHERE status = 'closed'"
PROMPT = re.compile(r"^\w\w:(\d+):(\d+):")  # every control of a prompt: xx:<table>:<prompt>:...


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else 0.0


def resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int | str) -> float:
    """CPU seconds process `pid` has used, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reference_ms() -> float:
    """CPU milliseconds a fixed piece of pure-Python work takes now. This machine is shared:
    this work took 24 to 46 ms within minutes, and the same code's CPU per interaction moved
    with it, so each window is read beside this (taken right before and after it)."""
    started = time.process_time()
    for number in range(300_000):
        str(number).encode()
    return (time.process_time() - started) * 1000


# ---- the bot's process ----------------------------------------------------------------------


class GCTime:
    """Seconds the cyclic garbage collector ran, and when its latest pauses were."""

    def __init__(self) -> None:
        self.total, self.longest, self._started = 0.0, 0.0, 0.0
        self.full = 0  # full collections in the window
        # (start, end) by time.perf_counter(): enough to cover any click still unanswered
        self.pauses: collections.deque[tuple[float, float]] = collections.deque(maxlen=1000)
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            ended = time.perf_counter()
            pause = ended - self._started
            self.pauses.append((self._started, ended))
            self.total += pause
            self.longest = max(self.longest, pause)
            self.full += info["generation"] == 2

    def stop(self) -> None:
        gc.callbacks.remove(self._tick)


# Along a click that moves (BotSideTimes._mark_the_way), between its parsing and its answer's
# request; and the segments between them.
MARKS = ("handler", "move", "commit", "committed")
SEGMENTS = ("to its handler", "to its move", "its move", "its commit", "its answer")


T = TypeVar("T")


def median_and_slowest(ordered: list[T]) -> tuple[list[T], list[T]]:
    """The median 10% of `ordered` and its slowest 1%, each holding at least one where there
    are any: a short window may have a handful of clicks (a tenth of 5 is none)."""
    count = len(ordered)
    low = int(count * 0.45)
    median = ordered[low : max(low + 1, int(count * 0.55))]
    return median, ordered[min(int(count * 0.99), max(count - 1, 0)) :]


class BotSideTimes:
    """In the bot's process: from INTERACTION_CREATE parsed to its callback request made (the
    handling time without the fake's and the sockets' share), and how late the event loop
    runs a 10 ms timer (its lag, from whatever ran in between). Also when each callback
    request was made, by interaction (time.monotonic(), the clock the fake's process times its
    sending by): from the fake's send to it is the bot's time with its socket's share, where a
    busy loop leaves the interaction unread, and without the fake's share in receiving."""

    def __init__(self, collector_pauses: collections.deque[tuple[float, float]]) -> None:
        self.collector_pauses = collector_pauses
        self.started: dict[int, float] = {}
        self.handling: list[float] = []
        self.answered_at: dict[int, float] = {}
        self.lag: list[float] = []
        # Marks along the way of each click that moves (see `_mark_the_way`), by interaction,
        # and each such click's segments once answered.
        self.marks: dict[int, dict[str, float]] = {}
        # each click's segments, and how much of its whole time the collector's pauses took
        self.clicks: list[tuple[tuple[float, ...], float]] = []
        self._mark_the_way()
        state, adapter = discord.state.ConnectionState, discord.webhook.async_.AsyncWebhookAdapter
        parse, request = state.parse_interaction_create, adapter.request

        def parsed(connection, data):
            self.started[int(data["id"])] = time.perf_counter()
            return parse(connection, data)

        def requesting(webhooks, route, *args, **kwargs):  # every callback, however it's sent
            if route.path.endswith("/callback"):
                interaction_id = int(route.webhook_id)
                self.answered_at[interaction_id] = time.monotonic()
                started = self.started.pop(interaction_id, None)
                if started is not None:
                    self.handling.append(time.perf_counter() - started)
                    self._segment(started, self.marks.pop(interaction_id, {}))
            return request(webhooks, route, *args, **kwargs)

        state.parse_interaction_create = parsed
        adapter.request = requesting

    def _mark_the_way(self) -> None:
        """Mark a click as its handler runs (`on_interaction`), its move is taken up
        (`TableRuntime.act`), and its commit starts and ends (`TableStore.commit`: the first
        start and the last end, when it plays on for players away). The click's id rides in
        a context variable, its own task's."""
        click: contextvars.ContextVar[int | None] = contextvars.ContextVar("click")
        marks = self.marks
        handle, act, commit = CardTableBot.on_interaction, TableRuntime.act, TableStore.commit

        def mark(name: str, again: bool = False) -> None:
            found = marks.get(click.get(None))
            if found is not None and (again or name not in found):
                found[name] = time.perf_counter()

        async def handling(bot, interaction):
            click.set(interaction.id)
            marks[interaction.id] = {"handler": time.perf_counter()}
            return await handle(bot, interaction)

        async def acting(runtime, *args, **kwargs):
            mark("move")
            return await act(runtime, *args, **kwargs)

        async def committing(store, *args, **kwargs):
            mark("commit")
            try:
                return await commit(store, *args, **kwargs)
            finally:
                mark("committed", again=True)

        CardTableBot.on_interaction = handling
        TableRuntime.act = acting
        TableStore.commit = committing

    def _segment(self, parsed: float, marks: dict[str, float]) -> None:
        """A click that moved, answered now: the time between each mark and the next."""
        if all(name in marks for name in MARKS):
            points = [parsed, *(marks[n] for n in MARKS), time.perf_counter()]
            segments = tuple(b - a for a, b in itertools.pairwise(points))
            self.clicks.append((segments, self._collecting(parsed, points[-1])))

    def _collecting(self, start: float, end: float) -> float:
        """Seconds between `start` and `end` the garbage collector held the process."""
        overlap = 0.0
        for paused, resumed in reversed(self.collector_pauses):
            if resumed <= start:
                break
            overlap += max(0.0, min(resumed, end) - max(paused, start))
        return overlap

    def segments(self) -> dict:
        """The mean of each segment (ms) over the median 10% of clicks that moved, and over
        the slowest 1%, by their whole handling time; and the mean time the garbage collector
        held each of those groups."""
        clicks = sorted(self.clicks, key=lambda click: sum(click[0]))
        count = len(clicks)
        median, slowest = median_and_slowest(clicks)

        def means(group):
            return [sum(segment) / len(group) * 1000 for segment in zip(*group, strict=True)]

        def collecting(group):
            return sum(overlap for _, overlap in group) / max(1, len(group)) * 1000

        return {
            "clicks": count,
            "median": means([segments for segments, _ in median]),
            "slowest": means([segments for segments, _ in slowest]),
            "collecting": (collecting(median), collecting(slowest)),
        }

    async def watch_the_loop(self) -> None:
        while True:
            due = time.perf_counter() + 0.01
            await asyncio.sleep(0.01)
            self.lag.append(time.perf_counter() - due)

    def window(self) -> tuple[float, float, float, int, dict, dict[int, float]]:
        """p50 and p99 of the handling time, p99 of the loop's lag, in ms, how many
        callbacks were timed, where clicks' time went (`segments`), and when each callback was
        requested; then start anew."""
        handling, lag = [t * 1000 for t in self.handling], [t * 1000 for t in self.lag]
        answered_at, segments = self.answered_at, self.segments()
        self.handling, self.lag, self.answered_at, self.clicks = [], [], {}, []
        self.marks.clear()
        p50, p99 = percentile(handling, 0.5), percentile(handling, 0.99)
        return p50, p99, percentile(lag, 0.99), len(handling), segments, answered_at


def serve_bot(config: dict, pipe) -> None:
    """The child process: the bot as `python -m bot` runs it, on the fake Discord's addresses.
    It answers the parent's commands on `pipe` until told to stop."""
    discord.http.Route.BASE = config["api_base"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config["gateway_url"])
    # Lowball imports pokerkit (some 15 MB of hand tables) at its first showdown, which comes
    # as the tables open: imported before the baseline, memory per table counts the tables.
    import pokerkit  # noqa: F401

    logging.basicConfig(level=logging.WARNING)
    errors = ErrorRecords()
    logging.getLogger().addHandler(errors)
    settings = Settings(
        _env_file=None,
        discord_token=config["token"],
        database_path=config["database"],
        database_url=config["database_url"],
        starting_chips=STARTING_CHIPS,
        daily_chips=100,
        requests_per_second=45,
        durability=config["durability"],
        shard_count=config["shard_count"],
        shard_ids=config["shard_ids"],
    )
    eventloop.run(bot_main(settings, config, pipe, errors))


async def bot_main(settings: Settings, config: dict, pipe, errors: ErrorRecords):
    profile_path = config.get("profile")
    gc_time, profile, stop = GCTime(), cProfile.Profile(), asyncio.Event()
    inside = BotSideTimes(gc_time.pauses)
    watching = asyncio.create_task(inside.watch_the_loop())
    client = CardTableBot(
        settings,
        runtime_options={"between_hands": timedelta(seconds=2)},
        freeze_after_setup=True,
        guild_ready_timeout=0.01,  # as the test world: the fake sends every guild at once
    )

    answering: set[asyncio.Task] = set()  # answers still being read: kept until sent

    async def send_totals() -> None:
        pipe.send(await client.ledger.totals())

    def command() -> None:
        try:
            what = pipe.recv()
        except EOFError:  # the bench is gone (killed): stop, rather than read EOF forever
            asyncio.get_running_loop().remove_reader(pipe.fileno())
            stop.set()
            return
        if what == "busy":  # renders still to finish, calls waiting for the pacer or out
            pacer = client.pacer
            pipe.send(len(client.runtime.renders) + pacer.waiting + pacer.in_flight)
        elif what == "tables":  # the tables this process has loaded and plays
            pipe.send(len(client.runtime.tables))
        elif what == "totals":  # the ledger's, read through the bot's own store
            answer = asyncio.create_task(send_totals())
            answering.add(answer)
            answer.add_done_callback(answering.discard)
        elif what == "window":  # a play window opens: reset the collector's longest pause
            gc_time.longest, gc_time.full = 0.0, 0
            inside.window()
            pipe.send((gc_time.total, 0.0, 0, 0, None))
            if profile_path:
                profile.enable()
        elif what == "figures":
            tracked = len(gc.get_objects()) + gc.get_freeze_count()
            *times, answered_at = inside.window()
            # Too much for the pipe at once: the parent reads it from a file in the run's folder.
            answered_file(Path(config["folder"]), config["index"]).write_bytes(
                pickle.dumps(answered_at)
            )
            pipe.send((gc_time.total, gc_time.longest, gc_time.full, tracked, times))
            if profile_path:
                profile.disable()
                profile.dump_stats(profile_path)
        elif what == "stop":
            stop.set()

    asyncio.get_running_loop().add_reader(pipe.fileno(), command)
    async with client:
        running = await start_until_ready(client, settings.discord_token.get_secret_value())
        pipe.send("ready")
        await stop.wait()
        watching.cancel()
    await asyncio.wait_for(running, 10)
    with contextlib.suppress(BrokenPipeError):  # the bench may be gone
        pipe.send([record.getMessage() for record in errors.records])


class BotProcess:
    """The parent's handle on a bot process: the only one, or (`shard`: its id and the
    count) one of several, running that one shard."""

    def __init__(
        self,
        fake: FakeDiscord,
        database: BenchDatabase,
        profile: str | None,
        durability: Durability = "full",
        shard: tuple[int, int] | None = None,
    ) -> None:
        self.index = 0 if shard is None else shard[0]
        self.config = {
            "index": self.index,
            "shard_count": None if shard is None else shard[1],
            "shard_ids": None if shard is None else (shard[0],),
            "api_base": fake.api_base,
            "gateway_url": fake.gateway_url,
            "token": fake.token,
            "folder": str(database.folder),
            "database": str(database.path),
            "database_url": database.url,
            "profile": profile,
            "durability": durability,
        }
        self.process: multiprocessing.Process | None = None
        self.pipe = None

    async def start(self) -> None:
        """Start the process; return once it is connected, its tables loaded."""
        context = bot_context()
        self.pipe, theirs = context.Pipe()
        process = context.Process(target=serve_bot, args=(self.config, theirs), daemon=True)
        await asyncio.to_thread(process.start)  # the first waits for the server's imports
        self.process = process  # once started: `kill` has one to kill
        theirs.close()
        assert await self.ask(None, timeout=600) == "ready"
        self.config["profile"] = None  # only the first process's first play window

    async def ask(self, what: str | None, timeout: float = 60):
        if what is not None:
            self.pipe.send(what)
        if not await asyncio.to_thread(self.pipe.poll, timeout):
            raise TimeoutError(f"the bot process did not answer {what!r}")
        return self.pipe.recv()

    async def kill(self) -> None:
        """Kill the process if it runs, and wait for it to end (its connections with it)."""
        if self.process is not None:
            self.process.kill()
            await asyncio.to_thread(self.process.join, 10)
            self.process = None

    async def stop(self) -> list[str]:
        """Stop the bot as a shutdown does; the ERROR log records it wrote."""
        errors = await self.ask("stop")
        await asyncio.to_thread(self.process.join, 10)
        self.process = None
        return errors

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    def rss_kb(self) -> int:
        return resident_kb(self.process.pid)


class Bots:
    """The bot's processes: one, or with `processes` N > 1, N that each run one shard of N
    (SHARD_COUNT=N, SHARD_IDS=i) over one PostgreSQL database, as `python -m bot cluster`
    splits them."""

    def __init__(
        self,
        fake: FakeDiscord,
        database: BenchDatabase,
        processes: int,
        profile: str | None,
        durability: Durability = "full",
    ) -> None:
        self.each = [
            BotProcess(
                fake,
                database,
                profile if index == 0 else None,
                durability,
                shard=None if processes == 1 else (index, processes),
            )
            for index in range(processes)
        ]

    async def start(self) -> None:
        """One after another: the first migrates the store and syncs the commands."""
        for bot in self.each:
            await bot.start()

    async def ask(self, what: str) -> list:
        return list(await asyncio.gather(*(bot.ask(what) for bot in self.each)))

    async def kill(self) -> None:
        await asyncio.gather(*(bot.kill() for bot in self.each))

    async def stop(self) -> list[str]:
        """Stop them all as a shutdown does; the ERROR log records they wrote."""
        stopped = await asyncio.gather(*(bot.stop() for bot in self.each))
        return [error for errors in stopped for error in errors]

    def cpu(self) -> list[float]:
        return [bot.cpu() for bot in self.each]

    def rss_kb(self) -> int:
        return sum(bot.rss_kb() for bot in self.each)


# ---- the bot's database ---------------------------------------------------------------------


@dataclass(frozen=True)
class BenchDatabase:
    """Where the bot keeps its store during a run: a SQLite file in the run's folder, or (with
    `url`) a schema on a PostgreSQL server made for the run. The run's folder also holds what
    the bot's process hands the parent in files."""

    folder: Path
    url: str | None = None  # its search_path the run's own schema

    @property
    def path(self) -> Path:
        return self.folder / "bot.sqlite3"

    def describe(self) -> str:
        return "SQLite" if self.url is None else f"PostgreSQL at {describe(self.url)}"

    async def open(self) -> Database:
        """The store, as the bot opens it."""
        if self.url is None:
            return await SQLiteDatabase.open(self.path)
        return await PostgresDatabase.open(self.url, pool_size=1)

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[SavedRows]:
        """The players' reads, once the bot's process has made the database."""
        saved = SQLiteRows(self.path) if self.url is None else await PostgresRows.connect(self.url)
        try:
            yield saved
        finally:
            await saved.close()


@contextlib.asynccontextmanager
async def bench_database(folder: Path, database_url: str | None) -> AsyncIterator[BenchDatabase]:
    if database_url is None:
        yield BenchDatabase(folder)
        return
    async with fresh_schema(database_url) as url:
        yield BenchDatabase(folder, url)


class SavedRows(Protocol):
    """The players' own way to the bot's saved tables (with `?` placeholders)."""

    # PostgreSQL: the server processes of these connections, whose CPU is the players', not
    # the bot's
    connections: set[int]

    async def rows(self, sql: str, *params: object) -> list[tuple]: ...

    async def close(self) -> None: ...


class SQLiteRows:
    """A read-only connection of the players' own: SQLite answers in microseconds, so on this
    process's loop."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.connections: set[int] = set()

    async def rows(self, sql: str, *params: object) -> list[tuple]:
        return self.connection.execute(sql, params).fetchall()

    async def close(self) -> None:
        self.connection.close()


PLAYERS_APPLICATION = (
    "cardtable-bench-players"  # the players' connections, as the server lists them
)


class PostgresRows:
    """A few pooled connections of the players' own (every table's players read at once)."""

    CONNECTIONS = 4

    def __init__(self) -> None:
        self.pool: asyncpg.Pool | None = None
        self.connections: set[int] = set()

    @classmethod
    async def connect(cls, url: str) -> PostgresRows:
        reader = cls()

        async def opened(connection: asyncpg.Connection) -> None:
            reader.connections.add(connection.get_server_pid())

        size = cls.CONNECTIONS
        reader.pool = await asyncpg.create_pool(
            url,
            min_size=size,
            max_size=size,
            init=opened,
            server_settings={"application_name": PLAYERS_APPLICATION},
        )
        return reader

    async def rows(self, sql: str, *params: object) -> list[tuple]:
        assert self.pool is not None
        return [tuple(row) for row in await self.pool.fetch(numbered(sql), *params)]

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()


# ---- the players ----------------------------------------------------------------------------


@dataclass
class ScriptedTable:
    """One table of the run, its channel and its scripted players."""

    game: str
    channel: Channel
    players: list[User]
    ai: int
    options: dict
    process: int = 0  # the bot process whose shard holds the table's guild
    table_id: int | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    acted: set[tuple[int, int]] = field(default_factory=set)  # (seat, prompt) already answered


@dataclass
class SavedTable:
    """What a player can know of a table: its saved state, read from the bot's database."""

    status: str
    state: object | None
    seats: list[tuple[int, int, bool]]  # (member, prompt, AI) per seat


class OpenLoop:
    """An open loop: players whose prompt has come wait in line, and one is let act at each
    of a Poisson stream of moments, `rate` a second, whatever the bot's pace. The load offered
    is then `rate` (less the moments that found nobody waiting, counted in `idle`), where
    players who think (`--think`) offer whatever the bot's answers let them."""

    def __init__(self, rate: float, rng: random.Random):
        self.rate, self.rng = rate, rng
        self.waiting: collections.deque[asyncio.Future] = collections.deque()
        self.moments = self.idle = 0
        self._pacing: asyncio.Task | None = None

    def start(self) -> None:
        self.moments = self.idle = 0
        self._pacing = asyncio.create_task(self._run())

    def stop(self) -> None:
        """The window's end: everyone waiting goes, and whoever comes later does not wait."""
        self._pacing.cancel()
        self._pacing = None
        while self.waiting:
            self.waiting.popleft().set_result(None)

    async def turn(self) -> None:
        """Wait for this player's moment (while the loop runs)."""
        if self._pacing is None:
            return
        turn = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        await turn

    async def _run(self) -> None:
        due = time.monotonic()
        while True:
            due += self.rng.expovariate(self.rate)
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            self.moments += 1
            if self.waiting:
                self.waiting.popleft().set_result(None)
            else:
                self.idle += 1


class Load:
    def __init__(
        self,
        fake: FakeDiscord,
        database: BenchDatabase,
        saved: SavedRows,
        tables: int,
        seed: int,
        think: float,
        rate: float = 0.0,
        processes: int = 1,
    ):
        self.fake, self.tester = fake, Tester(fake)
        self.database, self.saved = database, saved
        self.think = think
        self.rng = random.Random(seed)
        self.open_loop = OpenLoop(rate, self.rng) if rate else None
        # The newest prompt, (table, prompt number) and its message: a member's in their DMs,
        # and a table's on its message in the channel.
        self.prompts: dict[int, tuple[tuple[int, int], Message]] = {}
        self.public: dict[int, tuple[tuple[int, int], Message]] = {}
        self.tables: list[ScriptedTable] = []
        self.by_table: dict[int, ScriptedTable] = {}
        self.by_channel: dict[int, ScriptedTable] = {}
        self.seated: dict[int, ScriptedTable] = {}  # member -> their table
        self.actions = 0
        self.refused = 0
        self.deferred = 0  # acknowledged first, as late, and the DM edited after
        self.late = 0
        self.playing = False
        self.window_over = asyncio.Event()
        # Per bot process: seconds from sending to answer of its tables' interactions, and
        # how many of them came to it from shard 0's process (clicks in DMs)
        self.answered: list[list[float]] = [[] for _ in range(processes)]
        self.forwarded = [0] * processes
        self._watch()
        # A guild per process, on its shard: the tables take turns among them.
        guilds = [
            fake.add_guild(f"Load {index}", shard=None if processes == 1 else (index, processes))
            for index in range(processes)
        ]
        for number in range(tables):
            game, people, ai, options = MIX[number % len(MIX)]
            process = number % processes
            guild = guilds[process]
            channel = fake.add_channel(guild, f"{game}-{number}")
            players = [fake.add_member(guild, f"P{number}-{i}") for i in range(people)]
            scripted = ScriptedTable(game, channel, players, ai, options, process)
            self.tables.append(scripted)
            self.by_channel[channel.id] = scripted
            self.seated.update((player.id, scripted) for player in players)

    def _watch(self) -> None:
        """A player notices what reaches Discord: a table's message in its channel, and in
        their DMs the newest prompt, told by its controls' custom_ids."""
        new_message, edit = self.fake._new_message, self.fake._edit

        def created(channel, *args, **kwargs):
            message = new_message(channel, *args, **kwargs)
            self._seen(message)
            return message

        def edited(message, *args, **kwargs):
            self._seen(edit(message, *args, **kwargs))
            return message

        self.fake._new_message, self.fake._edit = created, edited

    def _seen(self, message: Message) -> None:
        channel = self.fake.channels[message.channel_id]
        prompt = next(
            (
                (int(found[1]), int(found[2]))
                for row in message.components
                for control in row.get("components", [])  # buttons and select menus
                if not control.get("disabled")
                and (found := PROMPT.match(control.get("custom_id", "")))
            ),
            None,
        )
        if channel.type == 1:
            member = channel.recipient.id
            if prompt:
                self._prompted(self.prompts, member, prompt, message)
            scripted = self.seated.get(member)
        else:
            if prompt:  # a decision taken on the table's message, as a bid
                self._prompted(self.public, prompt[0], prompt, message)
            scripted = self.by_channel.get(channel.id)
        if scripted is not None:
            scripted.changed.set()

    @staticmethod
    def _prompted(shown: dict, key: int, prompt: tuple[int, int], message: Message) -> None:
        """Keep the newest prompt: an old one expired later must not replace it."""
        newest = shown.get(key)
        if newest is None or prompt >= newest[0]:
            shown[key] = (prompt, message)

    async def read(self, table_id: int) -> SavedTable:
        ((game, status, state),) = await self.saved.rows(
            "SELECT game_id, status, state FROM game_tables WHERE id = ?", table_id
        )
        seats = await self.saved.rows(
            "SELECT member_id, prompt, ai FROM table_seats WHERE table_id = ? ORDER BY seat",
            table_id,
        )
        restored = registry.get(game).restore(state) if state and status != "closed" else None
        return SavedTable(status, restored, [(m, p, bool(ai)) for m, p, ai in seats])

    # ---- opening tables ---------------------------------------------------------------------

    async def open(self, scripted: ScriptedTable) -> None:
        host = scripted.players[0]
        options = {"ai_delay": 0, **scripted.options} if scripted.ai else scripted.options
        asked = await self.tester.slash(host, scripted.channel, f"{scripted.game} new", **options)
        self._answered(scripted, asked)
        query = (
            "SELECT id, message_id FROM game_tables WHERE channel_id = ? AND status != 'closed'"
            " AND message_id IS NOT NULL"
        )
        deadline = time.monotonic() + OPEN_WITHIN
        while not (found := await self.saved.rows(query, scripted.channel.id)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"/{scripted.game} new opened no table: {asked.text!r}")
            await asyncio.sleep(0.05)
        ((table_id, message_id),) = found
        scripted.table_id, scripted.acted = table_id, set()
        self.by_table[table_id] = scripted
        lobby = self.fake.messages[message_id]
        for guest in scripted.players[1:]:
            self._answered(scripted, await self.tester.click(guest, lobby, "Join"))
        for _ in range(scripted.ai):
            self._answered(scripted, await self.tester.click(host, lobby, "Add AI"))
        self._answered(scripted, await self.tester.click(host, lobby, "Start"))

    def _answered(self, scripted: ScriptedTable, interaction) -> None:
        """Count an answered interaction to the process that holds its table."""
        sent = self.tester.sent_at[interaction.id]
        self.answered[scripted.process].append(interaction.answered_at - sent)
        in_dms = interaction.channel.type == 1
        self.forwarded[scripted.process] += in_dms and scripted.process != 0

    async def reopen_closed(self) -> None:
        """Open anew each table whose match ended as a window closed (players reopen tables
        only while they play), so that a restart meets every table."""
        closed = {row[0] for row in await self.saved.rows(CLOSED_TABLES)}
        for scripted in self.tables:
            if scripted.table_id in closed:
                await self.open(scripted)

    async def open_all(self, at_once: int = 25) -> None:
        gate = asyncio.Semaphore(at_once)

        async def one(scripted):
            async with gate:
                await self.open(scripted)

        await asyncio.gather(*(one(scripted) for scripted in self.tables))

    # ---- playing ----------------------------------------------------------------------------

    async def play(self, scripted: ScriptedTable) -> None:
        while self.playing:
            scripted.changed.clear()
            table = await self.read(scripted.table_id)
            if table.status == "closed":
                try:
                    await self.open(scripted)
                except NotAnswered:  # counted as a click is; the host opens it again (if the
                    self.late += 1  # late answer opened it, the next try finds it open)
                continue
            if table.state is not None:
                moves = [self._move(scripted, table, seat) for seat in table.state.required_seats()]
                if moves := [move for move in moves if move is not None]:
                    await asyncio.gather(*moves)
                    continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(scripted.changed.wait(), 2.0)

    def _move(self, scripted: ScriptedTable, table: SavedTable, seat: int):
        member, prompt, ai = table.seats[seat]
        if ai or (seat, prompt) in scripted.acted:
            return None
        where = self.prompts.get(member), self.public.get(scripted.table_id)
        shown = next((m for p, m in filter(None, where) if p == (scripted.table_id, prompt)), None)
        if shown is None:
            return None  # the prompt has not reached them yet
        scripted.acted.add((seat, prompt))
        action = self.rng.choice(table.state.legal_actions(seat))
        custom_id = f"ta:{scripted.table_id}:{prompt}:{action_token(action)}"
        return self._press(scripted, (seat, prompt), self.fake.users[member], shown, custom_id)

    async def _press(self, scripted, prompt_key, user: User, prompt: Message, custom_id: str):
        if self.open_loop:
            await self.open_loop.turn()
        elif self.think:
            with contextlib.suppress(TimeoutError):
                thinking = self.rng.expovariate(1 / self.think)
                await asyncio.wait_for(self.window_over.wait(), thinking)
        if not self.playing:  # the window closed while they waited: act in the next
            scripted.acted.discard(prompt_key)
            return
        channel = self.fake.channels[prompt.channel_id]
        try:
            reply = await self.tester.forge(user, channel, custom_id, message=prompt)
        except NotAnswered:  # "This interaction failed": they try again, if it is still theirs
            self.late += 1
            scripted.acted.discard(prompt_key)  # `play` reads the table again right after
            return
        self.actions += 1
        self._answered(scripted, reply)
        if reply.response_type == 6:
            self.deferred += 1
        elif reply.response_type != 7:  # an action's answer redraws the DM; else a refusal
            self.refused += 1

    async def run(self, seconds: float) -> None:
        self.playing, self.window_over = True, asyncio.Event()
        players = [asyncio.create_task(self.play(scripted)) for scripted in self.tables]
        if self.open_loop:
            self.open_loop.start()
        await asyncio.sleep(seconds)
        self.playing = False
        self.window_over.set()
        if self.open_loop:
            self.open_loop.stop()
        for scripted in self.tables:
            scripted.changed.set()
        await asyncio.gather(*players)


async def ledger_totals(database: BenchDatabase) -> Totals:
    """Read by opening the store: once the bot's process has ended."""
    db = await database.open()
    try:
        return await Ledger(db, starting_chips=STARTING_CHIPS).totals()
    finally:
        await db.close()


@dataclass
class Report:
    """What one run measured; `say` prints each line as it comes (the bench) or not (tests)."""

    verbose: bool = True
    lines: list[str] = field(default_factory=list)
    phases: list[dict] = field(default_factory=list)  # per play window: its figures
    loaded_seconds: float = 0.0
    refreshed_seconds: float = 0.0
    tables_open: int = 0  # when the bot stopped
    tables_resumed: int = 0  # by the new bot process
    limited: int = 0  # 429s in all
    chips_conserved: bool = False  # the ledger balances, and holds as many chips as at the start
    errors: list[str] = field(default_factory=list)  # ERROR log records: failures in the bot
    harness_gc: GCTime = field(default_factory=GCTime)  # this process's collector

    def say(self, line: str) -> None:
        self.lines.append(line)
        if self.verbose:
            print(line, flush=True)


async def measure(
    tables: int,
    seconds: float,
    seed: int = 1,
    think: float = 0.0,
    verbose: bool = True,
    profile: str | None = None,
    durability: Durability = "full",
    rate: float = 0.0,
    database_url: str | None = None,
    processes: int = 1,
) -> Report:
    """One run; with `database_url`, the bot's store is on that PostgreSQL server, in a schema
    made for the run and dropped after it. With `processes` N > 1 (PostgreSQL only), N bot
    processes share the tables, a guild each, and `rate` is offered to each."""
    if processes > 1 and database_url is None:
        raise ValueError("several bot processes need PostgreSQL (--database-url)")
    report, threshold = Report(verbose), gc.get_threshold()
    fake = FakeDiscord()
    await fake.start()
    fake.rate_limits = RateLimits()
    try:
        with tempfile.TemporaryDirectory() as folder:
            async with bench_database(Path(folder), database_url) as database:
                bots = Bots(fake, database, processes, profile, durability)
                try:
                    await bots.start()
                    async with database.reading() as saved:
                        offered = rate * processes
                        load = Load(fake, database, saved, tables, seed, think, offered, processes)
                        await play_through(load, bots, seconds, report)
                finally:
                    await bots.kill()  # if any still runs: before its schema is dropped
    finally:
        await fake.stop()
        report.harness_gc.stop()
        gc.unfreeze()  # as it was (freeze_harness), for whatever this process does next
        gc.set_threshold(*threshold)
    return report


async def play_through(load: Load, bots: Bots, seconds: float, report: Report) -> None:
    """Open every table, play a window, restart the bot, play another; then audit the ledger."""
    await open_tables(load, bots, report)
    # Through the bot: its store may be one process's alone (a SQLite file is).
    chips = (await bots.each[0].ask("totals")).held
    await play(load, bots, seconds, "play", report)
    await restart(load, bots, report)
    await play(load, bots, seconds, "play after the restart", report)
    report.errors += await bots.stop()
    totals = await ledger_totals(load.database)
    report.chips_conserved = totals.consistent and totals.held == chips
    report.limited = len(load.fake.rate_limits.limited)
    conserved = (
        "the ledger balances and chips are conserved"
        if report.chips_conserved
        else f"LEDGER AUDIT FAILED ({chips:,} chips held at the start; now {totals})"
    )
    report.say(f"  429s in all: {report.limited}; {conserved}; errors logged: {len(report.errors)}")
    for method, path in load.fake.rate_limits.limited:
        report.say(f"    429: {method} {path}")


async def settle(load: Load, bots: Bots) -> None:
    """Wait until the bot has shown everything: no render left, no call waiting or out."""
    while any(await bots.ask("busy")):
        await asyncio.sleep(0.05)
    await load.tester.idle(timeout=600)


async def open_tables(load: Load, bots: Bots, report: Report) -> None:
    before, started = bots.rss_kb(), time.monotonic()
    await load.open_all()
    await settle(load, bots)
    load.fake.calls.clear()  # the fake's history is not the bot's to carry
    players = sum(len(seat.players) for seat in load.tables)
    report.say(
        f"\n{len(load.tables)} tables, {players} players: opened in"
        f" {time.monotonic() - started:.1f} s; the bot's {processes(bots)} grew by"
        f" {(bots.rss_kb() - before) / len(load.tables):.1f} KB per table"
        f" ({before / 1024:.0f} MB before, {bots.rss_kb() / 1024:.0f} MB after)"
    )


async def count_slices(load: Load, rates: list[float]) -> None:
    """Interactions answered per second in each whole slice of a window: whether a rate is
    sustained, or reached only in part of it (while players first get their DMs, say)."""
    since, counted = time.monotonic(), len(load.tester.answer_times)
    while True:
        await asyncio.sleep(SLICE_SECONDS)
        now, answered = time.monotonic(), len(load.tester.answer_times)
        rates.append((answered - counted) / (now - since))
        since, counted = now, answered


async def play(load: Load, bots: Bots, seconds: float, phase: str, report: Report) -> None:
    fake = load.fake
    load.tester.answer_times.clear()
    load.tester.sent_at.clear()
    for answered_by_one in load.answered:
        answered_by_one.clear()
    load.forwarded = [0] * len(bots.each)
    calls_before, load.actions, load.refused, load.late = len(fake.calls), 0, 0, 0
    load.deferred, too_late = 0, len(fake.too_late)
    collected_each = [window[0] for window in await bots.ask("window")]
    freeze_harness(report.harness_gc)
    reference = reference_ms()
    server = postgres_cpu() if load.database.url else {}  # none where the server is elsewhere
    started, cpu_each, harness_cpu = time.monotonic(), bots.cpu(), cpu_seconds("self")
    rates: list[float] = []
    slicing = asyncio.create_task(count_slices(load, rates))
    await load.run(seconds)
    elapsed = time.monotonic() - started
    slicing.cancel()
    cpu_each = [now - before for now, before in zip(bots.cpu(), cpu_each, strict=True)]
    cpu, harness_cpu = sum(cpu_each), cpu_seconds("self") - harness_cpu
    # The players' own reads are not the bot's work: their connections are left out.
    server_cpu = postgres_cpu_since(server, load.saved.connections) if server else None
    reference = (reference + reference_ms()) / 2
    windows = await bots.ask("figures")
    each = [
        process_figures(load, index, cpu_each[index], collected_each[index], window, elapsed)
        for index, window in enumerate(windows)
    ]
    gc_total, gc_longest, gc_full, tracked, inside = merged_windows(windows)
    collected = sum(collected_each)
    answered_at: dict[int, float] = {}
    for bot in bots.each:
        answered_at |= pickle.loads(answered_file(load.database.folder, bot.index).read_bytes())
    times = [t * 1000 for t in load.tester.answer_times]
    answered = max(1, len(times))
    calls = fake.calls[calls_before:]
    kinds = collections.Counter(call_kind(fake, call) for call in calls)
    figures = {
        "interactions": len(times),
        "per_second": len(times) / elapsed,
        "actions": load.actions,
        "refused": load.refused,
        "deferred": load.deferred,
        "late": load.late,
        "too_late": len(fake.too_late) - too_late,
        "p50": percentile(times, 0.5),
        "p99": percentile(times, 0.99),
        "calls_per_action": len(calls) / max(1, load.actions),
        "bot_cpu_per_interaction": cpu / max(1, len(times)),
        "server_cpu_per_interaction": None if server_cpu is None else server_cpu / answered,
        "combined_cpu_per_interaction": (cpu + (server_cpu or 0.0)) / answered,
        "inside_p50": inside[0],
        "inside_p99": inside[1],
        "loop_lag_p99": inside[2],
        "inside_timed": inside[3],
        "segments": inside[4],
        **sent_to_answered(load.tester.sent_at, answered_at),
        "reference_ms": reference,
        "per_slice": rates,
        "offered_per_second": load.open_loop.moments / elapsed if load.open_loop else None,
        "offered_to_nobody": load.open_loop.idle if load.open_loop else None,
        "processes": each,
    }
    report.phases.append(figures)
    report.say(
        f"  {phase}: {figures['per_second']:,.0f} interactions/s over {elapsed:.0f} s"
        f" ({load.actions:,} player actions, {load.refused} refused, {load.deferred}"
        f" acknowledged late; {load.late} not answered within {ANSWER_WITHIN:.0f} s, the bot's"
        f" answer to {figures['too_late']} of them refused as too late);"
        f" handling p50 {figures['p50']:.1f} ms,"
        f" p99 {figures['p99']:.1f} ms"
    )
    if load.open_loop:
        report.say(
            f"    offered: {figures['offered_per_second']:,.0f} moments to act a second, of"
            f" which {load.open_loop.idle:,} found no player waiting"
        )
    if rates:
        report.say(
            f"    per {SLICE_SECONDS} s: " + ", ".join(f"{rate:,.0f}" for rate in rates) + "/s"
        )
    report.say(
        f"    inside the bot's process: handling p50 {figures['inside_p50']:.1f} ms,"
        f" p99 {figures['inside_p99']:.1f} ms; the event loop's lag p99"
        f" {figures['loop_lag_p99']:.1f} ms; from the fake sending an interaction to the bot's"
        f" callback request (its unread wait included) p50 {figures['sent_to_answered_p50']:.1f}"
        f" ms, p99 {figures['sent_to_answered_p99']:.1f} ms"
    )
    if len(each) > 1:
        say_processes(report, each)
    segments = figures["segments"]
    if segments["clicks"]:
        median_collecting, slowest_collecting = segments["collecting"]
        whose = "the bot" if len(each) == 1 else "the first process"
        report.say(
            f"    where the time of clicks that moved went inside {whose} (ms, the median 10% /"
            " the slowest 1%): "
            + ", ".join(
                f"{name} {median:.1f} / {slowest:.1f}"
                for name, median, slowest in zip(
                    SEGMENTS, segments["median"], segments["slowest"], strict=True
                )
            )
            + "; of all of it, the garbage collector's pauses"
            f" {median_collecting:.1f} / {slowest_collecting:.1f}"
        )
    per_interaction = figures["bot_cpu_per_interaction"]
    report.say(
        f"    CPU: the bot's {processes(bots)} {cpu / elapsed:.0%} of a core (garbage collection"
        f" {(gc_total - collected) / elapsed:.0%}, longest pause {gc_longest * 1000:.0f} ms,"
        f" {gc_full} full collections, {tracked:,} objects tracked at the end),"
        f" the fake Discord's and players' {harness_cpu / elapsed:.0%} (its longest"
        f" garbage-collection pause {report.harness_gc.longest * 1000:.0f} ms); the bot used"
        f" {per_interaction * 1000:.2f} ms per interaction:"
        f" {1 / max(per_interaction, 1e-6):,.0f} interactions/s per core (this machine's speed:"
        f" the reference work took {reference:.0f} ms of CPU)"
    )
    if load.database.url:
        say_server_cpu(report, figures, server_cpu, elapsed)
    report.say(
        f"    REST calls per player action {figures['calls_per_action']:.2f},"
        " of which with the bot's token, per second: "
        + ", ".join(f"{kinds[kind] / elapsed:.1f} {kind}" for kind in BOT_TOKEN_CALLS)
    )
    del fake.calls[:]


def process_figures(
    load: Load, index: int, cpu: float, collected: float, window: tuple, elapsed: float
) -> dict:
    """One bot process's share of a window: its tables' interactions (as the fake timed them,
    from sending to answer) and its own CPU. Shard 0's process also forwards the others' DM
    clicks: that work is in its CPU, and their time in theirs."""
    gc_total, _, _, _, inside = window
    times = [t * 1000 for t in load.answered[index]]
    return {
        "interactions": len(times),
        "per_second": len(times) / elapsed,
        "forwarded": load.forwarded[index],
        "p50": percentile(times, 0.5),
        "p99": percentile(times, 0.99),
        "cpu_share": cpu / elapsed,
        "collector_share": (gc_total - collected) / elapsed,
        "bot_cpu_per_interaction": cpu / max(1, len(times)),
        "inside_p99": inside[1],
        "loop_lag_p99": inside[2],
    }


def merged_windows(windows: list[tuple]) -> tuple:
    """The processes' window figures as one: the collector's times and counts added, the
    longest pause and the handling percentiles the worst process's, and where clicks' time
    went the first process's."""
    totals, longest, full, tracked, inside = zip(*windows, strict=True)
    p50, p99, lag, timed, segments = zip(*inside, strict=True)
    worst = (max(p50), max(p99), max(lag), sum(timed), segments[0])
    return sum(totals), max(longest), sum(full), sum(tracked), worst


def say_processes(report: Report, each: list[dict]) -> None:
    for index, one in enumerate(each):
        forwarded = f", {one['forwarded']:,} of them DM clicks forwarded to it" if index else ""
        report.say(
            f"    process {index} (shard {index}): {one['per_second']:,.0f} interactions/s of its"
            f" tables{forwarded}; p50 {one['p50']:.1f} ms, p99 {one['p99']:.1f} ms (inside it"
            f" {one['inside_p99']:.1f} ms, its loop's lag p99 {one['loop_lag_p99']:.1f} ms);"
            f" CPU {one['cpu_share']:.0%} of a core (collector {one['collector_share']:.0%}),"
            f" {one['bot_cpu_per_interaction'] * 1000:.2f} ms per interaction of its tables"
        )


def say_server_cpu(report: Report, figures: dict, server_cpu: float | None, elapsed: float):
    """The PostgreSQL server's share: its processes on this machine, every client's (run
    where nothing else uses the server) but the players' reads."""
    if server_cpu is None:
        report.say("    server CPU: no PostgreSQL process on this machine, so not measured")
        return
    per_interaction, combined = (
        figures["server_cpu_per_interaction"],
        figures["combined_cpu_per_interaction"],
    )
    report.say(
        f"    server CPU per interaction: {per_interaction * 1000:.2f} ms (the PostgreSQL"
        f" server's processes {server_cpu / elapsed:.0%} of a core, the players' reads left out)"
    )
    report.say(
        f"    bot + server CPU per interaction: {combined * 1000:.2f} ms:"
        f" {1 / max(combined, 1e-6):,.0f} interactions/s per core"
    )


def answered_file(folder: Path, index: int) -> Path:
    """Where bot process `index` leaves when it requested each callback, for the parent."""
    return folder / f"answered-{index}.pickle"


def sent_to_answered(sent_at: dict[int, float], answered_at: dict[int, float]) -> dict:
    """From the fake sending each interaction to the bot's process requesting its callback,
    in ms: one clock for both processes (time.monotonic()). The bot's handling with the time
    the interaction waited unread in its socket, without the fake's own share in receiving."""
    times = [(answered_at[i] - sent) * 1000 for i, sent in sent_at.items() if i in answered_at]
    return {
        "sent_to_answered_p50": percentile(times, 0.5),
        "sent_to_answered_p99": percentile(times, 0.99),
        "sent_to_answered_timed": len(times),
    }


def freeze_harness(gc_time: GCTime) -> None:
    """The fake Discord keeps every message and call it has seen, and the players their
    tables: frozen before a window, full collections no longer walk them, and collections
    come rarer (the bot's thresholds). They paused this process, whose clock times every answer,
    for up to 0.4 s at 500 tables."""
    gc.collect()
    gc.freeze()
    set_young_threshold(YOUNG_COLLECTION_AFTER)
    gc_time.longest, gc_time.full = 0.0, 0


BOT_TOKEN_CALLS = ("table edits", "DMs", "channel posts", "DM channels opened", "other")


def call_kind(fake: FakeDiscord, call) -> str:
    if call.path.startswith(("/interactions/", "/webhooks/")):
        return "interaction answers and followups"
    if call.path == "/users/@me/channels":
        return "DM channels opened"
    if call.path.startswith("/channels/") and call.path.endswith("/messages"):
        channel = fake.channels.get(int(call.path.split("/")[2]))
        return "DMs" if channel and channel.type == 1 else "channel posts"
    return "table edits" if call.method == "PATCH" else "other"


def processes(bots: Bots) -> str:
    return "process" if len(bots.each) == 1 else f"{len(bots.each)} processes"


async def restart(load: Load, bots: Bots, report: Report) -> None:
    await settle(load, bots)
    await load.reopen_closed()
    await settle(load, bots)
    report.errors += await bots.stop()
    ((report.tables_open,),) = await load.saved.rows(
        "SELECT COUNT(*) FROM game_tables WHERE status != 'closed'"
    )
    await asyncio.sleep(1)  # Discord's global window forgets the old process's calls
    started = time.monotonic()
    await bots.start()
    report.loaded_seconds = time.monotonic() - started
    report.tables_resumed = sum(await bots.ask("tables"))
    await settle(load, bots)
    last_call = load.fake.calls[-1].at if load.fake.calls else started
    report.refreshed_seconds = last_call - started
    report.say(
        f"  restart: the new bot {processes(bots)} had {report.tables_resumed} tables loaded (of"
        f" {report.tables_open} open when the last one stopped), their"
        f" deadlines armed and taking actions {report.loaded_seconds:.2f} s after it was"
        f" started; every table message and prompt refreshed after {report.refreshed_seconds:.1f}"
        f" s; they then held {bots.rss_kb() / 1024:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", help="write a cProfile of the bot's first play window here")
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think", type=float, default=0.0, help="players' mean time to act, s (0: at once)"
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="let players act at this many moments a second, whatever the bot's pace (an open"
        " loop, in place of --think)",
    )
    parser.add_argument(
        "--durability", choices=get_args(Durability), default="full", help="the bot's DURABILITY"
    )
    parser.add_argument(
        "--database-url",
        help="the bot's store on this PostgreSQL server, in a schema made for the run and"
        " dropped after it (default: SQLite, in a temporary file)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="run the bot in N processes, one shard each, a guild of tables per shard"
        " (PostgreSQL only); --rate is then offered to each",
    )
    arguments = parser.parse_args()
    if arguments.processes > 1 and not arguments.database_url:
        parser.error("several bot processes need PostgreSQL: give --database-url")
    logging.basicConfig(level=logging.WARNING)
    where = BenchDatabase(Path(), arguments.database_url).describe()
    print(f"the bot's store: {where}, DURABILITY={arguments.durability}")
    seconds, seed, think = arguments.seconds, arguments.seed, arguments.think
    for tables in arguments.tables:
        # The fake and the players on the bot's loop too: what they add to the times the fake
        # measures is not the bot's, so as little of it as this machine allows.
        eventloop.run(
            measure(
                tables,
                seconds,
                seed,
                think,
                profile=arguments.profile,
                durability=arguments.durability,
                rate=arguments.rate,
                database_url=arguments.database_url,
                processes=arguments.processes,
            )
        )


if __name__ == "__main__":
    main()
