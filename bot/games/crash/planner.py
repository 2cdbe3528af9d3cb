"""Good arrangements of a deal: how often a hand wins its position, the plans with the
most and strongest hands, a random legal arrangement, and a partial arrangement filled in.
The suggestions and the AI use them.
"""

from __future__ import annotations

import functools
import random
from bisect import bisect_left
from collections.abc import Sequence
from itertools import combinations

from bot.cards import FrenchCard
from bot.games.crash.ranking import (
    HAND_CARDS,
    MAX_HANDS,
    BragKey,
    Category,
    brag_key,
    display_order,
    ranked,
    strength,
)

# ---- finding good arrangements ----------------------------------------------------------------

HAND_WEIGHT = 100_000  # more than four hands' strengths: forming a hand counts first
TOP_HANDS_TRIED = 24  # different strong hands an arrangement is built around
# How strong the other players' hands at each position usually are, from 4,000 simulated
# deals arranged by this planner: per position 1-4, the share of deals with no hand there,
# and the strengths (see `strength`) of the hands there at the 1/40, 2/40 ... quantiles.
# fmt: off
POSITION_TABLES: list[tuple[float, tuple[int, ...]]] = [
    (0.0, (
        21280, 21460, 21580, 21640, 21700, 21760, 21820, 21820, 21880, 21880,
        21940, 21940, 21940, 21940, 22000, 22004, 22012, 22016, 22020, 22028,
        22032, 22036, 22044, 22048, 22052, 22052, 22056, 22060, 22064, 22068,
        22068, 22072, 22076, 22080, 22080, 22084, 22088, 22088, 22092, 22096,
    )),
    (0.0, (
        20520, 20764, 20936, 21056, 21148, 21224, 21280, 21340, 21400, 21400,
        21460, 21460, 21520, 21520, 21520, 21580, 21580, 21640, 21640, 21640,
        21700, 21700, 21700, 21760, 21760, 21820, 21820, 21820, 21880, 21880,
        21880, 21940, 21940, 21940, 21940, 22008, 22020, 22036, 22052, 22068,
    )),
    (0.0, (
        18696, 20112, 20264, 20364, 20456, 20532, 20592, 20656, 20708, 20756,
        20812, 20852, 20884, 20920, 20948, 20984, 21024, 21064, 21108, 21140,
        21172, 21200, 21240, 21276, 21280, 21340, 21340, 21400, 21400, 21400,
        21460, 21460, 21520, 21520, 21580, 21640, 21700, 21700, 21820, 21940,
    )),
    (0.028, (
        16656, 17016, 17376, 17616, 17904, 18216, 18408, 18672, 18888, 19152,
        19296, 19536, 19728, 19848, 20112, 20216, 20260, 20300, 20336, 20380,
        20416, 20456, 20500, 20532, 20564, 20612, 20656, 20696, 20732, 20768,
        20816, 20852, 20896, 20940, 21004, 21060, 21132, 21220, 21340, 21520,
    )),
]
# fmt: on


def win_chance(position: int, key: BragKey) -> float:
    """About how often a hand of this key beats another player's hand at `position` (0-3)."""
    nothing, quantiles = POSITION_TABLES[position]
    below = bisect_left(quantiles, strength(key)) / len(quantiles)
    return nothing + (1 - nothing) * below


def expected_points(keys: Sequence[BragKey], opponents: int) -> float:
    """About how many positions hands of these keys (strongest first) win against
    `opponents` other players."""
    return sum(win_chance(position, key) ** opponents for position, key in enumerate(keys))


@functools.lru_cache(maxsize=1 << 15)
def trio_key(trio: tuple[FrenchCard, ...]) -> BragKey:
    """`brag_key`, remembered: every deal keys 286 trios, of only 22,100 in the pack (the
    Expert search's playouts plan thousands of deals)."""
    return brag_key(trio)


