"""Big Two's AI: it plans its hand as the fewest, strongest combinations (five-card hands, threes,
pairs, singles), leads the weakest of them, and plays the lowest combination that beats
without breaking that plan.

So its control cards (2s, aces, high pairs) stay for when nothing lower beats, and early on it
won't split them even then. When an opponent may go out it beats with the strongest it has,
and it never leads what an opponent with that many cards left could beat to go out, unless
nobody can beat it. It counts the cards played: a single or pair that no unseen card beats is
a control, and leading one when the rest of its hand then goes in one play wins the hand.

For the Expert search it deals the others' hidden cards as their play shows (`shape_world`):
no card below the first one played in a hand (with three players some cards are not dealt),
and the passes it would have made itself with the hands dealt.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache, partial
from itertools import combinations

from bot.cards import FrenchCard, french_deck
from bot.engine import Action, Decision, GameState, IllegalAction, Policy
from bot.games.big_two.rules import BigTwoState, BigTwoView, classify, legal_plays, value
from bot.games.climbing import Pass, Play
from bot.games.climbing_ai import (
    Sense,
    Table,
    choose_play,
    combo_cost,
    deal_to_fit,
    misfit_passes,
    passes_seen,
    rank_plays,
)

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
BY_VALUE = {value(card): card for card in DECK}


def set_tops(seen: Iterable[int]) -> tuple[int, ...]:
    """By size (1 to 3, index 0 unused): the highest unseen card (value) of a rank with that
    many unseen cards or more, -1 if none: a single, pair or three beats that. `seen`: the
    values of the cards the seat has seen. Any card of a higher rank is higher, so it is the
    top unseen card of the highest rank with that many."""
    known = set(seen)
    tops = [-1] * 4
    for rank in range(TOP_VALUE // 4, -1, -1):
        unseen = [card for card in range(4 * rank, 4 * rank + 4) if card not in known]
        for size in range(1, min(len(unseen), 3) + 1):
            if tops[size] < 0:
                tops[size] = unseen[-1]
        if tops[3] >= 0:  # and so every smaller size
            break
    return tuple(tops)


def combination_strength(values: Sequence[int], tops: Sequence[int]) -> float:
    """How strong a legal play (its cards' values) is: a single, pair, three or five-card
    hand. `tops`: the unseen cards' (`set_tops`)."""
    if len(values) > 3:
        return five_card_strength(tuple(sorted(values)))
    if tops[len(values)] > max(values):  # the unseen cards beat it
        return single_strength(values[0]) if len(values) == 1 else set_strength(values)
    return 1.0


@lru_cache(maxsize=1 << 12)
def five_card_strength(values: tuple[int, ...]) -> float:
    combo = classify([BY_VALUE[card] for card in values])
    return FIVE_CARD_STRENGTHS[combo.category](combo.key[0])  # by its first key


# ---- planning a hand ----------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def plan_cost(hand: tuple[int, ...]) -> float:
    """The cheapest split of `hand` (sorted card values) into combinations: its lowest card
    goes in a single, a pair, a three or a five-card hand, and the rest is planned the same."""
    if not hand:
        return 0.0
    low, rest = hand[0], hand[1:]
    best = TOP_COSTS[low] + plan_cost(rest)
    same = [card for card in rest if card >> 2 == low >> 2]
    for size in (1, 2):
        for others in combinations(same, size):  # a pair or three: its top card's cost
            best = min(best, TOP_COSTS[others[-1]] + plan_cost(without(rest, others)))
    for others, strength in fives_with(low, rest):
        best = min(best, combo_cost(strength) + plan_cost(without(rest, others)))
    return best


# A single's cost, and a pair's or three's by its top card (`single_strength`, `set_strength`).
TOP_COSTS = tuple(combo_cost(single_strength(card)) for card in range(TOP_VALUE + 1))


def without(cards: tuple[int, ...], used: Sequence[int]) -> tuple[int, ...]:
    return tuple(card for card in cards if card not in used)


def fives_with(low: int, rest: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], float]]:
    """Five-card hands of `low` and four cards of `rest` (all higher): the four and the hand's
    strength. A straight takes the lowest card of each rank (the flushes cover the rest)."""
    by_rank: dict[int, list[int]] = {}
    for card in rest:
        by_rank.setdefault(card // 4, []).append(card)
    rank, suit = divmod(low, 4)
    for start, ranks in STRAIGHTS_WITH[rank]:  # the other four ranks
        if all(r in by_rank for r in ranks):
            others = tuple(by_rank[r][0] for r in ranks)
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
    return frozenset(card >> 2 for card in cards) in STRAIGHT_RANKS


STRAIGHT_RANKS = {frozenset(ranks) for _, ranks in STRAIGHTS}
# By rank: the straights it is in, and their other four ranks (in order).
STRAIGHTS_WITH = [
    [(start, [r for r in ranks if r != rank]) for start, ranks in STRAIGHTS if rank in ranks]
    for rank in range(TOP_VALUE // 4 + 1)
]


class BigTwoSense(Sense):
    key = staticmethod(value)

    def plan_cost(self, keys: tuple[int, ...]) -> float:
        return plan_cost(keys)

    def unseen_tops(self, seen: list[int]) -> tuple[int, ...]:
        return set_tops(seen)

    def strength(self, keys: tuple[int, ...], unseen_tops: tuple[int, ...]) -> float:
        return combination_strength(keys, unseen_tops)

    def one_combination(self, keys: tuple[int, ...]) -> bool:
        return one_combination(keys)


@lru_cache(maxsize=1 << 12)
def one_combination(values: tuple[int, ...]) -> bool:
    """Whether cards (their values) make one combination; remembered, as most are none and
    the classifier's refusal (an error, its reason written out) is slow."""
    try:
        classify([BY_VALUE[card] for card in values])
    except IllegalAction:
        return False
    return True


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
        return choose_play(SENSE, table_for(seat, view), legal, rng)

    def ranked(
        self,
        seat: int,
        view: BigTwoView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        return rank_plays(SENSE, table_for(seat, view), legal, rng)

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """The others' hands dealt again as their play shows: no card below the hand's lowest
        dealt card (the first one played) in a hand, and passes the Standard AI would have
        made with the hands dealt (`deal_to_fit`)."""
        assert isinstance(world, BigTwoState)
        if world.phase != "playing" or not world.climbing.moves:
            return
        hidden = set(world.hidden_from(seat))
        floor = min(map(value, world.climbing.history()[0][1]))
        settle_lows(world, hidden, floor, rng)
        others = [s for s in range(world.seat_count) if s != seat]
        counts = [len(hand) for hand in world.hands]
        seen = passes_seen(world.climbing, counts, others, table_at)
        by_seat = {s: [passed for passed in seen if passed.table.seat == s] for s in others}

        def misfits(player: int, most: int) -> int:
            return misfit_passes(SENSE, by_seat[player], world.hands[player], legal_for, most)

        def hidden_of(player: int | None) -> list[FrenchCard]:
            cards = world.unused if player is None else world.hands[player]
            return [card for card in cards if card in hidden and value(card) >= floor]

        order = sorted(others, key=lambda s: -len(by_seat[s]))
        deal_to_fit(order, hidden_of, partial(relabel, world), misfits, rng)


def settle_lows(
    world: BigTwoState, hidden: set[FrenchCard], floor: int, rng: random.Random
) -> None:
    """The cards below the lowest dealt were not dealt (with fewer than four players): each
    found in a hand swaps places with a random undealt card."""
    higher = [i for i, card in enumerate(world.unused) if value(card) >= floor]
    rng.shuffle(higher)
    for hand in world.hands:
        for place, card in enumerate(hand):
            if card in hidden and value(card) < floor:
                spot = higher.pop()
                hand[place], world.unused[spot] = world.unused[spot], card


def relabel(world: BigTwoState, mapping: dict[FrenchCard, FrenchCard]) -> None:
    for hand in [*world.hands, world.unused]:
        hand[:] = [mapping.get(card, card) for card in hand]


def legal_for(hand: list[FrenchCard], to_beat: list[FrenchCard]) -> list[Action]:
    return [Pass(), *(Play(cards=cards) for cards in legal_plays(hand, to_beat))]


def table_at(
    seat: int,
    counts: list[int],
    to_beat: list[FrenchCard],
    last_player: int | None,
    played: list[FrenchCard],
) -> Table:
    """What a seat's AI reads of the table, its hand left out."""
    players = len(counts)
    return Table(
        seat=seat,
        hand=[],
        counts=counts,
        to_beat=to_beat,
        last_player=last_player,
        opponents=[s for s in range(players) if s != seat],
        next_seat=(seat + 1) % players,
        played=played,
    )


def table_for(seat: int, view: BigTwoView) -> Table:
    table = table_at(seat, view.counts, view.to_beat, view.last_player, view.played)
    table.hand = list(view.my_cards or [])
    return table
