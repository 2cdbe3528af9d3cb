"""Ledger transfers per second on a real SQLite file with the bot's durable settings
(WAL, synchronous=FULL: a transfer returns once it is committed and fsynced). Sequential
transfers pay one fsync each; concurrent ones share commits (group commit, bot/store/db.py).

    .venv/bin/python bench/ledger_transfers.py [--transfers 2000] [--tasks 50]

Prints sequential and concurrent throughput and checks the chip total afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path

from bot.store import Database, InsufficientChips, Ledger

GUILD, MEMBERS, START = 1, 10, 1_000_000


async def transfer_many(ledger: Ledger, count: int, seed: int, prefix: str) -> None:
    rng = random.Random(seed)
    for index in range(count):
        giver, receiver = rng.sample(range(1, MEMBERS + 1), 2)
        with contextlib.suppress(InsufficientChips):
            await ledger.transfer(
                GUILD, giver, receiver, rng.randint(1, 100), key=f"{prefix}:{index}"
            )


async def measure(path: Path, transfers: int, tasks: int) -> None:
    database = await Database.open(path)
    ledger = Ledger(database, starting_chips=START)
    for member in range(1, MEMBERS + 1):
        await ledger.balance(GUILD, member)

    started = time.perf_counter()
    await transfer_many(ledger, transfers, seed=1, prefix="seq")
    sequential = transfers / (time.perf_counter() - started)

    per_task = max(1, transfers // tasks)
    started = time.perf_counter()
    await asyncio.gather(
        *(transfer_many(ledger, per_task, seed, f"c{seed}") for seed in range(tasks))
    )
    concurrent = per_task * tasks / (time.perf_counter() - started)

    totals = await ledger.totals(GUILD)
    assert totals.consistent and totals.balances == MEMBERS * START, totals
    await database.close()
    print(f"sequential: {sequential:,.0f} transfers/s ({transfers} transfers)")
    print(f"concurrent: {concurrent:,.0f} transfers/s ({tasks} tasks x {per_task})")
    print("chip total conserved")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transfers", type=int, default=2000)
    parser.add_argument("--tasks", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parents[1] / "data") as folder:
        asyncio.run(measure(Path(folder) / "bench.sqlite3", args.transfers, args.tasks))


if __name__ == "__main__":
    main()
