"""The bot in a process of its own, against the test's fake Discord, for restarts as real as a
crash: the process is killed (SIGKILL, nothing saved at shutdown, no task left) and a new one
is started on the same database, as tests/store/test_durability.py kills a writer mid-run.

    python -m tests.bot_process '<config as JSON>'

runs the bot and prints "ready" once it is connected and its tables are loaded.

The tests start it by forking a process that has imported the bot already (multiprocessing's
fork server, `bot_context()`), one per worker: a bot process started with `python -m` spent
0.6-0.9 s of CPU importing the bot, discord.py and pydantic's models before it did anything,
some 25 s of the suite's CPU over the 33 that the tests and the load bench start. The fork
server imports only (no loop, no thread, no connection); each bot is forked from it fresh,
and reseeds `random` (as every fork does), in the test's environment and the checkout."""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import multiprocessing.process
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests import ROOT

if TYPE_CHECKING:  # the bot's process needs none of the tests' own modules
    import discord

    from tests.e2e import World

SEED = 20261122  # every match's seed, as the in-process world's
Shards = tuple[int, tuple[int, ...]]  # (SHARD_COUNT, SHARD_IDS)

# What a bot process imports (main(), bench/load.py's serve_bot): the fork server imports them
# once, so that each bot forked from it starts with them imported. pokerkit is Lowball's, which
# it imports at its first showdown (the load bench imports it before its baseline).
PRELOAD = ["bot.app", "bot.eventloop", "bot.settings", "bot.store.shards", "yarl", "pokerkit"]


