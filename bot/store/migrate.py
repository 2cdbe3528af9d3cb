"""`python -m bot migrate-to-postgres`: a community's data, moved from its SQLite file into an
empty PostgreSQL database while the bot is stopped.

Both sides are opened as the bot opens them, which brings both to this bot's schema version:
the SQLite file is migrated first, the PostgreSQL database gets the bot's tables. The file is
read in one transaction (a snapshot) and the server written in one (all or nothing): table by
table in the order their foreign keys need, every column by name as the tables themselves list
them. Before the server's transaction commits, the chip audit and every table's row count must
agree with the file's; if they do not, nothing is kept.
"""

from __future__ import annotations

import reprlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.db import Database, Migration, Row, Transaction
from bot.store.ledger import Ledger, Totals
from bot.store.postgres import PostgresDatabase, describe
from bot.store.sqlite import SQLiteDatabase
from bot.text import plural

# Rows read from the SQLite file at a time: what the copy holds in memory, whatever the size.
CHUNK_ROWS = 1000


class MigrationRefused(Exception):
    """The copy cannot be made, or did not check out and was undone: one sentence."""


@dataclass(frozen=True)
class CopyReport:
    source: Path
    target: str  # the target's URL without its password
    schema_version: int
    rows: dict[str, int]  # rows copied, by table, in the order they were copied
    totals: Totals  # the chip audit, the same on both sides

    @property
    def row_count(self) -> int:
        return sum(self.rows.values())


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # PostgreSQL's name for it: bigint, text, double precision
    identity: bool


async def copy_to_postgres(source: Path, target_url: str) -> CopyReport:
    """Copy every row of the bot's tables from the SQLite file at `source` into the empty
    PostgreSQL database at `target_url`. MigrationRefused, DatabaseUnavailable or
    SchemaTooNew (one sentence each) if it cannot be done; then the target keeps nothing of
    the copy (the bot's tables, empty, if it had none)."""
    if not source.is_file():  # opening it would create an empty database there
        raise MigrationRefused(
            f"There is no SQLite database at {source}: name the file the bot's DATABASE_PATH "
            "names (data/cardtable.sqlite3 unless it was set)."
        )
    sqlite = await _open_sqlite(source)
    try:
        postgres = await _open_postgres(target_url)
        try:
            return await _copy(sqlite, postgres)
        finally:
            await postgres.close()
    finally:
        await sqlite.close()


async def _open_sqlite(source: Path) -> SQLiteDatabase:
    try:
        return await SQLiteDatabase.open(source)
    except sqlite3.Error as error:
        raise MigrationRefused(f"Could not open the SQLite database {source}: {error}.") from None


async def _open_postgres(url: str) -> PostgresDatabase:
    try:
        return await PostgresDatabase.open(url, named_by="--to", own_loop=False)
    except asyncpg.PostgresError as error:  # such as a table of the same name, not the bot's
        raise MigrationRefused(
            f"Could not create the bot's tables in the PostgreSQL database at {describe(url)}: "
            f"{error}; copy into an empty database."
        ) from None


async def _copy(sqlite: SQLiteDatabase, postgres: PostgresDatabase) -> CopyReport:
    version = await _same_version(sqlite, postgres)
    try:
        # A write step on SQLite, the store's one way into a transaction: it writes nothing,
        # and a bot left running waits for it rather than writing behind the snapshot.
        async with sqlite.transaction() as reading, postgres.transaction() as writing:
            connection = writing.connection
            tables = await _tables(reading, connection)
            await _refuse_unless_empty(connection, list(tables), postgres.where)
            for table, columns in tables.items():
                await _copy_table(reading, connection, table, columns)
            await _move_identities(connection, tables)
            rows, totals = await _audit(reading, writing, list(tables))
    except sqlite3.Error as error:
        raise MigrationRefused(
            f"Could not read the SQLite database {sqlite.path}: {error}; nothing was copied "
            "(is the bot still running? stop it first)."
        ) from None
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        raise MigrationRefused(
            f"The copy into the PostgreSQL database at {postgres.where} failed and was undone: "
            f"{error}."
        ) from None
    return CopyReport(sqlite.path, postgres.where, version, rows, totals)


