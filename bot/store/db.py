"""The store's database: one interface, two backends. SQLite in one file (bot/store/sqlite.py,
the default) or a PostgreSQL server (bot/store/postgres.py, with DATABASE_URL). The store's SQL
(ledger.py, tables.py, dms.py) is written once, with `?` placeholders, and runs on both through
`Transaction`; each backend has its own numbered migrations with the same version numbers, so
that a version means the same schema on both."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Literal, Protocol, TypeVar

Backend = Literal["sqlite", "postgres"]
T = TypeVar("T")


class SchemaTooNew(Exception):
    """The database was written by a newer version of the bot."""


class DatabaseUnavailable(Exception):
    """The database cannot be used as set: one sentence for the operator, naming the setting."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations(backend: Backend = "sqlite") -> list[Migration]:
    """The numbered `NNN_name.sql` files in bot/store/migrations/<backend>, in order."""
    found = []
    folder = resources.files("bot.store").joinpath("migrations", backend)
    for entry in folder.iterdir():
        match = re.fullmatch(r"(\d+)_(\w+)\.sql", entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migration numbers must run 1, 2, 3 ... without gaps: {versions}")
    return found


def refuse_newer(current: int, migrations: Sequence[Migration], where: str, instead: str) -> None:
    """Raise SchemaTooNew if the database is past the newest migration this bot has."""
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise SchemaTooNew(
            f"The database {where} has schema version {current} but this bot knows only up to "
            f"{latest}: run a newer version of the bot, or {instead}."
        )


class Row(Protocol):
    """A result row (sqlite3.Row, asyncpg.Record): by position or column name, `tuple(row)`
    for its values and `dict(row)` by column."""

    def __getitem__(self, key: Any, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...
    def keys(self) -> Any: ...


class Transaction(Protocol):
    """The statements of one step, with `?` placeholders. A statement that fails fails the step
    (on PostgreSQL the rest of its transaction could not run anyway)."""

    # Appended to a SELECT, it locks the rows found until the step ends: on a server where
    # writers lock rows one by one, steps that lock what they will change in one order never
    # wait for each other in a cycle. Empty where a write transaction holds the whole database.
    row_lock: str

    async def run(self, sql: str, *params: object) -> int:
        """Run a statement; how many rows it changed."""
        ...

    async def one(self, sql: str, *params: object) -> Row | None:
        """The first row (of a SELECT, or of an INSERT ... RETURNING), None if none."""
        ...

    async def all(self, sql: str, *params: object) -> list[Row]: ...

    async def many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run a statement once for each row of parameters."""
        ...


class Database(ABC):
    """What the store needs of its database. Writes go through `transaction()`: one step whose
    statements commit together or not at all, durable once the block is left; a step that
    fails undoes only itself. Reads outside a step see what has committed."""

    backend: ClassVar[Backend]
    setting: ClassVar[str]  # the setting that names the database, for messages

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]: ...

    async def step(self, body: Callable[[Transaction], Awaitable[T]]) -> T:
        """`body` run as one step, as `transaction()` runs its block; what it returns. The
        store's own steps go this way: on PostgreSQL the whole body then runs where its
        statements' answers come in (bot/store/postgres.py), not statement by statement."""
        async with self.transaction() as tx:
            return await body(tx)

    @abstractmethod
    async def fetch_all(self, sql: str, *params: object) -> list[Row]: ...

    async def fetch_one(self, sql: str, *params: object) -> Row | None:
        """The first row; every caller asks for one row (by its key, or an aggregate)."""
        rows = await self.fetch_all(sql, *params)
        return rows[0] if rows else None

    async def fetch_aggregate(self, sql: str, *params: object) -> Row:
        """The one row of an aggregate query: COUNT, SUM and MAX give one even over no rows."""
        (row,) = await self.fetch_all(sql, *params)
        return row

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self, migrations: list[Migration]) -> None:
        """Apply every migration newer than the database in one transaction, recording the
        version in the database; refuse (SchemaTooNew) a database newer than them."""

    @abstractmethod
    async def close(self) -> None:
        """After the steps under way, which commit."""
