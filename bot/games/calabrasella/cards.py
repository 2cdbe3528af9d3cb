"""Calabrasella's cards: their order and points, what a declarer may name, what a hand
pays, and why a widow move is refused.
"""

from __future__ import annotations

from bot.cards import FrenchCard, Rank, Suit
from bot.games.tricks import TrickRules
from bot.i18n import _, n_

PLAYERS = 3
HAND = 12
WIDOW = 4
TRICKS = 12
LAST_TRICK = 3
SLAM = 35  # every point of a hand: 32 in the cards, 3 for the last trick
SLAM_PAYMENT = 70
MAX_DISCARD = 4
ORDER = (
    Rank.THREE,
    Rank.TWO,
    Rank.ACE,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.SEVEN,
    Rank.SIX,
    Rank.FIVE,
    Rank.FOUR,
)
RULES = TrickRules(order=ORDER)
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
DECLARER, DEFENDERS = 0, 1  # the two sides of the won piles


def card_points(card: FrenchCard) -> int:
    if card.rank == Rank.ACE:
        return 3
    if card.rank in (Rank.THREE, Rank.TWO, Rank.KING, Rank.QUEEN, Rank.JACK):
        return 1
    return 0


def sort_key(card: FrenchCard) -> tuple[int, int]:
    """Hands are shown by suit, the highest card first."""
    return SUITS.index(card.suit), ORDER.index(card.rank)


def lowness(card: FrenchCard) -> tuple[int, int, int]:
    """Smaller is a card one gives up sooner: lower rank, fewer points, suit order."""
    return RULES.power(card), card_points(card), SUITS.index(card.suit)


def nameable(hand: list[FrenchCard]) -> list[FrenchCard]:
    """The cards a declarer may name: the 3s they lack, or, holding all four 3s, the 2s."""
    for rank in (Rank.THREE, Rank.TWO):
        lacking = [FrenchCard(rank, suit) for suit in SUITS if FrenchCard(rank, suit) not in hand]
        if lacking:
            return lacking
    return []


def payment(declarer_points: int, defender_points: int) -> int:
    """What each defender pays the declarer (positive) or is paid by the declarer (negative):
    the difference of the scores, 70 at 35-0; nothing on a tie."""
    difference = declarer_points - defender_points
    if abs(difference) == SLAM:
        return SLAM_PAYMENT if difference > 0 else -SLAM_PAYMENT
    return difference


def defenders_of(declarer: int) -> list[int]:
    """The declarer's left, then right."""
    return [(declarer + 1) % PLAYERS, (declarer + 2) % PLAYERS]


def pay(stacks: list[int], declarer: int, per_defender: int) -> bool:
    """Move the hand's payment (`payment`) between the stacks; nobody pays more than they
    hold, and a short declarer's payment is split evenly, an odd chip to the defender on
    their left. True when someone paid short."""
    defenders = defenders_of(declarer)
    if per_defender > 0:
        short = False
        for defender in defenders:
            paid = min(per_defender, stacks[defender])
            short |= paid < per_defender
            stacks[defender] -= paid
            stacks[declarer] += paid
        return short
    if per_defender < 0:
        owed = -2 * per_defender
        paid = min(owed, stacks[declarer])
        stacks[declarer] -= paid
        stacks[defenders[0]] += paid - paid // 2
        stacks[defenders[1]] += paid // 2
        return paid < owed
    return False


def name_reason(hand: list[FrenchCard]) -> str:
    if all(FrenchCard(Rank.THREE, suit) in hand for suit in SUITS):
        return _("You hold all four 3s: name a 2 you don't hold.")
    return _("Name a 3 you don't hold.")


def discard_reason(cards: list[FrenchCard], hand: list[FrenchCard]) -> str | None:
    if not 1 <= len(cards) <= MAX_DISCARD:
        return _("Discard 1 to 4 cards.")
    if len(set(cards)) != len(cards):
        return _("Discard different cards.")
    if not set(cards) <= set(hand):
        return _("You can only discard cards you hold.")
    return None


def take_reason(cards: list[FrenchCard], widow: list[FrenchCard], count: int) -> str | None:
    if len(cards) != count:
        return n_(
            "Take {count} card from the widow, as many as you discarded.",
            "Take {count} cards from the widow, as many as you discarded.",
            count,
        )
    if len(set(cards)) != len(cards) or not set(cards) <= set(widow):
        return _("Take cards from the widow.")
    return None
