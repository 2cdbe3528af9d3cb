"""Porrazo's plays: card order and points, what a card may take from the table (capture,
placing in place, porrazo), why a play is refused, and the tendido's arrangement. The engine
and the picker's preview share them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from bot.cards import FrenchCard, Rank, Suit
from bot.engine import IllegalAction
from bot.games.captures import (
    match_captures,
    sequence_captures,
    verify_match_capture,
    verify_sequence_capture,
)
from bot.games.jokerless import rank_of
from bot.i18n import _

MIN_SEATS, MAX_SEATS = 2, 5
PARTNERSHIP_SEATS = 4
SIDES = 2  # in a partnership game
HAND_SIZE = 3
TENDIDO_SIZE = 4
TARGET = 61
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
FACE_VALUES = {Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}  # a ronda; 10 down to A: 1
SET_TIMES = {2: 1, 3: 3, 4: 6}  # a ronda, a rondine (x3), four of a kind (two rondines)
SetName = Literal["ronda", "rondine"]
SET_NAMES: dict[int, SetName] = {2: "ronda", 3: "rondine"}
Move = Literal[
    "placed", "in_place", "pair", "sequence", "limpia", "porrazo", "counter", "san_benito", "last"
]
SAN_BENITO = 4  # the fourth card of a rank in a row


def card_key(card: FrenchCard) -> tuple[int, int]:
    """Aces low, then ♠ ♥ ♦ ♣."""
    return pip(card), SUIT_ORDER.index(card.suit)


def sort_cards(cards: Sequence[FrenchCard]) -> list[FrenchCard]:
    return sorted(cards, key=card_key)


def ronda_points(rank: Rank) -> int:
    return FACE_VALUES.get(rank, 1)


def set_points(rank: Rank, size: int) -> int:
    """A pair scores as a ronda, three as a rondine, four as two rondines."""
    return ronda_points(rank) * SET_TIMES[size]


def pip(card: FrenchCard) -> int:
    rank = card.rank
    assert rank is not None  # no jokers (bot/games/jokerless.py); inline: sorts call it a lot
    return int(rank)


def last_rank(card: FrenchCard, length: int) -> Rank:
    """The last rank of a run of `length` ranks starting at `card`'s (K-A wraps)."""
    return Rank((pip(card) - 1 + length - 1) % 13 + 1)


def run_order(card: FrenchCard, taken: Sequence[FrenchCard]) -> list[FrenchCard]:
    """Taken cards as the run reads from `card`'s rank (Q K A 2)."""
    return sorted(taken, key=lambda other: ((pip(other) - pip(card)) % 13, card_key(other)))


def declarable(hand: Sequence[FrenchCard]) -> list[FrenchCard]:
    """The cards of the pair or three of a kind in a hand of three (none: empty)."""
    counts = Counter(card.rank for card in hand)
    rank, count = max(counts.items(), key=lambda item: item[1], default=(None, 0))
    return [card for card in hand if card.rank == rank] if count >= 2 else []


# ---- captures: shared by the engine and the picker's preview -----------------------------------


def fits_in_place(card: FrenchCard, table: Sequence[FrenchCard]) -> bool:
    """An A-4 placed without capturing, whose pip is the number of open table cards once it
    lies there (a pending porrazo has stood and left the table by then)."""
    value = pip(card)
    return value <= Rank.FOUR and value == len(table) + 1


def capture_options(
    card: FrenchCard,
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
    trailed: FrenchCard | None = None,
) -> list[list[FrenchCard]]:
    """Every set of cards `card` may take: a pending porrazo of its rank (countering it), the
    card just placed (a porrazo), runs from its rank (longest first), then the other pairs."""
    options = [sort_cards(stack)] if stack and stack[0].rank == card.rank else []
    porrazo = trailed if trailed is not None and trailed.rank == card.rank else None
    if porrazo is not None:
        options.append([porrazo])
    options += [sort_cards(run) for run in sequence_captures(card, table).options]
    pairs = match_captures(card, table).options
    return options + [pair for pair in pairs if porrazo is None or pair != [porrazo]]


