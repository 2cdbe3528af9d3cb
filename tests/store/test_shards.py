"""Shard claims and forwarded interactions (bot/store/shards.py): on PostgreSQL, each test in a
schema of its own, with its processes played by connections of their own (one by a process
killed with SIGKILL); on SQLite, the one process holds everything."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from bot.settings import Settings
from bot.shards import Shards
from bot.store import DatabaseUnavailable, PostgresDatabase, SQLiteDatabase, claims_connection
from bot.store import shards as shards_module
from bot.store.shards import (
    ClaimsLost,
    Payload,
    PostgresShardClaims,
    ShardLayoutConflict,
    StoppedWaiting,
    held_elsewhere,
    open_shard_claims,
)
from tests import ROOT

Open = Callable[..., Awaitable[PostgresShardClaims]]

# Holds shard 0 of 2 in a process of its own until killed.
HOLDER = """
import asyncio, sys
from bot.store.shards import PostgresShardClaims

async def main(url):
    claims = await PostgresShardClaims.open(url, 2, [0])
    await claims.claim()
    print("holding", flush=True)
    await asyncio.Event().wait()

asyncio.run(main(sys.argv[1]))
"""


@pytest.fixture
async def url(postgres_url: str) -> str:
    """The test's schema, with the bot's tables."""
    database = await PostgresDatabase.open(postgres_url, pool_size=1, own_loop=False)
    await database.close()
    return postgres_url


@pytest.fixture
async def open_claims(url: str) -> AsyncIterator[Open]:
    """Opens a process's claims (shards `ids` of `count`) in the test's schema; closes them
    after it."""
    opened: list[PostgresShardClaims] = []

    async def open_them(count: int, ids: list[int]) -> PostgresShardClaims:
        claims = await PostgresShardClaims.open(url, count, ids)
        opened.append(claims)
        return claims

    yield open_them
    for claims in opened:
        await claims.close()


@pytest.fixture
async def connection(url: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection of the test's own, to look at (and meddle with) the database."""
    connection = await asyncpg.connect(url)
    yield connection
    await connection.close()


class Inbox:
    """A `receive` for listen(): what it was given, in order."""

    def __init__(self) -> None:
        self.payloads: list[Payload] = []
        self.arrived = asyncio.Event()

    async def __call__(self, payload: Payload) -> None:
        self.payloads.append(payload)
        self.arrived.set()

    async def next(self) -> Payload:
        await asyncio.wait_for(self.arrived.wait(), 2)
        self.arrived.clear()
        return self.payloads[-1]


async def forwarded_rows(connection: asyncpg.Connection) -> int:
    return await connection.fetchval("SELECT count(*) FROM forwarded")


# ---- claims -----------------------------------------------------------------------------


async def test_two_processes_cannot_both_hold_a_shard(open_claims: Open, caplog, monkeypatch):
    monkeypatch.setattr(shards_module, "RETRY_SECONDS", 0.05)  # the second's tries, once it waits
    first = await open_claims(2, [0, 1])
    await first.claim()
    second = await open_claims(2, [1])
    with pytest.raises(TimeoutError):
        await second.claim(timeout=0.2)
    assert first.held == {0, 1}
    assert second.held == set()
    assert "waiting for shard 1, which another process holds" in caplog.text

    claiming = asyncio.create_task(second.claim())
    await asyncio.sleep(0.1)
    await first.close()
    started = time.monotonic()
    await asyncio.wait_for(claiming, 3)
    assert time.monotonic() - started < 2
    assert second.held == {1}


