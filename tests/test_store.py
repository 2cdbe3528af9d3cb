import sqlite3

import pytest

from bot.store import Database, Migration, SchemaTooNew, bundled_migrations


async def test_pragmas_and_schema_version(tmp_path):
    db = await Database.open(tmp_path / "nested" / "chips.sqlite3")
    try:
        assert (await db.fetch_one("PRAGMA journal_mode"))[0] == "wal"
        assert (await db.fetch_one("PRAGMA foreign_keys"))[0] == 1
        assert (await db.fetch_one("PRAGMA busy_timeout"))[0] == 5000
        assert (await db.fetch_one("PRAGMA synchronous"))[0] == 2  # FULL
        assert await db.schema_version() == bundled_migrations()[-1].version
    finally:
        await db.close()


FIRST = Migration(1, "first", "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT);")
SECOND = Migration(2, "second", "ALTER TABLE things ADD COLUMN colour TEXT DEFAULT 'red';")


async def test_an_older_database_is_upgraded_and_keeps_its_data(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = await Database.open(path, [FIRST])
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO things (name) VALUES ('kept')")
    await db.close()
    db = await Database.open(path, [FIRST, SECOND])
    try:
        assert await db.schema_version() == 2
        assert tuple(await db.fetch_one("SELECT name, colour FROM things")) == ("kept", "red")
    finally:
        await db.close()


async def test_a_newer_database_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "new.sqlite3"
    await (await Database.open(path, [FIRST, SECOND])).close()
    with pytest.raises(SchemaTooNew, match="schema version 2 but this bot knows only up to 1"):
        await Database.open(path, [FIRST])


async def test_a_failing_migration_changes_nothing(tmp_path):
    path = tmp_path / "broken.sqlite3"
    broken = Migration(2, "broken", "CREATE TABLE extra (id INTEGER); SELECT * FROM missing;")
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(path, [FIRST, broken])
    db = await Database.open(path, [])
    try:
        assert await db.schema_version() == 0
        assert await db.fetch_all("SELECT name FROM sqlite_master") == []
    finally:
        await db.close()


async def test_a_failed_transaction_rolls_back(tmp_path):
    db = await Database.open(tmp_path / "t.sqlite3", [FIRST])
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO things (name) VALUES ('lost')")
                raise RuntimeError("boom")
        assert await db.fetch_all("SELECT * FROM things") == []
        assert not db.connection.in_transaction
    finally:
        await db.close()
