"""The contract bot/store/internals.py has with aiosqlite's private API: if the pinned version
stops having what the bot's connection relies on, these fail naming it."""

import asyncio
import inspect

import aiosqlite

from bot.store.internals import PRIVATE_ATTRIBUTES, InlineConnection


async def test_aiosqlite_connection_has_the_private_members_the_bot_uses(tmp_path):
    connection = await aiosqlite.connect(tmp_path / "contract.sqlite3")
    try:
        for name in PRIVATE_ATTRIBUTES:
            assert hasattr(connection, name), f"aiosqlite.Connection lost {name}"
        assert inspect.iscoroutinefunction(aiosqlite.Connection._execute), "_execute is async"
        parameters = list(inspect.signature(aiosqlite.Connection._execute).parameters)
        assert parameters[:2] == ["self", "fn"], f"_execute's signature changed: {parameters}"
    finally:
        await connection.close()


async def test_aiosqlite_runs_the_future_and_function_pairs_queued_on_tx(tmp_path):
    """The worker thread takes `(future, function)` from `_tx`, runs the function and sets
    the future's result: how InlineConnection hands it a call without a task."""
    connection = await aiosqlite.connect(tmp_path / "contract.sqlite3")
    try:
        done = asyncio.get_running_loop().create_future()
        connection._tx.put_nowait((done, lambda: 6 * 7))
        assert await asyncio.wait_for(done, 2) == 42
    finally:
        await connection.close()


async def test_the_bots_connection_runs_statements_through_its_override(tmp_path):
    connection = await InlineConnection(tmp_path / "inline.sqlite3")
    try:
        await connection.execute("CREATE TABLE t (x)")
        await connection.execute("INSERT INTO t VALUES (1)")
        async with connection.execute("SELECT x FROM t") as cursor:
            assert await cursor.fetchall() == [(1,)]
        assert not connection.worker_busy
    finally:
        await connection.close()
    assert InlineConnection._execute is not aiosqlite.Connection._execute  # ours runs them
