"""Every use of aiosqlite's private API, in one place: the bot's connection runs a write
transaction's statements on the event loop's thread and hands the rest to aiosqlite's worker
through the worker's own queue. It reads and overrides `Connection._execute` and uses
`_conn`, `_running`, `_connection` and `_tx` (whose items are `(future, function)` pairs the
worker runs in order). tests/store/test_store_internals.py checks that the pinned aiosqlite
still has them and behaves so; an upgrade that breaks one fails there, naming it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from functools import partial
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.db import Row

BUSY_TIMEOUT_MS = 5000

# The attributes of aiosqlite.Connection this module relies on (the contract test reads it).
PRIVATE_ATTRIBUTES = ("_execute", "_conn", "_running", "_connection", "_tx")

# The write transaction step the current task runs (see InlineConnection).
INSIDE_STEP: ContextVar[object | None] = ContextVar("inside_step", default=None)


def _nothing() -> None:
    pass


def _changed(connection: sqlite3.Connection, sql: str, params: Sequence[object]) -> int:
    return connection.execute(sql, params).rowcount


def _first(connection: sqlite3.Connection, sql: str, params: Sequence[object]) -> Any:
    cursor = connection.execute(sql, params)
    try:
        return cursor.fetchone()
    finally:
        cursor.close()  # an INSERT ... RETURNING is finished, not left pending in the step


def _every(connection: sqlite3.Connection, sql: str, params: Sequence[object]) -> Any:
    return connection.execute(sql, params).fetchall()


class InlineConnection(aiosqlite.Connection):
    """aiosqlite's connection, but a write transaction's statements run on the event loop's thread.

    A round trip to aiosqlite's worker thread costs far more than a statement run once BEGIN
    IMMEDIATE holds the write lock (tens of microseconds: nothing to wait for), and a step makes
    a dozen. The worker still runs everything that may wait: BEGIN (another process's lock),
    COMMIT (the fsync; one without runs here, see Database._commit_inline), reads outside a
    transaction. The two threads never use the connection at once: a statement runs inline
    only while nothing is queued for the worker, and while it runs the loop cannot queue
    anything; the worker takes its queue in order.
    """

    def __init__(self, path: Path) -> None:
        connect = partial(sqlite3.connect, str(path), isolation_level=None, check_same_thread=False)
        super().__init__(connect, iter_chunk_size=64)
        self._queued = 0  # calls given to the worker that it has not finished
        self.step: object | None = None  # the step holding the write lock, set by Database

    async def _execute(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        step = self.step
        if self._queued == 0 and step is not None and INSIDE_STEP.get() is step:
            return fn(*args, **kwargs)
        return await self._on_worker(partial(fn, *args, **kwargs))

    # The store's Transaction (bot/store/db.py): each statement is one call, inline inside a
    # step, where aiosqlite's cursor API took one per execute, fetch and close.
    row_lock = ""  # BEGIN IMMEDIATE holds the whole database for the step

    async def run(self, sql: str, *params: object) -> int:
        return await self._execute(_changed, self._conn, sql, params)

    async def one(self, sql: str, *params: object) -> Row | None:
        return await self._execute(_first, self._conn, sql, params)

    async def all(self, sql: str, *params: object) -> list[Row]:
        return await self._execute(_every, self._conn, sql, params)

    async def many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self._execute(self._conn.executemany, sql, rows)

    async def commit_on_worker(self, committed: Callable[[], None]) -> None:
        """COMMIT on the worker's thread (it may fsync); `committed` runs as the worker's
        answer comes in, so whoever waits for the COMMIT wakes in the next loop iteration
        rather than one after the caller's own."""
        await self._on_worker(partial(self._conn.execute, "COMMIT"), _Answer(committed))

    async def _on_worker(self, call: Callable[[], Any], done: asyncio.Future | None = None) -> Any:
        if not self._running or self._connection is None:
            raise ValueError("Connection closed")
        # The caller awaits the worker's own future, so the worker's answer wakes it in the
        # next loop iteration. Behind a task and a shield (aiosqlite's `_execute`, shielded)
        # it took three, each a wait behind whatever else is ready: a click waits for a COMMIT.
        loop = asyncio.get_running_loop()
        if done is None:
            done = loop.create_future()
        self._queued += 1
        self._tx.put_nowait((done, call))
        try:
            return await done
        finally:
            if done.cancelled():
                # The caller was cancelled, and the worker may still be running the call: it
                # counts as finished once a no-op queued behind it has come back.
                behind = loop.create_future()
                behind.add_done_callback(self._finished)
                self._tx.put_nowait((behind, _nothing))
            else:
                self._queued -= 1

    def _finished(self, _: asyncio.Future) -> None:
        self._queued -= 1

    def begin_now(self) -> bool:
        """BEGIN IMMEDIATE on this thread if it needs no waiting: False if the worker is busy
        or another connection holds the write lock (then the worker must wait for it)."""
        if self._queued:
            return False
        self._conn.execute("PRAGMA busy_timeout = 0")
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
            return False
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return True

    @property
    def worker_busy(self) -> bool:
        return self._queued > 0

    def commit_now(self) -> None:
        """COMMIT on this thread: only while the worker is idle, and only a COMMIT that does not
        fsync (Database._commit_inline)."""
        self._conn.execute("COMMIT")


class _Answer(asyncio.Future):
    """The worker's answer to a call, which runs `on_result` as it is set (on the loop's
    thread, in the callback that brings it), before any task it wakes runs."""

    def __init__(self, on_result: Callable[[], None]) -> None:
        super().__init__(loop=asyncio.get_running_loop())
        self._on_result = on_result

    def set_result(self, result: Any) -> None:
        super().set_result(result)
        self._on_result()
