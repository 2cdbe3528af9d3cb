"""Dou Dizhu's AI: it bids on its hand's strength and plays to shed its hand in as few turns as
it can.

It plans its hand as the cheapest split into combinations (straights, chains of pairs and of
threes, threes carrying loose singles or pairs as kickers, bombs, the rocket), leads the
weakest of them and beats with the lowest combination that keeps the plan. It keeps its bombs
for the end or for an opponent about to go out (and spends 2s and jokers early only when that
costs its plan nothing), leaves its partner's tricks alone and leads low to a partner about to
go out. It bids for the strength it holds: jokers, 2s, bombs, aces, and how few turns the hand
needs.

For the Expert search it deals the others' hidden cards as their bids and passes show
(`shape_world`): the bids and passes it would have made itself with the hands dealt, a
landlord's bid judged on its hand without the widow it took.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache, partial

from bot.cards import FrenchCard, french_deck
from bot.engine import Action, Decision, GameState, IllegalAction, Policy
from bot.games.climbing import Pass, Play
from bot.games.climbing_ai import (
    Sense,
    Table,
    TableAt,
    choose_play,
    combo_cost,
    deal_to_fit,
    misfit_passes,
    passes_seen,
    played_by,
    rank_plays,
)
from bot.games.dou_dizhu.combos import ACE, BLACK_JOKER, PLAYERS, RED_JOKER, TWO, combo_of, order
from bot.games.dou_dizhu.plays import legal_plays
from bot.games.dou_dizhu.records import Bid, DouDizhuKind, DouDizhuView
from bot.games.dou_dizhu.rules import DouDizhuState

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
    return counts_of_ranks(tuple(order(card) for card in cards))


def counts_of_ranks(ranks: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * RANKS
    for rank in ranks:
        counts[rank] += 1
    return tuple(counts)


DECK_COUNTS = counts_of(DECK)


def combination_strength(ranks: tuple[int, ...], tops: Sequence[int]) -> float:
    """How strong a legal play (its cards' ranks, in its cards' order) is. `tops`: the
    unseen cards' (`unseen_tops`)."""
    bomb, widest, main, chain_top = shape_of(ranks)
    if bomb:
        return 1.0
    if chain_top is not None:  # a straight or a chain (kickers aside)
        return chain_strength(chain_top)
    if tops[widest] <= main:
        return 1.0  # nobody can beat it but with a bomb
    return single_strength(main) if len(ranks) == 1 else set_strength(main)


@lru_cache(maxsize=1 << 12)
def shape_of(ranks: tuple[int, ...]) -> tuple[bool, int, int, int | None]:
    """A play's ranks (in its cards' order) read for its strength: whether it is a bomb, its
    widest group's size, that group's first rank, and a chain's top rank (None: no chain)."""
    counts = Counter(ranks)
    widest = max(counts.values())
    main = [rank for rank, count in counts.items() if count == widest]
    bomb = (len(ranks) == 4 and len(counts) == 1) or sorted(ranks) == [BLACK_JOKER, RED_JOKER]
    chain_top = max(main) if len(main) > 1 and widest < 4 else None
    return bomb, widest, main[0], chain_top


def unseen_tops(seen: list[int]) -> tuple[int, ...]:
    """By group size (1 to 4; index 0 unused): the highest rank of which the seat has not
    seen that many cards, -1 if none. `seen`: the ranks of the cards it has seen."""
    unseen = list(DECK_COUNTS)
    for rank in seen:
        unseen[rank] -= 1
    tops = [-1] * 5
    for rank, count in enumerate(unseen):
        for size in range(1, count + 1):
            tops[size] = rank
    return tuple(tops)


# ---- planning a hand ----------------------------------------------------------------------------


@lru_cache(maxsize=1 << 15)
def plan_cost(counts: tuple[int, ...]) -> float:
    """The cheapest split of a hand (its counts by rank) into combinations: a playout asks
    for the same hands again and again (the same world for each move compared)."""
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
    key = staticmethod(order)

    def plan_cost(self, keys: tuple[int, ...]) -> float:
        return plan_cost(counts_of_ranks(keys))

    unseen_tops = staticmethod(unseen_tops)

    def strength(self, keys: tuple[int, ...], unseen_tops: tuple[int, ...]) -> float:
        return combination_strength(keys, unseen_tops)

    def is_bomb(self, keys: tuple[int, ...]) -> bool:
        return shape_of(keys)[0]

    def one_combination(self, keys: tuple[int, ...]) -> bool:
        return one_combination(keys)


@lru_cache(maxsize=1 << 12)
def one_combination(ranks: tuple[int, ...]) -> bool:
    """Whether cards (their ranks, sorted) make one combination; remembered, as most are
    none and the classifier's refusal (an error, its reason written out) is slow."""
    try:
        combo_of(ranks)
    except IllegalAction:
        return False
    return True


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
        split = main_and_kickers(tuple(order(card) for card in action.cards))
        if split is None or len(action.cards) == len(hand):
            keep.add(index)
            continue
        main, kickers = split
        loose = all(held[rank] == n and rank <= ACE for rank, n in kickers)
        ranks = sum(rank for rank, _ in kickers)
        groups.setdefault((main, len(action.cards)), []).append((not loose, ranks, index))
    for options in groups.values():
        options.sort()
        loose_ones = [option for option in options if not option[0]]
        keep |= {index for *_, index in loose_ones[:KICKER_CHOICES] or options[:1]}
    return [action for index, action in enumerate(legal) if index in keep]


