"""Turup's AI player: the most cards won is the game, so it makes the capture worth most, less
what the pile it leaves offers the next player; with no capture worth making it places the
card that offers them least and best sets up its own next capture. Captures are not all listed
(the game can't list every set of pile cards that splits right): it builds them from its view
with bot/games/captures.py. It sees only its view: the pile, its own hand and card counts.

For the Expert search (bot/games/expert.py) it ranks its moves, its playouts' own pick second,
and in those playouts plays a quick rule: the biggest listed capture, else its lowest card."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache

from bot.cards import FrenchCard, Rank
from bot.engine import Action, Decision, Policy
from bot.games.ai import in_rollout
from bot.games.captures import TOP_NUMBER, pip, sum_captures
from bot.games.captures_ai import best, chance_holds, ranking
from bot.games.turup.rules import HAND, Capture, Place, TurupView, packs_for_players

COPIES_PER_PACK = 4  # of each rank
OFFER = 0.5  # how much a card the next player may win from us counts against a move
SETUP = 0.3  # how much the capture a placed card sets up for our next turn counts
# Moves the Expert search compares (the Standard pick among them): 3 rather than 4 plays a
# third more worlds in its time, and these are its likeliest best.
RANKED = 3
MOST_OPTIONS = 200  # captures built per card held (piles are small: far more than enough)


@cache
def groups(value: int, top: int = TOP_NUMBER) -> tuple[tuple[int, ...], ...]:
    """The ways number cards add up to `value`, each as its values from the highest down."""
    if value == 0:
        return ((),)
    return tuple(
        (part, *rest)
        for part in range(min(value, top), 0, -1)
        for rest in groups(value - part, part)
    )


@lru_cache(maxsize=1 << 16)
def most_taken(pile: tuple[int, ...], value: int) -> int:
    """The most cards a card of `value` takes from a pile of these values (sorted, highest
    first): every matching face for a face, else the most number cards split into groups that
    each add up to `value`. The highest card usable either joins a group or stays."""
    if value > TOP_NUMBER:
        return pile.count(value)
    usable = tuple(v for v in pile if v <= value)
    if not usable:
        return 0
    top, rest = usable[0], usable[1:]
    most = most_taken(tuple(v for v in rest if v != top), value)
    left = Counter(rest)
    for group in groups(value):
        if group[0] == top and not Counter(group[1:]) - left:
            after = left - Counter(group[1:])
            remaining = tuple(sorted(after.elements(), reverse=True))
            most = max(most, len(group) + most_taken(remaining, value))
    return most


def values_of(cards: Sequence[FrenchCard]) -> tuple[int, ...]:
    return tuple(sorted((pip(card) for card in cards), reverse=True))


class Table:
    """What the seat knows: its hand, the pile, and how many of each value it hasn't seen."""

    def __init__(self, view: TurupView, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.hand = list(view.my_cards or [])
        packs = packs_for_players(len(view.counts))
        seen = Counter(pip(card) for card in [*self.hand, *view.pile])
        self.unseen = {
            rank: max(0, packs * COPIES_PER_PACK - seen[rank]) for rank in map(int, Rank)
        }
        self.unseen_total = sum(self.unseen.values())
        self.next_hand = self.next_player_cards()

    def next_player_cards(self) -> int:
        """Cards held by the next player to the left still holding any (after a deal, four)."""
        count = len(self.view.counts)
        for step in range(1, count):
            held = self.view.counts[(self.seat + step) % count]
            if held:
                return held
        return HAND if self.view.stock else 0

    def offered(self, pile: tuple[int, ...]) -> float:
        """The cards the next player can expect to win from this pile: their best capture
        (their card included), each value weighed by the chance they hold one."""
        if not pile or not self.next_hand:
            return 0.0
        takes = sorted(
            ((most_taken(pile, value), value) for value in self.unseen if self.unseen[value]),
            reverse=True,
        )
        expected, none_better = 0.0, 1.0
        for taken, value in takes:
            if not taken:
                break
            chance = chance_holds(self.unseen[value], self.unseen_total, self.next_hand)
            expected += none_better * chance * (taken + 1)
            none_better *= 1 - chance
        return expected

    def setup(self, pile: tuple[int, ...], held: list[FrenchCard]) -> int:
        """The most cards one of our remaining cards could win from this pile next turn."""
        most = max((most_taken(pile, pip(card)) for card in held), default=0)
        return most + 1 if most else 0

    def capture(self, action: Capture) -> float:
        left = [card for card in self.view.pile if card not in set(action.cards)]
        return len(action.cards) + 1 - OFFER * self.offered(values_of(left))

    def place(self, action: Place) -> float:
        pile = values_of([*self.view.pile, action.card])
        held = list(self.hand)
        held.remove(action.card)
        return SETUP * self.setup(pile, held) - OFFER * self.offered(pile)

    def score(self, action: Action) -> float:
        if isinstance(action, Capture):
            return self.capture(action)
        if isinstance(action, Place):
            return self.place(action)
        return float("-inf")

    def moves(self) -> list[Action]:
        """Every capture (one per set of values taken) and every placing."""
        found: list[Action] = []
        for card in self.hand:
            options = sum_captures(card, self.view.pile, limit=MOST_OPTIONS).options
            found += [Capture(card=card, cards=taken) for taken in options]
        return found + [Place(card=card) for card in self.hand]


class TurupPolicy(Policy[TurupView]):
    game_id = "turup"

    def choose(
        self,
        seat: int,
        view: TurupView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if in_rollout():
            return quick_move(legal)
        table = Table(view, seat)
        return best(table.moves() or legal, table.score, rng)

    def ranked(
        self,
        seat: int,
        view: TurupView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """Standard's moves best first, but the playouts' own pick second (the search weighs
        moves by playing them out with that rule, and it takes the most cards where Standard
        weighs the pile left), and only the first few: a world costs a playout a move."""
        table = Table(view, seat)
        moves = ranking(table.moves() or legal, table.score, rng, same=alike)
        quick = alike(quick_move(legal))
        second = [move for move in moves[1:] if alike(move) == quick]
        rest = [move for move in moves[1:] if alike(move) != quick]
        return [moves[0], *second, *rest][:RANKED]


def alike(action: Action) -> tuple:
    """What a move does: suits never matter, so cards of one value play alike."""
    if isinstance(action, Capture):
        return "capture", pip(action.card), values_of(action.cards)
    if isinstance(action, Place):
        return "place", pip(action.card)
    return (action.kind,)


def quick_move(legal: list[Action]) -> Action:
    """The Expert's playouts' rule, a third of the Standard one's time yet no weaker (it won
    54% of 600 matches against Standard): the listed capture taking most (they come biggest
    first), else the lowest card placed. Standard's search of every capture and of what each
    leaves the next player is most of its time."""
    captures = [action for action in legal if isinstance(action, Capture)]
    if captures:
        return max(captures, key=lambda capture: len(capture.cards))
    places = [action for action in legal if isinstance(action, Place)]
    return min(places, key=lambda place: pip(place.card))
