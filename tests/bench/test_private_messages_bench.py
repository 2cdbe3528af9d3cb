"""bench/private_messages.py on two games, once each, so it keeps working: a picking game
(Big Two: messages and redraws) and one with buttons only (Backhand: messages)."""

from __future__ import annotations

from bench.private_messages import main, timed
from bot.engine import registry


async def test_the_bench_times_messages_and_a_pickers_redraws():
    timings = timed(registry.get("bigtwo"), repeats=1, number=1)
    assert len(timings.messages) == len(timings.redraws) >= 2
    assert len(timings.restores) == len(timings.snapshots) == len(timings.messages)
    everything = timings.messages + timings.redraws + timings.restores + timings.snapshots
    assert all(micros > 0 for micros in everything)
    timings = timed(registry.get("backhand"), repeats=1, number=1)
    assert timings.messages and not timings.redraws  # no picker


async def test_the_bench_prints_each_game_and_their_mean(capsys):
    await main(["totit"], repeats=1, number=1)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["game", "totit", "mean"]
