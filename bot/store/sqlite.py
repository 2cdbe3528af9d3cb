"""The SQLite backend: one file, one connection; pragmas, migrations tracked by PRAGMA
user_version, group-committed write transactions."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import aiosqlite

from bot.settings import Durability
from bot.store.db import (
    Database,
    DatabaseUnavailable,
    Migration,
    Row,
    bundled_migrations,
    refuse_newer,
)
from bot.store.internals import BUSY_TIMEOUT_MS, INSIDE_STEP, InlineConnection

CHECKPOINT_EVERY_SECONDS = 1.0
# SQLite's own checkpoint runs inside the COMMIT that finds the WAL past this many pages (its
# default: 1,000), and every step of that group commit waits for it. The Checkpointer keeps the
# WAL far below this; it stays as a backstop.
AUTOCHECKPOINT_PAGES = 10_000

log = logging.getLogger(__name__)


class StepLock:
    """A mutex for steps whose release wakes every waiter at once, not one per loop iteration
    as asyncio.Lock does. A step's statements run inline without yielding, so the steps that
    queued during a COMMIT then all run in the iteration after it, in the order they came. With
    asyncio.Lock, 40 queued steps took 40 iterations, each running whatever else was ready:
    at 500 tables the slowest 1% of clicks waited 80-100 ms here."""

    def __init__(self) -> None:
        self._held = False
        self._waiters: list[asyncio.Future] = []

    async def __aenter__(self) -> None:
        while self._held:  # a woken step finds it taken if one before it yielded: waits again
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
        self._held = True

    async def __aexit__(self, *_: object) -> None:
        self._held = False
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)


class _Batch:
    """Steps sharing one BEGIN ... COMMIT: whether it committed, or why it failed, and the
    steps waiting to hear which."""

    def __init__(self) -> None:
        self.steps = 0  # steps that succeeded into it, each waiting for the COMMIT
        self.committed = False
        self.error: BaseException | None = None
        self.ended = False
        self.waiting: list[asyncio.Future] = []
        self.committer: asyncio.Task | None = None

    async def outcome(self) -> None:
        """Wait for the COMMIT (or the ROLLBACK); a cancelled waiter leaves it to the others."""
        if not self.ended:
            waiter = asyncio.get_running_loop().create_future()
            self.waiting.append(waiter)
            await waiter
        if not self.committed:
            raise self.error or RuntimeError("the transaction was rolled back")

    def end(self) -> None:
        self.ended = True
        for waiter in self.waiting:
            if not waiter.done():
                waiter.set_result(None)
        self.waiting.clear()


def _end_committed(batch: _Batch) -> None:
    batch.committed = True
    batch.end()


class Checkpointer:
    """Copies the WAL back into the database file once a second, from a connection and a
    thread of its own: a PASSIVE checkpoint waits for no writer, and no step waits for it.
    Left to SQLite, a checkpoint ran inside the COMMIT that found the WAL past 1,000 pages, and
    every step of that group commit and behind it waited for it: at 500 tables played at a human
    pace (bench/load.py --think 3), checkpoints took up to 0.18 s here."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self.stopping = asyncio.Event()
        self.last: tuple[int, int, int] | None = None
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            while not self.stopping.is_set():
                try:
                    await asyncio.wait_for(self.stopping.wait(), CHECKPOINT_EVERY_SECONDS)
                except TimeoutError:
                    await asyncio.to_thread(self._checkpoint)
        finally:
            self.connection.close()

    def _checkpoint(self) -> None:
        try:
            # (busy, frames in the WAL, frames copied back)
            self.last = self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as error:  # the backstop checkpoints instead
            log.warning("could not checkpoint the database: %s", error)

    def wal_frames(self) -> int:
        """The WAL's frames at the last checkpoint (0 before the first)."""
        return self.last[1] if self.last else 0

    async def stop(self) -> None:
        """After the checkpoint under way, if any (its connection closes with it)."""
        self.stopping.set()
        await self.task


