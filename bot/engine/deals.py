"""The published deal algorithm: how a table's seed and its Start click make every shuffle.

Anyone can re-deal a table with it once the seed is revealed (README, "Verifiable deals";
docs/verify_deal.py is the same algorithm in 30 lines). Standard library only, no `random`:

- Draw number `d` (0 for a match's first shuffle or draw, then 1, 2, …) has a byte stream:
  HMAC-SHA256(key = the 32-byte table seed, message = ASCII "d:i:c"), for blocks c = 0, 1, 2, …
  one after another, where `i` is the player input (the Start click's interaction id), all in
  decimal.
- An integer below n: the fewest whole bytes holding n - 1's bits, read big-endian, masked to
  those bits; a value n or above is thrown away and the next bytes read (rejection sampling:
  every value is equally likely, no modulo bias).
- A shuffle: Fisher-Yates from the end: for i = len - 1 down to 1, swap item i with item j,
  j the next integer below i + 1.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
SEED_BYTES = 32


@dataclass(frozen=True)
class DealSeed:
    """What a match's deals come from: the table seed and the Start click's id."""

    key: bytes
    player_input: int


def commitment(seed: bytes) -> str:
    """What a table shows before its first deal: the SHA-256 of its seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


class Stream:
    """The bytes of one draw, read in order."""

    def __init__(self, key: bytes, draw: int, player_input: int) -> None:
        self.key, self.prefix = key, f"{draw}:{player_input}:"
        self.buffer, self.blocks = b"", 0

    def take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            message = f"{self.prefix}{self.blocks}".encode("ascii")
            self.buffer += hmac.new(self.key, message, hashlib.sha256).digest()
            self.blocks += 1
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling."""
        if n < 1:
            raise ValueError(f"no integer below {n}")
        bits = (n - 1).bit_length()
        while True:
            value = int.from_bytes(self.take((bits + 7) // 8), "big") & ((1 << bits) - 1)
            if value < n:
                return value


def shuffle(items: list[T], stream: Stream) -> None:
    """Fisher-Yates, in place, driven by `stream`."""
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
