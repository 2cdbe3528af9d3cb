"""This process's hold on its gateway shards in the database, and interactions forwarded to
the process that holds theirs.

Several bot processes may share one PostgreSQL database, each running some of the bot's
shards (SHARD_COUNT, SHARD_IDS; bot/shards.py). A table is acted on by one process only: the
one holding its guild's shard. Every DM's interaction comes to shard 0's process, which
forwards a click on another's table to it.

    claims = await open_shard_claims(database, settings, shards)
    claims.hear_dms(heard)          # `heard(member, message)`: another process DMed them
    await claims.claim()            # returns once no other process holds any of them
    await claims.listen(receive)    # then `await receive(payload)`: each forwarded here, once
    if not await claims.forward(shard, payload, wait_seconds):
        ...                         # no process took it: answer the player
    claims.dm_sent(member, message) # tell the others (at once; sent in the background)
    await claims.lost.wait()        # set if another process may take the shards now: stop
    await claims.close()            # lets them go (and ends a `claim` still waiting)

On PostgreSQL a connection of its own (outside the pool, on the caller's loop) holds a session
advisory lock per shard: the server lets them go as soon as the connection closes, the
process killed included. A process holds all its shards or none: `claim` tries for all of them
every second, and a try that misses any lets go of those it got before anyone else can see
them, so a process waiting for one shard never keeps another from its own (one started for
shards 1-2 while 1 is held would otherwise take 2 from the process started for 2-3 in place
of a dead one, and both would wait forever). A process taking over from a dead one waits until
the server notices the death. The tries are serialized by a lock, so that processes starting
at once see each other's; `claim` refuses (ShardLayoutConflict) while processes with another
SHARD_COUNT hold shards: the two would each own some of the same guilds. `close` during
`claim` ends it (StoppedWaiting). If the connection is lost (the server ended it, or a ping
gets no answer), `lost` is set, and its operations raise ClaimsLost.

A forward is a row of `forwarded` and a notification; the process holding the shard takes
(deletes) the row and notifies the sender. Not taken within `wait_seconds`, the row is taken
back by its sender, cancelled or not: whichever side deletes the row has the interaction, so
it is never handled twice, nor lost without an answer. A row left by a sender that died
waiting is taken by the shard's process when it next starts listening.

A new message a process sends into a member's DMs is told to the other processes, on the same
connection: "is the DM a player answered in still the newest there", which decides whether the
player's next decision may be edited into it (bot/discord/dms.py), must hold whichever process
sent what came after it. Told in batches, one notification for many, without a round trip of
the sender's own: a process hears of another's DM a few milliseconds after it was sent.

On SQLite one process runs every shard (bot/store/sqlite.py's OneProcess sees to that): its
claims hold everything from the start, are never lost, and have no one to forward to.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import asyncpg
import orjson

from bot.shards import Shards, spans
from bot.store.batches import Batches
from bot.store.db import Database, DatabaseUnavailable
from bot.store.postgres import CONNECT_ERRORS, CONNECT_TIMEOUT_SECONDS, _reason, describe

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

T = TypeVar("T")
Payload = dict[str, Any]  # an interaction as Discord sent it
Receive = Callable[[Payload], Awaitable[None]]

RETRY_SECONDS = 1.0  # between tries for shards another process holds
WATCHDOG_SECONDS = 5.0  # between pings of the claims' connection
PING_TIMEOUT_SECONDS = 5.0  # a ping unanswered this long: the connection is lost
CLOSE_TIMEOUT_SECONDS = 5.0
PING = "SELECT 1"

# Errors that say the connection is gone (or the server is going): nothing more can be done
# with it, and the server has dropped, or will drop, its locks.
CONNECTION_ERRORS = (
    OSError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
)

# Advisory locks are per database; the schema keeps two bots in two schemas apart.
SHARD_KEYS = (
    "SELECT array_agg(hashtextextended("
    "'cardtable shard ' || current_schema() || ' ' || $1::integer || ' ' || shard, 0)"
    " ORDER BY place) FROM unnest($2::integer[]) WITH ORDINALITY AS ids (shard, place)"
)
LAYOUT_LOCK = (
    "SELECT pg_advisory_xact_lock(hashtextextended('cardtable shard layout ' || current_schema(),"
    " 0))"
)
SET_LAYOUT = (
    "INSERT INTO shard_layout (shard_count) VALUES ($1)"
    " ON CONFLICT (one_row) DO UPDATE SET shard_count = EXCLUDED.shard_count"
)
TRY_LOCKS = (
    "SELECT shard FROM unnest($1::integer[], $2::bigint[]) AS wanted (shard, key)"
    " WHERE pg_try_advisory_lock(key)"
)
UNLOCK = "SELECT pg_advisory_unlock(key) FROM unnest($1::bigint[]) AS key"
# pg_locks shows an advisory lock on a bigint key as its high 32 bits (classid) and its low 32
# bits (objid), unsigned, with objsubid 1 (a lock on two integers has 2).
HELD_ELSEWHERE = """
SELECT key FROM unnest($1::bigint[]) AS key WHERE EXISTS (
    SELECT FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND pid <> pg_backend_pid()
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND classid = ((key >> 32) & 4294967295)::oid AND objid = (key & 4294967295)::oid)
"""

FORWARD_CHANNEL = "cardtable_forward"  # "<schema> <shard> <row id>"
TAKEN_CHANNEL = "cardtable_taken"  # "<schema> <row id>"
# Forwards (and takes) that queue while one statement is under way go together in the next:
# one round trip for many, on the one connection (bot/store/batches.py).
FORWARDS_AT_ONCE = 100
# The rows get their ids in the order given (the ordered SELECT draws the ids one row after
# another), so the ids, sorted, answer the forwards in order.
SEND = (
    "WITH sent AS (INSERT INTO forwarded (shard, payload)"
    " SELECT shard, payload::jsonb FROM unnest($1::integer[], $2::text[]) WITH ORDINALITY"
    " AS given (shard, payload, place) ORDER BY place RETURNING id, shard)"
    f" SELECT id, pg_notify('{FORWARD_CHANNEL}', current_schema() || ' ' || shard || ' ' || id)"
    " FROM sent ORDER BY id"
)
# `live`: young enough for Discord to take an answer to it still (3 s from the click).
TAKE = (
    "WITH taken AS (DELETE FROM forwarded WHERE {rows} RETURNING id, payload, created_at)"
    " SELECT id, payload, created_at > now() - interval '3 seconds' AS live,"
    f" pg_notify('{TAKEN_CHANNEL}', current_schema() || ' ' || id)"
    " FROM taken ORDER BY id"
)
TAKE_SOME = TAKE.format(rows="id = ANY($1::bigint[])")
TAKE_WAITING = TAKE.format(rows="shard = ANY($1::integer[])")
TAKE_BACK = "DELETE FROM forwarded WHERE id = $1"

# "<member>,<message>[,<member>,<message>...] <schema>": DMs a process sent
DMS_CHANNEL = "cardtable_dm"
DMS_AT_ONCE = 100  # (member, message) pairs in one notification: some 4 kB of its 8
TELL_DMS = f"SELECT pg_notify('{DMS_CHANNEL}', told) FROM unnest($1::text[]) AS told"


class ShardLayoutConflict(Exception):
    """Processes with another SHARD_COUNT hold shards in the database: one sentence."""


class StoppedWaiting(Exception):
    """`close` came while `claim` waited for shards another process holds: the process stops
    before it ran them (said in the log)."""


class ClaimsLost(Exception):
    """The connection that held this process's shards is gone."""

    def __init__(self) -> None:
        super().__init__(
            "The database connection holding this process's shards was lost, so another "
            "process may take them: restart this process."
        )


