"""Triple Draw Lowball's Expert: each bet by its expected chips at its equity against the
hands the others' draws and bets imply (README, AI players).

It imagines a few hundred rest-of-hands from the seat's view alone. Every opponent still in
holds a hand like their draws (one who stood pat a made low the Standard AI would stand on,
one who drew k the 5 - k distinct low cards it would keep and k cards at random; now and then,
for a snow or a misjudged draw, any hand); an opponent who bet or raised in this round holds a
hand the Standard AI would bet or raise with (`standard_chance` past its raising bar), but for
a bluff now and then: each imagined deal counts as much as its bets are likely. Every draw
still to come is drawn as the Standard AI draws, and the lowest hand takes the pot. The seat's
equity is its share of the pot over those deals; the move worth most at that equity is played
(bot/games/poker_expert.py). Its draws are Standard's: drawing by the showdown equity of each
candidate did worse (-1.3 chips a hand), as did raising for the folds a raise might win.

Cards are small ints here, (value - 2) * 4 + suit, so that the highest-first order of a hand
is the ints' order and thousands of hands value within a few milliseconds; `keep_ints` and
`standard_chance` are the Standard AI's `keep` and chance on them (a test checks they agree).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.cards import FrenchCard
from bot.engine import Action
from bot.games.lowball.ai import (
    DRAWING_CHANCE,
    FINAL_CHANCE,
    KEEP_TOP,
    PAT_CHANCE,
    PAT_TOP,
    RAISE_EDGE,
)
from bot.games.lowball.rules import DRAWS, HAND_SIZE, LowballView
from bot.games.poker_expert import Table, by_expected_value

# Imagined rest-of-hands per estimate: about ±2% on an equity, some 10 to 60 ms of work.
SAMPLES = 500
# How often an opponent holds any hand rather than one like their draws (a snow, a misjudged
# draw): the estimate never counts a pat hand as surely made.
ANY_HAND = 0.03
# Tries at a made low for a player who stood pat before dealing any low cards instead.
PAT_TRIES = 20
# How likely a player bets or raises with a hand the Standard AI would only call or check with:
# a bluff, or a misjudgement.
BLUFFS = 0.02

_SUITS = "cdhs"  # in the order in_hand_order sorts them, so a hand's order is its ints' order


def card_int(card: FrenchCard) -> int:
    assert card.rank is not None and card.suit is not None
    value = 14 if card.rank == 1 else int(card.rank)
    return (value - 2) * 4 + _SUITS.index(card.suit.value)


def value(card: int) -> int:
    """The card's deuce-to-seven value: 2 lowest, ace 14."""
    return (card >> 2) + 2


def low_key(hand: Sequence[int]) -> int:
    """Deuce-to-seven order: the smaller the key, the better (lower) the hand; equal hands
    tie. Categories from no pair up to a straight flush, then the ranks, the most held first."""
    counts = Counter(card >> 2 for card in hand)
    ranks = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    flush = len({card & 3 for card in hand}) == 1
    if len(counts) == HAND_SIZE:
        straight = ranks[0] - ranks[-1] == HAND_SIZE - 1
        category = 8 if straight and flush else 5 if flush else 4 if straight else 0
    else:
        category = PAIRED_CATEGORY[tuple(sorted(counts.values(), reverse=True))]
    key = category
    for rank in ranks:
        key = key * 16 + rank
    return key << 4 * (HAND_SIZE - len(ranks))


