"""A short run of the load bench (bench/load.py) in every CI run, so it keeps working and so
mixed games played at once meet Discord's rate limits end to end: ten tables of ten games,
scripted players acting as fast as their prompts reach them, the bot in a process of its own,
stopped and started again in the middle."""

from __future__ import annotations

import asyncio
import collections
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import load as load_bench
from bench.load import MIX, measure
from bench.postgres import postgres_cpu


@pytest.mark.e2e
@pytest.mark.slow  # the bot in a process of its own, at Discord's pace
async def test_ten_tables_at_once_under_discords_limits_lose_nothing_across_a_restart():
    report = await measure(tables=len(MIX), seconds=3, verbose=False)
    assert report.errors == []
    assert report.limited == 0  # no 429: the bot paced itself under every limit
    assert report.chips_conserved
    assert report.tables_resumed == report.tables_open == len(MIX)
    for phase in report.phases:  # before the restart and after it
        assert phase["actions"] >= 50, phase
        assert phase["late"] == 0, phase  # every interaction answered within 3 s
        assert phase["refused"] <= phase["actions"] // 20, phase
        assert phase["calls_per_action"] <= 3, phase
        # measured inside the bot too, for every interaction: a share of what the fake
        # Discord measured
        assert phase["inside_timed"] >= phase["interactions"] * 0.95, phase
        assert 0 < phase["inside_p50"] <= phase["p50"], phase
        # ... and from the fake's sending, on the clock both processes share: later than the
        # bot's parsing, earlier than the fake's receiving, for each interaction
        assert phase["sent_to_answered_timed"] >= phase["interactions"] * 0.95, phase
        assert phase["inside_p50"] <= phase["sent_to_answered_p50"] <= phase["p50"], phase
        assert phase["inside_p99"] <= phase["sent_to_answered_p99"] <= phase["p99"], phase
        # ... and, for the clicks that moved, where that time went: every such click marked
        # along its way, and the slowest 1% slower than the median in sum
        segments = phase["segments"]
        assert segments["clicks"] >= phase["actions"] * 0.8, phase
        for group in ("median", "slowest"):
            assert len(segments[group]) == len(load_bench.SEGMENTS), phase
            assert min(segments[group]) >= 0, phase
        assert sum(segments["slowest"]) >= sum(segments["median"]) > 0, phase
        for group, collecting in zip(("median", "slowest"), segments["collecting"], strict=True):
            assert 0 <= collecting <= sum(segments[group]), phase


