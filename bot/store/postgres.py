"""The PostgreSQL backend: a pool of asyncpg connections to the server at DATABASE_URL.

Each step takes a pooled connection and runs in one transaction of its own, at PostgreSQL's
default READ COMMITTED, so steps from several tasks, or several bot processes, run at once: a
conditional debit waits for a concurrent one on the same account and then sees its result.
With DURABILITY=full (synchronous_commit=on) a step's COMMIT returns once the server has
flushed it to its WAL; with `normal` (off) a server crash may undo the last steps, never half
of one. Migrations are tracked in the one-row table schema_version.

The pool and every statement run on an event loop of their own, in a thread of their own
(StoreLoop), and a step's body runs there whole (`step`): each of its statements goes out as
soon as the last one's answer comes in. On the bot's loop, each answer waited for a turn of a
loop busy with everything else: at 500 tables and 300 clicks a second a step held its
connection for 34 ms (10 connections) to 142 ms (50), and clicks waited up to seconds for one;
a click's commit took 1.4 s at the median, and 0.2 s with the steps on their own loop
(bench/load.py --tables 500 --rate 300 --database-url ..., docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import urlsplit

import asyncpg

from bot import eventloop
from bot.settings import Durability
from bot.store.db import (
    Database,
    DatabaseUnavailable,
    Migration,
    Row,
    Transaction,
    bundled_migrations,
    refuse_newer,
)

T = TypeVar("T")
# Awaits a coroutine where the pool lives: on the caller's loop, or on the StoreLoop.
Caller = Callable[[Coroutine[Any, Any, T]], Awaitable[T]]

log = logging.getLogger(__name__)

# Connections the pool opens at most (one per step under way); one is opened at the start.
POOL_SIZE = 10
CONNECT_TIMEOUT_SECONDS = 10
# Prepared statements kept per connection: every statement the store runs, with room to spare.
STATEMENT_CACHE = 500
SYNCHRONOUS_COMMIT: dict[Durability, str] = {"full": "on", "normal": "off"}

# Errors that say the server cannot be reached or refuses the connection as set.
CONNECT_ERRORS = (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError)
# Errors of a server that lets the bot connect but not keep its tables where it looks for them.
SETUP_ERRORS = (
    asyncpg.InsufficientPrivilegeError,  # no CREATE on the schema
    asyncpg.InvalidSchemaNameError,  # no schema in search_path exists
    asyncpg.ReadOnlySQLTransactionError,  # a standby
)

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")


@lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """The store's `?` placeholders as PostgreSQL's $1, $2 ... (none inside quotes)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match[0] != "?":
            return match[0]
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def changed_rows(status: str) -> int:
    """The row count of a command tag: 'UPDATE 3' -> 3, 'INSERT 0 1' -> 1, 'CREATE TABLE' -> 0."""
    count = status.rpartition(" ")[2]
    return int(count) if count.isdigit() else 0


def describe(url: str) -> str:
    """The URL without its password or options: safe to print."""
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:  # not a number: the error says so
        port = ""
    return f"{parts.scheme}://{user}{parts.hostname or ''}{port}{parts.path}"


async def _direct(coroutine: Coroutine[Any, Any, T]) -> T:
    return await coroutine


class StoreLoop:
    """An event loop in a thread of its own, where the pool's connections live and steps run."""

    def __init__(self) -> None:
        self.loop = eventloop.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="postgres store", daemon=True
        )
        self.thread.start()

    async def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run `coroutine` there and await it here; cancelling this cancels it there."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, self.loop))

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


