"""Seeded, serialisable randomness.

A game state carries an `Rng` (a seed and a draw counter) instead of a `random.Random`, so a
snapshot restores the exact same future: every draw makes a fresh generator from
`seed:draws`. String seeds are hashed with SHA-512 by `random`, so this does not depend on
PYTHONHASHSEED or the platform.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

from pydantic import BaseModel

T = TypeVar("T")


class Rng(BaseModel):
    seed: int
    draws: int = 0

    def _next(self) -> random.Random:
        generator = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return generator

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        self._next().shuffle(out)
        return out

    def randrange(self, stop: int) -> int:
        return self._next().randrange(stop)
