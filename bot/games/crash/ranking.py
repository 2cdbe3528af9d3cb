"""Crash's hand ranking: the brag key of a three-card hand (what beats what), hands' names,
and what a legal arrangement of the thirteen cards is.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations

from bot.cards import FrenchCard, Rank, Suit, french_deck
from bot.games.jokerless import rank_of
from bot.i18n import _, n_

MIN_SEATS, MAX_SEATS = 2, 4
DEALT = 13  # cards per player
HAND_CARDS = 3  # cards in a Brag hand
MAX_HANDS = 4  # positions scored per deal
SUGGESTED = 6  # arrangements `legal_actions` offers
SIX_PAIRS = 6
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
# Four-of-a-kind bonus: 4s beat everything, then aces, then the usual order down to 2s.
QUAD_ORDER = (
    Rank.FOUR,
    Rank.ACE,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.TEN,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
    Rank.SIX,
    Rank.FIVE,
    Rank.THREE,
    Rank.TWO,
)


# ---- three-card Brag hands ------------------------------------------------------------------


class Category(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    RUN = 3
    RUNNING_FLUSH = 4
    PRIAL = 5


BragKey = tuple[int, int, int, int]  # (category, then values compared in order)


def high(rank: Rank | None) -> int:
    """A card's rank's value with the ace high (14)."""
    assert rank is not None  # no jokers (bot/games/jokerless.py); inline: hands are keyed a lot
    return 14 if rank == Rank.ACE else int(rank)


def run_top(values: Sequence[int]) -> int | None:
    """How high a run ranks (values sorted high first), or None for no run. A-2-3 is the
    highest run (15), then A-K-Q (14), K-Q-J (13) ... 4-3-2 (4) the lowest."""
    if list(values) == [14, 3, 2]:
        return 15
    if values[0] - 1 == values[1] and values[1] - 1 == values[2]:
        return values[0]
    return None


def brag_key(cards: Sequence[FrenchCard]) -> BragKey:
    """Compares three-card Brag hands: prial > running flush > run > flush > pair > high
    card. Prials: 3-3-3 highest, then A-A-A, K-K-K ... 2-2-2. Suits never break ties."""
    values = sorted((high(card.rank) for card in cards), reverse=True)
    flush = len({card.suit for card in cards}) == 1
    top = run_top(values)
    if values[0] == values[2]:
        return (Category.PRIAL, 15 if values[0] == 3 else values[0], 0, 0)
    if top is not None:
        return (Category.RUNNING_FLUSH if flush else Category.RUN, top, 0, 0)
    if flush:
        return (Category.FLUSH, values[0], values[1], values[2])
    if values[0] == values[1] or values[1] == values[2]:
        pair = values[1]
        kicker = values[2] if values[0] == pair else values[0]
        return (Category.PAIR, pair, kicker, 0)
    return (Category.HIGH_CARD, values[0], values[1], values[2])


def category(cards: Sequence[FrenchCard]) -> Category:
    return Category(brag_key(cards)[0])


@functools.cache
def all_keys() -> list[BragKey]:
    """The keys of all 22,100 three-card hands, weakest first."""
    return sorted(brag_key(hand) for hand in combinations(french_deck(), HAND_CARDS))


@functools.cache
def strength(key: BragKey) -> int:
    """How many of the 22,100 three-card hands are weaker than a hand of this key."""
    return bisect_left(all_keys(), key)


def value_label(value: int) -> str:
    return Rank(1 if value in (14, 15) else value).label


def hand_name(cards: Sequence[FrenchCard]) -> str:
    """What a Brag hand is, in words: "prial of 3s", "run A-K-Q", "pair of 7s"."""
    key = brag_key(cards)
    kind = Category(key[0])
    if kind == Category.PRIAL:
        return _("prial of {rank}s", rank=rank_of(cards[0]).label)
    if kind in (Category.RUNNING_FLUSH, Category.RUN):
        values = [1, 2, 3] if key[1] == 15 else [key[1], key[1] - 1, key[1] - 2]
        run = "-".join(value_label(value) for value in values)
        if kind == Category.RUNNING_FLUSH:
            return _("running flush {ranks}", ranks=run)
        return _("run {ranks}", ranks=run)
    if kind == Category.FLUSH:
        return _("{rank}-high flush", rank=value_label(key[1]))
    if kind == Category.PAIR:
        return _("pair of {rank}s", rank=value_label(key[1]))
    return _("{rank} high", rank=value_label(key[1]))


def display_order(cards: Sequence[FrenchCard]) -> list[FrenchCard]:
    """Highest rank first (aces high), then ♠ ♥ ♦ ♣: pairs sit together."""
    return sorted(cards, key=lambda card: (-high(card.rank), SUIT_ORDER.index(card.suit)))


def ranked(hands: Sequence[Sequence[FrenchCard]]) -> list[list[FrenchCard]]:
    """A set's hands strongest first, as the bot lays them out (so a foul can't happen)."""
    ordered = sorted(hands, key=brag_key, reverse=True)
    return [display_order(hand) for hand in ordered]


def cards_label(cards: Sequence[FrenchCard]) -> str:
    return " ".join(card.label for card in cards)


def arrangement_problem(
    hands: Sequence[Sequence[FrenchCard]], held: Sequence[FrenchCard]
) -> str | None:
    """Why a set of hands can't be set from the cards `held`, or None when it can: up to four
    hands of exactly three of your own cards, none used twice, each a pair or better."""
    used = [card for hand in hands for card in hand]
    stranger = next((card for card in used if card not in held), None)
    if stranger is not None:
        return _("{card} is not in your hand.", card=stranger.label)
    twice = next((card for card, count in Counter(used).items() if count > 1), None)
    if twice is not None:
        return _("{card} is used twice: a card goes into one hand only.", card=twice.label)
    if len(hands) > MAX_HANDS:
        return n_("Set at most {count} hand.", "Set at most {count} hands.", MAX_HANDS)
    wrong = next((hand for hand in hands if len(hand) != HAND_CARDS), None)
    if wrong is not None:
        return n_(
            "A hand takes exactly {count} card, not {wrong}.",
            "A hand takes exactly {count} cards, not {wrong}.",
            HAND_CARDS,
            wrong=len(wrong),
        )
    weak = next((hand for hand in hands if category(hand) == Category.HIGH_CARD), None)
    if weak is not None:
        return _(
            "{cards} is only {hand}: every hand must be a pair or better.",
            cards=cards_label(weak),
            hand=hand_name(weak),
        )
    return None


def pair_count(cards: Sequence[FrenchCard]) -> int:
    """Pairs in a deal: a three of a kind holds one, a four of a kind two."""
    return sum(count // 2 for count in Counter(card.rank for card in cards).values())


def is_thirteen_card_straight(cards: Sequence[FrenchCard]) -> bool:
    """One card of every rank, ace down to 2 (any suits)."""
    return len(cards) == DEALT and {card.rank for card in cards} == set(Rank)


def quad_power(rank: Rank) -> int:
    return len(QUAD_ORDER) - QUAD_ORDER.index(rank)


def quads_in_full(hands: Sequence[Sequence[FrenchCard]]) -> list[Rank]:
    """Ranks whose four cards are all in these set hands (in one hand or spread over several)."""
    counts = Counter(rank_of(card) for hand in hands for card in hand)
    return [rank for rank, count in counts.items() if count == 4]
