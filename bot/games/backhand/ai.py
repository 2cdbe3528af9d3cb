"""Backhand's AI: it counts the shoe.

Every dealt card is face up, so the cards left in the stock are the shoe less every card on
the table, and the view shows them all. From that count the AI plays each hand to its best
chance of winning: it calls backhand when the next card busts it more often than hitting on
(to five cards or a later backhand) wins, and it pushes a push hand away unless the card that
plays the push is likelier to keep it at 21 or less than a fresh hand is to win. It bets the
most it may when a fresh hand from a full shoe wins more often than it loses, else the least:
the shoe is reshuffled before every hand, so nothing seen earlier changes that.

That is already the play worth the most chips, so the Expert plays as Standard does: every hand
is won or lost at even money, so a play's expected chips are the bet times 2p - 1 (p its chance
to win), and the bet the most while p is above a half. The only estimate, a fresh hand's chance
with the cards drawn as if put back, decides nothing in play: a push played is 0.12 or more
less likely to win than one pushed away at every decision met in thousands of hands
(tests/engines/test_backhand_expected_value.py counts them exactly).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache, lru_cache

from bot.engine import Action, Decision, Policy
from bot.games.backhand.cards import (
    AUTO_DEAL_BELOW,
    BUST_OVER,
    FIVE_CARDS,
    MOST_DRAWN_PER_PLAYER,
    PUSH_HIGH,
    PUSH_LOW,
    card_value,
    packs_for,
)
from bot.games.backhand.records import (
    BackhandKind,
    BackhandView,
    Bet,
    CallBackhand,
    Hit,
    PlayPush,
    PushAway,
)

ACE, TOP_VALUE = 1, 10
Counts = tuple[int, ...]  # cards of each value 1 (ace) ... 10 (tens and faces)
FIXED_POINT_ROUNDS = 30  # a fresh hand's value, which a push away leads back to, converges


def counts_of(cards) -> Counter[int]:
    return Counter(card_value(card) for card in cards)


def as_counts(counter: Counter[int]) -> Counts:
    return tuple(counter[value] for value in range(ACE, TOP_VALUE + 1))


@cache
def shoe_counts(seats: int) -> Counts:
    return as_counts(counts_of(packs_for(seats)))


def stock_counts(view: BackhandView) -> Counts:
    """The values left to draw: the shoe less every card on the table. When the stock is too
    low for the next play, the engine first shuffles the cards out of play back into it, so
    then only the cards of hands still being played stay out."""
    dealt_in = sum(player.dealt_in for player in view.players)
    refilled = view.stock < MOST_DRAWN_PER_PLAYER * dealt_in
    out: Counter[int] = Counter()
    for player in view.players:
        if refilled:
            out += counts_of(player.cards if player.outcome is None else [])
        else:
            extra = [player.backhand] if player.backhand else []
            out += counts_of(player.cards + player.discarded + extra)
    shoe = shoe_counts(len(view.players))
    return tuple(count - out[value] for value, count in enumerate(shoe, start=ACE))


def draws(counts: Counts):
    """(value, chance, the counts left) for every value the next card may have."""
    left = sum(counts)
    for index, count in enumerate(counts):
        if count:
            rest = (*counts[:index], count - 1, *counts[index + 1 :])
            yield index + ACE, count / left, rest


def bust_chance(counts: Counts, total: int) -> float:
    """The chance the next card would take `total` over 21: calling backhand's chance."""
    room = BUST_OVER - total
    return sum(counts[room:]) / sum(counts) if sum(counts) else 0.0


@lru_cache(maxsize=50_000)
def hit_chance(counts: Counts, total: int, cards: int) -> float:
    """The chance of winning by hitting now and playing on at best, drawing from `counts`."""
    chance = 0.0
    for value, share, rest in draws(counts):
        if total + value > BUST_OVER:
            continue
        won = cards + 1 == FIVE_CARDS or best_chance(rest, total + value, cards + 1)
        chance += share * won
    return chance


def best_chance(counts: Counts, total: int, cards: int) -> float:
    return max(bust_chance(counts, total), hit_chance(counts, total, cards))


@lru_cache(maxsize=4096)
def fresh_hand_chance(counts: Counts) -> float:
    """The chance a fresh two-card hand wins, played at best, with every card drawn in the
    shares of `counts` (their removal ignored: this only weighs a push away, or a bet)."""
    total_cards = sum(counts)
    if not total_cards:
        return 0.0
    share = [count / total_cards for count in counts]
    # An ace among the first two cards is replaced once; a replacement ace stays.
    first = [share[index] + share[0] * share[index] for index in range(len(share))]
    first[0] = share[0] * share[0]

    @cache
    def played(total: int, cards: int) -> float:
        """Dealt up to 12 (five cards win), then hit or backhand at best."""
        if total > BUST_OVER:
            return 0.0
        if cards == FIVE_CARDS:
            return 1.0
        hit = sum(p * played(total + value, cards + 1) for value, p in enumerate(share, ACE))
        if total < AUTO_DEAL_BELOW:
            return hit
        return max(sum(share[BUST_OVER - total :]), hit)

    def dealt(fresh: float) -> float:
        """A fresh hand's chance, given the chance of the fresh hand a push away leads to."""
        chance = 0.0
        for one, p_one in enumerate(first, ACE):
            for two, p_two in enumerate(first, ACE):
                total = one + two
                if PUSH_LOW <= total <= PUSH_HIGH:
                    chance += p_one * p_two * max(sum(share[: BUST_OVER - total]), fresh)
                else:
                    chance += p_one * p_two * played(total, 2)
        return chance

    fresh = 0.5
    for _ in range(FIXED_POINT_ROUNDS):
        fresh = dealt(fresh)
    return fresh


class BackhandPolicy(Policy[BackhandView]):
    game_id = "backhand"

    def choose(
        self,
        seat: int,
        view: BackhandView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        me = view.players[seat]
        if decision.kind == BackhandKind.BET:
            full_shoe = shoe_counts(len(view.players))
            return Bet(chips=me.cap if fresh_hand_chance(full_shoe) > 0.5 else view.min_bet)
        counts = stock_counts(view)
        if me.push:
            plays_push = 1 - bust_chance(counts, me.total)
            return PlayPush() if plays_push > fresh_hand_chance(counts) else PushAway()
        backhand = bust_chance(counts, me.total)
        return CallBackhand() if backhand >= hit_chance(counts, me.total, len(me.cards)) else Hit()
