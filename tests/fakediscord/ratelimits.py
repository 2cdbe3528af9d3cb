"""Discord's rate limits as a real server applies them, for the fake (opt in:
`fake.rate_limits = RateLimits()`).

- Per route: message writes in a channel (sends, edits and deletes each their own bucket) take
  5 per 5 seconds. A bucket's window opens with its first call and resets whole when it ends,
  and every answer carries the `X-RateLimit-*` headers from which discord.py paces itself.
- Global: at most 50 calls with the bot's token in any second. Discord sends no headers for it.
- Interaction callbacks and followups (interaction tokens) are under neither.
Past a limit the call is answered 429 with `retry_after` (and a `Via` header: discord.py takes
a 429 without one for a Cloudflare ban), which discord.py waits out before trying again.
"""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass


@dataclass
class Bucket:
    remaining: int
    resets_at: float


class RateLimits:
    CHANNEL = (5, 5.0)
    GLOBAL = (50, 1.0)

    def __init__(self) -> None:
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.recent: collections.deque[float] = collections.deque()  # global: last second's calls
        self.limited: list[tuple[str, str]] = []  # (method, path) of each call answered 429

    def check(self, method: str, parts: list[str]) -> tuple[float | None, dict[str, str]]:
        """(seconds to wait before this call may go through or None: it goes through now,
        the rate-limit headers of its answer)."""
        now = time.monotonic()
        limit, window = self.GLOBAL
        while self.recent and self.recent[0] <= now - window:
            self.recent.popleft()
        global_wait = self.recent[0] + window - now if len(self.recent) >= limit else None
        over_all = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        key = self._route_bucket(method, parts)
        if key is None:
            if global_wait is None:
                self.recent.append(now)
            return global_wait, over_all if global_wait is not None else {}
        limit, window = self.CHANNEL
        bucket = self.buckets.get(key)
        if bucket is None or bucket.resets_at <= now:
            bucket = self.buckets[key] = Bucket(limit, now + window)
        route_wait = bucket.resets_at - now if bucket.remaining == 0 else None
        wait = max((w for w in (global_wait, route_wait) if w is not None), default=None)
        if wait is None:
            bucket.remaining -= 1
            self.recent.append(now)
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(bucket.remaining),
            "X-RateLimit-Reset-After": f"{bucket.resets_at - now:.3f}",
            "X-RateLimit-Reset": f"{time.time() + bucket.resets_at - now:.3f}",
            "X-RateLimit-Bucket": f"{key[0]}-messages",
        }
        if route_wait is None and global_wait is not None:
            headers |= over_all
        return wait, headers

    @staticmethod
    def _route_bucket(method: str, parts: list[str]) -> tuple[str, str] | None:
        """Message writes in a channel: one bucket per method and channel."""
        writes = method in ("POST", "PATCH", "DELETE") and "messages" in parts
        if writes and parts[:1] == ["channels"]:
            return method, parts[1]
        return None