def bot_context() -> multiprocessing.context.ForkServerContext:
    """Where the tests' and the load bench's bot processes come from: forked from a server
    process of this process's that has imported the bot (PRELOAD), started at the first."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__, *PRELOAD])
    return context


class Child:
    """A bot process forked by the fork server, with the subprocess.Popen methods the tests
    use: `poll`, `wait`, `send_signal`, `kill`; its exit status, as Popen's, is negative for
    a signal that ended it."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self.process = process

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def poll(self) -> int | None:
        return self.process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self.process.join(timeout)
        status = self.process.exitcode
        if status is None:
            raise subprocess.TimeoutExpired(f"bot process {self.pid}", timeout or 0)
        return status

    def send_signal(self, signal_number: int) -> None:
        if self.process.exitcode is None:  # as Popen: not to a process that has ended
            os.kill(self.process.pid, signal_number)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class BotProcess:
    """One bot process of the test; `errors()` reads what it logged at ERROR."""

    def __init__(
        self,
        world: World,
        log: Path,
        shards: Shards | None = None,
        claim_retry_seconds: float | None = None,
    ) -> None:
        """`shards`: (SHARD_COUNT, SHARD_IDS) for a process running some of the shards, on
        the world's PostgreSQL database; `claim_retry_seconds`: its pause between tries for
        shards another process holds (bot/store/shards.py's RETRY_SECONDS by default)."""
        settings = world.settings
        url = settings.database_url
        self.config = {
            "api_base": world.fake.api_base,
            "gateway_url": world.fake.gateway_url,
            "token": world.fake.token,
            "database": str(settings.database_path),
            "database_url": None if url is None else url.get_secret_value(),
            "shard_count": None if shards is None else shards[0],
            "shard_ids": None if shards is None else list(shards[1]),
            "starting_chips": settings.starting_chips,
            # The world's: unpaced, as the fake enforces no rate limit (tests/e2e.py). At
            # Discord's 45 a second, a table's start waited tens of ms for its pacer.
            "requests_per_second": settings.requests_per_second,
            "claim_retry_seconds": claim_retry_seconds,
        }
        self.fake, self.log = world.fake, log
        self.process: Child | None = None
        self.said: multiprocessing.connection.Connection | None = None
        self.working: Any = None  # a shared byte: whether it is still at work (`busy`)

    async def start(self, ready_within: float = 60, *, ready: bool = True) -> None:
        """Start the process and wait until it says "ready"; `ready=False`: don't wait (a
        process that waits for shards another holds is not ready)."""
        context = bot_context()
        said, says = context.Pipe(duplex=False)
        self.working = context.Value("b", 0, lock=False)
        process = context.Process(
            target=forked,
            args=(self.config, str(self.log), dict(os.environ), says, self.working),
            name=f"bot {self.log.name}",
        )
        # In a thread: the first start waits for the fork server to import the bot.
        await asyncio.to_thread(process.start)
        self.process = Child(process)
        says.close()  # the child's end: once it has gone, `said` reads EOF
        self.said = said  # open while it runs: one not waited for may say "ready" later
        if not ready:
            return
        if not await asyncio.to_thread(said.poll, ready_within):
            raise TimeoutError(f"the bot process was not ready within {ready_within} s")
        try:
            line = said.recv()
        except EOFError:  # it ended first
            line = ""
        assert line == "ready", f"the bot process did not start: {self.errors()}"

    async def kill(self) -> None:
        """Kill the process at once, and wait until the fake Discord has seen it go."""
        from tests.e2e import eventually

        self.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(self.process.wait, 10)
        await eventually(lambda: not self.connected(), what="the gateway connections' end")

    async def stop(self) -> int:
        """SIGTERM, as a supervisor stops it: its exit status, once the fake has seen it go."""
        from tests.e2e import eventually

        self.process.send_signal(signal.SIGTERM)
        status = await asyncio.to_thread(self.process.wait, 20)
        await eventually(lambda: not self.connected(), what="the gateway connections' end")
        return status

    async def logged(self, text: str, within: float = 10) -> None:
        """Wait until the process has logged `text`."""
        from tests.e2e import eventually

        await eventually(
            lambda: self.log.exists() and text in self.log.read_text(),
            within,
            what=f"logging {text!r}",
        )

    def busy(self) -> bool:
        """Whether it runs and is still at work on something it will show: what the tester's
        `idle` asks of the in-process bot (tests/e2e.py), published by the process itself.
        Without it, `idle` took a pause of 30 ms in a process's calls (its loop busy, or the
        process not scheduled, on a loaded machine) for the end of its work."""
        running = self.process is not None and self.process.poll() is None
        return running and bool(self.working.value)

    def connected(self) -> bool:
        """Whether the fake still has a gateway connection of this process's."""
        ids = self.config["shard_ids"]
        if ids is None:
            return bool(self.fake._sockets)
        return any(shard.id in ids for shard in self.fake.shards.values())

    def errors(self) -> list[str]:
        text = self.log.read_text() if self.log.exists() else ""
        return [line for line in text.splitlines() if " ERROR " in line or "Traceback" in line]


@asynccontextmanager
async def bot_processes(
    world: World, folder: Path
) -> AsyncIterator[Callable[..., Awaitable[BotProcess]]]:
    """`start(shards=None)` starts a bot process of the world's, logging in `folder` (more
    arguments: BotProcess's and its `start`'s). At the end, those still running are killed and
    the fake stopped; then none may have logged an error, nor the fake have met a route it
    does not know."""
    processes: list[BotProcess] = []
    world.tester.bot_busy = lambda: any(process.busy() for process in processes)

    async def start(
        shards: Shards | None = None,
        *,
        claim_retry_seconds: float | None = None,
        ready: bool = True,
        ready_within: float = 60,
    ) -> BotProcess:
        log = folder / f"bot-{len(processes)}.log"
        process = BotProcess(world, log, shards, claim_retry_seconds)
        processes.append(process)
        await process.start(ready_within, ready=ready)
        return process

    try:
        yield start
    finally:
        for process in processes:
            if process.process.poll() is None:
                process.process.kill()
                process.process.wait(10)
        await world.fake.stop()
    assert not [error for process in processes for error in process.errors()]
    assert not world.fake.unknown_routes


