"""Expert in Provincial Terrapin (bot/games/terrapin/provincial/ai.py): its worlds forget the
fists the others chose in secret and have them chosen again, so the search reads no fist its
seat has not seen opened; the policy ranks its moves best first for the search to compare."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from bot.engine import GameState
from bot.games.ai import ai_move
from bot.games.expert import Budget, Worlds, expert_move, search, shaped, shapes_worlds
from bot.games.terrapin.provincial import PROVINCIAL, ProvincialState

SMALL = Budget(worlds=6, seconds=None, candidates=3)


def last_to_choose(seed: int, players: int = 4) -> tuple[ProvincialState, int]:
    """A first round of fists where every seat but the last has chosen (Standard's fists)."""
    state = PROVINCIAL.new_match(None, [30] * players, seed)
    rng = random.Random(seed)
    state.apply(state.dealer, ai_move(state, state.dealer, PROVINCIAL.ai, rng))
    *others, seat = [d.seat for d in state.pending()]
    for other in others:
        state.apply(other, ai_move(state, other, PROVINCIAL.ai, rng))
    assert isinstance(state, ProvincialState) and state.phase == "fists"
    return state, seat


def with_fists(state: ProvincialState, fists: dict[int, int]) -> ProvincialState:
    other = PROVINCIAL.restore(state.snapshot())
    assert isinstance(other, ProvincialState)
    for seat, chips in fists.items():
        other.fists[seat] = chips
    return other


def rivals_choices(state: ProvincialState, seat: int) -> list[dict[int, int]]:
    chosen = [s for s in state.in_hand if s != seat and state.fists[s] is not None]
    return [
        dict(zip(chosen, combo, strict=True))
        for combo in itertools.product((0, 1, 2), repeat=len(chosen))
    ]


def world_of(state: GameState, seat: int, seed: int) -> ProvincialState:
    rng = random.Random(seed)
    world = PROVINCIAL.restore(shaped(PROVINCIAL, Worlds(state, seat).sample(rng), seat, rng))
    assert isinstance(world, ProvincialState)
    return world


def test_the_spec_searches_and_shapes_its_worlds():
    assert PROVINCIAL.searches and shapes_worlds(PROVINCIAL)


@pytest.mark.parametrize("seed", range(4))
def test_a_world_holds_no_rivals_fist_chosen_in_secret(seed):
    state, seat = last_to_choose(seed)
    worlds = {
        world_of(with_fists(state, fists), seat, seed).snapshot()
        for fists in rivals_choices(state, seat)
    }
    assert len(worlds) == 1, "a world depends on the fists the others chose in secret"
    world = PROVINCIAL.restore(worlds.pop())
    assert world.view(seat) == state.view(seat)  # those who had chosen still have
    assert [d.seat for d in world.pending()] == [seat]
    assert all(world.fists[s] in (0, 1, 2) for s in world.in_hand if s != seat)


def test_the_rivals_fists_are_chosen_again_with_each_worlds_hands():
    state, seat = last_to_choose(1, players=5)
    worlds = [world_of(state, seat, draw) for draw in range(30)]
    rivals = [s for s in state.in_hand if s != seat]
    seen = {tuple(world.fists[s] for s in rivals) for world in worlds}
    assert len(seen) > 1, "every world kept the same fists: they were read, not chosen again"


def test_shaping_changes_nothing_outside_the_fists_phase():
    state = PROVINCIAL.new_match(None, [30] * 3, 2)
    rng = random.Random(2)
    met = set()
    for _ in range(40):
        if state.awaiting_next_hand() or state.is_over():
            break
        seat = state.pending()[0].seat
        if state.phase != "fists":
            met.add(state.phase)
            world = PROVINCIAL.restore(Worlds(state, seat).sample(random.Random(0)))
            before = world.snapshot()
            PROVINCIAL.ai.shape_world(world, seat, random.Random(0))
            assert world.snapshot() == before
        state.apply(seat, ai_move(state, seat, PROVINCIAL.ai, rng))
    assert {"stake", "exchange"} <= met


@pytest.mark.parametrize("seed", range(2))
def test_experts_fist_ignores_the_fists_chosen_in_secret(seed):
    state, seat = last_to_choose(seed)
    chosen = {
        expert_move(PROVINCIAL, with_fists(state, fists), seat, random.Random(seed), SMALL)
        for fists in rivals_choices(state, seat)
    }
    assert len(chosen) == 1


def test_ranked_lists_every_legal_move_the_standard_pick_first():
    state = PROVINCIAL.new_match(None, [30] * 3, 4)
    rng = random.Random(4)
    kinds = set()
    for _ in range(60):
        if state.awaiting_next_hand() or state.is_over():
            break
        decision = state.pending()[0]
        seat, legal, view = (
            decision.seat,
            state.legal_actions(decision.seat),
            state.view(decision.seat),
        )
        ranking = PROVINCIAL.ai.ranked(seat, view, decision, legal, random.Random(9))
        assert sorted(map(repr, ranking)) == sorted(map(repr, legal))
        assert ranking[0] == PROVINCIAL.ai.choose(seat, view, decision, legal, random.Random(9))
        kinds.add(decision.kind)
        state.apply(seat, ai_move(state, seat, PROVINCIAL.ai, rng))
    assert len(kinds) == 3


def test_expert_plays_legal_moves_within_its_budget():
    budget = Budget(worlds=40, seconds=0.05, candidates=4)
    state = PROVINCIAL.new_match(None, [30] * 4, 6)
    rng = random.Random(6)
    searched = 0
    for _ in range(80):
        if state.is_over() or searched > 5:
            break
        if state.awaiting_next_hand():
            state.next_hand()
            continue
        seat = state.pending()[0].seat
        started = time.perf_counter()
        move, worlds = search(PROVINCIAL, state, seat, rng, budget)
        assert time.perf_counter() - started < budget.seconds + 0.5
        assert move is not None and state.can(seat, move)
        assert worlds <= budget.worlds
        searched += worlds > 0
        state.apply(seat, move)
    assert searched > 5