async def test_a_process_holds_all_its_shards_or_none(open_claims: Open, monkeypatch):
    """One waiting for shard 1 of its 0-1 does not keep 0 meanwhile: a process for 0 alone
    gets it, and then the first waits for 0 as well."""
    monkeypatch.setattr(shards_module, "RETRY_SECONDS", 0.02)
    one = await open_claims(4, [1])
    await one.claim()
    both = await open_claims(4, [0, 1])
    waiting = asyncio.create_task(both.claim())
    await asyncio.sleep(0.1)  # a few tries
    assert both.held == set()
    zero = await open_claims(4, [0])
    await zero.claim(timeout=0)
    await one.close()
    await asyncio.sleep(0.1)
    assert not waiting.done() and both.held == set()
    await zero.close()
    await asyncio.wait_for(waiting, 2)
    assert both.held == {0, 1}


async def test_closing_claims_that_wait_ends_the_wait_at_once(open_claims: Open, caplog):
    first = await open_claims(2, [0, 1])
    await first.claim()
    second = await open_claims(2, [1])
    waiting = asyncio.create_task(second.claim())
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await second.close()
    with pytest.raises(StoppedWaiting):
        await asyncio.wait_for(waiting, 1)
    assert time.monotonic() - started < 0.5  # not after the pause between tries
    assert "stopped while waiting for shard 1" in caplog.text


@pytest.mark.slow  # a process started
async def test_a_killed_process_lets_its_shards_go(url: str, open_claims: Open):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, url],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert holder.stdout is not None
        assert await asyncio.to_thread(holder.stdout.readline) == "holding\n"
        claims = await open_claims(2, [0])
        with pytest.raises(TimeoutError):
            await claims.claim(timeout=0.1)
        holder.kill()  # SIGKILL: no goodbye to the server, only a closed socket
        await asyncio.wait_for(claims.claim(), 3)
        assert claims.held == {0}
    finally:
        holder.kill()
        holder.wait(10)


async def test_another_shard_count_is_refused_while_its_shards_are_held(
    open_claims: Open, connection
):
    two = await open_claims(2, [1])
    await two.claim()
    four = await open_claims(4, [0, 1, 2, 3])
    with pytest.raises(ShardLayoutConflict) as refused:
        await four.claim(timeout=0)
    assert str(refused.value) == (
        "Other processes on this database hold shards of SHARD_COUNT 2, but this one has "
        "SHARD_COUNT 4: give every process the same SHARD_COUNT, or stop the others first."
    )
    assert four.held == set()

    await two.close()
    await four.claim(timeout=0)
    assert four.held == {0, 1, 2, 3}
    assert await connection.fetchval("SELECT shard_count FROM shard_layout") == 4


def signed_halves(key: int) -> tuple[int, int]:
    """A bigint's high and low 32 bits, each as a signed integer."""
    high, low = ((half + 2**31) % 2**32 - 2**31 for half in (key >> 32, key))
    return high, low


async def test_a_lock_held_by_another_session_is_found_by_its_key(postgres_url: str):
    keys = [-1, -(2**63), 2**63 - 1, 5, 2**31, -(2**32), 2**32 + 7]
    neighbours = [key ^ 1 for key in keys]
    holder, looker = [await asyncpg.connect(postgres_url) for _ in range(2)]
    try:
        for key, neighbour in zip(keys, neighbours, strict=True):
            await holder.execute("SELECT pg_advisory_lock($1::bigint)", key)
            # The neighbour's halves as two integers: another kind of lock (objsubid 2).
            await holder.execute(
                "SELECT pg_advisory_lock($1::integer, $2::integer)", *signed_halves(neighbour)
            )
        assert await held_elsewhere(looker, keys + neighbours) == set(keys)
        assert await held_elsewhere(holder, keys) == set()  # its own
    finally:
        await holder.close()
        await looker.close()


async def test_lost_is_set_when_the_server_ends_the_connection(open_claims: Open, connection):
    claims = await open_claims(1, [0])
    await claims.claim()
    assert not claims.lost.is_set()
    await connection.execute("SELECT pg_terminate_backend($1)", claims.connection.get_server_pid())
    await asyncio.wait_for(claims.lost.wait(), 2)
    assert claims.held == set()
    with pytest.raises(ClaimsLost):
        await claims.forward(0, {}, 0.1)


