"""What the fishing games' AI players (Totit, Porrazo, Turup) share: the best-scored move with a
seeded tie-break, the moves ranked by their scores (the Expert search's candidates), and the
chance that an opponent holds a card the seat has not seen."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from math import comb
from typing import TypeVar

Choice = TypeVar("Choice")
TIE = 1e-9  # scores this close are equal


def best(
    candidates: Sequence[Choice], score: Callable[[Choice], float], rng: random.Random
) -> Choice:
    """The candidate scoring most; among equals, the seeded rng picks."""
    return pick([(score(candidate), candidate) for candidate in candidates], rng)


def pick(scored: Sequence[tuple[float, Choice]], rng: random.Random) -> Choice:
    """`best` among candidates already scored."""
    top = max(value for value, _ in scored)
    tied = [candidate for value, candidate in scored if value >= top - TIE]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def ranking(
    candidates: Sequence[Choice],
    score: Callable[[Choice], float],
    rng: random.Random,
    same: Callable[[Choice], Hashable] = id,
) -> list[Choice]:
    """The candidates best-scored first, beginning with `best`'s pick for this rng (the
    Expert search compares the first few: bot/games/expert.py `candidates_for`). Of moves
    alike by `same` (one copy of a card for another) only the first is kept: the search
    would spend its worlds on their ties."""
    scored = [(score(candidate), candidate) for candidate in candidates]
    chosen = pick(scored, rng)
    ordered = sorted(scored, key=lambda pair: -pair[0])
    found, seen = [chosen], {same(chosen)}
    for _, candidate in ordered:
        if same(candidate) not in seen:
            seen.add(same(candidate))
            found.append(candidate)
    return found


def chance_holds(copies: int, unseen: int, hand: int) -> float:
    """The chance that `hand` cards drawn from `unseen` unseen cards hold at least one of
    `copies` given ones (the seat can't tell who holds what it hasn't seen)."""
    copies, hand = max(copies, 0), min(max(hand, 0), unseen)
    if copies == 0 or hand == 0:
        return 0.0
    if copies > unseen - hand:
        return 1.0
    return 1 - comb(unseen - copies, hand) / comb(unseen, hand)
