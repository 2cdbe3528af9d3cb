"""French-suited cards and the decks built from them.

One card type serves the 52-card pack with jokers, the Italian 40, the Spanish 48 and the
Totit 60: the rule texts build all of them from standard packs. Copies from several packs
stay distinguishable through `pack` (1-based); pack 1 prints without a suffix, others as
`As#2`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from functools import lru_cache

from bot.cards.base import KNOWN_CODES, CardParseError, CodedCard
from bot.i18n import current, p_


class Suit(StrEnum):
    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SUIT_SYMBOLS.items()}


class Rank(IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        """As card codes write it, whatever the language: "A", "10", "K"."""
        return RANK_CODES.get(self, str(int(self)))

    @property
    def label(self) -> str:
        """As players read it, in their language ("K" is "R" in French)."""
        code = RANK_CODES.get(self)
        return str(int(self)) if code is None else p_(RANK_CONTEXT, code)


RANK_CONTEXT = "card rank"  # the catalogs' context of a face card's letter
RANK_CODES = {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"}
_RANK_BY_TEXT = {r.code: r for r in Rank} | {"T": Rank.TEN}


class Joker(StrEnum):
    BLACK = "BJ"
    RED = "RJ"


@dataclass(frozen=True, slots=True)
class FrenchCard(CodedCard):
    """A rank and suit, or a joker (rank and suit None)."""

    rank: Rank | None
    suit: Suit | None
    joker: Joker | None = None
    pack: int = 1
    # Written once: snapshots and views turn every card into its code at every step.
    _code: str = field(init=False, repr=False, compare=False)

    _expected = "like As, Kd, 10h, Th, 2♣, BJ or RJ"
    _code_attribute = "_code"

    def __post_init__(self) -> None:
        face = self.joker.value if self.joker else f"{self._rank.code}{self._suit.value}"
        object.__setattr__(self, "_code", face if self.pack == 1 else f"{face}#{self.pack}")

    def __hash__(self) -> int:
        # The code's (equal cards have equal codes), whose hash the string keeps: a set or dict
        # of cards (a hand's plays, a picker's places) hashes no tuple of four fields per card.
        return hash(self._code)

    @property
    def _rank(self) -> Rank:
        # Only jokers lack a rank and a suit, and callers ask after checking `joker`.
        assert self.rank is not None
        return self.rank

    @property
    def _suit(self) -> Suit:
        assert self.suit is not None
        return self.suit

    @property
    def is_joker(self) -> bool:
        return self.joker is not None

    @property
    def code(self) -> str:
        return self._code

    @property
    def label(self) -> str:
        """How players see the card, in their language: `A♠`, `10♥`, `BJ`."""
        # Every drawn hand and picker button shows labels: written once per code and
        # language, shared by every copy of the card (each table's deal makes its own).
        labels = _LABELS.get(current())
        if labels is None:
            labels = _LABELS[current()] = {}
        label = labels.get(self._code)
        if label is None:
            face = (
                p_(RANK_CONTEXT, self.joker.value)
                if self.joker
                else f"{self._rank.label}{self._suit.symbol}"
            )
            label = face if self.pack == 1 else f"{face}#{self.pack}"
            if len(labels) < KNOWN_CODES:
                labels[self._code] = label
        return label

    @classmethod
    def from_code(cls, text: str) -> FrenchCard:
        match = _CARD_PATTERN.fullmatch(text.strip())
        if match is None:
            raise CardParseError(text, cls._expected)
        face, pack = match["face"].upper(), int(match["pack"] or 1)
        if pack < 1:
            raise CardParseError(text, "pack numbers start at 1")
        if face in ("BJ", "RJ"):
            return the_card(None, None, Joker(face), pack)
        rank = _RANK_BY_TEXT.get(face[:-1])
        suit = _SUIT_BY_TEXT.get(face[-1].lower())
        if rank is None or suit is None:
            raise CardParseError(text, cls._expected)
        return the_card(rank, suit, None, pack)


@lru_cache(maxsize=KNOWN_CODES)
def the_card(rank: Rank | None, suit: Suit | None, joker: Joker | None, pack: int) -> FrenchCard:
    """One shared instance per card (cards are immutable). A fresh deck at every deal made 52
    new objects that lived for the hand, long enough for the garbage collector to walk them
    again and again: at 500 tables they were a quarter of what it walked."""
    return FrenchCard(rank, suit, joker, pack)


_LABELS: dict[str, dict[str, str]] = {}  # language -> code -> label
_CARD_PATTERN = re.compile(r"(?P<face>[^\s#]{2,3})(?:#(?P<pack>\d+))?")


def parse_french(text: str) -> list[FrenchCard]:
    """Read cards separated by spaces or commas: `As Kd Th 10h 2c BJ`."""
    return [FrenchCard.from_code(token) for token in re.split(r"[\s,]+", text.strip()) if token]


def format_french(cards: list[FrenchCard]) -> str:
    return " ".join(card.code for card in cards)


def _copies(faces: list[tuple[Rank, Suit]], packs: int) -> list[FrenchCard]:
    return [the_card(rank, suit, None, p) for p in range(1, packs + 1) for rank, suit in faces]


def _faces(ranks: Sequence[Rank], suits: Sequence[Suit]) -> list[tuple[Rank, Suit]]:
    return [(rank, suit) for suit in suits for rank in ranks]


def french_deck(*, jokers: bool = False, packs: int = 1) -> list[FrenchCard]:
    """52 cards per pack, plus a black and a red joker per pack when asked."""
    cards = _copies(_faces(list(Rank), list(Suit)), packs)
    if jokers:
        cards += [the_card(None, None, j, p) for p in range(1, packs + 1) for j in Joker]
    return cards


def italian_deck() -> list[FrenchCard]:
    """40 cards: A-7 and J, Q, K in four suits (no 8, 9, 10)."""
    ranks = [r for r in Rank if r not in (Rank.EIGHT, Rank.NINE, Rank.TEN)]
    return _copies(_faces(ranks, list(Suit)), 1)


def spanish_deck() -> list[FrenchCard]:
    """48 cards: a French pack without the 10s."""
    return _copies(_faces([r for r in Rank if r != Rank.TEN], list(Suit)), 1)


def totit_deck() -> list[FrenchCard]:
    """60 cards: two packs of A-9 of spades, hearts and diamonds plus J, Q, K of clubs."""
    low = _faces([r for r in Rank if r <= Rank.NINE], [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS])
    faces = _faces([Rank.JACK, Rank.QUEEN, Rank.KING], [Suit.CLUBS])
    return _copies(low + faces, 2)
