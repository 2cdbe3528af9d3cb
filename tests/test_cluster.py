"""`python -m bot cluster`: the split of the shards, the refusals, and the supervisor run with a
stand-in for the bot that notes its shards, then dies or sleeps as the test tells it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot import cluster
from bot.cluster import Backoff, Delay, Supervisor, split_shards, status
from bot.settings import Settings
from bot.shards import spans
from tests import ROOT

POSTGRES = "postgresql://bot@127.0.0.1/cardtable"
FAST = Backoff(first=0.01, most=0.02, young=60)

# The bot's stand-in: appends "<SHARD_COUNT> <SHARD_IDS> <pid>" to argv[1] and waits until
# argv[2] processes have (so that every first start is noted before any rule acts), then, on
# its n-th start, ends as the n-th of the rules given for its shards ("0-1=1,kill,stubborn":
# exit 1, then SIGKILL itself, then ignore SIGTERM), or sleeps when it has no rule left.
CHILD = """
import os, signal, sys, time
log, together, shards = sys.argv[1], int(sys.argv[2]), os.environ["SHARD_IDS"]
def noted():
    with open(log) as starts:
        return [line.split()[1:2] for line in starts]
start = 1 + noted().count([shards]) if os.path.exists(log) else 1
rules = dict(rule.split("=") for rule in sys.argv[3:]).get(shards, "").split(",")
rule = rules[start - 1] if start <= len(rules) else ""
if rule == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(log, "a") as starts:
    starts.write(f"{os.environ['SHARD_COUNT']} {shards} {os.getpid()}\\n")
while len(noted()) < together:
    time.sleep(0.005)
if rule == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
if rule not in ("", "stubborn"):
    sys.exit(int(rule))
