"""The SQLite connection: pragmas, numbered migrations, serialised write transactions."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

BUSY_TIMEOUT_MS = 5000


class SchemaTooNew(Exception):
    """The database was written by a newer version of the bot."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations() -> list[Migration]:
    """The numbered `NNN_name.sql` files in bot/store/migrations, in order."""
    found = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        match = re.fullmatch(r"(\d+)_(\w+)\.sql", entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migration numbers must run 1, 2, 3 ... without gaps: {versions}")
    return found


class Database:
    """One aiosqlite connection in autocommit mode; writes go through `transaction()`.

    A single connection is shared by every task, so transactions are serialised with a lock:
    two tasks must never interleave statements inside one BEGIN ... COMMIT.
    """

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, migrations: list[Migration] | None = None) -> Database:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        database = cls(connection, path)
        try:
            for pragma in (
                "journal_mode = WAL",
                "synchronous = FULL",  # durable: a committed movement survives power loss
                "foreign_keys = ON",
                f"busy_timeout = {BUSY_TIMEOUT_MS}",
            ):
                await connection.execute(f"PRAGMA {pragma}")
            await database.migrate(bundled_migrations() if migrations is None else migrations)
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        await self.connection.close()

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            return (await cursor.fetchone())[0]

    async def migrate(self, migrations: list[Migration]) -> None:
        """Apply every migration newer than the database in one transaction."""
        current = await self.schema_version()
        latest = migrations[-1].version if migrations else 0
        if current > latest:
            raise SchemaTooNew(
                f"The database {self.path} has schema version {current} but this bot knows only "
                f"up to {latest}: run a newer version of the bot, or set DATABASE_PATH to "
                "another file."
            )
        pending = [migration.sql for migration in migrations if migration.version > current]
        if not pending:
            return
        script = "\n".join(["BEGIN IMMEDIATE;", *pending, f"PRAGMA user_version = {latest};"])
        try:
            await self.connection.executescript(script + "\nCOMMIT;")
        except BaseException:
            if self.connection.in_transaction:
                await self.connection.execute("ROLLBACK")
            raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (cancellation included)."""
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")

    async def fetch_one(self, sql: str, *params: object) -> aiosqlite.Row | None:
        async with self.connection.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetch_all(self, sql: str, *params: object) -> list[aiosqlite.Row]:
        async with self.connection.execute(sql, params) as cursor:
            return list(await cursor.fetchall())