class PostgresTransaction:
    """One step's statements on its pooled connection (the store's Transaction), each awaited
    through `call`: directly inside `step`, across threads for a `transaction()` block."""

    __slots__ = ("call", "connection")
    # Taken in the order the SELECT returns the rows, before they change.
    row_lock = " FOR NO KEY UPDATE"

    def __init__(self, connection: Any, call: Caller = _direct) -> None:
        self.connection = connection
        self.call = call

    async def run(self, sql: str, *params: object) -> int:
        return changed_rows(await self.call(self.connection.execute(numbered(sql), *params)))

    async def one(self, sql: str, *params: object) -> Row | None:
        return await self.call(self.connection.fetchrow(numbered(sql), *params))

    async def all(self, sql: str, *params: object) -> list[Row]:
        return await self.call(self.connection.fetch(numbered(sql), *params))

    async def many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        rows = list(rows)
        if rows:
            await self.call(self.connection.executemany(numbered(sql), rows))


async def _keep_session(connection: Any) -> None:
    """A released connection is kept as it is: the bot sets nothing in a session (no SET, no
    LISTEN, no session advisory lock, no cursor), and asyncpg's own reset would cost every
    step a round trip. An open transaction is still rolled back (asyncpg does that first)."""


class PostgresDatabase(Database):
    backend = "postgres"
    setting = "DATABASE_URL"

    def __init__(self, pool: Any, where: str, store_loop: StoreLoop | None = None) -> None:
        self.pool = pool
        self.where = where  # the URL without its password, for messages
        self.store_loop = store_loop
        self.closed = False
        # Steps begun and not ended, waiting for a connection included (where the pool is).
        self._under_way = 0
        self._none_under_way = asyncio.Event()

    async def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Await `coroutine` where the pool lives."""
        if self.store_loop is None:
            return await coroutine
        return await self.store_loop.call(coroutine)

    @classmethod
    async def open(
        cls,
        url: str,
        migrations: list[Migration] | None = None,
        *,
        durability: Durability = "full",
        pool_size: int = POOL_SIZE,
        named_by: str = "DATABASE_URL",
        own_loop: bool = True,
    ) -> PostgresDatabase:
        """Connect and migrate; DatabaseUnavailable (one sentence) if the server cannot be used
        as `url` says. `named_by` is what the operator set it with (the messages name it).
        Without `own_loop` the pool lives on the caller's loop (a one-off command's)."""
        store_loop = StoreLoop() if own_loop else None
        database = cls(None, describe(url), store_loop)
        try:
            await database._call(
                database._connect(url, migrations, durability, pool_size, named_by)
            )
        except BaseException:
            if store_loop is not None:
                store_loop.stop()
            raise
        return database

    async def _connect(
        self,
        url: str,
        migrations: list[Migration] | None,
        durability: Durability,
        pool_size: int,
        named_by: str,
    ) -> None:
        fix = f"check {named_by}" + (
            " in .env or the environment" if named_by == self.setting else ""
        )
        try:
            self.pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=CONNECT_TIMEOUT_SECONDS,
                statement_cache_size=STATEMENT_CACHE,
                server_settings={
                    "synchronous_commit": SYNCHRONOUS_COMMIT[durability],
                    "application_name": "cardtable-bot",
                },
                reset=_keep_session,
            )
        except CONNECT_ERRORS as error:
            raise DatabaseUnavailable(
                f"Could not connect to the PostgreSQL server at {named_by} ({self.where}): "
                f"{_reason(error)}; {fix}, and that the server is running."
            ) from None
        try:
            await self._migrate(
                bundled_migrations("postgres") if migrations is None else migrations
            )
        except SETUP_ERRORS as error:
            await self.pool.close()
            raise DatabaseUnavailable(
                f"The PostgreSQL server at {named_by} ({self.where}) refused to set up the "
                f"bot's tables: {_reason(error)}; give its user a database (or schema) of its "
                "own."
            ) from None
        except BaseException:
            await self.pool.close()
            raise

    async def close(self) -> None:
        """After the steps under way, a step still waiting for a connection included. Once."""
        if self.closed:
            return
        self.closed = True
        await self._call(self._close())
        if self.store_loop is not None:
            self.store_loop.stop()

    async def _close(self) -> None:
        while self._under_way:
            self._none_under_way.clear()
            await self._none_under_way.wait()
        await self.pool.close()

    async def schema_version(self) -> int:
        return await self._call(self._schema_version())

    async def _schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            return await _version(connection)

    async def migrate(self, migrations: list[Migration]) -> None:
        await self._call(self._migrate(migrations))

    async def _migrate(self, migrations: list[Migration]) -> None:
        """In one transaction, which also holds a lock that a second process starting at the
        same moment waits for (then finds nothing left to do)."""
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "SELECT pg_advisory_xact_lock("
                "hashtext('cardtable migrations ' || coalesce(current_schema(), '')))"
            )
            current = await _version(connection)
            refuse_newer(current, migrations, self.where, "set DATABASE_URL to another database")
            pending = [migration.sql for migration in migrations if migration.version > current]
            if not pending:
                return
            await connection.execute("\n".join(pending))
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " one_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one_row),"
                " version INTEGER NOT NULL)"
            )
            await connection.execute(
                "INSERT INTO schema_version (version) VALUES ($1)"
                " ON CONFLICT (one_row) DO UPDATE SET version = EXCLUDED.version",
                migrations[-1].version,
            )

    def transaction(self) -> AbstractAsyncContextManager[PostgresTransaction]:
        """One step in one transaction on a pooled connection, its statements sent one by one
        from the caller's loop: any exception, cancellation included, rolls it back; leaving
        the block means it committed. The store's own steps use `step`."""
        return self._transaction(self._call)

    async def step(self, body: Callable[[Transaction], Awaitable[T]]) -> T:
        """`body` as one step, run whole on the store's loop."""
        return await self._call(self._step(body))

    async def _step(self, body: Callable[[Transaction], Awaitable[T]]) -> T:
        async with self._transaction(_direct) as tx:
            return await body(tx)

    @asynccontextmanager
    async def _transaction(self, call: Caller) -> AsyncIterator[PostgresTransaction]:
        """A step cancelled while it commits is committed all the same (the COMMIT is
        shielded), as on SQLite."""
        connection = await call(self._begin())
        try:
            yield PostgresTransaction(connection, call)
        except BaseException:
            # The step's own error is the one to report: a connection that cannot roll
            # back is closed by the pool, which ends its transaction on the server too.
            with contextlib.suppress(Exception):
                await asyncio.shield(call(self._end(connection, "ROLLBACK")))
            raise
        await asyncio.shield(call(self._end(connection, "COMMIT")))

    async def _begin(self) -> Any:
        self._under_way += 1
        try:
            connection = await self.pool.acquire()
        except BaseException:
            self._ended()
            raise
        try:
            await connection.execute("BEGIN")
        except BaseException:
            # A step cancelled as BEGIN's answer came in has begun all the same: never back to
            # the pool in a transaction (asyncpg would roll it back, and log that as an error).
            with contextlib.suppress(Exception):
                await asyncio.shield(self._end(connection, "ROLLBACK"))
            raise
        return connection

    async def _end(self, connection: Any, statement: str | None = None) -> None:
        try:
            if statement is not None:
                await connection.execute(statement)
        except BaseException:
            connection.terminate()  # how its transaction ended is unknown: the pool drops it
            raise
        finally:
            try:
                await self.pool.release(connection)
            except Exception as error:  # the pool has closed it; it opens another when needed
                log.warning("a database connection was closed: %s", _reason(error))
            self._ended()

    def _ended(self) -> None:
        self._under_way -= 1
        if not self._under_way:
            self._none_under_way.set()

    async def fetch_all(self, sql: str, *params: object) -> list[Row]:
        return await self._call(self.pool.fetch(numbered(sql), *params))


async def _version(connection: Any) -> int:
    if not await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
        return 0
    return await connection.fetchval("SELECT version FROM schema_version")


def _reason(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return f"no answer within {CONNECT_TIMEOUT_SECONDS} seconds"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error).rstrip(".") or type(error).__name__
