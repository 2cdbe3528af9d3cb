"""Opening, migrating and transactions: on each backend (the `database` and `open_database`
fixtures, tests/store/conftest.py), and what only SQLite has (pragmas, its checkpointer, the
repair of old SQLite data)."""

import asyncio
import contextlib
import sqlite3

import asyncpg
import pytest

from bot.store import (
    Ledger,
    Migration,
    PostgresDatabase,
    SchemaTooNew,
    SQLiteDatabase,
    bundled_migrations,
)
from bot.store import sqlite as store_sqlite
from bot.store.sqlite import AUTOCHECKPOINT_PAGES, StepLock

Database = SQLiteDatabase  # the SQLite-only tests below


async def test_durability_normal_drops_the_fsync_per_commit_only(tmp_path):
    db = await Database.open(tmp_path / "chips.sqlite3", durability="normal")
    try:
        assert (await db.fetch_one("PRAGMA synchronous"))[0] == 1  # NORMAL
        assert (await db.fetch_one("PRAGMA journal_mode"))[0] == "wal"
    finally:
        await db.close()


async def test_pragmas_and_schema_version(tmp_path):
    db = await Database.open(tmp_path / "nested" / "chips.sqlite3")
    try:
        assert (await db.fetch_one("PRAGMA journal_mode"))[0] == "wal"
        assert (await db.fetch_one("PRAGMA foreign_keys"))[0] == 1
        assert (await db.fetch_one("PRAGMA busy_timeout"))[0] == 5000
        assert (await db.fetch_one("PRAGMA synchronous"))[0] == 2  # FULL
        # SQLite checkpoints in a COMMIT only as a backstop: the Checkpointer does it aside
        assert (await db.fetch_one("PRAGMA wal_autocheckpoint"))[0] == AUTOCHECKPOINT_PAGES
        assert await db.schema_version() == bundled_migrations()[-1].version
    finally:
        await db.close()


FIRST = Migration(1, "first", "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT);")
SECOND = Migration(2, "second", "ALTER TABLE things ADD COLUMN colour TEXT DEFAULT 'red';")


async def tables(db) -> list[str]:
    """The tables the database holds (the test schema's, on PostgreSQL)."""
    if db.backend == "sqlite":
        return [row[0] for row in await db.fetch_all("SELECT name FROM sqlite_master")]
    rows = await db.fetch_all(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    )
    return [row[0] for row in rows]


async def test_a_new_database_gets_every_migration_and_records_its_version(database):
    assert await database.schema_version() == len(bundled_migrations(database.backend))
    assert {"accounts", "ledger", "game_tables", "reply_tokens"} <= set(await tables(database))


@pytest.mark.own_migrations
async def test_an_older_database_is_upgraded_and_keeps_its_data(open_database):
    db = await open_database([FIRST])
    async with db.transaction() as tx:
        await tx.run("INSERT INTO things (id, name) VALUES (1, 'kept')")
    await db.close()
    db = await open_database([FIRST, SECOND])
    assert await db.schema_version() == 2
    assert tuple(await db.fetch_one("SELECT name, colour FROM things")) == ("kept", "red")


@pytest.mark.own_migrations
async def test_a_newer_database_is_refused_with_a_clear_message(open_database, backend):
    await (await open_database([FIRST, SECOND])).close()
    setting = {"sqlite": "DATABASE_PATH", "postgres": "DATABASE_URL"}[backend]
    with pytest.raises(SchemaTooNew) as refused:
        await open_database([FIRST])
    assert "schema version 2 but this bot knows only up to 1" in str(refused.value)
    assert f"run a newer version of the bot, or set {setting} to another" in str(refused.value)


@pytest.mark.own_migrations
async def test_a_failing_migration_changes_nothing(open_database):
    broken = Migration(2, "broken", "CREATE TABLE extra (id INTEGER); SELECT * FROM missing;")
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError)):
        await open_database([FIRST, broken])
    db = await open_database([])
    assert await db.schema_version() == 0
    assert await tables(db) == []