async def _same_version(sqlite: SQLiteDatabase, postgres: PostgresDatabase) -> int:
    """Both were opened by this bot, so both are at its version, unless its migrations for
    one backend lack a version the other's have."""
    on_sqlite, on_postgres = await sqlite.schema_version(), await postgres.schema_version()
    if on_sqlite != on_postgres:
        raise MigrationRefused(
            f"The SQLite database is at schema version {on_sqlite} but the PostgreSQL database "
            f"at {on_postgres}: this bot's migrations for the two do not match."
        )
    return on_sqlite


# ---- the tables and their columns ---------------------------------------------------------


async def _tables(reading: Transaction, connection: Any) -> dict[str, list[Column]]:
    """The bot's tables (the SQLite file's, its internal sqlite_* tables aside) in the order
    to fill them, a table after those it refers to, each with PostgreSQL's columns once both
    sides are found to have the same ones. The target's other tables are not the bot's: its
    schema_version, which its own migrations set, and any table another program keeps there."""
    on_sqlite = await _sqlite_columns(reading)
    on_postgres = await _postgres_columns(connection, list(on_sqlite))
    differences = _differences(on_sqlite, on_postgres)
    if differences:
        raise MigrationRefused(
            "The SQLite and PostgreSQL databases differ at the same schema version "
            f"({'; '.join(differences)}): this bot's migrations for the two do not match."
        )
    order = await _foreign_key_order(connection, list(on_postgres))
    return {table: on_postgres[table] for table in order}


async def _sqlite_columns(reading: Transaction) -> dict[str, list[str]]:
    tables = await reading.all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
    )
    return {
        table: [row[0] for row in await reading.all("SELECT name FROM pragma_table_info(?)", table)]
        for (table,) in tables
    }


# The schema the bot's tables are in: the first of the URL's search_path that exists.
_OURS = "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())"


async def _postgres_columns(connection: Any, tables: list[str]) -> dict[str, list[Column]]:
    rows = await connection.fetch(
        "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attidentity != ''"
        " FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid"
        f" WHERE c.relnamespace = {_OURS} AND c.relkind = 'r' AND c.relname = ANY($1::text[])"
        " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum",
        tables,
    )
    found: dict[str, list[Column]] = {}
    for table, name, type_name, identity in rows:
        found.setdefault(table, []).append(Column(name, type_name, identity))
    return found


def _differences(
    on_sqlite: dict[str, list[str]], on_postgres: dict[str, list[Column]]
) -> list[str]:
    """The tables PostgreSQL lacks, and the columns one side has that the other lacks."""
    found = []
    for table, columns in sorted(on_sqlite.items()):
        if table not in on_postgres:
            found.append(f"table {table} only in SQLite")
            continue
        sqlite_columns = set(columns)
        postgres_columns = {column.name for column in on_postgres[table]}
        found += [f"{table}.{c} only in SQLite" for c in sorted(sqlite_columns - postgres_columns)]
        found += [
            f"{table}.{c} only in PostgreSQL" for c in sorted(postgres_columns - sqlite_columns)
        ]
    return found


async def _foreign_key_order(connection: Any, tables: list[str]) -> list[str]:
    """Every table after the tables its foreign keys refer to: the target checks each row's
    references as it is copied."""
    references = await connection.fetch(
        "SELECT child.relname, parent.relname FROM pg_constraint k"
        " JOIN pg_class child ON child.oid = k.conrelid"
        " JOIN pg_class parent ON parent.oid = k.confrelid"
        f" WHERE k.contype = 'f' AND child.relnamespace = {_OURS}"
    )
    order: TopologicalSorter[str] = TopologicalSorter({table: () for table in sorted(tables)})
    for child, parent in references:
        if child in tables and parent in tables:
            order.add(child, parent)
    return list(order.static_order())


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _listed(words: tuple[str, ...]) -> str:
    return ", ".join(f"'{word}'" for word in words)


