"""PostgreSQL for the benches: a schema of the run's own, dropped after it, and the CPU the
server's processes use (the server runs on this machine)."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Collection
from pathlib import Path

import asyncpg

from tests.postgres import in_schema


@contextlib.asynccontextmanager
async def fresh_schema(url: str) -> AsyncIterator[str]:
    """A URL whose connections work in a new empty schema, dropped with all it holds after."""
    schema = f"bench_{secrets.token_hex(6)}"
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"CREATE SCHEMA {schema}")
    finally:
        await connection.close()
    try:
        yield in_schema(url, schema)
    finally:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            await connection.close()


def postgres_cpu() -> dict[int, float]:
    """CPU seconds used so far by each PostgreSQL server process on this machine, by pid: the
    server's own (WAL writer, checkpointer ...) and one per connection, every client's."""
    ticks = os.sysconf("SC_CLK_TCK")
    used = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    return used


def postgres_cpu_since(before: dict[int, float], leave_out: Collection[int] = ()) -> float:
    """CPU seconds the server's processes used since `before` (a `postgres_cpu()`), but those
    in `leave_out`. One started since counts whole; one ended since is missed, so read both
    while the connections to count are open."""
    return sum(
        cpu - before.get(pid, 0.0) for pid, cpu in postgres_cpu().items() if pid not in leave_out
    )
