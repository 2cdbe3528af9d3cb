"""Every step is atomic and durable on each backend: SQLite's group commit and inline
statements (bot/store/sqlite.py), PostgreSQL's transaction per step (bot/store/postgres.py);
and the bot's own process, killed and started again, answers what was open in its players'
hands (a form)."""

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace

import asyncpg
import pytest

from bot.store import Ledger, Migration, PostgresDatabase
from bot.store import SQLiteDatabase as Database
from bot.store.sqlite import AUTOCHECKPOINT_PAGES
from tests import ROOT
from tests.bot_process import bot_processes
from tests.e2e import make_world
from tests.fakediscord import Message

RULE = "Red cards are correct, whatever came before"

GUILD, START = 1, 1000

THINGS = Migration(
    1,
    "things",
    "CREATE TABLE owners (id INTEGER PRIMARY KEY);"
    "CREATE TABLE things (name TEXT UNIQUE, owner INTEGER"
    " REFERENCES owners (id) DEFERRABLE INITIALLY DEFERRED);",
)


@pytest.fixture
async def db(tmp_path):
    """SQLite's: for what only SQLite does (group commit, its worker thread)."""
    database = await Database.open(tmp_path / "things.sqlite3", [THINGS])
    yield database
    await database.close()


@pytest.fixture
async def things(open_database):
    """On each backend (tests/store/conftest.py)."""
    return await open_database([THINGS])


async def names(db: Database) -> list[str]:
    return [row[0] for row in await db.fetch_all("SELECT name FROM things ORDER BY name")]


async def insert(db, name: str, owner: int | None = None) -> None:
    async with db.transaction() as tx:
        await tx.run("INSERT INTO things (name, owner) VALUES (?, ?)", name, owner)


def trace(db: Database) -> list[tuple[str, int]]:
    """Every statement the connection runs, with the thread that ran it."""
    seen: list[tuple[str, int]] = []
    db.connection._conn.set_trace_callback(lambda sql: seen.append((sql, threading.get_ident())))
    return seen


@asynccontextmanager
async def loop_iterations() -> AsyncIterator[SimpleNamespace]:
    """Counts the event loop's iterations (`.count`) with a task that ticks once in each."""
    iterations = SimpleNamespace(count=0)

    async def tick() -> None:
        while True:
            iterations.count += 1
            await asyncio.sleep(0)

    ticking = asyncio.create_task(tick())
    await asyncio.sleep(0)
    try:
        yield iterations
    finally:
        ticking.cancel()


async def test_concurrent_steps_share_commits_and_all_survive(db):
    statements = trace(db)
    await asyncio.gather(*(insert(db, f"t{index:02}") for index in range(20)))
    commits = [sql for sql, _ in statements if sql == "COMMIT"]
    assert 1 <= len(commits) < 20
    assert await names(db) == [f"t{index:02}" for index in range(20)]
    assert not db.connection.in_transaction


async def test_a_step_runs_on_the_loop_thread_and_only_its_commit_waits_for_the_worker(db):
    statements = trace(db)
    await insert(db, "one")
    loop_thread = threading.get_ident()
    threads = {sql.split()[0]: thread for sql, thread in statements if "busy_timeout" not in sql}
    assert threads["INSERT"] == threads["SAVEPOINT"] == threads["BEGIN"] == loop_thread
    assert threads["COMMIT"] != loop_thread


@pytest.fixture
async def db_without_fsyncs(tmp_path):
    database = await Database.open(tmp_path / "things.sqlite3", [THINGS], durability="normal")
    yield database
    await database.close()


