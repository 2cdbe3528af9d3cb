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

On PostgreSQL a connection of its own (bot/store/claims_connection.py) holds a session
advisory lock per shard: the server lets them go as soon as the connection closes, the process
killed included. A process holds all its shards or none: `claim` tries for all of them every
second, and a try that misses any lets go of those it got before anyone else can see them, so
a process waiting for one shard never keeps another from its own (one started for shards 1-2
while 1 is held would otherwise take 2 from the process started for 2-3 in place of a dead
one, and both would wait forever). A process taking over from a dead one waits until the
server notices the death. The tries are serialized by a lock, so that processes starting at
once see each other's; `claim` refuses (ShardLayoutConflict) while processes with another
SHARD_COUNT hold shards: the two would each own some of the same guilds. `close` during
`claim` ends it (StoppedWaiting). If the connection is lost, `lost` is set, and its operations
raise ClaimsLost.

The same connection carries the interactions forwarded to the process holding their shard
(bot/store/forwards.py) and the news of the DMs each process sends (bot/store/dm_news.py).

On SQLite one process runs every shard (bot/store/sqlite.py's OneProcess sees to that): its
claims hold everything from the start, are never lost, and have no one to forward to.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from bot.shards import Shards, spans
from bot.store.claims_connection import ClaimsConnection, ClaimsLost, connect
from bot.store.db import Database
from bot.store.dm_news import DMNews
from bot.store.forwards import Forwards, Payload, Receive

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0  # between tries for shards another process holds

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


class ShardLayoutConflict(Exception):
    """Processes with another SHARD_COUNT hold shards in the database: one sentence."""


class StoppedWaiting(Exception):
    """`close` came while `claim` waited for shards another process holds: the process stops
    before it ran them (said in the log)."""


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
    """Session advisory locks, on a connection of their own (`session`) that also carries the
    forwards to and from the other processes (`forwards`) and the news of DMs (`dm_news`)."""

    def __init__(self, connection: Any, count: int, shard_ids: tuple[int, ...]) -> None:
        super().__init__(count, shard_ids)
        self.session = ClaimsConnection(connection, self.lost, holding=self._named)
        self._keys: dict[int, int] = {}  # shard -> its lock's key
        self._held: set[int] = set()
        # Other processes may run some of the bot's shards (none while this one runs them
        # all): they hear of this one's DMs, and it of theirs.
        self.shared = len(set(shard_ids)) < count
        self.forwards = Forwards(self.session, held_shards=lambda: self._held)
        self.dm_news = DMNews(self.session, self.shared)

    @classmethod
    async def open(cls, url: str, count: int, shard_ids: Iterable[int]) -> PostgresShardClaims:
        """Connected to the database at `url`, nothing claimed yet."""
        connection = await connect(url)
        claims = cls(connection, count, tuple(sorted(shard_ids)))
        try:
            await claims._start()
        except BaseException:
            connection.terminate()
            raise
        return claims

    async def _start(self) -> None:
        await self.session.start()
        keys = await self.connection.fetchval(SHARD_KEYS, self.count, list(self.shard_ids))
        self._keys = dict(zip(self.shard_ids, keys, strict=True))
        await self.forwards.start()
        await self.dm_news.start()
        self.session.watch()

    @property
    def connection(self) -> Any:
        """The (asyncpg) connection whose session holds the locks."""
        return self.session.connection

    @property
    def schema(self) -> str:
        """The bot's tables' schema."""
        return self.session.schema

    @property
    def held(self) -> frozenset[int]:
        """The shards this process holds now."""
        return frozenset(self._held) if self.session.usable else frozenset()

    async def close(self) -> None:
        """Lets the shards go, and stops taking forwarded interactions. Once."""
        await self.session.close()

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
                missing = await asyncio.shield(self.session.run(self._try_claim))
            except ClaimsLost:
                if self.session.closing.is_set():
                    self._stop_waiting()
                raise
            if self.session.closing.is_set():
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
                await asyncio.wait_for(
                    self.session.closing.wait(), max(0.0, min(RETRY_SECONDS, pause))
                )

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

    # ---- the parts ---------------------------------------------------------------------

    async def forward(self, shard_id: int, payload: Payload, wait_seconds: float) -> bool:
        return await self.forwards.forward(shard_id, payload, wait_seconds)

    async def listen(self, receive: Receive) -> None:
        await self.forwards.listen(receive)

    def dm_sent(self, member_id: int, message_id: int) -> None:
        self.dm_news.dm_sent(member_id, message_id)

    def hear_dms(self, heard: Callable[[int, int], None]) -> None:
        self.dm_news.hear_dms(heard)


async def held_elsewhere(connection: Any, keys: list[int]) -> set[int]:
    """Those of the advisory lock `keys` that other sessions hold in this database now."""
    return {row["key"] for row in await connection.fetch(HELD_ELSEWHERE, keys)}
