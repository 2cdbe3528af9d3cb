"""Two bot processes on one PostgreSQL database, racing for the same debit: exactly one wins.

Each round, the test holds the account's row locked while both processes send their debit of
its whole balance, waits until the server shows both of them waiting for that lock, then lets
go: they meet at the same row at the same moment, every round, instead of by luck of timing.
The one that gets the row second sees the first one's result (READ COMMITTED re-checks the
debit's condition on the row as committed) and is refused."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import asyncpg
import pytest

from bot.store import Ledger, PostgresDatabase
from tests import ROOT

pytestmark = pytest.mark.slow  # two processes started

GUILD, BALANCE, ROUNDS = 7, 100, 5

# One process: says the server pid of its only connection, then, for each round number read
# from stdin, tries to give member <round>'s whole balance to its own receiver.
RACER = f"""
import asyncio, sys
from bot.store import InsufficientChips, Ledger, PostgresDatabase

async def main(url, receiver):
    database = await PostgresDatabase.open(url, pool_size=1)
    ledger = Ledger(database, starting_chips={BALANCE})
    print((await database.fetch_one("SELECT pg_backend_pid()"))[0], flush=True)
    for line in sys.stdin:
        member = int(line)
        try:
            key = f"{{receiver}}:{{member}}"
            await ledger.transfer({GUILD}, member, receiver, {BALANCE}, key=key)
            print("won", flush=True)
        except InsufficientChips:
            print("refused", flush=True)
    await database.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


class Racer:
    def __init__(self, url: str, receiver: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", RACER, url, str(receiver)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.server_pid = int(self.answer())

    def answer(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the racing process ended early"
        return line.strip()

    def debit(self, member: int) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{member}\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(30)


async def wait_until_both_wait_for_a_lock(connection, racers: list[Racer]) -> None:
    pids = [racer.server_pid for racer in racers]
    for _ in range(1000):
        waiting = await connection.fetchval(
            "SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted AND pid = ANY($1)", pids
        )
        if waiting == len(pids):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the two processes never both waited for the account's row")


async def test_two_processes_racing_for_one_debit_exactly_one_wins(postgres_url):
    database = await PostgresDatabase.open(postgres_url)
    ledger = Ledger(database, starting_chips=BALANCE)
    members = range(1, ROUNDS + 1)
    for member in members:
        await ledger.balance(GUILD, member)
    racers = [Racer(postgres_url, receiver) for receiver in (1001, 1002)]
    holder = await asyncpg.connect(postgres_url)
    try:
        for member in members:
            async with holder.transaction():
                await holder.execute(
                    "SELECT chips FROM accounts WHERE kind = 'member' AND owner_id = $1 FOR UPDATE",
                    member,
                )
                for racer in racers:
                    racer.debit(member)
                await wait_until_both_wait_for_a_lock(holder, racers)
            answers = sorted([await asyncio.to_thread(racer.answer) for racer in racers])
            assert answers == ["refused", "won"], f"round {member}: {answers}"
            assert await ledger.balance(GUILD, member) == 0
        won = [await ledger.balance(GUILD, receiver) - BALANCE for receiver in (1001, 1002)]
        assert sum(won) == ROUNDS * BALANCE  # each round's balance went to one of them, once
        totals = await ledger.totals()
        assert totals.consistent, totals
    finally:
        for racer in racers:
            racer.stop()
        await holder.close()
        await database.close()