async def test_a_step_without_an_fsync_commits_itself_on_the_loop_thread_at_once(
    db_without_fsyncs,
):
    """No fsync to share: each step commits as it ends, without waiting a loop iteration for a
    committer (at 500 tables, the slowest 2% of clicks waited 10-16 ms there)."""
    statements = trace(db_without_fsyncs)
    async with loop_iterations() as iterations:
        for index in range(5):
            before = iterations.count
            await insert(db_without_fsyncs, f"t{index}")
            # returned committed without the loop running anything else
            assert iterations.count == before
    commits = [thread for sql, thread in statements if sql == "COMMIT"]
    assert commits == [threading.get_ident()] * 5
    assert await names(db_without_fsyncs) == [f"t{index}" for index in range(5)]
    assert not db_without_fsyncs.connection.in_transaction


async def test_a_commit_that_may_checkpoint_goes_to_the_worker(db_without_fsyncs):
    """Near SQLite's backstop, the COMMIT may checkpoint (and fsync): not on the loop."""
    db_without_fsyncs.checkpointer.last = (0, AUTOCHECKPOINT_PAGES, 0)  # it fell behind
    statements = trace(db_without_fsyncs)
    await insert(db_without_fsyncs, "one")
    commit = next(thread for sql, thread in statements if sql == "COMMIT")
    assert commit != threading.get_ident()
    assert await names(db_without_fsyncs) == ["one"]


@pytest.mark.own_migrations
async def test_a_failing_step_undoes_only_itself_beside_the_steps_at_the_same_time(
    things, integrity_error
):
    """On SQLite the four share a batch (one COMMIT); on PostgreSQL they run at once, so
    either "a" may be the one the other finds there first."""

    async def failing() -> None:
        async with things.transaction() as tx:
            await tx.run("INSERT INTO things (name) VALUES ('lost')")
            raise RuntimeError("boom")

    outcomes = await asyncio.gather(
        insert(things, "a"),
        failing(),
        insert(things, "b"),
        insert(things, "a"),
        return_exceptions=True,
    )
    assert outcomes[2] is None
    assert isinstance(outcomes[1], RuntimeError)
    first_a, second_a = outcomes[0], outcomes[3]
    assert None in (first_a, second_a)  # one "a" went in, the other hit UNIQUE
    assert isinstance(first_a or second_a, integrity_error)
    assert await names(things) == ["a", "b"]


async def test_a_failed_commit_fails_every_step_of_its_batch_and_keeps_none(db):
    # A deferred foreign key is only checked at COMMIT, so the whole batch fails there.
    outcomes = await asyncio.gather(
        insert(db, "a"), insert(db, "orphan", owner=99), insert(db, "b"), return_exceptions=True
    )
    assert all(isinstance(outcome, sqlite3.IntegrityError) for outcome in outcomes)
    assert await names(db) == []
    assert not db.connection.in_transaction
    await insert(db, "after")
    assert await names(db) == ["after"]


@pytest.mark.own_migrations
async def test_a_cancelled_step_is_undone_and_the_next_one_commits(things):
    started = asyncio.Event()

    async def stuck() -> None:
        async with things.transaction() as tx:
            await tx.run("INSERT INTO things (name) VALUES ('cancelled')")
            started.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(stuck())
    await started.wait()
    following = asyncio.create_task(insert(things, "next"))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await following
    assert await names(things) == ["next"]


async def test_a_step_cancelled_while_its_batch_commits_is_kept_and_so_are_the_others(db):
    """A batch is committed by one task of its own, not by its steps: cancelling a step that
    waits for the COMMIT leaves its row, and every other step of the batch, committed."""
    statements = trace(db)
    steps = [asyncio.create_task(insert(db, f"t{index}")) for index in range(5)]
    while not any(sql == "COMMIT" for sql, _ in statements):
        await asyncio.sleep(0)  # the steps have run; their COMMIT is on the worker
    steps[2].cancel()
    outcomes = await asyncio.gather(*steps, return_exceptions=True)
    assert isinstance(outcomes[2], asyncio.CancelledError)
    assert [outcome for i, outcome in enumerate(outcomes) if i != 2] == [None] * 4
    assert await names(db) == [f"t{index}" for index in range(5)]
    assert [sql for sql, _ in statements].count("COMMIT") == 1


