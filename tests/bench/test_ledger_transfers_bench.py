"""The ledger bench (bench/ledger_transfers.py, bench/postgres.py) on both backends: a tiny
run that audits, in a PostgreSQL schema of its own that it drops after, and the server CPU it
reads."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import asyncpg
import pytest

from bench import postgres
from bench.ledger_transfers import run
from bench.postgres import fresh_schema, postgres_cpu_since


async def test_a_tiny_run_on_sqlite_moves_chips_and_audits():
    result = await run(transfers=40, tasks=4, members=3)
    assert result.audited
    assert result.sequential.transfers == 40 and result.concurrent.transfers == 40
    assert result.sequential.per_second > 0 and result.concurrent.per_second > 0
    assert result.sequential.server_cpu is None  # no server: SQLite is in this process


async def test_a_tiny_run_on_postgresql_moves_chips_audits_and_reads_the_servers_cpu(
    postgres_url,
):
    result = await run(postgres_url, transfers=40, tasks=4, members=3, pool=2)
    assert result.audited
    assert result.concurrent.transfers == 40 and result.concurrent.per_second > 0
    # read where the server's processes are to be seen: on this machine
    assert (result.concurrent.server_cpu is not None) == bool(postgres.postgres_cpu())


async def test_the_runs_schema_is_new_and_empty_and_dropped_after(postgres_url):
    async def schema_tables(schema: str) -> int | None:
        connection = await asyncpg.connect(postgres_url)
        try:
            if not await connection.fetchval(
                "SELECT 1 FROM pg_namespace WHERE nspname = $1", schema
            ):
                return None
            return await connection.fetchval(
                "SELECT COUNT(*) FROM pg_tables WHERE schemaname = $1", schema
            )
        finally:
            await connection.close()

    async with fresh_schema(postgres_url) as url:
        (schema,) = parse_qs(urlsplit(url).query)["search_path"]
        assert await schema_tables(schema) == 0
        connection = await asyncpg.connect(url)
        try:  # the URL's connections work there
            await connection.execute("CREATE TABLE made_here (id BIGINT)")
        finally:
            await connection.close()
        assert await schema_tables(schema) == 1
    assert await schema_tables(schema) is None


def test_server_cpu_counts_each_process_since_read_new_ones_whole_and_not_those_left_out(
    monkeypatch: pytest.MonkeyPatch,
):
    now = {10: 5.0, 11: 2.0, 12: 0.5}  # 12 started since `before`; 13 ended since
    monkeypatch.setattr(postgres, "postgres_cpu", lambda: now)
    before = {10: 4.0, 11: 1.5, 13: 9.0}
    assert postgres_cpu_since(before) == pytest.approx(1.0 + 0.5 + 0.5)
    assert postgres_cpu_since(before, leave_out={11}) == pytest.approx(1.0 + 0.5)
