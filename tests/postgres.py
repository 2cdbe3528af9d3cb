"""The PostgreSQL server tests run against: TEST_DATABASE_URL, or the one CI has
(postgresql://postgres@127.0.0.1:5432/test). Each test gets a schema of its own, made empty
and dropped after it, so tests run in any order and leave nothing behind.

Without a server the PostgreSQL tests are skipped (tests/conftest.py says so in one line at
the end); with REQUIRE_POSTGRES=1 (.ci/run sets it) they fail instead.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

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
