"""REST calls per player action and bot-side handling time per interaction, over full
three-player Western Terrapin hands played through the fake Discord (the same scripted hand
as the end-to-end test, with every button press going through discord.py).

    .venv/bin/python bench/table_hand.py [--hands 20]

Handling time is measured from the moment the fake Discord sends INTERACTION_CREATE until the
bot's interaction callback arrives at it (both on 127.0.0.1). REST calls per action count every
request the bot makes because of that action: the callback, table message edits, DMs, results.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytest

from bench.load import percentile
from tests.e2e import make_world
from tests.tables_e2e import TableDriver, play_western_hand


class CountingDriver(TableDriver):
    """Counts the REST calls each press causes (until the bot goes quiet)."""

    calls_per_action: list[int]
    calls_by_route: Counter

    async def play(self, label, seat=None):
        before = len(self.world.fake.calls)
        reply = await super().play(label, seat)
        new = self.world.fake.calls[before:]
        # "My hand" presses for closed DMs would be extra calls; this bench uses DMs only.
        self.calls_per_action.append(len(new))
        self.calls_by_route.update(f"{c.method} {route_of(c.path)}" for c in new)
        return reply


def route_of(path: str) -> str:
    parts = path.strip("/").split("/")
    return "/" + "/".join(
        "{id}" if part.isdigit() or part.startswith("token-") else part for part in parts
    )


async def measure(hands: int) -> None:
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        world = await make_world(Path(folder), patch)
        await world.start_bot()
        driver = CountingDriver(world)
        driver.calls_per_action, driver.calls_by_route = [], Counter()
        try:
            await driver.open("western new", world.alice, [world.bob, world.carol], buy_in=1000)
            await driver.start(world.alice)
            world.tester.answer_times.clear()
            for _ in range(hands):
                await play_western_hand(driver)
                await world.bot.runtime.fire_deadline(driver.table.id)  # deal the next hand
                await driver.settle()
        finally:
            await world.stop_bot()
            await world.fake.stop()
    calls, times = driver.calls_per_action, [t * 1000 for t in world.tester.answer_times]
    print(f"{hands} hands, {len(calls)} player actions")
    mean, median = statistics.mean(calls), statistics.median(calls)
    spread = f"min {min(calls)}, max {max(calls)}"
    print(f"REST calls per action: mean {mean:.2f}, median {median}, {spread}")
    for route, count in driver.calls_by_route.most_common():
        print(f"  {count / len(calls):5.2f} per action  {route}")
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    print(
        f"handling time per interaction: p50 {p50:.1f} ms, p99 {p99:.1f} ms,"
        f" max {max(times):.1f} ms ({len(times)} interactions)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    asyncio.run(measure(parser.parse_args().hands))


if __name__ == "__main__":
    main()
