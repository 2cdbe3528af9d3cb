"""`python -m bot cluster --processes N`: the bot's shards split over N processes on one
PostgreSQL database, each started again when it dies (README, Several processes).

A process that exits with EXIT_CONFIG has printed why it cannot start; starting it again would
fail the same way, so that stops them all. Any other end (a crash, kill -9) is restarted after
a back-off that doubles while the process keeps dying young.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot import eventloop
from bot.settings import (
    EXIT_CONFIG,
    Settings,
    SettingsError,
    configure_logging,
    load_settings,
    require_token,
)
from bot.shards import spans

log = logging.getLogger(__name__)

BOT_COMMAND = (sys.executable, "-m", "bot")
STOP_SECONDS = 30.0  # a process's time to end after SIGTERM before it is killed

HELP = """Run the bot's gateway shards over several processes that share one PostgreSQL
database (DATABASE_URL), and start again any that dies. SHARD_COUNT (default: one shard per
process) is split into contiguous runs, one per process. SIGINT or SIGTERM stops them all."""


def split_shards(count: int, processes: int) -> list[tuple[int, ...]]:
    """Shards 0..count-1 in `processes` contiguous runs whose sizes differ by one at most."""
    if not 1 <= processes <= count:
        raise ValueError(f"cannot split {count} shards over {processes} processes")
    size, larger = divmod(count, processes)
    runs: list[tuple[int, ...]] = []
    start = 0
    for index in range(processes):
        end = start + size + (index < larger)
        runs.append(tuple(range(start, end)))
        start = end
    return runs


@dataclass(frozen=True)
class Backoff:
    """How long to wait before starting a dead process again: `first`, doubling up to `most`
    while it keeps dying within `young` seconds of its start."""

    first: float = 1.0
    most: float = 30.0
    young: float = 60.0


BACKOFF = Backoff()


@dataclass
class Delay:
    """One process's back-off: the wait before the next start, given how long it lived."""

    backoff: Backoff
    next: float = field(init=False)

    def __post_init__(self) -> None:
        self.next = self.backoff.first

    def after(self, lived: float) -> float:
        if lived >= self.backoff.young:
            self.next = self.backoff.first
        wait, self.next = self.next, min(self.next * 2, self.backoff.most)
        return wait


def status(returncode: int) -> int:
    """As a shell shows it: killed by signal 9 is 137."""
    return returncode if returncode >= 0 else 128 - returncode


class Supervisor:
    """Runs one process per run of shards until `stop()` or until one exits with EXIT_CONFIG;
    `run()` returns the supervisor's own exit status."""

    def __init__(
        self,
        shard_count: int,
        runs: Sequence[tuple[int, ...]],
        command: Sequence[str] = BOT_COMMAND,
        backoff: Backoff = BACKOFF,
        stop_seconds: float = STOP_SECONDS,
    ) -> None:
        self.shard_count, self.runs, self.command = shard_count, runs, command
        self.backoff, self.stop_seconds = backoff, stop_seconds
        self.stopping = asyncio.Event()
        self.exit_status = 0

    def stop(self) -> None:
        self.stopping.set()

    async def run(self) -> int:
        await asyncio.gather(*(self.keep(shards) for shards in self.runs))
        return self.exit_status

    async def keep(self, shards: tuple[int, ...]) -> None:
        """Keeps the process for `shards` running until the supervisor stops."""
        delay, name = Delay(self.backoff), f"process for shards {spans(shards)}"
        while not self.stopping.is_set():
            started = time.monotonic()
            returncode = await self.run_once(shards, name)
            if returncode is None:  # stopped
                return
            if returncode == EXIT_CONFIG:
                log.error("%s exited with 2 (a setting to fix, as it said); stopping all", name)
                self.exit_status = EXIT_CONFIG
                self.stop()
                return
            wait = delay.after(time.monotonic() - started)
            log.warning("%s exited with %d; restarting in %g s", name, status(returncode), wait)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), wait)

    async def run_once(self, shards: tuple[int, ...], name: str) -> int | None:
        """The process's exit status, or None when the supervisor stopped it."""
        environment = os.environ | {
            "SHARD_COUNT": str(self.shard_count),
            "SHARD_IDS": spans(shards),
        }
        process = await asyncio.create_subprocess_exec(*self.command, env=environment)
        ended = asyncio.ensure_future(process.wait())
        stopping = asyncio.ensure_future(self.stopping.wait())
        try:
            await asyncio.wait({ended, stopping}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the loop is going away: leave no process behind
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            raise
        finally:
            stopping.cancel()
        if ended.done():
            return ended.result()
        await self.end(process, ended, name)
        return None

    async def end(
        self, process: asyncio.subprocess.Process, ended: asyncio.Future[int], name: str
    ) -> None:
        """SIGTERM, then SIGKILL if the process is still there after `stop_seconds`."""
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(asyncio.shield(ended), self.stop_seconds)
        except TimeoutError:
            log.warning("%s still ran %g s after SIGTERM: killed", name, self.stop_seconds)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await ended


async def supervise(supervisor: Supervisor) -> int:
    """Runs the supervisor until SIGINT or SIGTERM, which stop it cleanly."""
    loop = asyncio.get_running_loop()
    handled = []
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        # Not on Windows, where Ctrl+C reaches every process of the console anyway.
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(stop_signal, supervisor.stop)
            handled.append(stop_signal)
    try:
        return await supervisor.run()
    finally:
        for stop_signal in handled:
            loop.remove_signal_handler(stop_signal)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot cluster", description=HELP)
    parser.add_argument(
        "--processes",
        type=int,
        required=True,
        metavar="N",
        help="how many bot processes to run, each with a contiguous run of the shards",
    )
    return parser.parse_args(argv)


def plan(settings: Settings, processes: int) -> Supervisor:
    """The supervisor the settings and `processes` call for; SettingsError says why not."""
    if processes < 1:
        raise SettingsError(f"--processes should be 1 or more (got {processes}).")
    if settings.shard_ids is not None:
        raise SettingsError(
            "SHARD_IDS is set, but cluster gives each process its shards itself: remove "
            "SHARD_IDS from .env and the environment (SHARD_COUNT may stay)."
        )
    if settings.database_url is None:
        raise SettingsError(
            "Several processes share one database: set DATABASE_URL to a PostgreSQL server "
            "(README: PostgreSQL)."
        )
    require_token(settings)
    count = settings.shard_count or processes
    if processes > count:
        raise SettingsError(
            f"--processes {processes} is more than SHARD_COUNT's {count} shards, and each "
            "process needs one at least: lower --processes or raise SHARD_COUNT."
        )
    return Supervisor(count, split_shards(count, processes))


def main(argv: list[str]) -> int:
    arguments = parse(argv)
    try:
        settings = load_settings()
        supervisor = plan(settings, arguments.processes)
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    configure_logging(settings)
    log.info(
        "starting %d processes for shards %s of %d",
        len(supervisor.runs),
        ", ".join(spans(shards) for shards in supervisor.runs),
        supervisor.shard_count,
    )
    try:
        return eventloop.run(supervise(supervisor))
    except KeyboardInterrupt:  # Windows: the processes had Ctrl+C too
        return 0