class OneProcess:
    """Keeps a SQLite file to one process: a second bot process on the same file would run its
    tables beside the first one's, each acting on them without seeing the other. The claim is a
    POSIX lock on `<file>.lock` (a file of its own: closing any descriptor of the database file
    would drop SQLite's own locks), which the system releases when the process ends, killed or
    not. Within the process the file may be opened more than once (tests do); the lock is
    released when the last of them closes."""

    _held: dict[Path, tuple[int, int]] = {}  # lock file -> (its descriptor, databases open)

    @classmethod
    def claim(cls, database: Path) -> Path:
        lock = database.resolve().with_name(database.name + ".lock")
        descriptor, users = cls._held.get(lock, (-1, 0))
        if not users:
            descriptor = cls._lock(lock, database)
        cls._held[lock] = (descriptor, users + 1)
        return lock

    @classmethod
    def release(cls, lock: Path) -> None:
        descriptor, users = cls._held.pop(lock)
        if users > 1:
            cls._held[lock] = (descriptor, users - 1)
        else:
            os.close(descriptor)  # and with it the lock

    @staticmethod
    def _lock(lock: Path, database: Path) -> int:
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        if sys.platform == "win32":  # no POSIX locks: one process is the operator's to keep
            return descriptor
        import fcntl

        try:
            fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            raise DatabaseUnavailable(
                f"Another process is using the SQLite database {database} (is the bot already "
                "running?): SQLite serves one bot process; stop the other one, or run several "
                "on PostgreSQL (DATABASE_URL)."
            ) from None
        return descriptor


# DURABILITY as SQLite's synchronous.
SYNCHRONOUS: dict[Durability, str] = {"full": "FULL", "normal": "NORMAL"}


