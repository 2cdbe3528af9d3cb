"""Ledger transfers per second through the store, on SQLite or on a PostgreSQL server, each
durable as the bot runs it by default: a transfer returns once it is committed and flushed.

    .venv/bin/python bench/ledger_transfers.py [--transfers 2000] [--tasks 50] [--members 10]
        [--database-url postgresql://user@host/database [--pool 10]] [--durability full]

SQLite (the default: a file in a temporary folder under data/, WAL, synchronous=FULL):
sequential transfers pay one fsync each; concurrent ones share commits (group commit,
bot/store/sqlite.py), so the concurrent figure depends mostly on the disk's fsync.

PostgreSQL (--database-url; synchronous_commit=on): the run takes a schema of its own on the
server, made for it and dropped after it, so it needs no empty database and never touches the
bot's tables. A transfer on its own is one call of the server's function; those that arrive
while a call is under way go together in the next (bot/store/batches.py), one transaction
and one WAL flush for up to 50. So sequential transfers pay a round trip and a flush each,
and the concurrent figure depends mostly on CPU: with the server on this machine, this
process and the server's share its cores. The accounts are analyzed once opened, as the
server's autovacuum soon does on a running bot (--members: 10 by default).

Prints sequential and concurrent transfers per second, with the CPU per transfer of this
process and (on PostgreSQL, where its processes are on this machine) of the server, all its
processes and clients: run it where nothing else uses the server. Then audits the ledger:
balances + escrows + house = minted - burned, and no chip made or lost (exit status 1 if not).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: bench/ too

from bench.postgres import fresh_schema, postgres_cpu, postgres_cpu_since
from bot import eventloop
from bot.settings import Durability
from bot.store import Database, InsufficientChips, Ledger, PostgresDatabase, SQLiteDatabase
from bot.store.db import Transaction
from bot.store.ledger import Totals
from bot.store.postgres import POOL_SIZE, describe

GUILD, START = 1, 1_000_000
DATA = Path(__file__).resolve().parents[1] / "data"


# ---- the run --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phase:
    transfers: int
    seconds: float
    cpu: float  # CPU seconds of this process (its store's threads too)
    server_cpu: float | None  # of the PostgreSQL server's processes, if on this machine

    @property
    def per_second(self) -> float:
        return self.transfers / self.seconds

    def describe(self) -> str:
        cpu = f"CPU per transfer: this process {self.cpu / self.transfers * 1000:.2f} ms"
        if self.server_cpu is not None:
            cpu += f", the server {self.server_cpu / self.transfers * 1000:.2f} ms"
        return f"{self.per_second:,.0f} transfers/s ({cpu})"


@dataclass(frozen=True)
class Throughput:
    sequential: Phase
    concurrent: Phase  # `tasks` at once, `per_task` each
    tasks: int
    per_task: int
    members: int
    totals: Totals

    @property
    def audited(self) -> bool:
        """The ledger balances, and every account's starting chips are still there in sum."""
        return self.totals.consistent and self.totals.balances == self.members * START


async def transfer_many(ledger: Ledger, members: int, count: int, seed: int, prefix: str) -> None:
    rng = random.Random(seed)
    for index in range(count):
        giver, receiver = rng.sample(range(1, members + 1), 2)
        with contextlib.suppress(InsufficientChips):
            await ledger.transfer(
                GUILD, giver, receiver, rng.randint(1, 100), key=f"{prefix}:{index}"
            )


async def timed(transfers: int, on_server: bool, work: Awaitable[object]) -> Phase:
    server = postgres_cpu() if on_server else {}  # none where the server is elsewhere
    cpu, started = time.process_time(), time.perf_counter()
    await work
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return Phase(transfers, seconds, cpu, postgres_cpu_since(server) if server else None)


async def analyze(tx: Transaction) -> None:
    """Statistics on the accounts just opened, as the server's autovacuum keeps them on a
    running bot's: on a table it has not looked at yet, the planner reads every row for each
    account looked up (on PostgreSQL, with 1,000 accounts, twice the CPU per transfer)."""
    await tx.run("ANALYZE")


async def measure(database: Database, transfers: int, tasks: int, members: int) -> Throughput:
    ledger = Ledger(database, starting_chips=START)
    for member in range(1, members + 1):
        await ledger.balance(GUILD, member)  # opens the account: START chips minted
    await database.step(analyze)
    on_server = database.backend == "postgres"
    sequential = await timed(
        transfers, on_server, transfer_many(ledger, members, transfers, seed=1, prefix="seq")
    )
    per_task = max(1, transfers // tasks)
    concurrent = await timed(
        per_task * tasks,
        on_server,
        asyncio.gather(
            *(transfer_many(ledger, members, per_task, seed, f"c{seed}") for seed in range(tasks))
        ),
    )
    totals = await ledger.totals(GUILD)
    return Throughput(sequential, concurrent, tasks, per_task, members, totals)


async def run(
    database_url: str | None = None,
    *,
    transfers: int = 2000,
    tasks: int = 50,
    members: int = 10,
    pool: int = POOL_SIZE,
    durability: Durability = "full",
) -> Throughput:
    """Measure on PostgreSQL in a schema of the run's own, or on SQLite in a temporary file."""
    if database_url is None:
        DATA.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory(dir=DATA) as folder:
            database: Database = await SQLiteDatabase.open(
                Path(folder) / "bench.sqlite3", durability=durability
            )
            try:
                return await measure(database, transfers, tasks, members)
            finally:
                await database.close()
    async with fresh_schema(database_url) as url:
        database = await PostgresDatabase.open(url, durability=durability, pool_size=pool)
        try:
            return await measure(database, transfers, tasks, members)
        finally:
            await database.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transfers", type=int, default=2000)
    parser.add_argument("--tasks", type=int, default=50, help="transfers under way at once")
    parser.add_argument("--members", type=int, default=10, help="accounts the transfers share")
    parser.add_argument(
        "--database-url", help="a PostgreSQL server (default: SQLite in a temporary file)"
    )
    parser.add_argument(
        "--pool", type=int, default=POOL_SIZE, help="PostgreSQL: the pool's connections at most"
    )
    parser.add_argument("--durability", choices=get_args(Durability), default="full")
    args = parser.parse_args()
    if args.members < 2:
        parser.error("--members: a transfer needs two accounts")
    where = (
        f"PostgreSQL at {describe(args.database_url)}, pool of {args.pool}"
        if args.database_url
        else "SQLite"
    )
    print(f"{where}, durability {args.durability}, {args.members} accounts")
    result = eventloop.run(
        run(
            args.database_url,
            transfers=args.transfers,
            tasks=args.tasks,
            members=args.members,
            pool=args.pool,
            durability=args.durability,
        )
    )
    print(f"sequential, {args.transfers} transfers: {result.sequential.describe()}")
    print(f"concurrent, {result.tasks} tasks x {result.per_task}: {result.concurrent.describe()}")
    if not result.audited:
        sys.exit(f"AUDIT FAILED: {result.totals}")
    print("audit: consistent, chip total conserved")


if __name__ == "__main__":
    main()
