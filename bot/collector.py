"""The cyclic garbage collector's pace, set by how busy the bot is.

Python collects its young generation every 700 new objects (net of those freed). Under load,
what is in flight outlived that and climbed to the older generations for them to walk again: at
500 busy tables collections took 16% of the bot's CPU and made three full ones (up to 0.23 s
each) in 30 s; every 3,000, 12% and no full collection.

A young collection walks every object made since the last one that is still alive. While the
bot has CPU to spare, answers leave quickly and most of what they made is gone by then, so
collections stay frequent to keep each pause short. Once the bot is saturated, hundreds of
clicks wait in line, and what each one holds (its parsed message, tasks, requests) lives as
long as it waits: frequent collections walk it again and again. At 500 busy tables, young
collections every 30,000 new objects instead of 3,000 took 15% less CPU per interaction
(2.59 -> 2.13 ms); their longer pauses (up to ~0.13 s) weigh less there than the queue itself.
Going further does not pay: every 100,000 or 200,000 cut the collector's own share from 7-14%
to 1-2% of the CPU, yet the CPU per interaction stayed within the runs' spread (1.50-1.95 ms
in ten windows against 1.64-1.90 ms in six) while the longest pauses grew
by a half to double (0.16-0.32 s against 0.11-0.16 s).
(At 30,000, gc.DEBUG_STATS showed busy young collections walking a median 74,000 objects, up
to 150,000 in 0.1 s, most of them surviving: what waits in line is walked whatever the pace.)
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

YOUNG_COLLECTION_AFTER = 3000  # new objects (net of those freed), while the bot is not busy
BUSY_YOUNG_COLLECTION_AFTER = 30_000  # ... and while it uses a whole core
FULL_COLLECTION_EVERY = 100  # collections of the middle generation
BUSY_FROM = 0.9  # of a core over the last second
CALM_BELOW = 0.7  # apart from BUSY_FROM, so that the pace does not flap at the edge


def set_young_threshold(objects: int) -> None:
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(objects, middle, FULL_COLLECTION_EVERY)


class CollectorPace:
    """Once a second, sets the young collections' threshold from the CPU share just used."""

    def __init__(
        self,
        *,
        every: float = 1.0,
        cpu: Callable[[], float] = time.process_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.every, self.cpu, self.clock = every, cpu, clock
        self.busy = False
        self._timer: asyncio.TimerHandle | None = None
        self._since = (0.0, 0.0)

    def start(self) -> None:
        set_young_threshold(YOUNG_COLLECTION_AFTER)
        self._since = self.clock(), self.cpu()
        self._timer = asyncio.get_running_loop().call_later(self.every, self.tick)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def tick(self) -> None:
        now, used = self.clock(), self.cpu()
        share = (used - self._since[1]) / max(now - self._since[0], 1e-9)
        self._since = now, used
        if share >= BUSY_FROM and not self.busy:
            self.busy = True
            set_young_threshold(BUSY_YOUNG_COLLECTION_AFTER)
        elif share < CALM_BELOW and self.busy:
            self.busy = False
            set_young_threshold(YOUNG_COLLECTION_AFTER)
        if self._timer is not None:
            self._timer = asyncio.get_running_loop().call_later(self.every, self.tick)