async def test_a_cancelled_call_keeps_the_worker_counted_busy_until_it_has_run(db):
    """A statement runs inline only while the worker has nothing to do: a caller cancelled
    while the worker runs its call must not make the worker look idle."""
    started = threading.Event()

    def slow() -> None:
        started.set()
        time.sleep(0.2)

    call = asyncio.create_task(db.connection._execute(slow))
    await asyncio.to_thread(started.wait)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    statements = trace(db)
    await insert(db, "after")
    begin = next(thread for sql, thread in statements if sql.startswith("BEGIN"))
    assert begin != threading.get_ident()  # queued behind `slow` on the worker, not inline
    assert db.connection._queued == 0 and await names(db) == ["after"]


async def test_a_step_returns_in_the_second_loop_iteration_after_its_commit_ran(db):
    """Every loop iteration between the fsync and the step's return is one more wait behind
    whatever else is ready (at 500 busy tables, milliseconds each): the worker's answer, as it
    comes in, wakes the step (not the committer first, which then woke the step). Counted with
    a task that ticks once per iteration."""
    ran_at: list[int] = []
    worker_queue = db.connection._tx

    def timed(item) -> None:  # each call the worker runs notes the iteration it ended in
        future, function = item

        def run():
            result = function()
            ran_at.append(iterations.count)
            return result

        worker_queue.put_nowait((future, run))

    db.connection._tx = SimpleNamespace(put_nowait=timed)
    try:
        async with loop_iterations() as iterations:
            for index in range(20):
                await insert(db, f"t{index:02}")
                assert iterations.count - ran_at[-1] <= 2  # ran_at[-1]: the COMMIT
    finally:
        db.connection._tx = worker_queue
    assert await names(db) == [f"t{index:02}" for index in range(20)]


async def test_a_step_waits_without_blocking_the_loop_for_another_connections_write_lock(
    db, tmp_path
):
    other = await Database.open(tmp_path / "things.sqlite3", [THINGS])
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold_the_lock() -> None:
        async with other.transaction() as tx:
            await tx.run("INSERT INTO things (name) VALUES ('first')")
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold_the_lock())
    await holding.wait()
    waiting = asyncio.create_task(insert(db, "second"))
    ticks = 0
    while ticks < 5:  # the loop keeps running while the step waits in the worker thread
        await asyncio.sleep(0.01)
        ticks += 1
    assert not waiting.done()
    release.set()
    await asyncio.gather(holder, waiting)
    assert await names(db) == ["first", "second"]
    await other.close()


@pytest.mark.own_migrations
async def test_closing_waits_for_the_steps_under_way_and_commits_them(open_database):
    db = await open_database([THINGS])
    inserts = [asyncio.create_task(insert(db, name)) for name in ("x", "y")]
    await asyncio.sleep(0)  # both steps are under way
    await db.close()
    await asyncio.gather(*inserts)
    reopened = await open_database([THINGS])
    assert await names(reopened) == ["x", "y"]


# ---- PostgreSQL: a transaction per step ------------------------------------------------------

SLOW_COMMIT = Migration(
    2,
    "slow_commit",
    # A deferred trigger runs at COMMIT: a row named 'slow' makes its COMMIT take 0.4 s.
    "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql"
    " AS $$ BEGIN PERFORM pg_sleep(0.4); RETURN NULL; END $$;"
    "CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON things DEFERRABLE INITIALLY DEFERRED"
    " FOR EACH ROW WHEN (NEW.name = 'slow') EXECUTE FUNCTION slow_commit();",
)


@pytest.fixture
async def postgres(postgres_url):
    database = await PostgresDatabase.open(postgres_url, [THINGS, SLOW_COMMIT])
    yield database
    await database.close()


async def test_on_postgres_a_failed_commit_fails_its_own_step_only(postgres):
    # A deferred foreign key is only checked at COMMIT: each step commits on its own.
    outcomes = await asyncio.gather(
        insert(postgres, "a"),
        insert(postgres, "orphan", owner=99),
        insert(postgres, "b"),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], asyncpg.ForeignKeyViolationError)
    assert await names(postgres) == ["a", "b"]
    await insert(postgres, "after")
    assert await names(postgres) == ["a", "after", "b"]