time.sleep(60)
"""


def child(starts: Path, together: int, *rules: str) -> list[str]:
    return [sys.executable, "-c", CHILD, str(starts), str(together), *rules]


def started(starts: Path) -> list[tuple[str, int]]:
    """Each start so far: "<SHARD_COUNT> <SHARD_IDS>" and the pid."""
    lines = starts.read_text().splitlines() if starts.exists() else []
    return [(line.rsplit(" ", 1)[0], int(line.rsplit(" ", 1)[1])) for line in lines]


def shards_started(starts: Path) -> list[str]:
    return sorted(shards for shards, _ in started(starts))


async def until(condition: Callable[[], bool], within: float = 5) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "the processes did not get there in time"
        await asyncio.sleep(0.01)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@contextlib.asynccontextmanager
async def supervising(supervisor: Supervisor) -> AsyncIterator[asyncio.Task[int]]:
    """The supervisor running; stopped at the end even when the test failed."""
    running = asyncio.create_task(supervisor.run())
    try:
        yield running
    finally:
        supervisor.stop()
        await asyncio.wait_for(running, 10)


@pytest.mark.parametrize(
    ("count", "processes", "runs"),
    [
        (4, 2, [(0, 1), (2, 3)]),
        (5, 2, [(0, 1, 2), (3, 4)]),
        (3, 3, [(0,), (1,), (2,)]),
        (10, 4, [(0, 1, 2), (3, 4, 5), (6, 7), (8, 9)]),
        (7, 1, [tuple(range(7))]),
    ],
)
def test_split_shards_gives_contiguous_runs_as_even_as_can_be(count, processes, runs):
    assert split_shards(count, processes) == runs


def test_split_shards_covers_every_shard_once_in_any_split():
    for count in range(1, 40):
        for processes in range(1, count + 1):
            runs = split_shards(count, processes)
            assert [shard for run in runs for shard in run] == list(range(count))
            assert max(map(len, runs)) - min(map(len, runs)) <= 1


@pytest.mark.parametrize(("count", "processes"), [(4, 0), (4, 5)])
def test_split_shards_refuses_a_split_that_leaves_a_process_without_shards(count, processes):
    with pytest.raises(ValueError, match="cannot split"):
        split_shards(count, processes)


def test_shards_and_statuses_are_written_as_an_operator_reads_them():
    assert (spans((0, 1, 2, 3)), spans((2,)), spans((0, 1, 3))) == ("0-3", "2", "0-1,3")
    assert (status(1), status(-signal.SIGKILL)) == (1, 137)


def test_the_back_off_doubles_while_a_process_dies_young_and_starts_over_after():
    delay = Delay(Backoff())
    assert [delay.after(lived=5) for _ in range(7)] == [1, 2, 4, 8, 16, 30, 30]
    assert delay.after(lived=61) == 1
    assert delay.after(lived=0) == 2


# --- refusals ---

REFUSALS = {
    "no database": (
        ["--processes", "2"],
        {"DISCORD_TOKEN": "x"},
        "Several processes share one database: set DATABASE_URL to a PostgreSQL server "
        "(README: PostgreSQL).",
    ),
    "no process": (
        ["--processes", "0"],
        {"DISCORD_TOKEN": "x", "DATABASE_URL": POSTGRES},
        "--processes should be 1 or more (got 0).",
    ),
    "more processes than shards": (
        ["--processes", "5"],
        {"DISCORD_TOKEN": "x", "DATABASE_URL": POSTGRES, "SHARD_COUNT": "4"},
        "--processes 5 is more than SHARD_COUNT's 4 shards, and each process needs one at "
        "least: lower --processes or raise SHARD_COUNT.",
    ),
    "shard ids given": (
        ["--processes", "2"],
        {"DISCORD_TOKEN": "x", "DATABASE_URL": POSTGRES, "SHARD_COUNT": "4", "SHARD_IDS": "0-3"},
        "SHARD_IDS is set, but cluster gives each process its shards itself: remove SHARD_IDS "
        "from .env and the environment (SHARD_COUNT may stay).",
    ),
    "no token": (
        ["--processes", "2"],
        {"DATABASE_URL": POSTGRES},
        "DISCORD_TOKEN is not set: create an application",
    ),
    "invalid setting": (
        ["--processes", "2"],
        {"DISCORD_TOKEN": "x", "DATABASE_URL": POSTGRES, "SHARD_COUNT": "0"},
        "Invalid setting: SHARD_COUNT input should be greater than or equal to 1",
    ),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_cluster_refuses_in_one_sentence_with_status_2(monkeypatch, tmp_path, capsys, case):
    arguments, settings, expected = REFUSALS[case]
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)  # no .env
    assert cluster.main(arguments) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(expected), err


@pytest.mark.slow  # a process started, which imports the bot
def test_python_m_bot_cluster_refuses_without_postgres(tmp_path):
    arguments, settings, expected = REFUSALS["no database"]
    result = subprocess.run(
        [sys.executable, "-m", "bot", "cluster", *arguments],
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), **settings},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout, result.stderr) == (2, "", expected + "\n")


# --- the supervisor, with the stand-in for the bot ---


async def test_each_process_gets_its_shards_and_one_that_dies_restarts_with_them(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bot.cluster")
    starts = tmp_path / "starts"
    supervisor = Supervisor(5, split_shards(5, 2), child(starts, 2, "3-4=1,kill"), FAST)
    async with supervising(supervisor) as running:
        await until(lambda: len(started(starts)) == 4)
        await asyncio.sleep(0.1)  # time for a wrong extra start to show
        assert not running.done()
    assert shards_started(starts) == ["5 0-2", "5 3-4", "5 3-4", "5 3-4"]
    assert [r.getMessage() for r in caplog.records if r.name == "bot.cluster"] == [
        "process for shards 3-4 exited with 1; restarting in 0.01 s",
        "process for shards 3-4 exited with 137; restarting in 0.02 s",
    ]
    assert running.result() == 0
    assert all(gone(pid) for _, pid in started(starts))


async def test_a_process_that_exits_2_stops_them_all_with_status_2(tmp_path, caplog):
    starts = tmp_path / "starts"
    supervisor = Supervisor(4, split_shards(4, 2), child(starts, 2, "0-1=2"), FAST)
    assert await asyncio.wait_for(supervisor.run(), 5) == 2
    assert shards_started(starts) == ["4 0-1", "4 2-3"]
    assert all(gone(pid) for _, pid in started(starts))
    assert "process for shards 0-1 exited with 2" in caplog.text


async def test_a_process_that_ignores_sigterm_is_killed_after_the_wait(tmp_path, caplog):
    starts = tmp_path / "starts"
    supervisor = Supervisor(1, [(0,)], child(starts, 1, "0=stubborn"), FAST, stop_seconds=0.2)
    async with supervising(supervisor):
        await until(lambda: len(started(starts)) == 1)
    pid = started(starts)[0][1]
    assert gone(pid)
    assert "process for shards 0 still ran 0.2 s after SIGTERM: killed" in caplog.text


SUPERVISOR = """
import sys
from bot import eventloop
from bot.cluster import Supervisor, split_shards, supervise
command = [sys.executable, "-c", *sys.argv[1:]]
sys.exit(eventloop.run(supervise(Supervisor(3, split_shards(3, 3), command))))
"""


@pytest.mark.slow  # a process started, which imports the bot's settings
async def test_sigterm_to_the_supervisor_stops_every_process(tmp_path):
    starts = tmp_path / "starts"
    supervisor = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SUPERVISOR, CHILD, str(starts), "3", cwd=ROOT
    )
    try:
        await until(lambda: len(started(starts)) == 3)
        supervisor.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(supervisor.wait(), 5) == 0
    finally:
        if supervisor.returncode is None:  # leave nothing running after a failure
            supervisor.kill()
            for _, pid in started(starts):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    assert shards_started(starts) == ["3 0", "3 1", "3 2"]
    assert all(gone(pid) for _, pid in started(starts))