def forked(config: dict, log: str, environment: dict[str, str], says, working) -> None:
    """The bot process, forked from the fork server: as `python -m tests.bot_process` run with
    its output to `log` and the test's environment in the checkout, saying "ready" on `says`
    and whether it is at work in `working`."""
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(ROOT)
    with open(log, "a") as output, open(os.devnull, "w") as nowhere:
        os.dup2(output.fileno(), 2)
        os.dup2(nowhere.fileno(), 1)

    def ready() -> None:
        says.send("ready")
        says.close()

    main(config, ready, working)


def main(config: dict, ready=lambda: print("ready", flush=True), working=None) -> None:
    import discord.gateway
    import discord.http
    import yarl

    from bot import eventloop
    from bot.settings import Settings
    from bot.store import shards

    discord.http.Route.BASE = config["api_base"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config["gateway_url"])
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    settings = Settings(
        _env_file=None,
        discord_token=config["token"],
        database_path=config["database"],
        database_url=config["database_url"],
        shard_count=config["shard_count"],
        shard_ids=config["shard_ids"],
        starting_chips=config["starting_chips"],
        daily_chips=100,
        table_edit_seconds=0,
        requests_per_second=config.get("requests_per_second", 45),
    )
    if config["claim_retry_seconds"] is not None:
        shards.RETRY_SECONDS = config["claim_retry_seconds"]
    from bot.app import ShardsLost

    try:
        eventloop.run(serve(settings, ready, working))
    except ShardsLost:
        sys.exit(1)  # as `python -m bot` does


async def serve(settings, ready, working) -> None:
    from bot.app import CardTableBot, close_on_sigterm, raise_if_shards_lost

    handling = handlers_of_interactions(working) if working is not None else set()
    client = CardTableBot(
        settings,
        runtime_options={"new_seed": lambda: SEED},
        guild_ready_timeout=0.01,
        identify_pause=0,  # the fake takes every shard's IDENTIFY at once
    )
    publishing = None
    if working is not None:
        publishing = asyncio.create_task(publish_work(client, handling, working))
    async with client:
        close_on_sigterm(client)
        running = await start_until_ready(client, settings.discord_token.get_secret_value())
        if not client.is_closed():  # else stopped before it was ready (waiting for shards)
            ready()
        await running
    if publishing is not None:
        publishing.cancel()
    raise_if_shards_lost(client)


def handlers_of_interactions(working) -> set[asyncio.Task]:
    """The tasks handling interactions, while they run: discord.py starts an interaction's
    handlers as it reads it (ConnectionState's parser, which it takes as the client is made:
    so call this before). `working` says so at once, before any of them can answer."""
    import discord.state

    handling: set[asyncio.Task] = set()
    connection_state = discord.state.ConnectionState
    parse = connection_state.parse_interaction_create

    def parsed(state, data):
        started = asyncio.all_tasks()
        parse(state, data)
        handling.update(asyncio.all_tasks() - started)
        working.value = True

    connection_state.parse_interaction_create = parsed  # type: ignore[method-assign]
    return handling


async def publish_work(client, handling: set[asyncio.Task], working, every=0.002) -> None:
    """Keep `working` (shared with the test's process) saying whether the bot is at work on
    something it will show: an interaction's handlers still running, and what tests/e2e.py's
    World asks of its bot (renders, tournaments' tasks and drawings under way); and calls
    waiting for the pacer or out."""
    while True:
        handling.difference_update([task for task in handling if task.done()])
        runtime = getattr(client, "runtime", None)  # there once logged in
        pacer = client.pacer
        working.value = bool(
            handling
            or pacer.waiting
            or pacer.in_flight
            or (
                runtime is not None
                and (
                    runtime.renders
                    or client.tournaments.tasks
                    or client.tournament_presenter.pending
                )
            )
        )
        await asyncio.sleep(every)


async def start_until_ready(client: discord.Client, token: str) -> asyncio.Task[None]:
    """Start `client` and wait until it is connected and ready; returns the task running it.
    A client that fails to start raises why."""
    running = asyncio.create_task(client.start(token))
    ready = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait([running, ready], return_when=asyncio.FIRST_COMPLETED)
    if running.done():
        running.result()  # it failed to start: raise why
    return running


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
