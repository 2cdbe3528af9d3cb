"""The bot in a process of its own, against the test's fake Discord, for restarts as real as a
crash: the process is killed (SIGKILL, nothing saved at shutdown, no task left) and a new one
is started on the same database, as tests/store/test_durability.py kills a writer mid-run.

    python -m tests.bot_process '<config as JSON>'

runs the bot and prints "ready" once it is connected and its tables are loaded."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from tests import ROOT

if TYPE_CHECKING:  # the bot's process needs none of the tests' own modules
    import discord

    from tests.e2e import World

SEED = 20261122  # every match's seed, as the in-process world's
Shards = tuple[int, tuple[int, ...]]  # (SHARD_COUNT, SHARD_IDS)


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
            "claim_retry_seconds": claim_retry_seconds,
        }
        self.fake, self.log = world.fake, log
        self.process: subprocess.Popen | None = None

    async def start(self, ready_within: float = 60, *, ready: bool = True) -> None:
        """Start the process and wait until it says "ready"; `ready=False`: don't wait (a
        process that waits for shards another holds is not ready)."""
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.bot_process", json.dumps(self.config)],
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        if not ready:
            return
        line = await asyncio.wait_for(asyncio.to_thread(self.process.stdout.readline), ready_within)
        assert line.strip() == "ready", f"the bot process did not start: {self.errors()}"

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


def main(config: dict) -> None:
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
    )
    if config["claim_retry_seconds"] is not None:
        shards.RETRY_SECONDS = config["claim_retry_seconds"]
    from bot.app import ShardsLost

    try:
        eventloop.run(serve(settings))
    except ShardsLost:
        sys.exit(1)  # as `python -m bot` does


async def serve(settings) -> None:
    from bot.app import CardTableBot, close_on_sigterm, raise_if_shards_lost

    client = CardTableBot(
        settings,
        runtime_options={"new_seed": lambda: SEED},
        guild_ready_timeout=0.01,
        identify_pause=0,  # the fake takes every shard's IDENTIFY at once
    )
    async with client:
        close_on_sigterm(client)
        running = await start_until_ready(client, settings.discord_token.get_secret_value())
        if not client.is_closed():  # else stopped before it was ready (waiting for shards)
            print("ready", flush=True)
        await running
    raise_if_shards_lost(client)


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