class Planner:
    """Arrangements of one deal. Candidates come from `best(mask)`, the plan with the most
    hands, then the greatest total strength, from the cards in `mask` (bit i: card i), found
    by choosing, for the lowest card left, either a hand holding it or its discard: the best
    of all, and the best around each different strong hand put on top. They are then ranked
    by the positions they can expect to win (`expected_points`)."""

    def __init__(self, cards: tuple[FrenchCard, ...]) -> None:
        self.cards = cards
        self.triples: list[tuple[int, BragKey]] = []  # (mask, key), pair or better
        for trio in combinations(range(len(cards)), HAND_CARDS):
            key = trio_key(tuple(cards[i] for i in trio))
            if key[0] != Category.HIGH_CARD:
                self.triples.append((sum(1 << i for i in trio), key))
        self.triples.sort(key=lambda triple: triple[1], reverse=True)
        self.keys = dict(self.triples)
        self.by_low: dict[int, list[tuple[int, int]]] = {}  # lowest card -> (mask, score)
        for mask, key in self.triples:
            low = (mask & -mask).bit_length() - 1
            self.by_low.setdefault(low, []).append((mask, HAND_WEIGHT + strength(key)))
        self.memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

    def best(self, mask: int) -> tuple[int, tuple[int, ...]]:
        """(score, the hands' masks) of the best plan using only the cards in `mask`."""
        if mask in self.memo:
            return self.memo[mask]
        low_bit = mask & -mask
        found = self.best(mask ^ low_bit)  # the lowest card discarded
        for hand, score in self.by_low.get(low_bit.bit_length() - 1, ()):
            if hand & mask == hand:
                rest_score, rest = self.best(mask ^ hand)
                if score + rest_score > found[0]:
                    found = (score + rest_score, (hand, *rest))
        self.memo[mask] = found
        return found

    @functools.cached_property
    def candidates(self) -> dict[tuple[BragKey, ...], tuple[int, ...]]:
        """Candidate plans (their hands' masks) by their keys, strongest first: plans that
        rank alike (they differ by suits only) count once."""
        everything = (1 << len(self.cards)) - 1
        plans = [self.best(everything)[1]]
        tried: set[tuple[int, int]] = set()
        for mask, key in self.triples:
            if len(tried) == TOP_HANDS_TRIED:
                break
            if key[:2] not in tried:  # one top hand per kind and rank, for variety
                tried.add(key[:2])
                plans.append((mask, *self.best(everything ^ mask)[1]))
        found: dict[tuple[BragKey, ...], tuple[int, ...]] = {}
        for masks in plans:
            ordered = sorted(masks, key=self.keys.__getitem__, reverse=True)
            found.setdefault(tuple(self.keys[mask] for mask in ordered), tuple(ordered))
        return found

    def plans(self, limit: int, opponents: int) -> list[list[list[FrenchCard]]]:
        """Up to `limit` strong arrangements, the best first."""
        found = self.candidates
        best = sorted(found, key=lambda keys: -expected_points(keys, opponents))
        return [[display_order(self.hand(mask)) for mask in found[keys]] for keys in best[:limit]]

    def hand(self, mask: int) -> list[FrenchCard]:
        return [card for i, card in enumerate(self.cards) if mask >> i & 1]


@functools.lru_cache(maxsize=256)
def planner(cards: tuple[FrenchCard, ...]) -> Planner:
    return Planner(cards)


def strong_arrangements(
    cards: Sequence[FrenchCard], limit: int, opponents: int = 1
) -> list[list[list[FrenchCard]]]:
    return planner(tuple(display_order(cards))).plans(limit, opponents)


def random_arrangement(cards: Sequence[FrenchCard], chooser: random.Random) -> list[list]:
    """Some legal arrangement: a random number of random disjoint hands (none at all too)."""
    plan = planner(tuple(display_order(cards)))
    triples = [mask for mask, _ in plan.triples]
    chooser.shuffle(triples)
    wanted, used = chooser.randint(0, MAX_HANDS), 0
    hands: list[list[FrenchCard]] = []
    for mask in triples:
        if len(hands) == wanted:
            break
        if not mask & used:
            used |= mask
            hands.append(plan.hand(mask))
    return ranked(hands)


def fill_hands(
    hands: Sequence[Sequence[FrenchCard]], held: Sequence[FrenchCard], opponents: int = 1
) -> list[list[FrenchCard]]:
    """A player's hands so far (up to four, of the cards `held`) with the rest filled in: the
    complete hands stay in their places, and every other card goes into the best hands the
    planner finds for the other places (strongest first), judged with the kept hands as the
    suggestions are (`expected_points`)."""
    kept = [list(hand) if len(hand) == HAND_CARDS else [] for hand in hands]
    kept += [[] for _ in range(MAX_HANDS - len(kept))]
    placed = {card for hand in kept for card in hand}
    plan = planner(tuple(display_order([card for card in held if card not in placed])))
    fixed = [brag_key(hand) for hand in kept if hand]

    def value(keys: tuple[BragKey, ...]) -> float:
        return expected_points(sorted([*fixed, *keys], reverse=True), opponents)

    best = max(plan.candidates, key=value)
    made = (display_order(plan.hand(mask)) for mask in plan.candidates[best])
    return [hand or next(made, []) for hand in kept]
