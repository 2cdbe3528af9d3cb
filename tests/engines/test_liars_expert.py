"""Liar's Terrapin's Expert: its worlds deal the claimant a hand as its claim implies (a hand
scoring the claim, now and then a bluff, as often as the Standard AI's claims are), they
change nothing the answering seat sees, and the search plays legal moves."""

from __future__ import annotations

import random

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.games.expert import Budget, Worlds, expert_move, shaped, shapes_worlds
from bot.games.simulate import Seats, policies_for, step
from bot.games.terrapin import ai
from bot.games.terrapin.liars import LIARS, Claim, Claimed, LiarsState
from bot.games.terrapin.liars.ai import compared, kind_weights
from bot.games.terrapin.table import hand_value
from tests.engines.test_ai_levels import states_along_a_match

SMALL = Budget(worlds=4, seconds=None, candidates=3)


def claimed(points: int) -> LiarsState:
    """Seat 0 has drawn its three cards and claims `points`: seat 1 answers."""
    state = LIARS.new_match(None, [20] * 3, seed=9)
    state.apply(0, Claim(points=points))
    assert isinstance(state, LiarsState) and state.phase == "responding"
    return state


def kinds(worlds: list[str], points: int) -> list[int]:
    """Per world, how the claimant's hand compares with the claim (`compared`)."""
    hands = [LIARS.restore(world).hands[0] for world in worlds]
    return [compared(ai.value(ai.ids(hand)), points) for hand in hands]


def test_the_search_deals_worlds_as_the_claims_imply():
    assert LIARS.searches and shapes_worlds(LIARS)


def test_a_claimant_holds_a_hand_scoring_its_claim_in_most_shaped_worlds():
    state = claimed(5)  # a pair: few three-card hands are one
    worlds, rng = Worlds(state, 1), random.Random(3)
    blind = [worlds.sample(rng) for _ in range(200)]
    believed = [shaped(LIARS, worlds.sample(rng), 1, rng) for _ in range(200)]
    assert kinds(blind, 5).count(0) <= 60
    assert kinds(believed, 5).count(0) >= 170
    assert 2 <= kinds(believed, 5).count(-1) <= 30  # a bluff now and then


def test_a_claim_no_hand_scores_exactly_is_a_bluff_in_almost_every_world():
    state = claimed(1)  # scores are 0, 2, 4 and up: a claim of 1 is a bluff
    worlds, rng = Worlds(state, 1), random.Random(4)
    believed = [shaped(LIARS, worlds.sample(rng), 1, rng) for _ in range(100)]
    blind = [worlds.sample(rng) for _ in range(100)]
    assert kinds(believed, 1).count(-1) >= 94  # but for a human's understatement now and then
    assert kinds(blind, 1).count(-1) <= 70


def test_shaping_changes_nothing_the_answering_seat_sees():
    state = claimed(5)
    worlds, rng = Worlds(state, 1), random.Random(5)
    for _ in range(30):
        world = LIARS.restore(shaped(LIARS, worlds.sample(rng), 1, rng))
        assert world.view(1) == state.view(1) and world.view(2) == state.view(2)
        assert sorted(map(str, world.all_cards())) == sorted(map(str, state.all_cards()))


def test_the_holders_own_worlds_are_not_reshaped():
    state = LIARS.new_match(None, [20] * 3, seed=9)  # seat 0 draws: only the deck is hidden
    worlds, rng = Worlds(state, 0), random.Random(6)
    world = worlds.sample(rng)
    assert shaped(LIARS, world, 0, rng) == LIARS.restore(world).snapshot()


@pytest.mark.slow
def test_the_bluffs_weighed_match_the_standard_ais_own():
    """Standard self-play: the bluffs `kind_weights` expects, claim by claim, are within a
    fifth of those made (a change to how the AI bluffs must refit BLUFFED)."""
    expected, made = 0.0, 0
    for seed in range(150):
        for claim, cards in standard_claims(seed):
            below, exact, above = kind_weights(claim, len(cards))
            expected += below / (below + exact + above)
            made += hand_value(cards) < claim  # Turtle Butt (-1) too
    assert made > 50
    assert 0.8 < expected / made < 1.25, (expected, made)


def standard_claims(seed: int):
    """Each claim made in a Standard three-seat match, with the claimant's cards."""
    seats = Seats(policies_for(LIARS, 3, "ai"), seed)
    state = LIARS.new_match(None, [100] * 3, seed)
    while not state.is_over():
        if state.awaiting_next_hand():
            state.next_hand()
            continue
        holder, cards = state.holder, list(state.hands[state.holder])
        events = step(state, seats)
        yield from ((e.points, cards) for e in events if isinstance(e, Claimed))
        assert all(e.seat == holder for e in events if isinstance(e, Claimed))


def test_expert_plays_legal_moves_at_every_kind_of_decision():
    seen: set[str] = set()
    for index, state in enumerate(states_along_a_match(LIARS, 7, 300)):
        if index % 2:
            continue
        seat = state.pending()[0].seat
        move = expert_move(LIARS, state, seat, random.Random(index), SMALL)
        assert move is not None and state.can(seat, move), move
        seen.add(str(state.pending()[0].kind))
    assert len(seen) == 3, seen


def test_the_ranking_starts_with_the_standard_move_and_lists_each_legal_move_once():
    assert LIARS.ai is not None
    checked = 0
    for state in states_along_a_match(LIARS, 8, 200):
        decision = state.pending()[0]
        seat, legal = decision.seat, state.legal_actions(decision.seat)
        view, rng = state.view(seat), random.Random(1)
        ranking = LIARS.ai.ranked(seat, view, decision, legal, rng)
        assert ranking is not None
        assert ranking[0] == LIARS.ai.choose(seat, view, decision, legal, random.Random(1))
        assert all(move in legal for move in ranking)
        assert len(set(map(repr, ranking))) == len(ranking) >= min(len(legal), 2)
        checked += 1
    assert checked > 20
