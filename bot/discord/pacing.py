"""The bot's own pace on Discord's REST API.

Discord lets a bot make about 50 requests per second overall; past that it answers 429 and the
bot must wait. Rather than find the limit by hitting it, every call made with the bot's token
waits here for a slot, in the order the calls were made. Interaction callbacks and followups
(routes under an interaction's token) are outside that limit and never wait, so answering a
player is never slowed by a busy bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Callable

from discord.http import HTTPClient, Route

WINDOW = 1.0
UNPACED = ("/interactions/", "/webhooks/")


class RequestPacer:
    """At most `per_second` calls in any window, first come first served.

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
        self.turn = asyncio.Lock()  # fair: waiters go through in arrival order
        self.freed = asyncio.Event()
        self.waits = 0  # calls that had to wait for a slot (the load bench reports them)

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with self.turn:
            if self._full():
                self.waits += 1
            while self._full():
                self.freed.clear()
                expires = self.answered[0] + self.window - self.clock() if self.answered else None
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.freed.wait(), expires)
            self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1
            self.answered.append(self.clock())
            self.freed.set()

    def _full(self) -> bool:
        now = self.clock()
        while self.answered and self.answered[0] <= now - self.window:
            self.answered.popleft()
        return self.in_flight + len(self.answered) >= self.per_second


def pace(http: HTTPClient, pacer: RequestPacer) -> None:
    """Make every bot-token call of `http` wait for `pacer`."""
    request = http.request

    async def paced(route: Route, **kwargs):
        if route.path.startswith(UNPACED):
            return await request(route, **kwargs)
        async with pacer.slot():
            return await request(route, **kwargs)

    http.request = paced