class ShardClaims(ABC):
    """This process's hold on shards `shard_ids` of `count`, and the way to the others."""

    def __init__(self, count: int, shard_ids: tuple[int, ...]) -> None:
        self.count = count
        self.shard_ids = shard_ids
        self.lost = asyncio.Event()

    @abstractmethod
    async def claim(self, timeout: float | None = None) -> None:
        """Return once this process holds all its shards; TimeoutError after `timeout`
        seconds (for tests), ShardLayoutConflict, ClaimsLost, StoppedWaiting."""

    @abstractmethod
    async def listen(self, receive: Receive) -> None:
        """From now on (call it after `claim`), each interaction forwarded to a shard this
        process holds, those already waiting first, is taken and given to `receive` once, in
        a task of its own."""

    @abstractmethod
    async def forward(self, shard_id: int, payload: Payload, wait_seconds: float) -> bool:
        """Hand `payload` to the process holding `shard_id`: True once it took it, False if
        none did within `wait_seconds` (nothing else will handle it). ClaimsLost."""

    @abstractmethod
    def dm_sent(self, member_id: int, message_id: int) -> None:
        """Tell the other processes that this one sent message `message_id` into member
        `member_id`'s DMs (or that one at least as new is there). Returns at once."""

    @abstractmethod
    def hear_dms(self, heard: Callable[[int, int], None]) -> None:
        """From now on, `heard(member_id, message_id)` for each `dm_sent` of another process."""

    @abstractmethod
    async def close(self) -> None:
        """Let the shards go."""