# ---- the copy -----------------------------------------------------------------------------


async def _refuse_unless_empty(connection: Any, tables: list[str], where: str) -> None:
    """Refuse a target where any of the bot's tables holds a row. The tables stay locked
    until the copy commits: a bot started on the target meanwhile waits, rather than writing
    beside the copy."""
    await connection.execute(f"LOCK TABLE {', '.join(map(_quoted, tables))} IN EXCLUSIVE MODE")
    holding = [
        table
        for table in tables
        if await connection.fetchval(f"SELECT EXISTS (SELECT FROM {_quoted(table)})")
    ]
    if holding:
        raise MigrationRefused(
            f"The PostgreSQL database at {where} already holds the bot's data (rows in "
            f"{', '.join(holding)}): copy only into an empty database, so that nothing there is "
            "mixed with the SQLite database's rows."
        )


async def _copy_table(
    reading: Transaction, connection: Any, table: str, columns: list[Column]
) -> None:
    """Every row of `table`, streamed from the file into one COPY, each value read as its
    PostgreSQL column's Python type, once no value is found that the type cannot hold."""
    fitted = [(column, _fit(table, column)) for column in columns]
    await _refuse_misfits(reading, table, fitted)
    read = ", ".join(fit.read.format(_quoted(column.name)) for column, fit in fitted)

    async def records() -> AsyncIterator[Sequence[object]]:
        async for chunk in _chunks(reading, table, read):
            for row in chunk:
                yield row

    await connection.copy_records_to_table(
        table, records=records(), columns=[column.name for column in columns]
    )


async def _chunks(
    reading: Transaction, table: str, columns: str
) -> AsyncIterator[list[Sequence[object]]]:
    """The table's rows in rowid order, CHUNK_ROWS at a time (each found from the last rowid,
    not by an OFFSET that rereads every row before it)."""
    select = f"SELECT rowid, {columns} FROM {_quoted(table)}"
    rows = await reading.all(f"{select} ORDER BY rowid LIMIT {CHUNK_ROWS}")
    while rows:
        yield [row[1:] for row in rows]
        last = rows[-1][0]
        rows = await reading.all(
            f"{select} WHERE rowid > ? ORDER BY rowid LIMIT {CHUNK_ROWS}", last
        )


@dataclass(frozen=True)
class Fit:
    """How a value of a PostgreSQL type is read from SQLite: the storage classes (SQLite's
    typeof) it may have there, and the expression that reads it as the Python type asyncpg
    wants for the column."""

    takes: tuple[str, ...]
    read: str = "{}"


# Each PostgreSQL type the bot's tables use. SQLite's column affinity already stores 3.0 in an
# INTEGER column as 3 and 5 in a REAL one as 5.0; what is left is a value its column took but
# could not convert ('abc' or 2.5 in an INTEGER column, a blob anywhere), which the copy
# refuses by name rather than let COPY fail on it.
FITS = {
    "bigint": Fit(("integer",)),
    "double precision": Fit(("real", "integer"), "CAST({} AS REAL)"),
    "text": Fit(("text",)),
}
STORAGE_CLASSES = {int: "integer", float: "real", str: "text", bytes: "blob"}


def _fit(table: str, column: Column) -> Fit:
    fit = FITS.get(column.type)
    if fit is None:
        raise MigrationRefused(
            f"The copy does not know PostgreSQL's type {column.type} ({table}.{column.name}): "
            "FITS in bot/store/migrate.py needs it."
        )
    return fit