def play_options(
    card: FrenchCard,
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
    trailed: FrenchCard | None = None,
) -> list[list[FrenchCard]]:
    """What `card` may take, with the empty set when it may be placed: a card that can capture
    must, unless it is played in place."""
    captures = capture_options(card, table, stack, trailed)
    placing = not captures or fits_in_place(card, table)
    return captures + ([[]] if placing else [])


def play_problem(
    card: FrenchCard,
    take: Sequence[FrenchCard],
    hand: Sequence[FrenchCard],
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
) -> str | None:
    """Why playing `card` to take `take` is refused, or None when it is a legal play."""
    if card not in hand:
        return _("You don't hold that card.")
    if not take:
        if capture_options(card, table, stack) and not fits_in_place(card, table):
            return _(
                "Your {card} can capture, so it must: only a card played in place "
                "may pass up its capture.",
                card=card.label,
            )
        return None
    if set(take) & set(stack):
        if Counter(take) == Counter(stack) and card.rank == stack[0].rank:
            return None
        return _(
            "The porrazo's cards are taken all together, and only by a {rank}.",
            rank=rank_of(stack[0]).label,
        )
    if len(take) > 1 and all(taken.rank == card.rank for taken in take):
        return _("Your {card} takes only one card of its rank, even from a pair.", card=card.label)
    try:
        if len(take) == 1:
            verify_match_capture(card, take, table)
        else:
            verify_sequence_capture(card, take, table)
    except IllegalAction as refusal:
        return str(refusal)
    return None


def meant_take(
    card: FrenchCard,
    take: Sequence[FrenchCard],
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
) -> list[FrenchCard]:
    """What a card picked with `take` takes: as picked, except that a card picked alone that
    must capture and matches a pending porrazo counters it (the porrazo's cards lie apart from
    the table, so a player who means the counter-porrazo picks just the card)."""
    if take or not stack or stack[0].rank != card.rank or fits_in_place(card, table):
        return list(take)
    return sort_cards(stack)


def move_of(
    card: FrenchCard,
    take: Sequence[FrenchCard],
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
    trailed: FrenchCard | None = None,
) -> Move:
    """What a legal play is: placed, in_place, pair, sequence, limpia, porrazo, counter or
    san_benito."""
    if not take:
        return "in_place" if fits_in_place(card, table) else "placed"
    if stack and set(take) == set(stack):
        return "san_benito" if len(stack) + 1 == SAN_BENITO else "counter"
    if trailed is not None and list(take) == [trailed]:
        return "porrazo"
    if len(take) == len(table):
        return "limpia"
    return "pair" if len(take) == 1 else "sequence"


# ---- tendido -------------------------------------------------------------------------------------


def in_place_points(row: Sequence[FrenchCard]) -> int:
    """The pips of the cards lying in their own place (an A first, a 2 second, ...)."""
    return sum(pip(card) for place, card in enumerate(row, start=1) if pip(card) == place)


def arrangements(cards: Sequence[FrenchCard]) -> list[list[FrenchCard]]:
    """The rows a tendido may make: the cards of each pair swapped or not, counted from
    either end (which puts either pair first)."""
    first, second = list(cards[:2]), list(cards[2:])
    rows = []
    for lead, tail in ((first, second), (second, first)):
        for a in (lead, lead[::-1]):
            rows += [a + b for b in (tail, tail[::-1])]
    return rows


def best_arrangement(cards: Sequence[FrenchCard]) -> list[FrenchCard]:
    """The arrangement scoring the most (the row as dealt when nothing beats it)."""
    return max(arrangements(cards), key=in_place_points)


class TendidoSet(BaseModel):
    rank: Rank
    count: int
    points: int


def tendido_sets(tendido: Sequence[FrenchCard], table: Sequence[FrenchCard]) -> list[TendidoSet]:
    """The pairs, threes and fours a tendido forms with the cards already on the table."""
    counts = Counter(rank_of(card) for card in [*table, *tendido])
    ranks = sorted({rank_of(card) for card in tendido})
    return [
        TendidoSet(rank=rank, count=counts[rank], points=set_points(rank, counts[rank]))
        for rank in ranks
        if counts[rank] >= 2
    ]