async def test_lost_is_set_when_a_ping_goes_unanswered(open_claims: Open, monkeypatch):
    monkeypatch.setattr(claims_connection, "WATCHDOG_SECONDS", 0.05)
    monkeypatch.setattr(claims_connection, "PING_TIMEOUT_SECONDS", 0.2)
    monkeypatch.setattr(claims_connection, "PING", "SELECT pg_sleep(3)")  # a server gone silent
    claims = await open_claims(1, [0])
    await claims.claim()
    await asyncio.wait_for(claims.lost.wait(), 2)
    assert claims.connection.is_closed()


@pytest.mark.slow  # the watchdog over a real second
async def test_a_connection_busy_with_statements_in_line_is_not_lost(
    open_claims: Open, monkeypatch
):
    """Under load, statements (forwards) wait their turn on the one connection: each answered
    in time, the line as long as it may be, the connection is alive, and the process goes on."""
    monkeypatch.setattr(claims_connection, "WATCHDOG_SECONDS", 0.05)
    monkeypatch.setattr(claims_connection, "PING_TIMEOUT_SECONDS", 0.3)
    claims = await open_claims(1, [0])
    await claims.claim()
    line = [
        claims.session.run(lambda connection: connection.fetchval("SELECT pg_sleep(0.05)"))
        for _ in range(20)
    ]
    await asyncio.gather(*line)  # a second in line: far past the ping's 0.3 s
    assert not claims.lost.is_set()


async def test_an_unreachable_server_is_one_sentence():
    with pytest.raises(DatabaseUnavailable) as refused:
        await PostgresShardClaims.open("postgresql://postgres@127.0.0.1:1/test", 1, [0])
    assert str(refused.value).startswith(
        "Could not connect to the PostgreSQL server at DATABASE_URL "
        "(postgresql://postgres@127.0.0.1:1/test) to claim this process's shards: "
    )


async def test_opened_by_settings_a_process_of_every_shard_claims_the_whole_bot(url: str):
    settings = Settings(_env_file=None, database_url=url)
    database = await PostgresDatabase.open(url, pool_size=1, own_loop=False)
    try:
        whole = await open_shard_claims(database, settings, Shards())
        some = await open_shard_claims(database, settings, Shards(4, (2, 3)))
        assert (whole.count, whole.shard_ids, some.count, some.shard_ids) == (1, (0,), 4, (2, 3))
        await whole.claim()
        with pytest.raises(ShardLayoutConflict):
            await some.claim()
        await whole.close()
        await some.close()
    finally:
        await database.close()


async def test_on_sqlite_the_one_process_holds_everything(tmp_path: Path):
    database = await SQLiteDatabase.open(tmp_path / "store.sqlite3")
    try:
        claims = await open_shard_claims(database, Settings(_env_file=None), Shards(4, (0, 1)))
        await claims.claim(timeout=0)
        await claims.listen(Inbox())
        assert not claims.lost.is_set()
        with pytest.raises(RuntimeError):
            await claims.forward(2, {}, 0.1)
        await claims.close()
    finally:
        await database.close()


# ---- forwarding -------------------------------------------------------------------------


async def owner_and_sender(
    open_claims: Open,
) -> tuple[PostgresShardClaims, Inbox, PostgresShardClaims]:
    """Shard 1's process, listening, and shard 0's (where DMs come)."""
    owner = await open_claims(2, [1])
    await owner.claim()
    inbox = Inbox()
    await owner.listen(inbox)
    sender = await open_claims(2, [0])
    await sender.claim()
    return owner, inbox, sender


async def test_the_owner_takes_a_forwarded_interaction_once(open_claims: Open, connection):
    _, inbox, sender = await owner_and_sender(open_claims)
    payload = {"id": "1", "type": 3, "data": {"custom_id": "table:7:fold"}}
    started = time.monotonic()
    assert await sender.forward(1, payload, 2) is True
    assert time.monotonic() - started < 1  # told as soon as the owner took it
    assert await inbox.next() == payload
    await asyncio.sleep(0.1)
    assert inbox.payloads == [payload]
    assert await forwarded_rows(connection) == 0


