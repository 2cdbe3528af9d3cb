"""Backhand's cards and bets: card values, the shoe (a pack per two players), and the bets
suggested as buttons.
"""

from __future__ import annotations

import math

from bot.cards import FrenchCard, french_deck
from bot.games.jokerless import rank_of

AUTO_DEAL_BELOW = 12  # a hand under 12 is dealt cards until it reaches 12
PUSH_LOW, PUSH_HIGH = 17, 20  # two cards totalling 17-20 make a push hand
BUST_OVER = 21
FIVE_CARDS = 5
LADDER = 5  # bet suggestions offered as buttons
ROUND_BETS = [mantissa * 10**power for power in range(7) for mantissa in (1, 2, 5)]
# The most cards one step can draw for one player: two new cards after a push away, two
# replacement aces, and three more up to five cards. The stock is refilled below that.
MOST_DRAWN_PER_PLAYER = 7


def card_value(card: FrenchCard) -> int:
    """Aces 1, faces 10, others their pips."""
    return min(int(rank_of(card)), 10)


def hand_total(cards: list[FrenchCard]) -> int:
    return sum(card_value(card) for card in cards)


def packs_for(seats: int) -> list[FrenchCard]:
    """One pack for every two players, rounded up."""
    return french_deck(packs=math.ceil(seats / 2))


def bet_ladder(low: int, high: int, last: int) -> list[int]:
    """Suggested bets: the minimum, the most allowed, the last bet, and round amounts
    spread between them."""
    picks = {low, high} | ({last} if low <= last <= high else set())
    steps = [amount for amount in ROUND_BETS if low < amount < high and amount not in picks]
    room = LADDER - len(picks)
    if room > 0 and steps:
        indices = {round((i + 1) * (len(steps) + 1) / (room + 1)) - 1 for i in range(room)}
        picks |= {steps[min(max(index, 0), len(steps) - 1)] for index in indices}
    return sorted(picks)