async def open_shard_claims(database: Database, settings: Settings, shards: Shards) -> ShardClaims:
    """The claims of this process's `shards` in `database` (opened from `settings`), not yet
    claimed; DatabaseUnavailable (one sentence) if the server cannot be reached."""
    # Every shard in one process, however many Discord advises: one claim on the whole bot.
    count = shards.count or 1
    shard_ids = tuple(range(count)) if shards.ids is None else tuple(shards.ids)
    if database.backend == "sqlite":
        return OneProcessClaims(count, shard_ids)
    assert settings.database_url is not None  # it names the PostgreSQL database
    return await PostgresShardClaims.open(
        settings.database_url.get_secret_value(), count, shard_ids
    )


class OneProcessClaims(ShardClaims):
    """SQLite's: its one process holds every shard."""

    async def claim(self, timeout: float | None = None) -> None:
        return None

    async def listen(self, receive: Receive) -> None:
        return None  # no other process forwards anything

    async def forward(self, shard_id: int, payload: Payload, wait_seconds: float) -> bool:
        raise RuntimeError("the one process on a SQLite database holds every shard itself")

    def dm_sent(self, member_id: int, message_id: int) -> None:
        return None  # no other process to tell

    def hear_dms(self, heard: Callable[[int, int], None]) -> None:
        return None

    async def close(self) -> None:
        return None