def test_a_short_window_still_has_a_median_and_a_slowest_click():
    """Where clicks went is told for the median 10% and the slowest 1%: a window of a few
    clicks (a bot process's share after a restart) has one of each, never none."""
    assert load_bench.median_and_slowest([]) == ([], [])
    for count in range(1, 301):
        clicks = list(range(count))
        median, slowest = load_bench.median_and_slowest(clicks)
        assert median and slowest
        assert median == clicks[int(count * 0.45) : int(count * 0.45) + len(median)]
        assert slowest[-1] == count - 1 and len(slowest) <= max(1, count // 100 + 1)
        assert min(median) <= count // 2 <= max(median) + 1


def test_a_clicks_time_in_collector_pauses_counts_only_what_overlaps_it():
    pauses = collections.deque([(0.0, 1.0), (2.0, 3.0), (4.0, 4.5), (6.0, 7.0)])
    times = SimpleNamespace(collector_pauses=pauses)

    def collecting(start, end):
        return load_bench.BotSideTimes._collecting(times, start, end)

    assert collecting(2.5, 4.2) == pytest.approx(0.5 + 0.2)  # the end of one, the start of one
    assert collecting(1.0, 2.0) == 0  # between two pauses
    assert collecting(4.1, 4.3) == pytest.approx(0.2)  # inside one
    assert collecting(0.0, 10.0) == pytest.approx(3.5)  # all of them


@pytest.mark.slow  # slices of real time
async def test_each_slice_of_a_window_reports_its_own_rate(monkeypatch):
    """Whether a rate is sustained: answers counted per slice, not averaged over the window."""
    monkeypatch.setattr(load_bench, "SLICE_SECONDS", 0.5)
    answered: list[float] = []
    load = SimpleNamespace(tester=SimpleNamespace(answer_times=answered))
    rates: list[float] = []
    counting = asyncio.create_task(load_bench.count_slices(load, rates))
    await asyncio.sleep(0.25)  # answers come mid-slice, clear of where slices end
    for per_slice in (10, 40):
        answered += [0.0] * per_slice
        await asyncio.sleep(0.5)
    counting.cancel()
    assert len(rates) == 2
    assert rates == pytest.approx([10 / 0.5, 40 / 0.5], rel=0.2)


async def test_the_open_loop_lets_one_waiting_player_act_at_each_moment_at_its_rate():
    """An open loop (--rate): the load offered is its rate, not the bot's pace; moments
    that find nobody waiting are counted, not saved up for a burst later."""
    open_loop = load_bench.OpenLoop(rate=200, rng=load_bench.random.Random(3))
    open_loop.start()
    await asyncio.sleep(0.25)  # nobody waits yet: these moments pass unused
    unused = open_loop.idle
    players = [asyncio.create_task(open_loop.turn()) for _ in range(40)]
    await asyncio.sleep(0.1)
    let_act = sum(player.done() for player in players)
    open_loop.stop()  # the window's end: everyone still waiting goes ...
    await asyncio.gather(*players)
    await asyncio.wait_for(open_loop.turn(), 1)  # ... and a player coming after it does not wait
    assert unused >= 20  # about 50 moments in 0.25 s
    assert 5 <= let_act < 40  # about 20 in 0.1 s: one a moment, the unused ones not saved up
    assert open_loop.moments - unused >= let_act


@pytest.mark.e2e
@pytest.mark.slow  # the bot in a process of its own
async def test_the_load_bench_runs_the_bot_on_postgresql_and_audits_its_ledger(postgres_url):
    """The same run with the bot's store on PostgreSQL, in a schema made for it: two tables,
    short windows; the server's CPU read beside the bot's where its processes are to be seen."""
    server_here = bool(postgres_cpu())
    report = await measure(tables=2, seconds=1, verbose=False, database_url=postgres_url)
    assert report.errors == []
    assert report.chips_conserved  # the ledger balances, and no chip made or lost
    assert report.tables_resumed == report.tables_open == 2
    for phase in report.phases:
        assert phase["actions"] > 0, phase
        server = phase["server_cpu_per_interaction"]
        assert (server is not None) == server_here, phase
        combined = phase["bot_cpu_per_interaction"] + (server or 0.0)
        assert phase["combined_cpu_per_interaction"] == pytest.approx(combined), phase


@pytest.mark.e2e
@pytest.mark.slow  # two bot processes
async def test_the_load_bench_splits_its_tables_over_two_bot_processes(postgres_url):
    """--processes 2: a guild per shard, each process playing its own guild's tables, the
    second's DM clicks forwarded to it by the first; every interaction counted to one of them,
    the ledger audited across both, and no 429 (they share the bot's REST budget)."""
    report = await measure(
        tables=4, seconds=2, verbose=False, database_url=postgres_url, processes=2
    )
    assert report.errors == []
    assert report.chips_conserved
    assert report.limited == 0
    assert report.tables_resumed == report.tables_open == 4
    for phase in report.phases:
        first, second = phase["processes"]
        assert first["interactions"] > 0 and second["interactions"] > 0, phase
        assert first["interactions"] + second["interactions"] == phase["interactions"], phase
        assert first["forwarded"] == 0 < second["forwarded"] <= second["interactions"], phase
        assert first["bot_cpu_per_interaction"] > 0 and second["bot_cpu_per_interaction"] > 0


async def test_the_players_reads_on_postgresql_name_their_own_server_processes(postgres_url):
    """Their server processes are left out of the server's CPU: these must be theirs, all of
    them, and no one else's."""
    database = load_bench.BenchDatabase(Path(), postgres_url)
    async with database.reading() as saved:
        listed = await saved.rows(
            "SELECT pid FROM pg_stat_activity WHERE application_name = ?",
            load_bench.PLAYERS_APPLICATION,
        )
        own = {pid for (pid,) in await saved.rows("SELECT pg_backend_pid()")}
        assert own <= saved.connections
        # (another run's players may be listed too: the server is shared by every test)
        assert saved.connections <= {pid for (pid,) in listed}
        assert len(saved.connections) == load_bench.PostgresRows.CONNECTIONS
