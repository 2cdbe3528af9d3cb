"""Crash's help to the Expert search (bot/games/crash/ai.py): its arrangements ranked from
Standard's pick by the points they can expect, every one legal; and the planner's remembered
hand keys, which must key every trio as `brag_key` does."""

from __future__ import annotations

import random
from itertools import combinations

import bot.games  # noqa: F401  (registers every game)
from bot.cards import french_deck
from bot.engine import registry
from bot.games.ai import ai_move, plausible
from bot.games.crash.ai import valued_arrangements
from bot.games.crash.planner import trio_key
from bot.games.crash.ranking import brag_key, ranked
from bot.games.crash.records import Arrange, DeclareSixPairs, RevealStraight
from bot.games.expert import candidates_for

CRASH = registry.get("crash")
POLICY = CRASH.ai


def deals(count: int, players: int = 3):
    for seed in range(count):
        state = CRASH.new_match(None, [0] * players, seed)
        for decision in state.pending():
            yield state, decision


def test_ranked_starts_with_standards_pick_and_lists_legal_moves_once():
    for state, decision in deals(12):
        seat = decision.seat
        view, legal = state.view(seat), state.legal_actions(seat)
        ranking = POLICY.ranked(seat, view, decision, legal, random.Random(4))
        assert ranking is not None
        assert ranking[0] == ai_move(state, seat, POLICY, random.Random(4))
        assert all(state.can(seat, action) for action in ranking)
        assert all(ranking.count(action) == 1 for action in ranking)
        if not isinstance(ranking[0], RevealStraight):
            assert len(ranking) >= len(valued_arrangements(view)) - 1  # ties alike count once


def test_ranked_arrangements_follow_the_points_they_can_expect():
    for state, decision in deals(8, players=4):
        seat = decision.seat
        view = state.view(seat)
        ranking = POLICY.ranked(seat, view, decision, state.legal_actions(seat), random.Random(1))
        assert ranking is not None
        worth = {str(Arrange(hands=hands)): value for value, hands in valued(view)}
        values = [worth[str(a)] for a in ranking[1:] if isinstance(a, Arrange)]
        assert values == sorted(values, reverse=True)
        assert all(not isinstance(a, DeclareSixPairs) for a in ranking[1:-1])


def valued(view):
    return [(value, ranked(hands)) for value, hands in valued_arrangements(view)]


def test_the_search_compares_standards_pick_and_its_next_best():
    for state, decision in deals(6):
        seat = decision.seat
        rng = random.Random(7)
        standard = ai_move(state, seat, POLICY, rng)
        found = candidates_for(CRASH, state, seat, standard, rng, 4)
        assert found[0] == standard and 2 <= len(found) <= 4
        listed = plausible(state, seat)
        legal = state.legal_actions(seat)
        ranking = POLICY.ranked(seat, state.view(seat), decision, legal, random.Random(7)) or []
        expected = [a for a in ranking if a in listed and a != standard][:3]
        assert found[1:] == expected


def test_remembered_trio_keys_are_brag_keys():
    deck = french_deck()
    rng = random.Random(3)
    for _ in range(2000):
        trio = tuple(sorted(rng.sample(deck, 3), key=str))
        assert trio_key(trio) == brag_key(trio)
    for trio in combinations(deck[:9], 3):
        assert trio_key(trio) == brag_key(list(trio))
