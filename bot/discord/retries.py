"""Work Discord failed on its own side, done again after a pause.

A 5xx from Discord (discord.py retries a 500, 502 or 504 for some 25 s, and raises a bot call's
503 at once) or a connection that fails is Discord's trouble, not the request's. What the
failed call would have shown (a player's prompt, the table message) is shown again after a
pause that grows while the trouble lasts, so an outage never leaves a player unprompted until
their time runs out. Any other refusal is the request's own, and not tried again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import aiohttp
import discord

DISCORD_TROUBLE = (discord.DiscordServerError, aiohttp.ClientError, OSError)
FIRST_PAUSE, LONGEST_PAUSE = 5.0, 300.0  # seconds; each pause three times the last


class Retries:
    """Per table (or tournament): `again(its id)` once, after a pause, however many calls failed
    meanwhile."""

    def __init__(self, again: Callable[[int], None], first_pause: float = FIRST_PAUSE) -> None:
        self.again, self.first_pause = again, first_pause
        self.pauses: dict[int, float] = {}  # table -> its next pause
        self.timers: dict[int, asyncio.TimerHandle] = {}

    def failed(self, table_id: int) -> None:
        if table_id in self.timers:
            return
        pause = self.pauses.get(table_id, self.first_pause)
        self.pauses[table_id] = min(pause * 3, LONGEST_PAUSE)
        loop = asyncio.get_running_loop()
        self.timers[table_id] = loop.call_later(pause, self._fire, table_id)

    def succeeded(self, table_id: int) -> None:
        """Discord took the table's work again: the next trouble starts with a short pause."""
        if table_id not in self.timers:
            self.pauses.pop(table_id, None)

    def stop(self) -> None:
        """At shutdown: nothing more is tried (the next start redraws what is behind)."""
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()

    def forget(self, table_id: int) -> None:
        timer = self.timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        self.pauses.pop(table_id, None)

    def _fire(self, table_id: int) -> None:
        del self.timers[table_id]
        self.again(table_id)
