"""What the Terrapin AI policies share: a fast hand value, the cards a seat can't see, the
rivals' hands sampled from them, and a hand's share of the pot at the showdown, now or after
one more card (whose Turtle Butt risk counts: a hand that goes Turtle Butt gets nothing).

Cards are handled as indices into the Decktet's reference order, each with its rank and its
suits as a six-bit mask, so that a policy can value thousands of hands within a few
milliseconds. `value` agrees with bot.games.terrapin.table.hand_value (the tests check it).
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.cards.decktet import CROWN, DECK, DecktetCard, Suit
from bot.games.ai import in_rollout

TURTLE_BUTT = -1  # below every score, as in bot.games.terrapin.table
SAMPLES = 200  # sampled deals per estimate: about ±3% on a chance, a few ms of work
RIVAL_HANDS = 600  # with few rivals, sample more deals, up to this many rival hands valued
ROLLOUT_SAMPLES = 20  # in an Expert's playouts (bot/games/expert.py)

_SUIT_BIT = {suit: 1 << place for place, suit in enumerate(Suit)}
ALL_SUITS = (1 << len(_SUIT_BIT)) - 1
_INDEX = {card: place for place, card in enumerate(DECK)}
RANKS = tuple(card.rank for card in DECK)
MASKS = tuple(sum(_SUIT_BIT[suit] for suit in card.suits) for card in DECK)


def ids(cards: Iterable[DecktetCard]) -> list[int]:
    return [_INDEX[card] for card in cards]


def card_at(index: int) -> DecktetCard:
    return DECK[index]


def _longest_run(rank_bits: int) -> int:
    run = 0  # each shift-and drops one rank from every run of consecutive ranks
    while rank_bits:
        rank_bits &= rank_bits << 1
        run += 1
    return run


PAIR_POINTS = 5
_RANK_BIT = tuple(1 << rank for rank in RANKS)
# Straight points for every set of ranks held (bit r set: rank r held).
_STRAIGHT_POINTS = tuple(2 * max(_longest_run(bits) - 1, 0) for bits in range(1 << (CROWN + 1)))


@dataclass(frozen=True, slots=True)
class Partial:
    """Cards valued once, so that many hands adding a few cards to them value quickly.

    Each card of a rank already held adds 5 points: the pair, then each further Ace or
    Crown. A third card of a numbered rank needs no care: the three cards of a numbered rank
    hold all six suits, so such a hand is Turtle Butt."""

    suits: int = 0
    rank_bits: int = 0  # bit r set: rank r held
    pair_points: int = 0

    @classmethod
    def of(cls, cards: Iterable[int]) -> Partial:
        suits, rank_bits, pair_points = _fold(0, 0, 0, cards)
        return Partial(suits, rank_bits, pair_points)

    def plus(self, cards: Iterable[int]) -> int:
        """The value of these cards with `cards` added."""
        suits, rank_bits, pair_points = _fold(self.suits, self.rank_bits, self.pair_points, cards)
        if suits == ALL_SUITS:
            return TURTLE_BUTT
        return pair_points + _STRAIGHT_POINTS[rank_bits]


def _fold(suits: int, rank_bits: int, pair_points: int, cards: Iterable[int]):
    for index in cards:
        suits |= MASKS[index]
        bit = _RANK_BIT[index]
        if rank_bits & bit:
            pair_points += PAIR_POINTS
        rank_bits |= bit
    return suits, rank_bits, pair_points


EMPTY = Partial()


def value(hand: Iterable[int]) -> int:
    """Terrapin points of the hand, or TURTLE_BUTT when it holds all six suits."""
    return EMPTY.plus(hand)


def deal(pool: list[int], count: int, rng: random.Random) -> list[int]:
    """`count` random cards of the pool (which it reorders): a partial shuffle, quicker than
    random.sample for the many small deals of an estimate."""
    size = len(pool)
    count = min(count, size)
    for place in range(count):
        other = place + int(rng.random() * (size - place))
        pool[place], pool[other] = pool[other], pool[place]
    return pool[:count]


def unseen(*seen: Iterable[DecktetCard]) -> list[int]:
    """The cards the seat has not seen anywhere: those it may draw or a rival may hold."""
    known = {_INDEX[card] for cards in seen for card in cards}
    return [index for index in range(len(DECK)) if index not in known]


def draw_values(hand: Sequence[int], pool: Sequence[int]) -> list[int]:
    """The hand's value after each card the pool may give it."""
    held = Partial.of(hand)
    return [held.plus((index,)) for index in pool]


@dataclass(frozen=True)
class Rival:
    """A rival still in the hand: how many of their cards are hidden, and those seen."""

    hidden: int
    known: tuple[int, ...] = ()