async def test_a_taking_heard_before_the_senders_own_answer_still_counts(
    open_claims: Open, connection
):
    """The owner's word that it took a row may be heard before the sender has the row's id
    (both come on the sender's connection): the forward is taken all the same, at once."""
    owner = await open_claims(2, [1])
    await owner.claim()  # holds the shard, but does not listen: only the early word tells
    sender = await open_claims(2, [0])
    await sender.claim()
    next_id = await connection.fetchval(
        "SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM forwarded_id_seq"
    )
    sender.forwards._on_taken(None, 0, "", f"{sender.schema} {next_id}")
    started = time.monotonic()
    assert await sender.forward(1, {"id": "9"}, 2) is True
    assert time.monotonic() - started < 1
    assert sender.forwards._awaiting == {}


async def test_forwards_made_together_go_in_few_statements_and_arrive_once_each(
    open_claims: Open, connection
):
    """Under load, the forwards (and the owner's takes) that queue while one statement is
    under way go together in the next: each still arrives once, with its own answer."""
    owner, inbox, sender = await owner_and_sender(open_claims)
    statements = {"sender": 0, "owner": 0}
    for name, claims in (("sender", sender), ("owner", owner)):
        run = claims.session.run

        async def counted(operation, name=name, run=run):
            statements[name] += 1
            return await run(operation)

        claims.session.run = counted
    payloads = [{"id": str(number), "data": {"custom_id": f"ta:{number}"}} for number in range(40)]
    taken = await asyncio.gather(*(sender.forward(1, payload, 2) for payload in payloads))
    assert taken == [True] * 40
    await asyncio.sleep(0.1)
    assert sorted(inbox.payloads, key=lambda p: int(p["id"])) == payloads
    assert statements["sender"] < 10 and statements["owner"] < 20, statements
    assert await forwarded_rows(connection) == 0


async def test_a_forward_of_20_kilobytes_arrives_whole(open_claims: Open):
    _, inbox, sender = await owner_and_sender(open_claims)
    payload = {"id": "2", "data": {"values": ["x" * 1000 for _ in range(20)]}}
    assert len(json.dumps(payload)) > 20_000
    assert await sender.forward(1, payload, 2) is True
    assert await inbox.next() == payload


async def test_a_forward_no_process_takes_is_taken_back(open_claims: Open, connection):
    owner = await open_claims(2, [1])
    await owner.claim()  # holds the shard, but does not listen
    sender = await open_claims(2, [0])
    started = time.monotonic()
    assert await sender.forward(1, {"id": "3"}, 0.3) is False
    assert time.monotonic() - started >= 0.3
    assert await forwarded_rows(connection) == 0


async def test_a_forward_to_a_shard_the_listener_does_not_hold_is_taken_back(
    open_claims: Open, connection
):
    _, inbox, sender = await owner_and_sender(open_claims)
    assert await sender.forward(0, {"id": "4"}, 0.3) is False
    assert inbox.payloads == []
    assert await forwarded_rows(connection) == 0


async def test_a_cancelled_forward_takes_its_row_back(open_claims: Open, connection):
    sender = await open_claims(2, [0])
    forwarding = asyncio.create_task(sender.forward(1, {"id": "5"}, 10))
    await asyncio.sleep(0.2)
    assert await forwarded_rows(connection) == 1
    forwarding.cancel()
    with pytest.raises(asyncio.CancelledError):
        await forwarding
    for _ in range(100):
        if not await forwarded_rows(connection):
            break
        await asyncio.sleep(0.01)
    assert await forwarded_rows(connection) == 0