async def _refuse_misfits(
    reading: Transaction, table: str, fitted: list[tuple[Column, Fit]]
) -> None:
    """Look for a value its PostgreSQL column cannot hold, in one pass over the table."""
    misfit = " OR ".join(
        f"typeof({_quoted(column.name)}) NOT IN ('null', {_listed(fit.takes)})"
        for column, fit in fitted
    )
    names = ", ".join(_quoted(column.name) for column, _ in fitted)
    row = await reading.one(f"SELECT {names} FROM {_quoted(table)} WHERE {misfit} LIMIT 1")
    if row is None:
        return
    for (column, fit), value in zip(fitted, row, strict=True):
        if value is not None and STORAGE_CLASSES[type(value)] not in fit.takes:
            raise MigrationRefused(
                f"The column {table}.{column.name} holds {reprlib.repr(value)} in the SQLite "
                f"database, which PostgreSQL's {column.type} cannot hold: correct that row, "
                "then copy again."
            )


async def _move_identities(connection: Any, tables: dict[str, list[Column]]) -> None:
    """Each identity column's next value past the largest id copied: the copy gave the ids
    explicitly, so their sequences have not moved, and the next INSERT would collide."""
    for table, columns in tables.items():
        for column in (column for column in columns if column.identity):
            await connection.execute(
                "SELECT setval(pg_get_serial_sequence($1, $2),"
                f" GREATEST(MAX({_quoted(column.name)}), 0) + 1, false) FROM {_quoted(table)}",
                _quoted(table),
                column.name,
            )


# ---- the audit ----------------------------------------------------------------------------


async def _audit(
    reading: Transaction, writing: Transaction, tables: list[str]
) -> tuple[dict[str, int], Totals]:
    """The rows of every table and the chip totals, as the file's snapshot and the copy not
    yet committed see them; MigrationRefused (and so no commit) if they differ, or if the
    chips do not add up."""
    counted = {
        table: (await _count(reading, table), await _count(writing, table)) for table in tables
    }
    before = await Ledger(_ReadingIn(reading), starting_chips=0).totals()
    after = await Ledger(_ReadingIn(writing), starting_chips=0).totals()
    differences = [
        f"{table} has {plural(on_sqlite, 'row')} in SQLite but {on_postgres:,} in PostgreSQL"
        for table, (on_sqlite, on_postgres) in counted.items()
        if on_sqlite != on_postgres
    ]
    if before != after:
        differences.append(f"chips in SQLite: {_chips(before)}; in PostgreSQL: {_chips(after)}")
    elif not before.consistent:
        differences.append(f"the chips do not add up on either side: {_chips(before)}")
    if differences:
        raise MigrationRefused(
            f"The copy did not check out and was undone ({'; '.join(differences)})."
        )
    return {table: on_postgres for table, (_, on_postgres) in counted.items()}, after


async def _count(tx: Transaction, table: str) -> int:
    row = await tx.one(f"SELECT COUNT(*) FROM {_quoted(table)}")
    assert row is not None  # COUNT(*) answers one row
    return row[0]


def _chips(totals: Totals) -> str:
    return (
        f"balances {totals.balances}, escrows {totals.escrows}, house {totals.house}, "
        f"tournaments {totals.tournaments}, "
        f"minted {totals.minted}, burned {totals.burned}"
    )


class _ReadingIn(Database):
    """The ledger's audit, read through an open transaction: on PostgreSQL it sees the copy
    before it commits, on SQLite the snapshot copied from. It only reads."""

    def __init__(self, tx: Transaction) -> None:
        self.tx = tx

    async def fetch_all(self, sql: str, *params: object) -> list[Row]:
        return await self.tx.all(sql, *params)

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        raise NotImplementedError("the audit only reads")

    async def schema_version(self) -> int:
        raise NotImplementedError("the audit only reads")

    async def migrate(self, migrations: list[Migration]) -> None:
        raise NotImplementedError("the audit only reads")

    async def close(self) -> None:
        """The transaction is its owner's to end."""
