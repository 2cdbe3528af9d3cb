"""The rank and suit of a card that can't be a joker: in a game dealt without jokers, or one
the game has already told from a joker.

`FrenchCard` types both as optional because a joker has neither; reading them here says once
why they are there. (The hottest loops read the attribute and assert inline, saving the call.)
"""

from __future__ import annotations

from bot.cards import FrenchCard, Rank, Suit


def rank_of(card: FrenchCard) -> Rank:
    rank = card.rank
    assert rank is not None, f"{card.code} is a joker"
    return rank


def suit_of(card: FrenchCard) -> Suit:
    suit = card.suit
    assert suit is not None, f"{card.code} is a joker"
    return suit
