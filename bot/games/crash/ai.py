"""Crash's AI: the engine's own arrangement search, on the seat's cards.

The engine's planner (`crash.planner`) finds the strong arrangements of a deal: the most hands
of the greatest strength, and the best around each different strong hand put on top. To those
the AI adds the arrangements that use a four of a kind in full (a prial and the fourth card in
another hand, or two pairs of it), which can score the bonus point. It then values each by
the points it can expect against the other players' usual hands at each position
(`crash.expected_points`), plus the bonus point for a four of a kind used in full, plus a
crash (all four positions) worth the points still missing to win the game. With six pairs it
declares them (the hand is void for everyone) when its best arrangement can't expect its share
of the deal's points. A thirteen-card straight is revealed: it wins. For the Expert search it
ranks the arrangements by the same value (`ranked`); everyone sets in secret, so the others'
play says nothing of their cards and the search's worlds are dealt blind.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from bot.cards import FrenchCard, Rank
from bot.engine import Action, Decision, Policy
from bot.games.crash.planner import expected_points, planner, win_chance
from bot.games.crash.ranking import MAX_HANDS, BragKey, display_order, quads_in_full, ranked
from bot.games.crash.records import Arrange, CrashView, DeclareSixPairs, RevealStraight

QUAD_BONUS = 0.9  # a four of a kind used in full: the bonus, unless someone's is higher
SHARE_OF_POINTS = 4  # the positions a deal shares out among the players


def plans(cards: tuple[FrenchCard, ...]) -> dict[tuple[BragKey, ...], tuple[int, ...]]:
    """The planner's arrangements of these cards (display order), and the best ones using a
    four of a kind in full: each as its hands' masks (bit i: card i), by their hands' keys
    (strongest first). Arrangements that rank alike count once: the one with a four of a kind
    in full, if any."""
    plan = planner(cards)
    found: dict[tuple[BragKey, ...], tuple[int, ...]] = {}
    everything = (1 << len(cards)) - 1
    for quad in quad_masks(cards):
        holding = [mask for mask, _ in plan.triples if mask & quad]
        for first, second in combinations(holding, 2):
            if not first & second and (first | second) & quad == quad:
                masks = (first, second, *plan.best(everything ^ first ^ second)[1])
                ordered = sorted(masks, key=plan.keys.__getitem__, reverse=True)
                found.setdefault(tuple(plan.keys[mask] for mask in ordered), tuple(ordered))
    return found | {keys: masks for keys, masks in plan.candidates.items() if keys not in found}


def quad_masks(cards: Sequence[FrenchCard]) -> list[int]:
    """Each four of a kind among the cards, as a mask of their positions."""
    masks: dict[Rank | None, int] = {}  # by a card's `rank`
    for index, card in enumerate(cards):
        masks[card.rank] = masks.get(card.rank, 0) | 1 << index
    return [mask for mask in masks.values() if mask.bit_count() == 4]


def crash_chance(keys: Sequence[BragKey], opponents: int) -> float:
    """About how likely these hands take all four positions."""
    if len(keys) < MAX_HANDS:
        return 0.0
    chance = 1.0
    for position, key in enumerate(keys):
        chance *= win_chance(position, key) ** opponents
    return chance


def plan_value(keys: Sequence[BragKey], quad: bool, opponents: int, missing: int) -> float:
    """The points an arrangement (its hands' keys, strongest first; `quad`: it uses a four of
    a kind in full) can expect: positions, the bonus, and a crash's win."""
    value = expected_points(keys, opponents) + (QUAD_BONUS if quad else 0.0)
    return value + crash_chance(keys, opponents) * max(0, missing - MAX_HANDS)


def valued_arrangements(view: CrashView) -> list[tuple[float, list[list[FrenchCard]]]]:
    """Each arrangement the AI weighs, with its value (the planner's order)."""
    assert view.seat is not None and view.my_cards is not None  # its own seat's view
    opponents = len(view.seats) - 1
    missing = view.target - view.seats[view.seat].score
    cards = tuple(display_order(view.my_cards))
    plan = planner(cards)
    valued = []
    for keys, masks in plans(cards).items():
        hands = [plan.hand(mask) for mask in masks]
        valued.append((plan_value(keys, bool(quads_in_full(hands)), opponents, missing), hands))
    return valued


def best_arrangement(view: CrashView, rng: random.Random) -> tuple[Arrange, float]:
    """The arrangement worth the most (ties broken by `rng`), and its value."""
    valued = valued_arrangements(view)
    top = max(value for value, _ in valued)
    hands = rng.choice([hands for value, hands in valued if value == top])
    return Arrange(hands=ranked(hands)), top


class CrashPolicy(Policy[CrashView]):
    game_id = "crash"

    def choose(
        self,
        seat: int,
        view: CrashView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if view.my_straight:
            return RevealStraight()
        arrangement, value = best_arrangement(view, rng)
        if view.my_six_pairs and value < SHARE_OF_POINTS / len(view.seats):
            return DeclareSixPairs()
        return arrangement

    def ranked(
        self,
        seat: int,
        view: CrashView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """Standard's pick, then the other arrangements by the points they can expect (the
        Expert search compares the first few), a declaration of six pairs last."""
        first = self.choose(seat, view, decision, legal, rng)
        if isinstance(first, RevealStraight):
            return [first]
        order = sorted(valued_arrangements(view), key=lambda valued: -valued[0])
        found: list[Action] = [first] if first is not None else []
        found += [Arrange(hands=ranked(hands)) for _, hands in order]
        if view.my_six_pairs:
            found.append(DeclareSixPairs())
        return [action for index, action in enumerate(found) if action not in found[:index]]