PAIRED_CATEGORY = {(2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6, (4, 1): 7}


def is_made(hand: Sequence[int]) -> bool:
    """No pair, straight or flush: the hand ranks by its top cards alone."""
    return low_key(hand) < 1 << 4 * HAND_SIZE


def keep_ints(hand: Sequence[int], left: int) -> list[int]:
    """The Standard AI's draw (`keep`): a made low stands pat while its top is low enough;
    else one card of each low rank (of a pair, the one whose suit is rarest in the hand),
    a straight or flush of low cards broken at its top."""
    if is_made(hand) and value(max(hand)) <= PAT_TOP[left]:
        return list(hand)
    suits = Counter(card & 3 for card in hand)
    by_rank: dict[int, int] = {}
    for card in sorted(sorted(hand, reverse=True), key=lambda card: suits[card & 3]):
        if value(card) <= KEEP_TOP[left]:
            by_rank.setdefault(card >> 2, card)
    kept = sorted(by_rank.values())
    if len(kept) == HAND_SIZE:
        kept.pop()
    return kept


# ---- the hands the draws imply ----------------------------------------------------------------


def implied_hand(draws: Sequence[int], stub: list[int], rng: random.Random) -> list[int]:
    """A hand like these draws, taken from the top of the shuffled `stub` (which loses it)."""
    if not draws or rng.random() < ANY_HAND:
        return take(stub, HAND_SIZE, anything)
    left = DRAWS + 1 - len(draws)
    if draws[-1] == 0:
        return pat_hand(stub, PAT_TOP[left])
    low = distinct_low(stub, HAND_SIZE - draws[-1], KEEP_TOP[left])
    return low + take(stub, HAND_SIZE - len(low), anything)


def pat_hand(stub: list[int], top: int) -> list[int]:
    """A made low no higher than `top`, as a player who stood pat holds (any hand where a few
    tries find none)."""
    for _ in range(PAT_TRIES):
        hand = distinct_low(stub, HAND_SIZE, top)
        if len(hand) == HAND_SIZE and is_made(hand):
            return hand
        stub += hand  # back at the bottom; the next try looks further down
    return take(stub, HAND_SIZE, anything)


def distinct_low(stub: list[int], count: int, top: int) -> list[int]:
    """`count` cards of distinct ranks up to `top`, the first such in the stub."""
    seen: set[int] = set()

    def wanted(card: int) -> bool:
        rank = card >> 2
        if value(card) > top or rank in seen:
            return False
        seen.add(rank)
        return True

    return take(stub, count, wanted)


def anything(card: int) -> bool:
    return True


def take(stub: list[int], count: int, wanted: Callable[[int], bool]) -> list[int]:
    """The first `count` cards of the stub that are `wanted`, taken out of it."""
    taken: list[int] = []
    index = 0
    while len(taken) < count and index < len(stub):
        if wanted(stub[index]):
            taken.append(stub.pop(index))
        else:
            index += 1
    return taken


# ---- what a Standard player makes of its hand ------------------------------------------------


def standard_chance(hand: Sequence[int], draws_left: int, lasts: Sequence[int | None]) -> float:
    """The Standard AI's chance of beating every opponent (`winning_chance`) with `hand`, its
    opponents' last draws `lasts` (None: none yet), `draws_left` after this betting round."""
    chance = 1.0
    for last in lasts:
        chance *= chance_against_one_ints(hand, draws_left, last)
    return chance


def chance_against_one_ints(hand: Sequence[int], draws_left: int, last: int | None) -> float:
    """`chance_against_one` on ints."""
    if draws_left == 0:
        final = value(max(hand)) if is_made(hand) else 0
        return FINAL_CHANCE[final][min(last or 0, 2)]
    kept = keep_ints(hand, draws_left)
    if len(kept) == HAND_SIZE:
        return PAT_CHANCE.get(value(max(kept)), PAT_CHANCE[max(PAT_CHANCE)])
    return DRAWING_CHANCE[draws_left][len(kept)]


# ---- a betting decision, imagined to the showdown ----------------------------------------------


@dataclass(frozen=True)
class Opponent:
    """An opponent still in the hand, as the seat sees them."""

    draws: tuple[int, ...]  # cards drawn at each of their draws so far
    raised: bool  # bet or raised in this round, as far as the seat can tell

    @property
    def last(self) -> int | None:
        return self.draws[-1] if self.draws else None


@dataclass(frozen=True)
class Spot:
    """A betting decision as the seat sees it: its cards and the opponents still in."""

    mine: tuple[int, ...]
    my_last: int | None  # the seat's own last draw
    opponents: tuple[Opponent, ...]
    draws_left: int  # draws after this betting round

    @classmethod
    def of(cls, view: LowballView, seat: int) -> Spot:
        me = view.seats[seat]
        forced = view.small_bet if view.betting_round == 1 else 0  # the big blind
        top = max(s.bet for s in view.seats)
        opponents = tuple(
            Opponent(draws=tuple(s.draws), raised=s.bet == top > max(me.bet, forced))
            for s in view.seats
            if s.seat != seat and s.in_hand
        )
        return cls(
            mine=tuple(card_int(card) for card in view.my_cards or []),
            my_last=me.draws[-1] if me.draws else None,
            opponents=opponents,
            draws_left=DRAWS + 1 - view.betting_round,
        )

    def lasts_seen_by(self, index: int) -> list[int | None]:
        """The last draws of opponent `index`'s own opponents: the seat and the others."""
        others = [o.last for place, o in enumerate(self.opponents) if place != index]
        return [self.my_last, *others]

    def deal(self, rng: random.Random) -> list[list[int]]:
        """Each hand (the seat's first) as the draws imply, then the stub."""
        stub = [card for card in range(52) if card not in self.mine]
        rng.shuffle(stub)
        hands = [list(self.mine)]
        hands += [implied_hand(opponent.draws, stub, rng) for opponent in self.opponents]
        return [*hands, stub]

    def weight(self, hands: Sequence[list[int]]) -> float:
        """How likely the opponents' bets in this round are with these hands: surely with a
        hand the Standard AI bets or raises with (by its chance, `standard_chance`), else
        only as a bluff."""
        weight = 1.0
        strong = 1 / (len(self.opponents) + 1) + RAISE_EDGE
        for index, opponent in enumerate(self.opponents):
            if not opponent.raised:
                continue
            chance = standard_chance(hands[index], self.draws_left, self.lasts_seen_by(index))
            if chance < strong:
                weight *= BLUFFS
        return weight


def showdown_keys(hands: list[list[int]], stub: list[int], draws_left: int) -> list[int]:
    """Each hand's deuce-to-seven key once every draw to come is drawn as Standard draws."""
    hands = [hand[:] for hand in hands]
    for left in range(draws_left, 0, -1):
        for player, hand in enumerate(hands):
            kept = keep_ints(hand, left)
            missing = len(hand) - len(kept)
            hands[player] = kept + stub[:missing]
            del stub[:missing]
    return [low_key(hand) for hand in hands]


def share(keys: Sequence[int]) -> float:
    """The seat's (the first key's) share of the pot at the showdown."""
    best = min(keys)
    return 1 / keys.count(best) if keys[0] == best else 0.0


def equity(
    spot: Spot, rng: random.Random, samples: int = SAMPLES, seconds: float | None = None
) -> float:
    """The seat's expected share of the pot at the showdown, over imagined deals weighed by
    the opponents' bets in this round (a fixed number of them; fewer past `seconds`)."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    shared = total = 0.0
    for _ in range(samples):
        *hands, stub = spot.deal(rng)
        weight = spot.weight(hands[1:])
        shared += weight * share(showdown_keys(hands, stub, spot.draws_left))
        total += weight
        if deadline is not None and time.perf_counter() > deadline:
            break
    return shared / total


def expert_bet(view: LowballView, seat: int, legal: list[Action], rng, seconds) -> Action:
    """The bet worth most in chips at the seat's equity against the implied hands."""
    spot = Spot.of(view, seat)
    table = Table(pot=view.pot, to_call=view.to_call, opponents=len(spot.opponents))
    return by_expected_value(equity(spot, rng, seconds=seconds), table, legal)