class SQLiteDatabase(Database):
    """One connection in autocommit mode; writes go through `transaction()`.

    A single connection is shared by every task, so steps are serialised with a lock: two tasks
    must never interleave statements inside one step. Steps that arrive while another runs are
    group-committed: each runs in its own SAVEPOINT inside one BEGIN IMMEDIATE ... COMMIT, so
    one fsync makes all of them durable, and none returns before that COMMIT succeeded. With
    DURABILITY=normal there is no fsync to share, and each step commits as it ends.
    """

    backend = "sqlite"
    setting = "DATABASE_PATH"

    def __init__(
        self, connection: InlineConnection, path: Path, durability: Durability = "full"
    ) -> None:
        self.connection = connection
        self.path = path
        self.durability = durability
        self._write_lock = StepLock()
        self._batch: _Batch | None = None  # the open BEGIN IMMEDIATE, if any
        self.checkpointer: Checkpointer | None = None
        self.lock: Path | None = None  # OneProcess's claim

    @classmethod
    async def open(
        cls,
        path: Path | str,
        migrations: list[Migration] | None = None,
        *,
        durability: Durability = "full",
    ) -> SQLiteDatabase:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = OneProcess.claim(path)
        try:
            connection = InlineConnection(path)
            await connection  # starts aiosqlite's worker thread and connects
        except BaseException:
            OneProcess.release(lock)
            raise
        connection.row_factory = aiosqlite.Row
        database = cls(connection, path, durability)
        database.lock = lock
        try:
            for pragma in (
                "journal_mode = WAL",
                f"synchronous = {SYNCHRONOUS[durability]}",
                "foreign_keys = ON",
                f"busy_timeout = {BUSY_TIMEOUT_MS}",
                f"wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}",
            ):
                await connection.execute(f"PRAGMA {pragma}")
            await database.migrate(
                bundled_migrations("sqlite") if migrations is None else migrations
            )
            database.checkpointer = Checkpointer(path)
        except BaseException:
            await database._disconnect()
            raise
        return database

    async def close(self) -> None:
        if self.checkpointer is not None:
            await self.checkpointer.stop()
        async with self._write_lock:
            if self._batch is not None:
                await self._commit(self._batch)
        await self._disconnect()

    async def _disconnect(self) -> None:
        try:
            await self.connection.close()
        finally:
            if self.lock is not None:
                OneProcess.release(self.lock)
                self.lock = None

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None  # the pragma always answers one row
        return row[0]

    async def migrate(self, migrations: list[Migration]) -> None:
        """Apply every migration newer than the database in one transaction."""
        current = await self.schema_version()
        refuse_newer(current, migrations, str(self.path), "set DATABASE_PATH to another file")
        pending = [migration.sql for migration in migrations if migration.version > current]
        if not pending:
            return
        latest = migrations[-1].version
        script = "\n".join(["BEGIN IMMEDIATE;", *pending, f"PRAGMA user_version = {latest};"])
        try:
            await self.connection.executescript(script + "\nCOMMIT;")
        except BaseException:
            if self.connection.in_transaction:
                await self.connection.execute("ROLLBACK")
            raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[InlineConnection]:
        """One step: its statements commit together or not at all (any exception, cancellation
        included, undoes them). Leaving the block means they are committed and fsynced."""
        async with self._write_lock:
            batch = self._batch or await self._begin()
            # Only this step's own task runs inline, not one it started that outlives it.
            self.connection.step = step = object()
            inside = INSIDE_STEP.set(step)
            try:
                await self.connection.execute("SAVEPOINT step")
                try:
                    yield self.connection  # the Transaction: run(), one(), all(), many()
                    await self.connection.execute("RELEASE step")
                except BaseException:
                    await asyncio.shield(self._undo_step(batch))
                    raise
                batch.steps += 1
            finally:
                self.connection.step = None
                INSIDE_STEP.reset(inside)
            if self._commit_inline():  # no fsync to share: now, not a loop iteration later
                await self._commit(batch)
        if batch.committer is None and not batch.ended:
            # One task commits the batch, started by its first step: it queues behind the
            # tasks already ready, so their steps run into this batch first. The others wait
            # for it without a task of their own; a cancelled step leaves it to commit.
            batch.committer = asyncio.create_task(self._flush(batch))
        await batch.outcome()

    async def _begin(self) -> _Batch:
        if not self.connection.begin_now():
            await self.connection.execute("BEGIN IMMEDIATE")
        self._batch = _Batch()
        return self._batch

    async def _undo_step(self, batch: _Batch) -> None:
        """Take a failed step out of its batch; alone there (or if that fails), end it all."""
        if batch.steps:
            try:
                await self.connection.execute("ROLLBACK TO step")
                await self.connection.execute("RELEASE step")
                return
            except BaseException as error:
                batch.error = error  # the steps waiting for this batch fail with it
        self._batch = None
        await self.connection.execute("ROLLBACK")

    async def _flush(self, batch: _Batch) -> None:
        try:
            async with self._write_lock:
                if batch is self._batch:
                    await self._commit(batch)
        finally:
            batch.end()  # committed, or given up (undone, or committed by close)

    async def _commit(self, batch: _Batch) -> None:
        self._batch = None
        try:
            if self._commit_inline():
                self.connection.commit_now()
            else:
                # The batch's steps hear of the COMMIT as the worker's answer comes, not a loop
                # iteration later from this task: at 500 tables and 400 clicks a second, a
                # click's commit took 3.6-4.2 ms at the median instead of 10-11 ms, and 33-65
                # ms instead of 108-135 ms for the slowest 1% (bench/load.py --rate 400).
                await self.connection.commit_on_worker(partial(_end_committed, batch))
            batch.committed = True
        except BaseException as error:
            batch.error = error
            if self.connection.in_transaction:
                await self.connection.execute("ROLLBACK")
        finally:
            batch.end()

    def _commit_inline(self) -> bool:
        """Whether a step commits itself, on the event loop's thread, as it ends. With
        DURABILITY=normal a COMMIT only writes the WAL, without an fsync; a committer task
        waited a loop iteration and the worker's round trip (the GIL, then the loop again): at
        500 tables the slowest 2% of clicks waited 10-16 ms there. Not while the worker has
        calls to run, and not once the WAL nears SQLite's backstop checkpoint, which the COMMIT
        would run (and fsync). The WAL starts over only while no reader holds it: at 500 tables
        it grew by some 1,300 pages a second, checkpointed each second, past 5,000 at times."""
        checkpointer = self.checkpointer
        limit = AUTOCHECKPOINT_PAGES * 3 // 4
        behind = checkpointer is None or checkpointer.wal_frames() > limit
        return self.durability == "normal" and not behind and not self.connection.worker_busy

    async def fetch_all(self, sql: str, *params: object) -> list[Row]:
        # One round trip to the worker, where a cursor takes three (execute, fetch, close).
        return list(await self.connection.execute_fetchall(sql, params))
