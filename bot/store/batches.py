"""Requests that arrive while one batch of them is under way go together in the next.

PostgreSQL flushes every commit to its WAL before it answers, so a transaction per ledger
operation pays a round trip and a flush each; sent together, operations share both, as SQLite's
concurrent steps share a commit (bot/store/sqlite.py). A request that finds nothing under way
goes at once: batching never waits for company, it only takes what queued meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

Request = TypeVar("Request")
Outcome = TypeVar("Outcome")


class Batches(Generic[Request, Outcome]):
    """`submit` a request, get its outcome: `send` answers a batch of at most `limit`
    requests with one outcome each, in order. If `send` raises, every request of that batch
    gets the error (none of them can tell whether it was done: the caller's step rolled back
    or never committed, as for an error of a step of its own)."""

    def __init__(
        self, send: Callable[[list[Request]], Awaitable[Sequence[Outcome]]], limit: int
    ) -> None:
        self._send = send
        self._limit = limit
        self._waiting: list[tuple[Request, asyncio.Future[Outcome]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def submit(self, request: Request) -> Outcome:
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiting.append((request, future))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_waiting())
        # A caller cancelled before its batch goes is left out of it (its future is
        # cancelled); once sent, the request is done or not as its batch is.
        return await future

    async def _send_waiting(self) -> None:
        while self._waiting:
            batch = [
                (request, future)
                for request, future in self._waiting[: self._limit]
                if not future.cancelled()
            ]
            del self._waiting[: self._limit]
            if batch:
                await self._send_one(batch)

    async def _send_one(self, batch: list[tuple[Request, asyncio.Future[Outcome]]]) -> None:
        try:
            outcomes = await self._send([request for request, _ in batch])
            if len(outcomes) != len(batch):
                raise ValueError(f"{len(outcomes)} outcomes for {len(batch)} requests")
        except Exception as error:
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        except BaseException:  # the sender was cancelled (its loop is closing)
            for _, future in [*batch, *self._waiting]:
                future.cancel()
            self._waiting.clear()
            raise
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if not future.done():
                future.set_result(outcome)
