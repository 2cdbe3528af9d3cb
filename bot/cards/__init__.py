"""Decks and card parsing.

French-suited cards (52 + jokers, Italian 40, Spanish 48, Totit 60) live in
`bot.cards.french`; the Decktet lives in `bot.cards.decktet`.
"""

from bot.cards.base import CardParseError
from bot.cards.french import (
    FrenchCard,
    Joker,
    Rank,
    Suit,
    format_french,
    french_deck,
    italian_deck,
    parse_french,
    spanish_deck,
    totit_deck,
)

__all__ = [
    "CardParseError",
    "FrenchCard",
    "Joker",
    "Rank",
    "Suit",
    "format_french",
    "french_deck",
    "italian_deck",
    "parse_french",
    "spanish_deck",
    "totit_deck",
]
