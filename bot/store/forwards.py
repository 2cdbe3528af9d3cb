"""Interactions forwarded to the process holding their shard (bot/store/shards.py), on the
claims' connection (bot/store/claims_connection.py).

A forward is a row of `forwarded` and a notification; the process holding the shard takes
(deletes) the row and notifies the sender. Not taken within `wait_seconds`, the row is taken
back by its sender, cancelled or not: whichever side deletes the row has the interaction, so
it is never handled twice, nor lost without an answer. A row left by a sender that died
waiting is taken by the shard's process when it next starts listening.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import orjson

from bot.store.batches import Batches
from bot.store.claims_connection import ClaimsConnection, ClaimsLost

log = logging.getLogger("bot.store.shards")  # the claims' log, whichever part speaks

Payload = dict[str, Any]  # an interaction as Discord sent it
Receive = Callable[[Payload], Awaitable[None]]

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


class Forwards:
    """This process's forwards to the others, and its taking of theirs to the shards it holds
    (`held_shards()`, asked whenever one arrives), on `session`."""

    def __init__(
        self, session: ClaimsConnection, held_shards: Callable[[], Collection[int]]
    ) -> None:
        self.session = session
        self._held_shards = held_shards
        self._receive: Receive | None = None
        self._awaiting: dict[int, asyncio.Future[None]] = {}  # forwarded row id -> taken
        # Rows whose taking was heard before their sender had their id (see `_send`)
        self._taken_unawaited: collections.deque[int] = collections.deque(maxlen=1000)
        self._sends = Batches(self._send, FORWARDS_AT_ONCE)
        self._takes = Batches(self._take_some, FORWARDS_AT_ONCE)

    async def start(self) -> None:
        """From now on, the owners' word that they took this process's forwards is heard."""
        await self.session.connection.add_listener(TAKEN_CHANNEL, self._on_taken)

    # ---- sending -----------------------------------------------------------------------

    async def forward(self, shard_id: int, payload: Payload, wait_seconds: float) -> bool:
        """ShardClaims.forward's."""
        text = orjson.dumps(payload).decode()
        sending = asyncio.ensure_future(self._sends.submit((shard_id, text)))
        try:
            row_id, taken = await asyncio.shield(sending)
            done, _ = await asyncio.wait([taken], timeout=wait_seconds)
            if done:
                return True
        except asyncio.CancelledError:
            self.session.spawn(self._take_back_once_sent(sending))  # one side must still take it
            raise
        return not await asyncio.shield(self._take_back(row_id))

    async def _send(self, forwards: list[tuple[int, str]]) -> list[tuple[int, Any]]:
        """Each forward's row id, and what says the owner took it: one statement, whose commit
        tells the owners."""
        shards, texts = [shard for shard, _ in forwards], [text for _, text in forwards]
        rows = await self.session.run(lambda connection: connection.fetch(SEND, shards, texts))
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
        status = await self.session.run(lambda connection: connection.execute(TAKE_BACK, row_id))
        return status == "DELETE 1"

    async def _take_back_once_sent(self, sending: asyncio.Future[tuple[int, Any]]) -> None:
        try:
            row_id, _ = await sending
        except Exception:
            return  # nothing was sent
        with contextlib.suppress(ClaimsLost):  # the owner takes it when it next listens
            await self._take_back(row_id)

    def _on_taken(self, _connection: Any, _pid: int, _channel: str, message: str) -> None:
        numbers = self.session.numbers(message, 1)
        if numbers is None:
            return
        taken = self._awaiting.pop(numbers[0], None)
        if taken is None:
            self._taken_unawaited.append(numbers[0])
        elif not taken.done():
            taken.set_result(None)

    # ---- taking ------------------------------------------------------------------------

    async def listen(self, receive: Receive) -> None:
        """ShardClaims.listen's."""
        self._receive = receive
        await self.session.run(lambda c: c.add_listener(FORWARD_CHANNEL, self._on_forward))
        waiting = await self.session.run(
            lambda c: c.fetch(TAKE_WAITING, sorted(self._held_shards()))
        )
        for row in waiting:
            if row["live"]:
                self.session.spawn(self._hand_over(row["payload"]))
            else:  # its sender died waiting, long enough ago that Discord takes no answer
                log.info("dropped an interaction forwarded before this process listened")

    def _on_forward(self, _connection: Any, _pid: int, _channel: str, message: str) -> None:
        numbers = self.session.numbers(message, 2)
        if numbers is not None and numbers[0] in self._held_shards():
            self.session.spawn(self._take(numbers[1]))

    async def _take(self, row_id: int) -> None:
        try:
            payload = await self._takes.submit(row_id)
        except ClaimsLost:
            return
        if payload is not None:  # else its sender took it back
            await self._hand_over(payload)

    async def _take_some(self, row_ids: list[int]) -> list[str | None]:
        """Each row's payload, None for a row its sender took back."""
        rows = await self.session.run(lambda connection: connection.fetch(TAKE_SOME, row_ids))
        payloads = {row["id"]: row["payload"] for row in rows}
        return [payloads.get(row_id) for row_id in row_ids]

    async def _hand_over(self, text: str) -> None:
        assert self._receive is not None  # set before anything is taken
        try:
            await self._receive(orjson.loads(text))
        except Exception:
            log.exception("a forwarded interaction failed")
