"""The basic 36-card Decktet (docs/decktet.md): Aces, 2-9 and Crowns.

Cards are known by name. Parsing is case-insensitive, "the" is optional, and names may be
separated by commas or just spaces: `Author, the Huntress Ace of Moons`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.cards.base import CardParseError, CodedCard
from bot.i18n import current, p_

ACE = 1
CROWN = 10


class Suit(StrEnum):
    MOONS = "Moons"
    SUNS = "Suns"
    WAVES = "Waves"
    LEAVES = "Leaves"
    WYRMS = "Wyrms"
    KNOTS = "Knots"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


# Plain Unicode stand-ins for the Decktet suit icons (text renderings only).
_SUIT_SYMBOLS = {
    Suit.MOONS: "☾",
    Suit.SUNS: "☀",
    Suit.WAVES: "≈",
    Suit.LEAVES: "♣",
    Suit.WYRMS: "§",
    Suit.KNOTS: "∞",
}


@dataclass(frozen=True, slots=True)
class DecktetCard(CodedCard):
    rank: int  # Ace = 1, 2-9, Crown = 10
    name: str  # "Author", "Ace of Moons"
    suits: tuple[Suit, ...]

    _expected = "a Decktet card name such as Author, the Huntress or Ace of Moons"
    _code_attribute = "name"

    @property
    def code(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        """The printed name: `the Author`, `Ace of Moons` (in English: cards are named so)."""
        return self.name if self.rank == ACE else f"the {self.name}"

    @property
    def shown_title(self) -> str:
        """The printed name in the reader's language (the Decktet's own translations')."""
        return p_(TITLE_CONTEXT, self.title)

    @property
    def rank_label(self) -> str:
        word = RANK_WORDS.get(self.rank)
        return str(self.rank) if word is None else p_(RANK_CONTEXT, word)

    @property
    def label(self) -> str:
        """How players see the card, in their language: `the Author (2 ☾∞)`."""
        key = (self.name, current())
        label = _LABELS.get(key)
        if label is None:  # drawn often: written once per language
            symbols = "".join(s.symbol for s in self.suits)
            label = _LABELS[key] = f"{self.shown_title} ({self.rank_label} {symbols})"
        return label

    @classmethod
    def from_code(cls, text: str) -> DecktetCard:
        card = _BY_KEY.get(_key(text))
        if card is None:
            raise CardParseError(text, cls._expected)
        return card


# The reference table: rank, then "name: suits" for each of that rank's cards.
_TABLE = """
Ace   Ace of Moons: Moons | Ace of Suns: Suns | Ace of Waves: Waves
Ace   Ace of Leaves: Leaves | Ace of Wyrms: Wyrms | Ace of Knots: Knots
2     Author: Moons Knots | Desert: Suns Wyrms | Origin: Waves Leaves
3     Journey: Moons Waves | Painter: Suns Knots | Savage: Leaves Wyrms
4     Mountain: Moons Suns | Sailor: Waves Leaves | Battle: Wyrms Knots
5     Forest: Moons Leaves | Discovery: Suns Waves | Soldier: Wyrms Knots
6     Lunatic: Moons Waves | Penitent: Suns Wyrms | Market: Leaves Knots
7     Chance Meeting: Moons Leaves | Castle: Suns Knots | Cave: Waves Wyrms
8     Diplomat: Moons Suns | Mill: Waves Leaves | Betrayal: Wyrms Knots
9     Pact: Moons Suns | Merchant: Leaves Knots | Darkness: Waves Wyrms
Crown Huntress: Moons | Bard: Suns | Sea: Waves
Crown End: Leaves | Calamity: Wyrms | Windfall: Knots
"""


def _read_table() -> tuple[DecktetCard, ...]:
    cards = []
    for line in _TABLE.strip().splitlines():
        rank_text, entries = line.split(maxsplit=1)
        rank = {"Ace": ACE, "Crown": CROWN}.get(rank_text) or int(rank_text)
        for entry in entries.split("|"):
            name, suits = entry.split(":")
            cards.append(DecktetCard(rank, name.strip(), tuple(Suit(s) for s in suits.split())))
    return tuple(cards)


DECK: tuple[DecktetCard, ...] = _read_table()
TITLE_CONTEXT, RANK_CONTEXT = "decktet card", "decktet rank"  # the catalogs' contexts
RANK_WORDS = {ACE: "Ace", CROWN: "Crown"}
_LABELS: dict[tuple[str, str], str] = {}  # (card, language) -> its label


def _key(text: str) -> str:
    words = text.lower().split()
    if words[:1] == ["the"]:
        words = words[1:]
    return " ".join(words)


_BY_KEY = {_key(card.name): card for card in DECK}
_LONGEST_NAME = max(len(key.split()) for key in _BY_KEY)


def deck() -> list[DecktetCard]:
    """A fresh list of the 36 basic cards in reference order."""
    return list(DECK)


def card(name: str) -> DecktetCard:
    """One card by name: `card("the Author")`."""
    return DecktetCard.from_code(name)


def parse(text: str) -> list[DecktetCard]:
    """Read card names separated by commas and/or spaces (greedy longest name first)."""
    cards: list[DecktetCard] = []
    for chunk in text.split(","):
        words = chunk.split()
        while words:
            cards.append(_take_name(words))
    return cards


def _take_name(words: list[str]) -> DecktetCard:
    """Remove the longest leading run of words that names a card and return that card."""
    start = 1 if words[0].lower() == "the" and len(words) > 1 else 0
    for end in range(min(len(words), start + _LONGEST_NAME), start, -1):
        found = _BY_KEY.get(" ".join(words[start:end]).lower())
        if found is not None:
            del words[:end]
            return found
    raise CardParseError(words[start], DecktetCard._expected)


def format_cards(cards: list[DecktetCard]) -> str:
    """The cards by name, in the reader's language."""
    return ", ".join(card.shown_title for card in cards)