@dataclass(frozen=True)
class Showdown:
    """Sampled deals of the rivals' hidden cards: in each, the best rival value and how many
    rivals hold it. `share` is a hand's expected share of the pot against them."""

    best: tuple[int, ...]  # sorted
    ties: tuple[int, ...]  # rivals holding the best value, in the same order

    def share(self, mine: int) -> float:
        if mine == TURTLE_BUTT or not self.best:
            return 0.0 if mine == TURTLE_BUTT else 1.0
        below = bisect_left(self.best, mine)
        level = bisect_right(self.best, mine)
        split = sum(1 / (1 + ties) for ties in self.ties[below:level])
        return (below + split) / len(self.best)

    def share_after_draw(self, hand: Sequence[int], pool: Sequence[int]) -> float:
        """The hand's expected share once it takes one more card from the pool."""
        shares = [self.share(points) for points in draw_values(hand, pool)]
        return sum(shares) / len(shares) if shares else self.share(value(hand))


def showdown(
    shared: Sequence[int],
    rivals: Sequence[Rival],
    pool: Sequence[int],
    rng: random.Random,
) -> Showdown:
    """Deal the rivals' hidden cards from the pool many times (the shared cards known)."""
    samples = max(SAMPLES, RIVAL_HANDS // max(len(rivals), 1)) if rivals else 0
    if in_rollout():  # an Expert's playout: its many worlds do the sampling
        samples = min(samples, ROLLOUT_SAMPLES) if rivals else 0
    return dealt_showdown(shared, rivals, pool, rng, samples, samples)


def dealt_showdown(
    shared: Sequence[int],
    rivals: Sequence[Rival],
    pool: Sequence[int],
    rng: random.Random,
    samples: int,
    tries: int,
    keep: Callable[[list[int]], bool] | None = None,
) -> Showdown:
    """The showdown over `samples` deals of the rivals' hidden cards from the pool: each kept
    where `keep` says so of the rivals' values (every one without it), `tries` dealt at most."""
    cards, rows = list(pool), list[tuple[int, int]]()
    size, dealt = len(cards), min(sum(rival.hidden for rival in rivals), len(cards))
    # Each rival: its seen cards folded once, and where its hidden ones lie in a deal. The
    # loop below is `deal` and `Partial.plus` written out: this is the AI's innermost work.
    seats, start = [], 0
    for rival in rivals:
        known = Partial.of([*rival.known, *shared])
        end = min(start + rival.hidden, dealt)
        seats.append((known.suits, known.rank_bits, known.pair_points, range(start, end)))
        start = end
    draw, masks, rank_bit, straight = rng.random, MASKS, _RANK_BIT, _STRAIGHT_POINTS
    for _ in range(tries):
        if len(rows) == samples:
            break
        for place in range(dealt):  # a partial shuffle, as `deal` does
            other = place + int(draw() * (size - place))
            cards[place], cards[other] = cards[other], cards[place]
        values = []
        for suits, rank_bits, pair_points, places in seats:
            for place in places:
                index = cards[place]
                suits |= masks[index]
                bit = rank_bit[index]
                if rank_bits & bit:
                    pair_points += PAIR_POINTS
                rank_bits |= bit
            values.append(TURTLE_BUTT if suits == ALL_SUITS else pair_points + straight[rank_bits])
        if keep is not None and not keep(values):
            continue
        top = max(values)
        rows.append((top, values.count(top)))
    rows.sort()
    return Showdown(best=tuple(top for top, _ in rows), ties=tuple(ties for _, ties in rows))


def share_before_shared(
    mine: Sequence[int],
    shared_count: int,
    rivals: Sequence[Rival],
    pool: Sequence[int],
    rng: random.Random,
    samples: int = SAMPLES,
) -> float:
    """The hand's expected share of the pot when the shared cards are still to come (dealt
    again while they alone are Turtle Butt, as the table does)."""
    hidden = sum(rival.hidden for rival in rivals)
    held, seen = Partial.of(mine), [Partial.of(rival.known) for rival in rivals]
    cards, total, deals = list(pool), 0.0, 0
    for _ in range(samples):
        dealt = deal(cards, shared_count + hidden, rng)
        shared = dealt[:shared_count]
        if value(shared) == TURTLE_BUTT:
            continue  # the table deals these again: such a deal never reaches the showdown
        deals += 1
        ours = held.plus(shared)
        if ours == TURTLE_BUTT:
            continue
        theirs, start = [], shared_count
        for rival, known in zip(rivals, seen, strict=True):
            theirs.append(known.plus([*dealt[start : start + rival.hidden], *shared]))
            start += rival.hidden
        top = max(theirs, default=TURTLE_BUTT)
        total += 1.0 if ours > top else 1 / (1 + theirs.count(top)) if ours == top else 0.0
    return total / max(deals, 1)


@lru_cache(maxsize=64)
def value_spread(size: int) -> tuple[int, ...]:
    """Sorted values of random hands of `size` cards from the whole deck (a fixed sample, so
    the same for every call): how likely an unseen hand of that size reaches a score."""
    sampler = random.Random(f"terrapin-spread:{size}")
    deck = range(len(DECK))
    size = min(size, len(DECK))
    return tuple(sorted(value(sampler.sample(deck, size)) for _ in range(2000)))


def chance_at_least(points: int, size: int) -> float:
    """The chance that an unseen hand of `size` cards scores `points` or more."""
    spread = value_spread(size)
    return (len(spread) - bisect_left(spread, points)) / len(spread)