async def test_rows_waiting_when_the_owner_listens_are_taken(open_claims: Open, connection):
    for shard, ids, age in ((1, "6", 0), (0, "7", 0), (1, "8", 0), (1, "old", 10)):
        await connection.execute(
            "INSERT INTO forwarded (shard, payload, created_at)"
            " VALUES ($1, $2, now() - make_interval(secs => $3))",
            shard,
            json.dumps({"id": ids}),
            age,
        )
    owner = await open_claims(2, [1])
    await owner.claim()
    inbox = Inbox()
    await owner.listen(inbox)
    await inbox.next()
    await asyncio.sleep(0.1)
    # Too old for Discord to take an answer: dropped, not handed over.
    assert sorted(payload["id"] for payload in inbox.payloads) == ["6", "8"]
    assert await connection.fetchval("SELECT shard FROM forwarded") == 0  # not its shard


async def test_another_schemas_notification_is_ignored(open_claims: Open, connection, url):
    owner = await open_claims(2, [1])
    await owner.claim()
    inbox = Inbox()
    await owner.listen(inbox)
    row_id = await connection.fetchval(
        'INSERT INTO forwarded (shard, payload) VALUES (1, \'{"id": "9"}\') RETURNING id'
    )
    await connection.execute("SELECT pg_notify('cardtable_forward', $1)", f"elsewhere 1 {row_id}")
    await asyncio.sleep(0.2)
    assert inbox.payloads == []
    assert await forwarded_rows(connection) == 1
    schema = await connection.fetchval("SELECT current_schema()")
    await connection.execute("SELECT pg_notify('cardtable_forward', $1)", f"{schema} 1 {row_id}")
    assert await inbox.next() == {"id": "9"}


async def test_a_failing_receive_is_logged_and_the_next_still_arrives(open_claims: Open, caplog):
    owner = await open_claims(2, [1])
    await owner.claim()
    inbox = Inbox()

    async def receive(payload: Payload) -> None:
        if payload["id"] == "bad":
            raise ValueError("no such table")
        await inbox(payload)

    await owner.listen(receive)
    sender = await open_claims(2, [0])
    assert await sender.forward(1, {"id": "bad"}, 2) is True
    assert await sender.forward(1, {"id": "good"}, 2) is True
    assert await inbox.next() == {"id": "good"}
    assert "a forwarded interaction failed" in caplog.text


# ---- DMs --------------------------------------------------------------------------------


async def test_a_dm_sent_is_heard_by_the_other_processes_not_by_its_own(open_claims: Open):
    processes = [await open_claims(3, [shard]) for shard in range(3)]
    heard: list[list[tuple[int, int]]] = [[] for _ in processes]
    for claims, record in zip(processes, heard, strict=True):
        claims.hear_dms(lambda member, message, record=record: record.append((member, message)))
    sender = processes[0]
    for message in range(250):  # told in a few notifications, of 100 at most each
        sender.dm_sent(7, 10**18 + message)
    sent = [(7, 10**18 + message) for message in range(250)]
    for _ in range(100):
        if len(heard[1]) == len(heard[2]) == 250:
            break
        await asyncio.sleep(0.01)
    assert heard == [[], sent, sent]


async def test_dms_are_not_told_by_a_process_of_every_shard_nor_heard_from_another_schema(
    open_claims: Open, connection
):
    whole = await open_claims(2, [0, 1])
    assert not whole.shared
    whole.dm_sent(7, 8)  # no one else to tell: nothing sent
    assert whole.dm_news._dms_sent == [] and not whole.dm_news._telling
    some = await open_claims(2, [1])
    heard: list[tuple[int, int]] = []
    some.hear_dms(lambda member, message: heard.append((member, message)))
    schema = await connection.fetchval("SELECT current_schema()")
    for text in ("7,8 elsewhere", "7,8,9 " + schema, "7,x " + schema, "7,8 " + schema):
        await connection.execute("SELECT pg_notify('cardtable_dm', $1)", text)
    for _ in range(100):
        if heard:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert heard == [(7, 8)]
