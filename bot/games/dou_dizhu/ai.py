"""Dou Dizhu's AI: it bids on its hand's strength and plays to shed its hand in as few turns as
it can.

It plans its hand as the cheapest split into combinations (straights, chains of pairs and of
threes, threes carrying loose singles or pairs as kickers, bombs, the rocket), leads the
weakest of them and beats with the lowest combination that keeps the plan. It keeps its bombs
for the end or for an opponent about to go out (and spends 2s and jokers early only when that
costs its plan nothing), leaves its partner's tricks alone and leads low to a partner about to
go out. It bids for the strength it holds: jokers, 2s, bombs, aces, and how few turns the hand
needs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from bot.cards import FrenchCard, french_deck
from bot.engine import Action, Decision, Policy
from bot.games.climbing import Play
from bot.games.climbing_ai import Sense, Table, choose_play, combo_cost
from bot.games.dou_dizhu.combos import ACE, BLACK_JOKER, PLAYERS, RED_JOKER, TWO, classify, order
from bot.games.dou_dizhu.records import Bid, DouDizhuKind, DouDizhuView

RANKS = RED_JOKER + 1
DECK = tuple(french_deck(jokers=True))
BOMB_COST = 0.5  # a bomb plays in a turn, and can take a trick back any time
ROCKET_COST = 0.3
MOST_OWED = 4  # kickers planned for threes still to come, in the plan's search
KICKER_CHOICES = 3  # plays judged per main part with different kickers
# (width, shortest) of the chains: straights, pairs in a row, threes in a row.
CHAINS = ((1, 5), (2, 3), (3, 2))

# Bidding: points for the cards that take tricks back, and the bid each total is worth.
JOKER_POINTS = {RED_JOKER: 4, BLACK_JOKER: 3}
TWO_POINTS = 2
BOMB_POINTS = 4
ACE_POINTS = 1
FEW_TURNS = 7.0  # a plan cheaper than this (before the widow) is worth a point a turn less
BIDS = ((8, 3), (6, 2), (4, 1))


# ---- how strong a combination is ----------------------------------------------------------------


def single_strength(rank: int) -> float:
    return rank / RED_JOKER


def set_strength(rank: int) -> float:
    """A pair or a three (kickers or not): 2s are the strongest."""
    return rank / TWO


def chain_strength(top: int) -> float:
    """A straight or a chain: one to the ace is the strongest."""
    return top / ACE


def counts_of(cards: Sequence[FrenchCard]) -> tuple[int, ...]:
    counts = [0] * RANKS
    for card in cards:
        counts[order(card)] += 1
    return tuple(counts)


def combination_strength(cards: Sequence[FrenchCard], seen: frozenset[FrenchCard]) -> float:
    counts = Counter(order(card) for card in cards)
    widest = max(counts.values())
    main = [rank for rank, count in counts.items() if count == widest]
    if is_bomb(cards):
        return 1.0
    if len(main) > 1 and widest < 4:  # a straight or a chain (kickers aside)
        return chain_strength(max(main))
    unseen = unseen_ranks(seen)
    if not any(n >= widest for rank, n in unseen.items() if rank > main[0]):
        return 1.0  # nobody can beat it but with a bomb
    return single_strength(main[0]) if len(cards) == 1 else set_strength(main[0])


@lru_cache(maxsize=16)
def unseen_ranks(seen: frozenset[FrenchCard]) -> Counter[int]:
    """How many cards of each rank the seat has not seen: the same for every play it weighs
    (a frozenset keeps its hash, so a decision's lookups are cheap). Read only."""
    return Counter(order(card) for card in DECK if card not in seen)


def is_bomb(cards: Sequence[FrenchCard]) -> bool:
    ranks = {order(card) for card in cards}
    four = len(cards) == 4 and len(ranks) == 1
    return four or (ranks == {BLACK_JOKER, RED_JOKER} and len(cards) == 2)


# ---- planning a hand ----------------------------------------------------------------------------


def plan_cost(counts: tuple[int, ...]) -> float:
    return plan_from(*trimmed(0, counts), 0)


def trimmed(rank: int, left: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Skip the ranks with no cards left (one cache entry per hand, however it was reached)."""
    skip = 0
    while skip < len(left) and left[skip] == 0:
        skip += 1
    return rank + skip, left[skip:]


@lru_cache(maxsize=1 << 17)
def plan_from(rank: int, left: tuple[int, ...], slots: int) -> float:
    """The cheapest split of the cards `left` (counts from `rank` up) into combinations.
    Ranks go lowest first: each chain starting at `rank` is tried, then what is left of the
    rank is one single, pair, three or bomb. `slots` is the kickers the threes so far can
    carry, less the singles and pairs already planned as kickers of threes still to come."""
    if not left:
        return 0.0 if slots >= 0 else INFINITY
    best = INFINITY
    count = left[0]
    if len(left) > 1 and left[1] and rank < ACE:
        for width, shortest in CHAINS:
            if count < width:
                break
            length = 1
            while length < len(left) and rank + length <= ACE and left[length] >= width:
                length += 1
            for size in range(shortest, length + 1):
                after = tuple(c - width for c in left[:size]) + left[size:]
                carried = size if width == 3 else 0
                cost = CHAIN_COSTS[rank + size - 1] + plan_from(
                    *trimmed(rank, after), slots + carried
                )
                best = min(best, cost)
    rest = trimmed(rank + 1, left[1:])
    if rank == BLACK_JOKER and left[1:2] == (1,):
        best = min(best, ROCKET_COST + plan_from(RED_JOKER + 1, (), slots))
    if count == 4:
        return min(best, BOMB_COST + plan_from(*rest, slots))
    if count == 3:
        return min(best, SET_COSTS[rank] + plan_from(*rest, slots + 1))
    cost = SINGLE_COSTS[rank] if count == 1 else SET_COSTS[rank]
    best = min(best, cost + plan_from(*rest, slots))
    if rank <= ACE and slots > -MOST_OWED:  # a kicker: it plays with a three, free
        best = min(best, plan_from(*rest, slots - 1))
    return best


INFINITY = float("inf")
SINGLE_COSTS = tuple(combo_cost(single_strength(rank)) for rank in range(RANKS))
SET_COSTS = tuple(combo_cost(set_strength(rank)) for rank in range(RANKS))
CHAIN_COSTS = tuple(combo_cost(chain_strength(rank)) for rank in range(RANKS))


class DouDizhuSense(Sense):
    def plan_cost(self, hand: Sequence[FrenchCard]) -> float:
        return plan_cost(counts_of(hand))

    def strength(self, cards: Sequence[FrenchCard], seen: frozenset[FrenchCard]) -> float:
        return combination_strength(cards, seen)

    def is_bomb(self, cards: Sequence[FrenchCard]) -> bool:
        return is_bomb(cards)

    classify = staticmethod(classify)


SENSE = DouDizhuSense()


def worth_trying(legal: list[Action], hand: Sequence[FrenchCard]) -> list[Action]:
    """The actions worth judging. Kickers multiply the plays (each three with each single)
    and change their worth little, so per main part (the threes or four, and the play's size)
    only the KICKER_CHOICES plays with the lowest loose kickers are judged (a loose kicker is a
    rank held just as often as the kicker takes, below the 2s), or the one with the lowest
    kickers when none is loose. A play of the whole hand is always judged."""
    held = counts_of(hand)
    keep: set[int] = set()
    groups: dict[tuple, list[tuple[bool, int, int]]] = {}
    for index, action in enumerate(legal):
        if not isinstance(action, Play):
            keep.add(index)  # a pass
            continue
        split = main_and_kickers(action)
        if split is None or len(action.cards) == len(hand):
            keep.add(index)
            continue
        main, kickers = split
        loose = all(held[rank] == n and rank <= ACE for rank, n in kickers.items())
        groups.setdefault((main, len(action.cards)), []).append((not loose, sum(kickers), index))
    for options in groups.values():
        options.sort()
        loose_ones = [option for option in options if not option[0]]
        keep |= {index for *_, index in loose_ones[:KICKER_CHOICES] or options[:1]}
    return [action for index, action in enumerate(legal) if index in keep]


def main_and_kickers(action: Play) -> tuple[tuple[int, ...], dict[int, int]] | None:
    """A play with kickers: the ranks of its threes or four, and its kickers' ranks and
    sizes. None for any other play."""
    counts = Counter(order(card) for card in action.cards)
    widest = max(counts.values())
    kickers = {rank: n for rank, n in counts.items() if n < widest}
    if widest < 3 or not kickers:
        return None
    return tuple(sorted(rank for rank, n in counts.items() if n == widest)), kickers


# ---- bidding ------------------------------------------------------------------------------------


def hand_points(hand: Sequence[FrenchCard]) -> float:
    """The hand's strength for the auction: its controls, and a point per turn under
    FEW_TURNS (a point per turn more costs a point)."""
    counts = counts_of(hand)
    points = sum(JOKER_POINTS.get(rank, 0) for rank in (BLACK_JOKER, RED_JOKER) if counts[rank])
    points += TWO_POINTS * counts[TWO] + ACE_POINTS * counts[ACE]
    points += BOMB_POINTS * sum(count == 4 for count in counts)
    return points + FEW_TURNS - plan_cost(counts)


def wanted_bid(hand: Sequence[FrenchCard]) -> int:
    points = hand_points(hand)
    return next((bid for least, bid in BIDS if points >= least), 0)


def choose_bid(view: DouDizhuView) -> Bid:
    wanted = wanted_bid(view.my_cards or [])
    return Bid(chips=wanted if wanted > view.bid else 0)


class DouDizhuPolicy(Policy[DouDizhuView]):
    game_id = "doudizhu"

    def choose(
        self,
        seat: int,
        view: DouDizhuView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if decision.kind == DouDizhuKind.BID:
            return choose_bid(view)
        landlord = view.landlord
        assert landlord is not None  # asked to play only once the landlord is chosen
        farmers = [s for s in range(PLAYERS) if s != landlord]
        if seat == landlord:
            opponents, partner = farmers, None
        else:
            opponents, partner = [landlord], next(s for s in farmers if s != seat)
        table = Table(
            seat=seat,
            hand=list(view.my_cards or []),
            counts=view.counts,
            to_beat=view.to_beat,
            last_player=view.last_player,
            opponents=opponents,
            partner=partner,
            next_seat=(seat + 1) % PLAYERS,
            played=view.played,
        )
        return choose_play(SENSE, table, worth_trying(legal, table.hand), rng)
