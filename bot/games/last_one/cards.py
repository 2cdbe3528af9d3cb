"""Last One's cards: the pack (two jokers), their points, the order hands are shown in, how a
named card reads, and whether a deal fits the pack.
"""

from __future__ import annotations

from bot.cards import FrenchCard, Rank, Suit, french_deck
from bot.i18n import N_, _

MIN_PLAYERS, MAX_PLAYERS = 2, 6
DECK_SIZE = 54
PENALTY_CARDS = 2
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
# A suit in words (said with _(); in English, also the key of the joker's per-suit selects).
SUIT_NAMES = {Suit.SPADES: N_("spades"), Suit.HEARTS: N_("hearts"), Suit.DIAMONDS: N_("diamonds"),
              Suit.CLUBS: N_("clubs")}  # fmt: skip
NAMED_CARDS = {Suit.SPADES: N_("the {rank} of spades"), Suit.HEARTS: N_("the {rank} of hearts"),
               Suit.DIAMONDS: N_("the {rank} of diamonds"),
               Suit.CLUBS: N_("the {rank} of clubs")}  # fmt: skip


def full_deck() -> list[FrenchCard]:
    return french_deck(jokers=True)


def card_points(card: FrenchCard) -> int:
    """What a card left in hand scores: joker 40, 8 25, A 15, K Q J 10, others their pips."""
    rank = card.rank
    if rank is None:  # a joker
        return 40
    if rank == Rank.EIGHT:
        return 25
    if rank == Rank.ACE:
        return 15
    return min(int(rank), 10)


def is_wild(card: FrenchCard) -> bool:
    """An 8 or a joker: playable on anything."""
    return card.is_joker or card.rank == Rank.EIGHT


def hand_order(card: FrenchCard) -> tuple[int, int, int]:
    """By suit (♠ ♥ ♦ ♣), A to K, jokers last."""
    rank = card.rank
    return (1, 0, 0) if rank is None else (0, SUITS.index(card.suit), rank)


def sort_cards(cards: list[FrenchCard]) -> list[FrenchCard]:
    return sorted(cards, key=hand_order)


def named_text(rank: Rank, suit: Suit) -> str:
    """A card a joker stands for, or the next card of a melee, in words: it may lie hidden in
    someone's hand, so it is never written as a card label."""
    return _(NAMED_CARDS[suit], rank=rank.label)


def deal_refusal(hand_size: int, players: int) -> str | None:
    """Why the pack can't deal `hand_size` cards to each of `players` and keep an upcard (nine
    at six), or None. Players only drop out, so a size the first deal allows lasts the match."""
    most = (DECK_SIZE - 1) // hand_size
    if players <= most:
        return None
    return _(
        "The pack can't deal {size} cards each to {players} players and keep an upcard: "
        "start with {most} players or fewer, or open a table with a smaller hand size.",
        size=hand_size,
        players=players,
        most=most,
    )
