"""Backhand's Standard AI (bot/games/backhand/ai.py) already plays for the most chips, so its
Expert plays as it does (issue 55 asked for an Expert that "uses expected value").

Every hand is won or lost at even money (five cards, a backhand, a played push: all pay the
bet; there are no ties), so a play's expected chips are the bet times 2p - 1, where p is its
chance to win the hand: the play likeliest to win is the one worth the most chips, and the
bet worth the most is the largest while p is above a half, the smallest below. Here the chance
of every legal play is counted afresh from the engine's own stock (not the seat's view, which
the AI counts from), without replacement, and Standard's play must be among the best at every
decision of many seeded hands; a fresh hand from a full shoe must win more often than not."""

import random
from functools import cache

import pytest

from bot.games.backhand import BACKHAND, BackhandOptions, Bet, CallBackhand, Hit, PushAway
from bot.games.backhand.ai import BackhandPolicy, shoe_counts
from bot.games.backhand.cards import (
    AUTO_DEAL_BELOW,
    BUST_OVER,
    FIVE_CARDS,
    MOST_DRAWN_PER_PLAYER,
    PUSH_HIGH,
    PUSH_LOW,
    card_value,
)
from bot.games.backhand.records import BackhandKind

POLICY = BackhandPolicy()
ACE = 1
Stock = tuple[int, ...]  # cards left of each value, ace (1) to ten (10)


def next_cards(stock: Stock):
    """(value, chance, the stock after it) for each value the next card may have."""
    left = sum(stock)
    for index, count in enumerate(stock):
        if count:
            yield index + ACE, count / left, (*stock[:index], count - 1, *stock[index + 1 :])


def busting(stock: Stock, total: int) -> float:
    """The chance a backhand called on `total` wins: the next card would bust it."""
    return sum(chance for value, chance, _ in next_cards(stock) if total + value > BUST_OVER)


@cache
def best(stock: Stock, total: int, cards: int) -> float:
    """The best chance from `total` on `cards` cards: a backhand, or a hit played on at best."""
    return max(busting(stock, total), hitting(stock, total, cards))


@cache
def hitting(stock: Stock, total: int, cards: int) -> float:
    chance = 0.0
    for value, share, rest in next_cards(stock):
        if total + value <= BUST_OVER:
            five = cards + 1 == FIVE_CARDS
            chance += share * (1.0 if five else best(rest, total + value, cards + 1))
    return chance


def playing_the_push(stock: Stock, total: int) -> float:
    return 1 - busting(stock, total)


def fresh_hand(stock: Stock, push, played) -> float:
    """A fresh hand's chance played one way: `push(stock, total)` for a push hand,
    `played(stock, total, cards)` once dealt to 12 (five cards on the way win)."""

    def aces_replaced(values: tuple[int, ...], stock: Stock) -> float:
        if ACE in values:  # a replacement, an ace too, is kept: marked apart (negative)
            at = values.index(ACE)
            return sum(
                share * aces_replaced((*values[:at], -value, *values[at + 1 :]), rest)
                for value, share, rest in next_cards(stock)
            )
        total = sum(map(abs, values))
        if PUSH_LOW <= total <= PUSH_HIGH:
            return push(stock, total)
        return dealt_up(stock, total, 2)

    def dealt_up(stock: Stock, total: int, cards: int) -> float:
        if cards == FIVE_CARDS:
            return 1.0
        if total >= AUTO_DEAL_BELOW:
            return played(stock, total, cards)
        return sum(
            share * dealt_up(rest, total + value, cards + 1)
            for value, share, rest in next_cards(stock)
        )

    return sum(
        first_share * second_share * aces_replaced((first, second), rest)
        for first, first_share, after_first in next_cards(stock)
        for second, second_share, rest in next_cards(after_first)
    )


# Lower bounds of a fresh hand's chance: the chances of ways to play it, and no way of playing
# wins more often than the best.


