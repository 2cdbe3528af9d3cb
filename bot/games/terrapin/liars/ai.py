"""Liar's Terrapin's AI.

Holding the hand, it claims the hand's true score when that is enough (a challenge then puts
the challenger out); otherwise it draws while the chance of reaching a high enough score
before Turtle Butt beats the chance a bluff survives, and bluffs with the least claim allowed
when it does not. Taking a hand over, it first discards the cards whose loss leaves the best
chance (a Turtle Butt hand can be mended only by discarding). Answering a claim, it
challenges when a hand of that many unseen cards is unlikely to score the claim.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Action, Decision, Policy
from bot.games.terrapin import ai
from bot.games.terrapin.liars.rules import (
    MAX_RAISE,
    Accept,
    Challenge,
    Claim,
    DiscardOne,
    DoneDiscarding,
    Draw,
    LiarsKind,
    LiarsView,
)

BLUFF_SURVIVAL = 0.5  # how often a false claim is taken to go unchallenged
CHALLENGE_BELOW = 0.15  # challenge a claim that a hand its size reaches less often than this
LOOKAHEAD = 2  # draws looked ahead when weighing a draw against a bluff


class LiarsPolicy(Policy[LiarsView]):
    game_id = "liars"

    def choose(
        self,
        seat: int,
        view: LiarsView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if decision.kind == LiarsKind.RESPOND:
            return respond(view)
        hand = tuple(sorted(ai.ids(view.my_cards or [])))
        target = (view.claim or 0) + 1
        chances = Chances(target, ai.unseen(view.my_cards or []))
        if decision.kind == LiarsKind.DISCARD:
            return discard(hand, chances)
        points = ai.value(hand)
        if points >= target:
            return Claim(points=min(points, target - 1 + MAX_RAISE))
        if Draw() in legal and chances.after_draw(hand, LOOKAHEAD) > BLUFF_SURVIVAL:
            return Draw()
        return Claim(points=target)  # the least lie is the likeliest to be believed


class Chances:
    """The chance a hand gets through the holder's turn: 1 when it scores the target, a
    bluff's chance otherwise, or better by drawing (each card from the unseen pool)."""

    def __init__(self, target: int, pool: Sequence[int]) -> None:
        self.target, self.pool = target, pool
        self.known: dict[tuple[tuple[int, ...], int], float] = {}

    def of(self, hand: tuple[int, ...], draws: int) -> float:
        key = (hand, draws)
        if key not in self.known:
            points = ai.value(hand)
            if points >= self.target:
                self.known[key] = 1.0
            elif points == ai.TURTLE_BUTT or draws == 0:
                self.known[key] = BLUFF_SURVIVAL
            else:
                self.known[key] = max(BLUFF_SURVIVAL, self.after_draw(hand, draws))
        return self.known[key]

    def after_draw(self, hand: tuple[int, ...], draws: int) -> float:
        """The chance of getting through if the holder draws now (then plays on at best)."""
        if draws == 1:  # the last draw looked at: count the cards that reach the target
            held = ai.Partial.of(hand)
            cards = [c for c in self.pool if c not in hand]
            reach = sum(held.plus((c,)) >= self.target for c in cards)
            return (reach + (len(cards) - reach) * BLUFF_SURVIVAL) / max(len(cards), 1)
        outcomes = [
            self.of(tuple(sorted((*hand, c))), draws - 1) for c in self.pool if c not in hand
        ]
        return sum(outcomes) / len(outcomes) if outcomes else BLUFF_SURVIVAL


def discard(hand: tuple[int, ...], chances: Chances) -> Action:
    """Drop the card whose loss most raises the chance of getting through; else stop. (One
    draw looked ahead per card: the claim that follows looks further.)"""
    best = chances.of(hand, 1)
    action: Action = DoneDiscarding()
    if best == 1.0:
        return action
    for card in hand:
        rest = tuple(c for c in hand if c != card)
        chance = chances.of(rest, 1)
        if chance > best:
            best, action = chance, DiscardOne(card=ai.card_at(card))
    return action


def respond(view: LiarsView) -> Action:
    if ai.chance_at_least(view.claim or 0, view.hand_size) < CHALLENGE_BELOW:
        return Challenge()
    return Accept()