@pytest.mark.own_migrations
async def test_a_failed_transaction_rolls_back(open_database):
    db = await open_database([FIRST])
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.run("INSERT INTO things (id, name) VALUES (1, 'lost')")
            raise RuntimeError("boom")
    assert await db.fetch_all("SELECT * FROM things") == []
    async with db.transaction() as tx:  # the connection is free for the next step
        assert await tx.run("INSERT INTO things (id, name) VALUES (1, 'kept')") == 1
    assert [tuple(row) for row in await db.fetch_all("SELECT id, name FROM things")] == [
        (1, "kept")
    ]


async def test_committed_steps_are_copied_back_from_the_wal_aside_and_stopped_with_it(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(store_sqlite, "CHECKPOINT_EVERY_SECONDS", 0.05)
    db = await Database.open(tmp_path / "t.sqlite3", [FIRST])
    checkpointer = db.checkpointer
    try:
        for name in ("one", "two", "three"):
            async with db.transaction() as tx:
                await tx.run("INSERT INTO things (name) VALUES (?)", name)
        for _ in range(100):  # a checkpoint that found these frames and copied them all back
            if checkpointer.last and checkpointer.last[1] > 0:
                break
            await asyncio.sleep(0.02)
        busy, in_wal, copied = checkpointer.last
        assert busy == 0 and in_wal > 0 and copied == in_wal
    finally:
        await db.close()
    assert checkpointer.task.done()
    with pytest.raises(sqlite3.ProgrammingError):  # its connection closed with the database
        checkpointer.connection.execute("SELECT 1")


async def version_4_database(path) -> Database:
    """A database as the bot left it before chips had to be whole numbers."""
    return await Database.open(path, bundled_migrations("sqlite")[:4])


async def rows(db: Database, table: str) -> list[tuple]:
    return [tuple(row) for row in await db.fetch_all(f"SELECT * FROM {table} ORDER BY rowid")]


async def test_a_version_4_database_keeps_its_balances_and_ledger(tmp_path):
    path = tmp_path / "v4.sqlite3"
    db = await version_4_database(path)
    ledger = Ledger(db, starting_chips=100)
    await ledger.transfer(1, 10, 11, 30, key="gift")
    await ledger.buy_in(1, 5, 11, 50, key="in")
    await ledger.grant(2, 10, 7, reason="daily", key="daily")
    before = {table: await rows(db, table) for table in ("accounts", "ledger", "operations")}
    await db.close()
    db = await Database.open(path)
    try:
        assert await db.schema_version() == len(bundled_migrations("sqlite"))
        assert {table: await rows(db, table) for table in before} == before
        assert (await Ledger(db, starting_chips=100).totals()).consistent
        assert await db.fetch_all("PRAGMA foreign_key_check") == []
    finally:
        await db.close()


async def test_fractions_a_modified_client_moved_are_taken_out_consistently(tmp_path):
    path = tmp_path / "v4.sqlite3"
    db = await version_4_database(path)
    ledger = Ledger(db, starting_chips=100)
    for member in (10, 11, 12):
        await ledger.balance(1, member)
    accounts = dict(await db.fetch_all("SELECT owner_id, id FROM accounts"))
    async with db.transaction() as tx:  # what /give amount:2.5 did before options were checked
        await tx.run("INSERT INTO operations (key, kind, guild_id) VALUES ('a', 'give', 1)")
        for giver, receiver, amount in ((10, 11, 2.5), (11, 12, 0.5), (10, 12, 4)):
            debit, credit = accounts[giver], accounts[receiver]
            await tx.run("UPDATE accounts SET chips = chips - ? WHERE id = ?", amount, debit)
            await tx.run("UPDATE accounts SET chips = chips + ? WHERE id = ?", amount, credit)
            await tx.run(
                "INSERT INTO ledger (op_key, debit_account, credit_account, amount, reason)"
                " VALUES ('a', ?, ?, ?, 'gift')",
                debit,
                credit,
                amount,
            )
    await db.close()
    db = await Database.open(path)
    ledger = Ledger(db, starting_chips=100)
    try:
        # 10 gave 2 (not 2.5) and 4; 11 got 2 and gave nothing (0.5 was all fraction).
        assert [await ledger.balance(1, m) for m in (10, 11, 12)] == [94, 102, 104]
        amounts = await db.fetch_all("SELECT amount FROM ledger WHERE reason = 'gift'")
        assert [row[0] for row in amounts] == [2, 4]
        totals = await ledger.totals()
        assert totals.consistent and totals.balances == 300
    finally:
        await db.close()


async def test_the_rebuilt_chip_tables_keep_every_index_and_reference(tmp_path):
    db = await Database.open(tmp_path / "chips.sqlite3")
    try:
        indexes = {row["name"] for row in await db.fetch_all("PRAGMA index_list(accounts)")}
        indexes |= {row["name"] for row in await db.fetch_all("PRAGMA index_list(ledger)")}
        assert indexes == {"accounts_by_chips", "sqlite_autoindex_accounts_1", "ledger_by_op"}
        references = await db.fetch_all("PRAGMA foreign_key_list(ledger)")
        assert sorted((r["from"], r["table"], r["to"]) for r in references) == [
            ("credit_account", "accounts", "id"),
            ("debit_account", "accounts", "id"),
            ("op_key", "operations", "key"),
        ]
    finally:
        await db.close()


async def test_the_chip_tables_refuse_what_no_step_may_write(database, integrity_error):
    async with database.transaction() as tx:
        await tx.run("INSERT INTO operations (key, kind, guild_id) VALUES ('k', 't', 1)")
        await tx.run("INSERT INTO accounts (guild_id, kind, owner_id) VALUES (1, 'member', 1)")
    for refused in (
        "INSERT INTO accounts (guild_id, kind, owner_id) VALUES (1, 'member', 1)",  # UNIQUE
        "INSERT INTO accounts (guild_id, kind, owner_id) VALUES (1, 'bank', 2)",
        "INSERT INTO accounts (guild_id, kind, owner_id, chips) VALUES (1, 'member', 3, -1)",
        "INSERT INTO accounts (kind, owner_id) VALUES ('member', 4)",
        "INSERT INTO ledger (op_key, credit_account, amount, reason) VALUES ('k', 1, 0, 'x')",
        "INSERT INTO ledger (op_key, amount, reason) VALUES ('k', 5, 'nowhere')",
        "INSERT INTO ledger (op_key, credit_account, amount, reason) VALUES ('k', 99, 5, 'x')",
        "INSERT INTO ledger (op_key, credit_account, amount, reason) VALUES ('no', 1, 5, 'x')",
        "INSERT INTO ledger (op_key, credit_account, amount) VALUES ('k', 1, 5)",
    ):
        with pytest.raises(integrity_error):
            async with database.transaction() as tx:
                await tx.run(refused)
    assert (await database.fetch_aggregate("SELECT COUNT(*) FROM ledger"))[0] == 0


async def test_steps_queued_behind_the_lock_all_run_in_the_loop_iteration_after_it():
    """Steps that queue during a COMMIT run together once it ends, in the order they came,
    not one per loop iteration (asyncio.Lock: 30 steps, 30 iterations of everything else)."""
    lock, ran, iterations, ticking = StepLock(), [], [0], True

    async def tick() -> None:
        while ticking:
            iterations[0] += 1
            await asyncio.sleep(0)

    async def step(number: int) -> None:
        async with lock:
            ran.append((number, iterations[0]))

    ticker = asyncio.create_task(tick())
    async with lock:
        steps = [asyncio.create_task(step(n)) for n in range(30)]
        for _ in range(3):
            await asyncio.sleep(0)  # every step is queued now
        released_at = iterations[0]
        waiting = steps[5]
        waiting.cancel()  # a cancelled waiter holds up no one
    await asyncio.gather(*steps, return_exceptions=True)
    ticking = False
    await ticker
    assert [number for number, _ in ran] == [n for n in range(30) if n != 5]
    assert max(at for _, at in ran) - released_at <= 2


async def test_a_step_that_yields_under_the_lock_still_keeps_the_others_out():
    lock, inside, most = StepLock(), [0], [0]

    async def step() -> None:
        async with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
            await asyncio.sleep(0.001)  # a statement sent to the worker thread
            inside[0] -= 1

    await asyncio.gather(*(step() for _ in range(20)))
    assert most[0] == 1


@pytest.mark.slow  # statements cancelled as they run, on real time
async def test_a_step_cancelled_mid_statement_leaves_the_pool_clean(database):
    """A step cancelled while its statement runs (an AI turn at shutdown) is rolled back; its
    connection never goes back to the pool in the middle of a transaction, which asyncpg
    reports as an error. The next step works."""
    reported: list[str] = []
    loops = {asyncio.get_running_loop()}
    store_loop = getattr(database, "store_loop", None)
    if store_loop is not None:
        loops.add(store_loop.loop)
    for loop in loops:
        loop.set_exception_handler(lambda _loop, context: reported.append(context["message"]))
    slow = "SELECT pg_sleep(0.5)" if database.backend == "postgres" else "SELECT 1"

    async def body(tx):
        await tx.run("INSERT INTO guild_settings (guild_id, ai_seats) VALUES (7, 1)")
        await tx.one(slow)

    step = asyncio.create_task(database.step(body))
    await asyncio.sleep(0.2)
    step.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await step
    await asyncio.sleep(0.6)  # the cancelled statement's end
    assert [tuple(row) for row in await database.fetch_all("SELECT 1")] == [(1,)]
    for loop in loops:
        loop.set_exception_handler(None)
    assert reported == []


class _BeginThenCancelled:
    """A pooled connection whose step is cancelled just as BEGIN's answer came in."""

    def __init__(self, connection) -> None:
        self.connection = connection

    def __getattr__(self, name: str):
        return getattr(self.connection, name)

    async def execute(self, sql: str, *params):
        done = await self.connection.execute(sql, *params)
        if sql == "BEGIN":
            raise asyncio.CancelledError()
        return done


class _PoolCancellingABegin:
    """The store's pool, whose next connection is _BeginThenCancelled."""

    def __init__(self, pool) -> None:
        self.pool, self.armed = pool, True

    def __getattr__(self, name: str):
        return getattr(self.pool, name)

    async def acquire(self):
        connection = await self.pool.acquire()
        if self.armed:
            self.armed = False
            return _BeginThenCancelled(connection)
        return connection

    async def release(self, connection) -> None:
        await self.pool.release(getattr(connection, "connection", connection))


async def test_a_step_cancelled_as_it_begins_puts_no_transaction_back_in_the_pool(postgres_url):
    """BEGIN went through, then the step was cancelled (an AI turn at a shutdown): the
    connection is rolled back before the pool has it again, so asyncpg has nothing to reset
    (which it reports as an error in the bot's log)."""
    database = await PostgresDatabase.open(postgres_url, own_loop=False)
    reported: list[str] = []
    asyncio.get_running_loop().set_exception_handler(
        lambda _loop, context: reported.append(context["message"])
    )
    try:
        database.pool = _PoolCancellingABegin(database.pool)
        with pytest.raises(asyncio.CancelledError):
            await database.step(lambda tx: tx.one("SELECT 1"))
        assert [tuple(row) for row in await database.fetch_all("SELECT 1")] == [(1,)]
    finally:
        asyncio.get_running_loop().set_exception_handler(None)
        await database.close()
    assert reported == []