class PostgresShardClaims(ShardClaims):
    """Session advisory locks and a forwarding table, on one connection of their own."""

    def __init__(self, connection: Any, count: int, shard_ids: tuple[int, ...]) -> None:
        super().__init__(count, shard_ids)
        self.connection = connection
        self.schema = ""  # the bot's tables' schema: notifications name it
        self._keys: dict[int, int] = {}  # shard -> its lock's key
        self._held: set[int] = set()
        self._busy = asyncio.Lock()  # a connection runs one statement at a time
        self._closing = False
        self._receive: Receive | None = None
        self._awaiting: dict[int, asyncio.Future[None]] = {}  # forwarded row id -> taken
        # Rows whose taking was heard before their sender had their id (see `_send`)
        self._taken_unawaited: collections.deque[int] = collections.deque(maxlen=1000)
        self._tasks: set[asyncio.Task[None]] = set()
        self._watchdog: asyncio.Task[None] | None = None
        self._asked_at: float | None = None  # when the statement under way was sent
        self._sends = Batches(self._send, FORWARDS_AT_ONCE)
        self._takes = Batches(self._take_some, FORWARDS_AT_ONCE)
        self._closed = asyncio.Event()  # ends the wait between tries of `claim`
        # Other processes may run some of the bot's shards (none while this one runs them
        # all): they hear of this one's DMs, and it of theirs.
        self.shared = len(set(shard_ids)) < count
        self._pid = 0  # the connection's server process: its own notifications name it
        self._dms_sent: list[tuple[int, int]] = []  # (member, message), not yet told
        self._telling = False
        self._heard_dm: Callable[[int, int], None] | None = None

    @classmethod
    async def open(cls, url: str, count: int, shard_ids: Iterable[int]) -> PostgresShardClaims:
        """Connected to the database at `url`, nothing claimed yet."""
        try:
            connection = await asyncpg.connect(
                url,
                timeout=CONNECT_TIMEOUT_SECONDS,
                server_settings={"application_name": "cardtable-shards"},
            )
        except CONNECT_ERRORS as error:
            raise DatabaseUnavailable(
                f"Could not connect to the PostgreSQL server at DATABASE_URL ({describe(url)}) "
                f"to claim this process's shards: {_reason(error)}; check DATABASE_URL, and "
                "that the server is running."
            ) from None
        claims = cls(connection, count, tuple(sorted(shard_ids)))
        try:
            await claims._start()
        except BaseException:
            connection.terminate()
            raise
        return claims

    async def _start(self) -> None:
        self.schema = await self.connection.fetchval("SELECT current_schema()")
        keys = await self.connection.fetchval(SHARD_KEYS, self.count, list(self.shard_ids))
        self._keys = dict(zip(self.shard_ids, keys, strict=True))
        await self.connection.add_listener(TAKEN_CHANNEL, self._on_taken)
        self._pid = self.connection.get_server_pid()
        if self.shared:
            await self.connection.add_listener(DMS_CHANNEL, self._on_dms)
        self.connection.add_termination_listener(self._on_terminated)
        self._watchdog = asyncio.create_task(self._watch())

    @property
    def held(self) -> frozenset[int]:
        """The shards this process holds now."""
        return frozenset() if self.lost.is_set() or self._closing else frozenset(self._held)

    # ---- the connection ----------------------------------------------------------------

    async def _run(self, operation: Callable[[Any], Awaitable[T]]) -> T:
        """`operation(connection)`, alone on the connection; ClaimsLost if it is gone."""
        if self.lost.is_set() or self._closing:
            raise ClaimsLost()
        try:
            async with self._busy:
                self._asked_at = time.monotonic()
                try:
                    return await operation(self.connection)
                finally:
                    self._asked_at = None
        except CONNECTION_ERRORS as error:
            self._lose(_reason(error))
            raise ClaimsLost() from None

    def _lose(self, why: str) -> None:
        """The shards may be another process's from now on."""
        if self._closing or self.lost.is_set():
            return
        log.error("the database connection holding %s was lost: %s", self._named(), why)
        self.lost.set()
        if not self.connection.is_closed():
            self.connection.terminate()  # and the server drops its locks, if it still can

    def _on_terminated(self, _connection: Any) -> None:
        self._lose("the server ended it")

    async def _watch(self) -> None:
        """A connection cut off without a word (a network gone) is found lost: a statement on
        it, or a ping while it is idle, unanswered for PING_TIMEOUT_SECONDS. Statements waiting
        their turn behind others don't count: a connection busy forwarding clicks under load is
        answering, and taking it for lost would stop a process that works."""
        while not self.lost.is_set():
            await asyncio.sleep(WATCHDOG_SECONDS)
            asked_at = self._asked_at
            if asked_at is not None and time.monotonic() - asked_at > PING_TIMEOUT_SECONDS:
                self._lose(f"no answer within {PING_TIMEOUT_SECONDS:g} seconds")
                return
            if not self._busy.locked():
                self._spawn(self._ping())

    async def _ping(self) -> None:
        with contextlib.suppress(ClaimsLost):  # said by `_run`
            await self._run(lambda connection: connection.fetchval(PING))

    async def close(self) -> None:
        """Lets the shards go, and stops taking forwarded interactions. Once."""
        if self._closing:
            return
        self._closing = True
        self._closed.set()
        tasks = [*self._tasks, *([self._watchdog] if self._watchdog else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):  # asyncpg cuts the connection if it can't close it
            await self.connection.close(timeout=CLOSE_TIMEOUT_SECONDS)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _named(self, shards: Iterable[int] | None = None) -> str:
        """ "shard 2", "shards 0-3" (this process's by default)."""
        ids = tuple(sorted(self.shard_ids if shards is None else shards))
        return f"shard {ids[0]}" if len(ids) == 1 else f"shards {spans(ids)}"

    # ---- claiming ----------------------------------------------------------------------

    async def claim(self, timeout: float | None = None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        reported: frozenset[int] = frozenset()
        while True:
            try:
                # Shielded: locks a cancelled try got are still counted, and let go by close().
                missing = await asyncio.shield(self._run(self._try_claim))
            except ClaimsLost:
                if self._closing:
                    self._stop_waiting()
                raise
            if self._closing:
                self._stop_waiting()
            if not missing:
                log.info("holding %s of %d", self._named(), self.count)
                return
            if missing != reported:
                log.warning("waiting for %s, which another process holds", self._named(missing))
                reported = missing
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"{self._named(missing)} still held by another process")
            pause = RETRY_SECONDS if deadline is None else deadline - time.monotonic()
            with contextlib.suppress(TimeoutError):  # the pause, unless close() ends it
                await asyncio.wait_for(self._closed.wait(), max(0.0, min(RETRY_SECONDS, pause)))

    def _stop_waiting(self) -> NoReturn:
        log.warning("stopped while waiting for %s", self._named())
        raise StoppedWaiting()

    async def _try_claim(self, connection: Any) -> frozenset[int]:
        """One try for every shard, in one transaction under the layout's lock: those another
        process holds (none: this process holds them all now). All or none: the locks of a
        try that missed any are let go in its transaction, so no other process's try (which
        waits for the layout's lock) ever finds them held. Session locks taken in a
        transaction stay held after it."""
        if self._held:
            return frozenset()  # all of them, since an earlier try
        async with connection.transaction():
            await connection.execute(LAYOUT_LOCK)
            recorded = await connection.fetchval("SELECT shard_count FROM shard_layout")
            if recorded is not None and recorded != self.count:
                await self._refuse_if_held(connection, recorded)
            await connection.execute(SET_LAYOUT, self.count)
            shards = list(self.shard_ids)
            rows = await connection.fetch(TRY_LOCKS, shards, [self._keys[s] for s in shards])
            got = {row["shard"] for row in rows}
            if len(got) == len(shards):
                self._held = got
            elif got:
                await connection.execute(UNLOCK, [self._keys[s] for s in sorted(got)])
        return frozenset(self.shard_ids) - got

    async def _refuse_if_held(self, connection: Any, count: int) -> None:
        keys = await connection.fetchval(SHARD_KEYS, count, list(range(count)))
        if await held_elsewhere(connection, keys):
            raise ShardLayoutConflict(
                f"Other processes on this database hold shards of SHARD_COUNT {count}, but this "
                f"one has SHARD_COUNT {self.count}: give every process the same SHARD_COUNT, or "
                "stop the others first."
            )

    # ---- forwarding --------------------------------------------------------------------

    async def forward(self, shard_id: int, payload: Payload, wait_seconds: float) -> bool:
        text = orjson.dumps(payload).decode()
        sending = asyncio.ensure_future(self._sends.submit((shard_id, text)))
        try:
            row_id, taken = await asyncio.shield(sending)
            done, _ = await asyncio.wait([taken], timeout=wait_seconds)
            if done:
                return True
        except asyncio.CancelledError:
            self._spawn(self._take_back_once_sent(sending))  # one side must still take it
            raise
        return not await asyncio.shield(self._take_back(row_id))

    async def _send(self, forwards: list[tuple[int, str]]) -> list[tuple[int, Any]]:
        """Each forward's row id, and what says the owner took it: one statement, whose commit
        tells the owners."""
        shards, texts = [shard for shard, _ in forwards], [text for _, text in forwards]
        rows = await self._run(lambda connection: connection.fetch(SEND, shards, texts))
        return [(row["id"], self._awaiting_taken(row["id"])) for row in rows]

    def _awaiting_taken(self, row_id: int) -> asyncio.Future[None]:
        """The owner's answer may be heard before the statement's result reaches this task,
        so a taking heard for no one is kept for it."""
        taken = self._awaiting[row_id] = asyncio.get_running_loop().create_future()
        if row_id in self._taken_unawaited:
            self._taken_unawaited.remove(row_id)
            self._awaiting.pop(row_id)
            taken.set_result(None)
        return taken

    async def _take_back(self, row_id: int) -> bool:
        """Whether this process took its row back (the owner had not taken it)."""
        self._awaiting.pop(row_id, None)
        status = await self._run(lambda connection: connection.execute(TAKE_BACK, row_id))
        return status == "DELETE 1"

    async def _take_back_once_sent(self, sending: asyncio.Future[tuple[int, Any]]) -> None:
        try:
            row_id, _ = await sending
        except Exception:
            return  # nothing was sent
        with contextlib.suppress(ClaimsLost):  # the owner takes it when it next listens
            await self._take_back(row_id)

    def _on_taken(self, _connection: Any, _pid: int, _channel: str, message: str) -> None:
        numbers = self._numbers(message, 1)
        if numbers is None:
            return
        taken = self._awaiting.pop(numbers[0], None)
        if taken is None:
            self._taken_unawaited.append(numbers[0])
        elif not taken.done():
            taken.set_result(None)

    def _numbers(self, message: str, count: int) -> list[int] | None:
        """The `count` numbers after the schema in a notification, None if it is another
        schema's (the channels are the whole database's)."""
        schema, *numbers = message.rsplit(" ", count)
        if schema != self.schema or len(numbers) != count or not all(map(str.isdigit, numbers)):
            return None
        return [int(number) for number in numbers]

    async def listen(self, receive: Receive) -> None:
        self._receive = receive
        await self._run(lambda c: c.add_listener(FORWARD_CHANNEL, self._on_forward))
        waiting = await self._run(lambda c: c.fetch(TAKE_WAITING, sorted(self._held)))
        for row in waiting:
            if row["live"]:
                self._spawn(self._hand_over(row["payload"]))
            else:  # its sender died waiting, long enough ago that Discord takes no answer
                log.info("dropped an interaction forwarded before this process listened")

    def _on_forward(self, _connection: Any, _pid: int, _channel: str, message: str) -> None:
        numbers = self._numbers(message, 2)
        if numbers is not None and numbers[0] in self._held:
            self._spawn(self._take(numbers[1]))

    async def _take(self, row_id: int) -> None:
        try:
            payload = await self._takes.submit(row_id)
        except ClaimsLost:
            return
        if payload is not None:  # else its sender took it back
            await self._hand_over(payload)

    async def _take_some(self, row_ids: list[int]) -> list[str | None]:
        """Each row's payload, None for a row its sender took back."""
        rows = await self._run(lambda connection: connection.fetch(TAKE_SOME, row_ids))
        payloads = {row["id"]: row["payload"] for row in rows}
        return [payloads.get(row_id) for row_id in row_ids]

    async def _hand_over(self, text: str) -> None:
        assert self._receive is not None  # set before anything is taken
        try:
            await self._receive(orjson.loads(text))
        except Exception:
            log.exception("a forwarded interaction failed")

    # ---- DMs ---------------------------------------------------------------------------

    def dm_sent(self, member_id: int, message_id: int) -> None:
        if not self.shared or self._closing or self.lost.is_set():
            return
        self._dms_sent.append((member_id, message_id))
        if not self._telling:
            self._telling = True
            self._spawn(self._tell_dms())

    async def _tell_dms(self) -> None:
        """The DMs sent since the last telling, in one statement; those sent while it is under
        way go in the next."""
        try:
            while self._dms_sent:
                sent, self._dms_sent = self._dms_sent, []
                at_once = range(0, len(sent), DMS_AT_ONCE)
                await self._tell([self._told(sent[at : at + DMS_AT_ONCE]) for at in at_once])
        except ClaimsLost:
            self._dms_sent.clear()  # the process stops
        finally:
            self._telling = False

    def _told(self, sent: list[tuple[int, int]]) -> str:
        """One notification's text."""
        pairs = ",".join(f"{member},{message}" for member, message in sent)
        return f"{pairs} {self.schema}"

    async def _tell(self, told: list[str]) -> None:
        await self._run(lambda connection: connection.execute(TELL_DMS, told))

    def hear_dms(self, heard: Callable[[int, int], None]) -> None:
        self._heard_dm = heard

    def _on_dms(self, _connection: Any, pid: int, _channel: str, message: str) -> None:
        heard = self._heard_dm
        if pid == self._pid or heard is None:
            return  # its own DMs, or no one to tell yet
        numbers, _, schema = message.partition(" ")
        values = numbers.split(",")
        if schema != self.schema or len(values) % 2 or not all(map(str.isdigit, values)):
            return
        for member, sent in zip(values[::2], values[1::2], strict=True):
            heard(int(member), int(sent))


async def held_elsewhere(connection: Any, keys: list[int]) -> set[int]:
    """Those of the advisory lock `keys` that other sessions hold in this database now."""
    return {row["key"] for row in await connection.fetch(HELD_ELSEWHERE, keys)}
