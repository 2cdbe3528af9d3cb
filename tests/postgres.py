"""The PostgreSQL server tests run against: TEST_DATABASE_URL, or the one CI has
(postgresql://postgres@127.0.0.1:5432/test). Each test gets a schema of its own, made empty
and dropped after it, so tests run in any order and leave nothing behind; or, where it wants
the bot's schema (`migrated_postgres_url`), one migrated that is emptied again after it.

Without a server the PostgreSQL tests are skipped (tests/conftest.py says so in one line at
the end); with REQUIRE_POSTGRES=1 (.ci/run sets it) they fail instead.
"""

from __future__ import annotations

import asyncio
import graphlib
import os
import secrets
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

from bot.store import PostgresDatabase

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
# Every skip for want of a server starts so; the summary line counts them.
SKIP_REASON = "no PostgreSQL server"

Plan = Literal["run", "skip", "fail"]


def server_url() -> str:
    return os.environ.get("TEST_DATABASE_URL") or DEFAULT_URL


def required() -> bool:
    return os.environ.get("REQUIRE_POSTGRES", "") not in ("", "0")


def plan(reachable: bool, required: bool) -> Plan:
    """What the PostgreSQL tests do: run on a server; without one, fail if it is required
    (CI), else skip (a fresh clone without PostgreSQL still passes `make test`)."""
    if reachable:
        return "run"
    return "fail" if required else "skip"


def in_schema(url: str, schema: str) -> str:
    """The URL with `schema` as its search_path: asyncpg passes a URL's unknown query
    parameters to the server as settings, so the bot itself can be pointed there too."""
    parts = urlsplit(url)
    query = [(name, value) for name, value in parse_qsl(parts.query) if name != "search_path"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("search_path", schema)])))


class PostgresServer:
    """One connection to the server, on a loop and thread of its own, so that sync fixtures
    (any test's, whatever loop it runs on) can make and drop schemas."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        try:
            self.connection = self._run(asyncpg.connect(url, timeout=5))
        except BaseException:
            self._stop()
            raise

    def _run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(60)

    def new_schema(self) -> str:
        name = f"t_{secrets.token_hex(6)}"
        self._run(self.connection.execute(f"CREATE SCHEMA {name}"))
        return name

    def drop_schema(self, name: str) -> None:
        self._run(self.connection.execute(f"DROP SCHEMA {name} CASCADE"))

    def execute(self, sql: str) -> Any:
        return self._run(self.connection.execute(sql))

    def shape(self, schema: str) -> tuple:
        """What a test could change of a migrated schema beyond its rows: its version, and
        how many tables, indexes, sequences, views and functions it holds."""
        space = f"'{schema}'::regnamespace"
        return tuple(
            self._run(
                self.connection.fetchrow(
                    f'SELECT (SELECT version FROM "{schema}".schema_version),'
                    f" (SELECT count(*) FROM pg_class WHERE relnamespace = {space}),"
                    f" (SELECT count(*) FROM pg_proc WHERE pronamespace = {space})"
                )
            )
        )

    def close(self) -> None:
        self._run(self.connection.close())
        self._stop()

    def _stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def connect() -> PostgresServer | str:
    """The server, or why it cannot be reached."""
    try:
        return PostgresServer(server_url())
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        return str(error) or type(error).__name__


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The server for the whole session: skips (or fails, REQUIRE_POSTGRES=1) without one."""
    found = connect()
    match plan(isinstance(found, PostgresServer), required()):
        case "fail":
            pytest.fail(f"REQUIRE_POSTGRES=1 but no PostgreSQL server at {server_url()}: {found}")
        case "skip":
            pytest.skip(f"{SKIP_REASON} at {server_url()}: {found}")
    assert isinstance(found, PostgresServer)
    yield found
    found.close()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A URL whose connections work in a new empty schema, dropped after the test."""
    schema = postgres_server.new_schema()
    yield in_schema(postgres_server.url, schema)
    postgres_server.drop_schema(schema)


# Put back as the migrations left it: a schema's tables emptied (each after the tables that
# refer to it) and its sequences restarted, which is all they hold then (`migrated_schema`).
SCHEMA_TABLES = """
SELECT tablename FROM pg_tables
WHERE schemaname = current_schema() AND tablename != 'schema_version'
"""
FOREIGN_KEYS = """
SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
"""
SCHEMA_SEQUENCES = "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"


async def emptying(schema: str, url: str) -> str:
    """Migrate the schema at `url` as the bot does; the statements that put it back so. They
    are only a reset if the migrations leave no row but schema_version's: checked here."""
    await (await PostgresDatabase.open(url)).close()
    connection = await asyncpg.connect(url)
    try:
        tables = [name for (name,) in await connection.fetch(SCHEMA_TABLES)]
        for table in tables:
            assert not await connection.fetchval(f'SELECT EXISTS (SELECT FROM "{table}")'), table
        order = graphlib.TopologicalSorter({table: set() for table in tables})
        for referring, referred in await connection.fetch(FOREIGN_KEYS):
            if referring != referred:  # a DELETE of the whole table meets its own references
                order.add(referred, referring)  # the referring table's rows go first
        sequences = [name for (name,) in await connection.fetch(SCHEMA_SEQUENCES)]
    finally:
        await connection.close()
    return ";\n".join(
        [f'DELETE FROM "{schema}"."{table}"' for table in order.static_order()]
        + [f'ALTER SEQUENCE "{schema}"."{sequence}" RESTART' for sequence in sequences]
    )


@pytest.fixture(scope="session")
def migrated_schemas(postgres_server: PostgresServer) -> Iterator[list[tuple[str, str, tuple]]]:
    """The worker's schemas migrated as the bot does, free for a test, each with the
    statements that empty it again (`emptying`) and its shape; dropped at the end of the
    session."""
    free: list[tuple[str, str, tuple]] = []
    yield free
    for schema, *_ in free:
        postgres_server.drop_schema(schema)


@contextmanager
def migrated_schema(
    server: PostgresServer, free: list[tuple[str, str, tuple]]
) -> Iterator[tuple[str, Callable[[], object]]]:
    """A schema of the caller's own, migrated and empty (one of `free`, else a new one), and
    what empties it again; emptied and put back in `free` after, unless its shape changed. A
    new schema's migrations and its drop cost the server some 0.2 s of CPU; a used one emptied
    costs milliseconds."""
    if free:
        schema, statements, shape = free.pop()
    else:
        schema = server.new_schema()
        statements = asyncio.run(emptying(schema, in_schema(server.url, schema)))
        shape = server.shape(schema)
    try:
        yield in_schema(server.url, schema), lambda: server.execute(statements)
        server.execute(statements)
    except BaseException:
        server.drop_schema(schema)
        raise
    if server.shape(schema) == shape:
        free.append((schema, statements, shape))
    else:  # the test changed more than rows: not for another
        server.drop_schema(schema)


@pytest.fixture
def migrated_postgres_url(
    postgres_server: PostgresServer, migrated_schemas: list[tuple[str, str, tuple]]
) -> Iterator[str]:
    """A URL whose connections work in a schema of the test's own, migrated and empty, as a
    new database is once the bot has started on it."""
    with migrated_schema(postgres_server, migrated_schemas) as (url, _):
        yield url