@lru_cache(maxsize=1 << 12)
def main_and_kickers(
    ranks: tuple[int, ...],
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]] | None:
    """A play with kickers (its cards' ranks): the ranks of its threes or four, and its
    kickers' ranks and sizes. None for any other play."""
    counts = Counter(ranks)
    widest = max(counts.values())
    kickers = tuple((rank, n) for rank, n in counts.items() if n < widest)
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
    return Bid(chips=choose_bid_with(view.my_cards or [], view.bid))


def choose_bid_with(hand: Sequence[FrenchCard], bid: int) -> int:
    """The chips the AI bids with `hand` where `bid` is the bid to beat (0: a pass)."""
    wanted = wanted_bid(hand)
    return wanted if wanted > bid else 0


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
        table = table_for(seat, view)
        return choose_play(SENSE, table, worth_trying(legal, table.hand), rng)

    def ranked(
        self,
        seat: int,
        view: DouDizhuView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """Bids nearest the one it would make first; plays by their scores (the kickers it
        would never judge left out)."""
        if decision.kind == DouDizhuKind.BID:
            chosen = choose_bid(view).chips
            return sorted(legal, key=lambda bid: abs(getattr(bid, "chips", 0) - chosen))
        table = table_for(seat, view)
        return rank_plays(SENSE, table, worth_trying(legal, table.hand), rng)

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """The others' hands dealt again as their bids and passes show: bids and passes the
        Standard AI would have made with the hands dealt (`deal_to_fit`; a hand's bid is
        judged on the cards it bid with)."""
        assert isinstance(world, DouDizhuState)
        others = [s for s in range(PLAYERS) if s != seat]
        bids = bids_seen(world, others)
        if world.phase not in ("bidding", "playing") or not bids:
            return
        counts = [len(hand) for hand in world.hands]
        seen = []
        if world.climb is not None:
            seen = passes_seen(world.climb, counts, others, table_maker(world.landlord))
        played = {player: played_cards(world, player) for player in others}

        def misfits(player: int, most: int) -> int:
            found = sum(
                choose_bid_with(bid_hand(world, player, played[player]), bid) != chips
                for bidder, bid, chips in bids
                if bidder == player
            )
            passes = (passed for passed in seen if passed.table.seat == player)
            return misfit_passes(SENSE, passes, world.hands[player], legal_for, most, found)

        hidden = set(world.hidden_from(seat))

        def hidden_of(player: int | None) -> list[FrenchCard]:
            cards = world.widow if player is None else world.hands[player]
            return [card for card in cards if card in hidden]

        deal_to_fit(others, hidden_of, partial(relabel, world), misfits, rng)


def bids_seen(world: DouDizhuState, players: list[int]) -> list[tuple[int, int, int]]:
    """The bids `players` made this deal: (seat, the bid to beat then, chips bid). The
    landlord's only where the widow it took is known (it bid without it)."""
    found, high = [], 0
    for bidder, chips in world.auction:
        if bidder in players and (bidder != world.landlord or world.kitty):
            found.append((bidder, high, chips))
        high = max(high, chips)
    return found


def played_cards(world: DouDizhuState, seat: int) -> list[FrenchCard]:
    return [] if world.climb is None else played_by(world.climb, seat)


def bid_hand(world: DouDizhuState, seat: int, played: list[FrenchCard]) -> list[FrenchCard]:
    """The cards `seat` bid with: those it holds and has `played` (public, so the same in
    every deal tried), less the widow's."""
    cards = [*world.hands[seat], *played]
    if seat != world.landlord:
        return cards
    widow = set(world.kitty)
    return [card for card in cards if card not in widow]


def relabel(world: DouDizhuState, mapping: dict[FrenchCard, FrenchCard]) -> None:
    for hand in [*world.hands, world.widow]:
        hand[:] = [mapping.get(card, card) for card in hand]
    world.kitty = [mapping.get(card, card) for card in world.kitty]


def legal_for(hand: list[FrenchCard], to_beat: list[FrenchCard]) -> list[Action]:
    plays = [Play(cards=cards) for cards in legal_plays(hand, to_beat)]
    return worth_trying([Pass(), *plays], hand)


def table_maker(landlord: int | None) -> TableAt:
    """What a seat's AI reads of the table, its hand left out, once `landlord` is chosen."""
    assert landlord is not None  # asked to play only once the landlord is chosen
    farmers = [s for s in range(PLAYERS) if s != landlord]

    def table_at(
        seat: int,
        counts: list[int],
        to_beat: list[FrenchCard],
        last_player: int | None,
        played: list[FrenchCard],
    ) -> Table:
        if seat == landlord:
            opponents, partner = farmers, None
        else:
            opponents, partner = [landlord], next(s for s in farmers if s != seat)
        return Table(
            seat=seat,
            hand=[],
            counts=counts,
            to_beat=to_beat,
            last_player=last_player,
            opponents=opponents,
            partner=partner,
            next_seat=(seat + 1) % PLAYERS,
            played=played,
        )

    return table_at


def table_for(seat: int, view: DouDizhuView) -> Table:
    table_at = table_maker(view.landlord)
    table = table_at(seat, view.counts, view.to_beat, view.last_player, view.played)
    table.hand = list(view.my_cards or [])
    return table
