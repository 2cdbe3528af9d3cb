"""Totit's AI player: a point is a pair of identical cards in one's captures, so it takes the
capture that completes a pair, else the one whose cards can still be paired (the twin in its
own hand or on the table, not dead in another player's captures), and takes away a card whose
twin lies in an opponent's captures before they can. It trails the card whose twin it holds
(to take it back as a pair), never one an opponent's captures would pair. It sees only its
view: the table, every seat's captures (all were seen being taken) and its own hand. For the
Expert search (bot/games/expert.py) it ranks its moves by the same scores, one copy of a card
standing for both."""

from __future__ import annotations

import random
from collections import Counter

from bot.cards import FrenchCard
from bot.engine import Action, Decision, Policy
from bot.games.captures_ai import best, ranking
from bot.games.totit.rules import Capture, TotitView, Trail, pairs_in

PAIR = 1.0  # a pair completed: the game's point
# A card put in one's captures without its twin is worth part of a point, by where the twin is:
TWIN_IN_HAND = 0.3  # we hold it: it should follow with a capture of ours
TWIN_ON_TABLE = 0.2  # anyone of its rank may take it
TWIN_UNSEEN = 0.1  # in another hand or set aside
DENIAL = 0.4  # taking a card whose twin waits in an opponent's captures
# Trailing a card:
TRAIL_FEEDS = -0.8  # its twin is in an opponent's captures: they may take it for a pair
TRAIL_OWN_HALF = -0.3  # its twin is in our captures: an opponent may take it away
TRAIL_BAIT = 0.2  # we hold its twin: we may take it back as a pair
TRAIL_LOSES_TWIN = -0.3  # its twin is on the table: keeping it would take that twin as a pair


def face(card: FrenchCard) -> tuple:
    """Identical cards (same rank and suit) share a face."""
    return card.rank, card.suit


class Table:
    """Where each face lies, as the seat sees it."""

    def __init__(self, view: TotitView, seat: int) -> None:
        self.seat = seat
        self.hand = Counter(map(face, view.my_cards or []))
        self.table = Counter(map(face, view.table))
        self.mine = Counter(map(face, view.captured[seat]))
        self.theirs = Counter(
            face(card) for other, pile in enumerate(view.captured) if other != seat for card in pile
        )
        self.pile = view.captured[seat]

    def twin_worth(self, card: FrenchCard, hand: Counter, table: Counter) -> float:
        """What `card` in our captures without its twin is worth, by where the twin lies."""
        key = face(card)
        if hand[key]:
            return TWIN_IN_HAND
        if table[key]:
            return TWIN_ON_TABLE
        if self.theirs[key]:
            return 0.0
        return TWIN_UNSEEN

    def capture(self, action: Capture) -> float:
        card, target = action.card, action.target
        pile = [*self.pile, card, target]
        hand = self.hand - Counter([face(card)])
        table = self.table - Counter([face(target)])
        worth = PAIR * (pairs_in(pile) - pairs_in(self.pile))
        after = Counter(map(face, pile))
        for taken in (card, target):
            if after[face(taken)] % 2:
                worth += self.twin_worth(taken, hand, table)
        if self.theirs[face(target)] % 2:
            worth += DENIAL
        return worth

    def trail(self, action: Trail) -> float:
        key = face(action.card)
        if self.theirs[key] % 2:
            return TRAIL_FEEDS
        if self.mine[key] % 2:
            return TRAIL_OWN_HALF
        if self.hand[key] > 1:
            return TRAIL_BAIT
        if self.table[key]:
            return TRAIL_LOSES_TWIN
        return 0.0

    def score(self, action: Action) -> float:
        if isinstance(action, Capture):
            return self.capture(action)
        if isinstance(action, Trail):
            return self.trail(action)
        return float("-inf")


class TotitPolicy(Policy[TotitView]):
    game_id = "totit"
    beginner_slips = 0.9

    def choose(
        self,
        seat: int,
        view: TotitView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        return best(legal, Table(view, seat).score, rng)

    def ranked(
        self,
        seat: int,
        view: TotitView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        return ranking(legal, Table(view, seat).score, rng, same=alike)


def alike(action: Action) -> tuple:
    """What a move does: the two copies of a card play alike."""
    if isinstance(action, Capture):
        return "capture", face(action.card), face(action.target)
    if isinstance(action, Trail):
        return "trail", face(action.card)
    return (action.kind,)
