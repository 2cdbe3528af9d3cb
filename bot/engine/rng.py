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
    # Stacked decks, for tests that need exact deals: the next shuffle holding all of a
    # stack's cards (by code) puts them first, in that order, and the rest shuffled after.
    stacked: list[list[str]] = []

    def _next(self) -> random.Random:
        generator = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return generator

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        self._next().shuffle(out)
        if self.stacked:
            out = self._stack(out)
        return out

    def _stack(self, shuffled: list[T]) -> list[T]:
        by_code = {_code(item): item for item in shuffled}
        if not set(self.stacked[0]) <= by_code.keys():
            return shuffled  # not the deck this stack is for (seats, say)
        top = [by_code[code] for code in self.stacked.pop(0)]
        chosen = {id(item) for item in top}
        return top + [item for item in shuffled if id(item) not in chosen]

    def randrange(self, stop: int) -> int:
        return self._next().randrange(stop)


def _code(item: object) -> str:
    return str(getattr(item, "code", item))