@cache
def fresh_hand_at_least(stock: Stock) -> float:
    """Every push played, a backhand called as soon as the hand is dealt to 12."""
    return fresh_hand(stock, playing_the_push, lambda stock, total, _cards: busting(stock, total))


def pushes_played_at_least(stock: Stock) -> float:
    """Played at best but for pushes, which are played."""
    return fresh_hand(stock, playing_the_push, best)


def once_pushed_at_least(stock: Stock) -> float:
    """Played at best but for pushes: a push is pushed away once (or played, if likelier to
    win), the next hand played as `fresh_hand_at_least` plays it."""

    def push(stock: Stock, total: int) -> float:
        return max(playing_the_push(stock, total), fresh_hand_at_least(stock))

    return fresh_hand(stock, push, best)


def engine_stock(state) -> Stock:
    values = [card_value(card) for card in state.stock]
    return tuple(values.count(value) for value in range(ACE, 11))


def no_refill_this_turn(state) -> bool:
    """The stock can't run low before the seat's hand settles (at most five more cards): the
    engine would otherwise shuffle the cards out of play back in, which no count here foresees."""
    threshold = MOST_DRAWN_PER_PLAYER * len(state.players)
    return len(state.stock) - 2 * FIVE_CARDS >= threshold


def play_decisions(players: int, hands: int):
    """Every state where a Standard player decides a play, over seeded hands of Standard
    players (each hand from a fresh shoe, as the bench plays them)."""
    for seed in range(hands):
        state = BACKHAND.new_match(BackhandOptions(), [100] * players, seed)
        rng = random.Random(seed)
        while not state.awaiting_next_hand() and not state.is_over():
            decision = state.pending()[0]
            if decision.kind == BackhandKind.PLAY and no_refill_this_turn(state):
                yield state, decision
            legal = state.legal_actions(decision.seat)
            view = state.view(decision.seat)
            state.apply(decision.seat, POLICY.choose(decision.seat, view, decision, legal, rng))


@pytest.mark.parametrize(("players", "hands"), [(1, 25), (2, 20), (7, 4)])
def test_standard_plays_the_likeliest_win_at_every_decision(players, hands):
    hits = pushes = 0
    for state, decision in play_decisions(players, hands):
        seat = decision.seat
        rng = random.Random(seat)
        chosen = POLICY.choose(seat, state.view(seat), decision, state.legal_actions(seat), rng)
        hand, stock = state.hands[seat], engine_stock(state)
        if hand.push:
            # Pushing away is never worse than playing the push: even a poorer way of
            # playing the fresh hand wins more often (no count of its best play needed).
            assert chosen == PushAway()
            played = playing_the_push(stock, hand.total)
            bounds = (fresh_hand_at_least, pushes_played_at_least, once_pushed_at_least)
            assert any(bound(stock) > played for bound in bounds)  # the cheapest first
            pushes += 1
        else:
            chance = {
                Hit(): hitting(stock, hand.total, len(hand.cards)),
                CallBackhand(): busting(stock, hand.total),
            }
            assert chance[chosen] == pytest.approx(max(chance.values()), abs=1e-12)
            hits += 1
    assert hits > 20 and pushes > 5


def test_a_fresh_hand_from_a_full_shoe_wins_more_often_than_not_so_the_most_is_bet():
    """The shoe is full at every bet (reshuffled each hand), and every seat's hand is as if
    dealt from it (the cards the seats before take are unknown when betting; seeing them can
    only help). One way to play it, pushes pushed away once then played, wins over a half
    from one pack (the smallest shoe, where the cards dealt change the odds the most)."""
    assert once_pushed_at_least(shoe_counts(1)) > 0.5
    state = BACKHAND.new_match(BackhandOptions(max_bet=10), [100], seed=1)
    decision = state.pending()[0]
    legal = state.legal_actions(0)
    assert POLICY.choose(0, state.view(0), decision, legal, random.Random(0)) == Bet(chips=10)
