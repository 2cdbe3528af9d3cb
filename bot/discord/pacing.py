"""The bot's own pace on Discord's REST API.

Discord lets a bot make about 50 requests per second overall; past that it answers 429 and the
bot must wait. Rather than find the limit by hitting it, every call made with the bot's token
waits here for a slot. Interaction callbacks and followups (routes under an interaction's token)
are outside that limit and never wait, so answering a player is never slowed by a busy bot.

Edits of existing messages (a table's message showing the latest move) mostly yield to other
calls: a player waiting for a prompt by DM, or a lobby being posted, goes first, while an edit
that waits longer simply shows more moves at once (the presenter coalesces them). So that
tables are still redrawn under a backlog of DMs, every EDIT_SHARE-th slot goes to an edit when
both kinds wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Callable

WINDOW = 1.0
UNPACED = ("/interactions/", "/webhooks/")
URGENT, EDIT = 0, 1  # the two queues
EDIT_SHARE = 4


class RequestPacer:
    """At most `per_second` calls in any window; waiting calls go in the order they came, URGENT
    ones before edits but for every EDIT_SHARE-th slot.

    Discord counts a call when it arrives, which may be later than the moment it left here, so
    a call holds its slot from leaving until a window after its answer came back: arrivals can
    then never crowd into one window, however late they land."""

    def __init__(
        self, per_second: int, window: float = WINDOW, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second, self.window = per_second, window
        self.clock = clock
        self.in_flight = 0
        self.answered: deque[float] = deque()  # when recent calls came back
        self.queues: tuple[deque[asyncio.Future], ...] = (deque(), deque())  # URGENT, EDIT
        self.granted = 0  # slots given to waiters, to give edits their share
        self._wake: asyncio.TimerHandle | None = None
        self.waits = 0  # calls that had to wait for a slot

    @property
    def waiting(self) -> int:
        return sum(len(queue) for queue in self.queues)

    def slot_for(
        self, method: str, path: str
    ) -> contextlib.AbstractAsyncContextManager[None] | None:
        """The slot a call of `method` to `path` waits for (see `internals.pace_requests`);
        None: it is outside the bot's limit and goes at once."""
        if path.startswith(UNPACED):
            return None
        return self.slot(EDIT if method == "PATCH" else URGENT)

    @contextlib.asynccontextmanager
    async def slot(self, priority: int = URGENT) -> AsyncIterator[None]:
        if self.waiting or self._full():
            await self._wait(priority)
        else:
            self.in_flight += 1
        try:
            yield
        finally:
            self._free()

    async def _wait(self, priority: int) -> None:
        self.waits += 1
        granted = asyncio.get_running_loop().create_future()
        self.queues[priority].append(granted)
        self._grant()
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():  # granted as it was cancelled
                self.in_flight -= 1
                self._grant()
            raise

    def _free(self) -> None:
        self.in_flight -= 1
        self.answered.append(self.clock())
        self._grant()

    def _grant(self) -> None:
        """Give free slots to the next waiters; if some still wait, wake when one frees."""
        while self.waiting and not self._full():
            granted = self._next()
            if not granted.done():  # not cancelled while waiting
                self.in_flight += 1
                self.granted += 1
                granted.set_result(None)
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        if self.waiting and self.answered:
            expires = self.answered[0] + self.window - self.clock()
            self._wake = asyncio.get_running_loop().call_later(max(0.0, expires), self._grant)

    def _next(self) -> asyncio.Future:
        urgent, edits = self.queues
        edits_turn = edits and (not urgent or self.granted % EDIT_SHARE == EDIT_SHARE - 1)
        return (edits if edits_turn else urgent).popleft()

    def _full(self) -> bool:
        now = self.clock()
        while self.answered and self.answered[0] <= now - self.window:
            self.answered.popleft()
        return self.in_flight + len(self.answered) >= self.per_second