async def test_on_postgres_a_step_cancelled_while_it_commits_is_kept(postgres, postgres_url):
    """As on SQLite: once its statements are done, cancelling a step's task does not cancel
    its COMMIT (asyncpg would cancel the statement on the server and undo the step)."""
    step = asyncio.create_task(insert(postgres, "slow"))
    await asyncio.sleep(0.2)  # its INSERT is done; its COMMIT takes 0.4 s
    step.cancel()
    with pytest.raises(asyncio.CancelledError):
        await step
    await postgres.close()  # after the COMMIT under way
    reopened = await PostgresDatabase.open(postgres_url, [THINGS, SLOW_COMMIT])
    try:
        assert await names(reopened) == ["slow"]
    finally:
        await reopened.close()


async def test_on_postgres_a_step_runs_whole_on_the_store_loop_while_the_bots_loop_is_busy(
    postgres,
):
    """A step's statements go out one after another on the store's own loop: a bot whose loop
    is busy (here: blocked) does not hold them up, nor the connection they keep."""
    done = threading.Event()

    async def body(tx) -> str:
        await tx.run("INSERT INTO things (name) VALUES ('one')")
        await tx.run("INSERT INTO things (name) VALUES ('two')")
        done.set()
        return threading.current_thread().name

    step = asyncio.create_task(postgres.step(body))
    await asyncio.sleep(0)  # the step is handed over to the store's loop
    assert done.wait(5)  # this loop blocked: the step's statements went on without it
    assert await step == "postgres store"
    assert await names(postgres) == ["one", "two"]


async def test_on_postgres_a_step_whose_caller_is_cancelled_is_undone(postgres):
    started = threading.Event()

    async def body(tx) -> None:
        await tx.run("INSERT INTO things (name) VALUES ('cancelled')")
        started.set()
        await asyncio.sleep(60)

    step = asyncio.create_task(postgres.step(body))
    assert await asyncio.to_thread(started.wait, 5)
    step.cancel()
    with pytest.raises(asyncio.CancelledError):
        await step
    await insert(postgres, "next")
    assert await names(postgres) == ["next"]


# The child process: concurrent transfers, each printed once `transfer` has returned (the
# acknowledgement a player would see); killed with SIGKILL while it runs.
CHILD = f"""
import asyncio, random, sys
from bot.store import Ledger
from bot.store.backends import BACKENDS

async def main(backend, location, durability):
    database = await BACKENDS[backend].open(location, durability=durability)
    ledger = Ledger(database, starting_chips={START})
    for member in range(1, 11):
        await ledger.balance({GUILD}, member)
    print("ready", flush=True)

    async def transfers(task):
        rng = random.Random(task)
        for index in range(100_000):
            giver, receiver = rng.sample(range(1, 11), 2)
            key = f"{{task}}:{{index}}"
            if await ledger.transfer({GUILD}, giver, receiver, rng.randint(1, 5), key=key):
                print(key, flush=True)

    await asyncio.gather(*(transfers(task) for task in range(20)))

asyncio.run(main(*sys.argv[1:]))
"""


