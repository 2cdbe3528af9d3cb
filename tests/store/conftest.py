"""Every store test that takes `database` (or `open_database`) runs once per backend: SQLite
in a temporary file, PostgreSQL in a schema of its own (tests/postgres.py): one the bot's
migrations already made (emptied after each test), or, for a test marked `own_migrations`
that opens it with migrations of its own, an empty one."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from bot.store import Database, Ledger, Migration
from bot.store.backends import BACKENDS

OpenDatabase = Callable[..., Awaitable[Database]]


@pytest.fixture(params=list(BACKENDS))
def backend(request) -> str:
    if request.param == "postgres":
        request.getfixturevalue("postgres_server")  # skips (or fails) without a server
    return request.param


@pytest.fixture
def location(backend: str, request, tmp_path: Path) -> Path | str:
    """Where the test's database lives: a file, or a URL whose schema is the test's own."""
    if backend == "sqlite":
        return tmp_path / "store.sqlite3"
    if request.node.get_closest_marker("own_migrations"):
        return request.getfixturevalue("postgres_url")
    return request.getfixturevalue("migrated_postgres_url")


@pytest.fixture
async def open_database(
    backend: str, location: Path | str, request: pytest.FixtureRequest
) -> AsyncIterator[OpenDatabase]:
    """Opens the test's database (again, after a close: the same data), closing each after.
    Once the test is over, the chips it left must add up: balances + escrows + the house =
    minted - burned."""
    opened: list[Database] = []
    with_ledger = False
    own_migrations = request.node.get_closest_marker("own_migrations") is not None

    async def open_it(migrations: list[Migration] | None = None, **options) -> Database:
        nonlocal with_ledger
        assert migrations is None or backend == "sqlite" or own_migrations, (
            "a test that opens the store with migrations of its own is marked own_migrations"
        )
        database = await BACKENDS[backend].open(location, migrations, **options)
        opened.append(database)
        with_ledger |= migrations is None  # the bot's own schema
        return database

    yield open_it
    for database in opened:
        await database.close()
    if with_ledger:
        database = await BACKENDS[backend].open(location)
        try:
            totals = await Ledger(database, starting_chips=0).totals()
            assert totals.consistent, f"chips not conserved: {totals}"
        finally:
            await database.close()


@pytest.fixture
async def database(open_database: OpenDatabase) -> Database:
    return await open_database()


@pytest.fixture
def integrity_error(backend: str) -> type[Exception]:
    """What the backend raises for a statement a constraint refuses."""
    return (
        sqlite3.IntegrityError if backend == "sqlite" else asyncpg.IntegrityConstraintViolationError
    )
