"""Terrapin hand scoring, exactly as the variants' rules text states it (the Scoring of
bot/games/terrapin/western/rules.md, and of each variant's rules.md beside it).

Used for every betting variant's showdown and for each Soliterrapin row and column.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from bot.cards.decktet import ACE, CROWN, DecktetCard, Suit

PAIR_POINTS = 5
ALL_SUITS = frozenset(Suit)


def is_turtle_butt(cards: Iterable[DecktetCard]) -> bool:
    """All six suits present among the cards."""
    return {suit for card in cards for suit in card.suits} >= ALL_SUITS


def score(cards: Iterable[DecktetCard]) -> int:
    """Points for a hand: 0 for Turtle Butt, else pairs (and extra Aces/Crowns) + straight."""
    cards = list(cards)
    if not cards or is_turtle_butt(cards):
        return 0
    return _pair_points(cards) + 2 * (longest_straight(cards) - 1)


def _pair_points(cards: list[DecktetCard]) -> int:
    points = 0
    for rank, count in Counter(card.rank for card in cards).items():
        if count >= 2:
            # Three of a numbered rank is always Turtle Butt, so only Aces and Crowns go on.
            extra = count - 2 if rank in (ACE, CROWN) else 0
            points += PAIR_POINTS * (1 + extra)
    return points


def longest_straight(cards: Iterable[DecktetCard]) -> int:
    """Length of the longest run of distinct consecutive ranks (Ace 1 ... Crown 10, no wrap)."""
    ranks = {card.rank for card in cards}
    best = 0
    for rank in ranks:
        if rank - 1 not in ranks:
            length = 1
            while rank + length in ranks:
                length += 1
            best = max(best, length)
    return best