@pytest.mark.parametrize(
    ("backend", "durability"), [("sqlite", "full"), ("sqlite", "normal"), ("postgres", "full")]
)
@pytest.mark.slow  # a process started and killed
async def test_kill_9_loses_no_acknowledged_transfer_and_keeps_the_totals(
    tmp_path, request, backend, durability
):
    """SQLite, either way: a step's WAL frames reach the OS before its COMMIT returns; only a
    power loss (not testable here) tells them apart. PostgreSQL: the server has every step
    it acknowledged, whatever becomes of the bot's process."""
    if backend == "sqlite":
        location = str(tmp_path / "killed.sqlite3")
    else:
        location = request.getfixturevalue("postgres_url")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, backend, location, durability],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        acknowledged = [child.stdout.readline().strip() for _ in range(300)]
        os.kill(child.pid, signal.SIGKILL)
        acknowledged += child.stdout.read().split()  # printed before the kill landed
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL

    db = await (Database if backend == "sqlite" else PostgresDatabase).open(location)
    try:
        rows = await db.fetch_all("SELECT key FROM operations WHERE kind = 'transfer'")
        committed = {row[0] for row in rows}
        assert len(acknowledged) >= 300 and set(acknowledged) <= committed
        totals = await Ledger(db, starting_chips=START).totals(GUILD)
        assert totals.consistent and totals.balances == 10 * START
        if backend == "sqlite":
            assert await db.fetch_all("PRAGMA foreign_key_check") == []
            assert (await db.fetch_one("PRAGMA integrity_check"))[0] == "ok"
    finally:
        await db.close()


# ---- the bot's own process, killed and started again ----------------------------------------


@pytest.fixture
async def crashing_world(tmp_path, monkeypatch):
    """The fake Discord and its members, and `start()` to run the bot as a process of its
    own, which a test kills (`kill()`) to start another on the same database."""
    world = await make_world(tmp_path, monkeypatch)
    async with bot_processes(world, tmp_path) as start:
        yield world, start


async def open_and_start(world, command: str, guests, **options) -> Message:
    """`command` by Alice, `guests` join, Alice starts: the table message."""
    await world.tester.slash(world.alice, world.channel, command, **options)
    await world.tester.idle()
    (table,) = [m for m in world.tester.channel_messages(world.channel) if m.buttons()]
    for guest in guests:
        await world.tester.click(guest, table, "Join")
    started = await world.tester.click(world.alice, table, "Start")
    assert "started" in started.text, started.text
    await world.tester.idle()
    return world.fake.messages[table.id]


def saved_state(world) -> dict:
    with sqlite3.connect(world.settings.database_path) as db:
        (state,) = db.execute("SELECT state FROM game_tables").fetchone()
    return json.loads(state)


@pytest.mark.e2e
async def test_the_rule_form_open_when_the_bot_was_killed_works_with_the_new_process(
    crashing_world,
):
    """Delphi's oracle opens the form for the secret rule; the bot's process is killed and
    a new one started; the rule submitted then is taken, and sealed."""
    world, start = crashing_world
    first = await start()
    table = await open_and_start(world, "delphi new", [world.bob, world.carol], cards=6)
    opened = await world.tester.click(
        world.alice, world.tester.dms(world.alice)[-1], "Write your rule"
    )
    await first.kill()
    await start()

    submitted = await world.tester.submit_modal(world.alice, opened, {"answer": RULE})

    assert submitted.response_type == 7  # the DM it came from shows the hand now
    assert RULE in world.fake.messages[opened.source.id].text()
    await world.tester.idle()
    assert "Alice has written the rule: sealed" in world.fake.messages[table.id].text()
    assert saved_state(world)["rule"] == RULE


@pytest.mark.e2e
async def test_other_amount_open_when_the_bot_was_killed_works_with_the_new_process(
    crashing_world,
):
    """Backhand's Other amount form, opened before the kill, bets with the new process."""
    world, start = crashing_world
    database = await Database.open(world.settings.database_path)
    await Ledger(database, START).fund_house(world.guild.id, 500, reason="test", key="k1")
    await database.close()
    first = await start()
    await open_and_start(world, "backhand new", [world.bob], buy_in=50, min_bet=2, max_bet=10)
    opened = await world.tester.click(world.bob, world.tester.dms(world.bob)[-1], "Other amount")
    await first.kill()
    await start()

    submitted = await world.tester.submit_modal(world.bob, opened, {"answer": "7"})

    assert submitted.response_type == 7, submitted.text
    await world.tester.idle()
    assert saved_state(world)["hands"][1]["bet"] == 7
