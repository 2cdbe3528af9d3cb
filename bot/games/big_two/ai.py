"""Big Two's AI: it plans its hand as the fewest, strongest combinations (five-card hands, threes,
pairs, singles), leads the weakest of them, and plays the lowest combination that beats
without breaking that plan.

So its control cards (2s, aces, high pairs) stay for when nothing lower beats, and early on it
won't split them even then. When an opponent may go out it beats with the strongest it has,
and it never leads what an opponent with that many cards left could beat to go out, unless
nobody can beat it. It counts the cards played: a single or pair that no unseen card beats is
a control, and leading one when the rest of its hand then goes in one play wins the hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from bot.cards import FrenchCard, french_deck
from bot.engine import Action, Decision, Policy
from bot.games.big_two.rules import BigTwoView, classify, value
from bot.games.climbing_ai import Sense, Table, choose_play, combo_cost

# A card is its Big Two value, rank * 4 + suit: 0 (3♦) ... 51 (2♠).
TOP_VALUE = 51


def big_two_rank(natural_rank: int) -> int:
    """A natural rank (ace 1 ... king 13) in Big Two order (3 -> 0 ... 2 -> 12)."""
    return (natural_rank - 3) % 13


# Straights from A-2-3-4-5 (start 1) to 10-J-Q-K-A (start 10), as Big Two ranks.
STRAIGHTS = [
    (start, [big_two_rank(n if n <= 13 else 1) for n in range(start, start + 5)])
    for start in range(1, 11)
]


# ---- how strong a combination is ----------------------------------------------------------------


def single_strength(card: int) -> float:
    return card / TOP_VALUE


def set_strength(cards: Sequence[int]) -> float:
    """A pair or three: its rank, then its highest suit."""
    return max(cards) / TOP_VALUE


def straight_strength(start: int) -> float:
    return 0.55 + 0.02 * start


def flush_strength(suit: int) -> float:
    return 0.75 + 0.01 * suit


def full_house_strength(rank: int) -> float:
    return 0.8 + 0.01 * rank


def four_strength(rank: int) -> float:
    return 0.94 + 0.004 * rank


STRAIGHT_FLUSH = 1.0
FIVE_CARD_STRENGTHS = {  # by category: straight, flush, full house, four, straight flush
    1: straight_strength,
    2: flush_strength,
    3: full_house_strength,
    4: four_strength,
    5: lambda _start: STRAIGHT_FLUSH,
}
DECK = tuple(french_deck())


def unbeatable(cards: Sequence[int], unseen: Sequence[int]) -> bool:
    """Whether no single, pair or three of the `unseen` cards beats these (as many cards of
    one rank): only the others' cards, or those out of play, are unseen."""
    top = max(cards)
    by_rank: dict[int, list[int]] = {}
    for card in unseen:
        by_rank.setdefault(card // 4, []).append(card)
    return not any(len(others) >= len(cards) and max(others) > top for others in by_rank.values())


@lru_cache(maxsize=16)
def unseen_values(seen: frozenset[FrenchCard]) -> tuple[int, ...]:
    """The values of the cards the seat has not seen: the same for every play it weighs (a
    frozenset keeps its hash, so a decision's lookups are cheap)."""
    return tuple(value(card) for card in DECK if card not in seen)


def combination_strength(cards: Sequence[FrenchCard], seen: frozenset[FrenchCard]) -> float:
    combo = classify(list(cards))
    values = [value(card) for card in cards]
    if combo.size <= 3 and unbeatable(values, unseen_values(seen)):
        return 1.0
    if combo.size == 1:
        return single_strength(values[0])
    if combo.size in (2, 3):
        return set_strength(values)
    return FIVE_CARD_STRENGTHS[combo.category](combo.key[0])  # by its first key


# ---- planning a hand ----------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def plan_cost(hand: tuple[int, ...]) -> float:
    """The cheapest split of `hand` (sorted card values) into combinations: its lowest card
    goes in a single, a pair, a three or a five-card hand, and the rest is planned the same."""
    if not hand:
        return 0.0
    low, rest = hand[0], hand[1:]
    best = combo_cost(single_strength(low)) + plan_cost(rest)
    same = [card for card in rest if card // 4 == low // 4]
    for size in (1, 2):
        for others in combinations(same, size):
            cost = combo_cost(set_strength((low, *others)))
            best = min(best, cost + plan_cost(without(rest, others)))
    for others, strength in fives_with(low, rest):
        best = min(best, combo_cost(strength) + plan_cost(without(rest, others)))
    return best


def without(cards: tuple[int, ...], used: Sequence[int]) -> tuple[int, ...]:
    return tuple(card for card in cards if card not in used)


def fives_with(low: int, rest: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], float]]:
    """Five-card hands of `low` and four cards of `rest` (all higher): the four and the hand's
    strength. A straight takes the lowest card of each rank (the flushes cover the rest)."""
    by_rank: dict[int, list[int]] = {}
    for card in rest:
        by_rank.setdefault(card // 4, []).append(card)
    rank, suit = divmod(low, 4)
    for start, ranks in STRAIGHTS:
        if rank in ranks and all(r in by_rank for r in ranks if r != rank):
            others = tuple(by_rank[r][0] for r in ranks if r != rank)
            flush = all(card % 4 == suit for card in others)
            yield others, STRAIGHT_FLUSH if flush else straight_strength(start)
    suited = [card for card in rest if card % 4 == suit]
    for others in combinations(suited, 4):
        straight = is_straight((low, *others))
        yield others, STRAIGHT_FLUSH if straight else flush_strength(suit)
    same = by_rank.get(rank, [])
    for other_rank, cards in by_rank.items():
        if other_rank == rank:
            continue
        if len(same) >= 2 and len(cards) >= 2:  # low's three with a pair
            yield (*same[:2], *cards[:2]), full_house_strength(rank)
        if same and len(cards) >= 3:  # low's pair with a three
            yield (same[0], *cards[:3]), full_house_strength(other_rank)
        if len(cards) == 4:  # low as the fifth card of four of a kind
            yield tuple(cards), four_strength(other_rank)
    if len(same) == 3:
        kicker = next((card for card in rest if card // 4 != rank), None)
        if kicker is not None:
            yield (*same, kicker), four_strength(rank)


def is_straight(cards: Sequence[int]) -> bool:
    ranks = {card // 4 for card in cards}
    return any(ranks == set(straight) for _, straight in STRAIGHTS)


class BigTwoSense(Sense):
    def plan_cost(self, hand: Sequence[FrenchCard]) -> float:
        return plan_cost(tuple(sorted(value(card) for card in hand)))

    def strength(self, cards: Sequence[FrenchCard], seen: frozenset[FrenchCard]) -> float:
        return combination_strength(cards, seen)

    classify = staticmethod(classify)


SENSE = BigTwoSense()


class BigTwoPolicy(Policy[BigTwoView]):
    game_id = "bigtwo"

    def choose(
        self,
        seat: int,
        view: BigTwoView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        players = len(view.counts)
        table = Table(
            seat=seat,
            hand=list(view.my_cards or []),
            counts=view.counts,
            to_beat=view.to_beat,
            last_player=view.last_player,
            opponents=[s for s in range(players) if s != seat],
            next_seat=(seat + 1) % players,
            played=view.played,
        )
        return choose_play(SENSE, table, legal, rng)
