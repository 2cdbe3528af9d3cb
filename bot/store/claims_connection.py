"""The shard claims' connection to PostgreSQL (bot/store/shards.py): one of their own, outside
the pool, on the caller's loop. Its session holds the shards' advisory locks, and interactions
are forwarded (bot/store/forwards.py) and DMs told (bot/store/dm_news.py) on it too.

It runs one statement at a time. If it is lost (the server ended it, or a ping gets no answer),
`lost` is set, and its operations raise ClaimsLost: the server has dropped, or will drop, its
locks, so another process may take the shards now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import asyncpg

from bot.store.db import DatabaseUnavailable
from bot.store.postgres import CONNECT_ERRORS, CONNECT_TIMEOUT_SECONDS, _reason, describe

log = logging.getLogger("bot.store.shards")  # the claims' log, whichever part speaks

T = TypeVar("T")

WATCHDOG_SECONDS = 5.0  # between pings of the claims' connection
PING_TIMEOUT_SECONDS = 5.0  # a ping unanswered this long: the connection is lost
CLOSE_TIMEOUT_SECONDS = 5.0
PING = "SELECT 1"

# Errors that say the connection is gone (or the server is going): nothing more can be done
# with it, and the server has dropped, or will drop, its locks.
CONNECTION_ERRORS = (
    OSError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
)


class ClaimsLost(Exception):
    """The connection that held this process's shards is gone."""

    def __init__(self) -> None:
        super().__init__(
            "The database connection holding this process's shards was lost, so another "
            "process may take them: restart this process."
        )


async def connect(url: str) -> Any:
    """A new connection to the database at `url`, for the claims; DatabaseUnavailable (one
    sentence) if the server cannot be reached."""
    try:
        return await asyncpg.connect(
            url,
            timeout=CONNECT_TIMEOUT_SECONDS,
            server_settings={"application_name": "cardtable-shards"},
        )
    except CONNECT_ERRORS as error:
        raise DatabaseUnavailable(
            f"Could not connect to the PostgreSQL server at DATABASE_URL ({describe(url)}) "
            f"to claim this process's shards: {_reason(error)}; check DATABASE_URL, and "
            "that the server is running."
        ) from None


class ClaimsConnection:
    """`connection` (asyncpg's), running one operation at a time, watched; `lost` (the
    claims' event) is set once it is gone. `holding()` names the shards, for the log."""

    def __init__(self, connection: Any, lost: asyncio.Event, holding: Callable[[], str]) -> None:
        self.connection = connection
        self.lost = lost
        self.holding = holding
        self.closing = asyncio.Event()  # set once `close` begins
        self.schema = ""  # the bot's tables' schema: notifications name it
        self.pid = 0  # the connection's server process: its own notifications name it
        self._busy = asyncio.Lock()  # a connection runs one statement at a time
        self._asked_at: float | None = None  # when the statement under way was sent
        self._tasks: set[asyncio.Task[None]] = set()
        self._watchdog: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Learns the schema and the server process."""
        self.schema = await self.connection.fetchval("SELECT current_schema()")
        self.pid = self.connection.get_server_pid()

    def watch(self) -> None:
        """From now on, the connection is found lost once the server ends it or goes silent."""
        self.connection.add_termination_listener(self._on_terminated)
        self._watchdog = asyncio.create_task(self._watch())

    @property
    def usable(self) -> bool:
        """Neither lost nor closing."""
        return not (self.lost.is_set() or self.closing.is_set())

    async def run(self, operation: Callable[[Any], Awaitable[T]]) -> T:
        """`operation(connection)`, alone on the connection; ClaimsLost if it is gone."""
        if not self.usable:
            raise ClaimsLost()
        try:
            async with self._busy:
                self._asked_at = time.monotonic()
                try:
                    return await operation(self.connection)
                finally:
                    self._asked_at = None
        except CONNECTION_ERRORS as error:
            self._lose(_reason(error))
            raise ClaimsLost() from None

    def _lose(self, why: str) -> None:
        """The shards may be another process's from now on."""
        if not self.usable:
            return
        log.error("the database connection holding %s was lost: %s", self.holding(), why)
        self.lost.set()
        if not self.connection.is_closed():
            self.connection.terminate()  # and the server drops its locks, if it still can

    def _on_terminated(self, _connection: Any) -> None:
        self._lose("the server ended it")

    async def _watch(self) -> None:
        """A connection cut off without a word (a network gone) is found lost: a statement on
        it, or a ping while it is idle, unanswered for PING_TIMEOUT_SECONDS. Statements waiting
        their turn behind others don't count: a connection busy forwarding clicks under load is
        answering, and taking it for lost would stop a process that works."""
        while not self.lost.is_set():
            await asyncio.sleep(WATCHDOG_SECONDS)
            asked_at = self._asked_at
            if asked_at is not None and time.monotonic() - asked_at > PING_TIMEOUT_SECONDS:
                self._lose(f"no answer within {PING_TIMEOUT_SECONDS:g} seconds")
                return
            if not self._busy.locked():
                self.spawn(self._ping())

    async def _ping(self) -> None:
        with contextlib.suppress(ClaimsLost):  # said by `run`
            await self.run(lambda connection: connection.fetchval(PING))

    async def close(self) -> None:
        """Cancels the tasks spawned on it, and closes it (the server lets its locks go). Once."""
        if self.closing.is_set():
            return
        self.closing.set()
        tasks = [*self._tasks, *([self._watchdog] if self._watchdog else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):  # asyncpg cuts the connection if it can't close it
            await self.connection.close(timeout=CLOSE_TIMEOUT_SECONDS)

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Runs `coroutine` in a task of its own, cancelled by `close`."""
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def numbers(self, message: str, count: int) -> list[int] | None:
        """The `count` numbers after the schema in a notification, None if it is another
        schema's (the channels are the whole database's)."""
        schema, *numbers = message.rsplit(" ", count)
        if schema != self.schema or len(numbers) != count or not all(map(str.isdigit, numbers)):
            return None
        return [int(number) for number in numbers]
