"""The AI levels (bot/games/ai.py, bot/games/expert.py): Expert's search reads only what its
seat sees, and every level plays legally.

A twin of a state deals the cards hidden from a seat differently (a random permutation of
them, wherever they lie): the seat's view is the same, so Expert must choose the same with the
same random numbers. Were it to read the real deal, the twins' choices would part."""

from __future__ import annotations

import random
from collections.abc import Callable

import orjson
import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.engine import GameSpec, GameState, registry
from bot.games.ai import ai_move, beginner_move, plausible
from bot.games.expert import (
    Budget,
    Worlds,
    candidates_for,
    expert_move,
    hopeless,
    search,
    shaped,
    surely_better,
)
from bot.games.simulate import Seats, play_match, policies_for, step, usual_players

SEARCHING = sorted(spec.id for spec in registry.games() if spec.searches)
SMALL = Budget(worlds=2, seconds=None, candidates=3)


def players(spec: GameSpec) -> int:
    return 4 if spec.id == "botifarra" else usual_players(spec)


def states_along_a_match(spec: GameSpec, seed: int, most: int):
    """States met in a match of Standard players, each with a pending decision."""
    count = players(spec)
    seats = Seats(policies_for(spec, count, "ai"), seed)
    chips = spec.chips_for(spec.options_model())
    state = spec.new_match(None, [100 if chips else 0] * count, seed)
    for _ in range(most):
        if state.is_over():
            return
        if state.awaiting_next_hand():
            state.next_hand()
            continue
        if state.pending():
            yield state
        step(state, seats)


def blind_and_shaped(
    spec: GameSpec,
    state: GameState,
    seat: int,
    fits: Callable[[GameState], bool],
    count: int,
    rng: random.Random,
) -> tuple[int, int]:
    """Of `count` worlds `seat` may believe in, how many `fits` as dealt at random, and how
    many once shaped by the policy (`shaped`); every shaped world keeps the seat's view and
    the cards in play."""
    worlds, blind, fitting = Worlds(state, seat), 0, 0
    for _ in range(count):
        world = worlds.sample(rng)
        blind += fits(spec.restore(world))
        shaped_world = spec.restore(shaped(spec, world, seat, rng))
        assert shaped_world.view(seat) == state.view(seat)
        assert sorted(map(str, shaped_world.all_cards())) == sorted(map(str, state.all_cards()))
        fitting += fits(shaped_world)
    return blind, fitting


def twin(spec: GameSpec, state: GameState, seat: int, rng: random.Random) -> GameState:
    """The state with the cards hidden from `seat` dealt again among their places."""
    hidden = sorted(str(card) for card in state.hidden_from(seat))
    dealt = hidden[:]
    rng.shuffle(dealt)
    mapping = dict(zip(hidden, dealt, strict=True))

    def mapped(node):
        if isinstance(node, str):
            return mapping.get(node, node)
        if isinstance(node, list):
            return [mapped(item) for item in node]
        if isinstance(node, dict):
            return {mapping.get(k, k): mapped(v) for k, v in node.items()}
        return node

    return spec.restore(orjson.dumps(mapped(orjson.loads(state.snapshot()))).decode())


@pytest.mark.slow
@pytest.mark.parametrize("game", SEARCHING)
def test_expert_chooses_alike_in_states_its_seat_cannot_tell_apart(game):
    spec = registry.get(game)
    checked = 0
    for index, state in enumerate(states_along_a_match(spec, 11, 200)):
        if index % 3 or checked == 4:
            continue
        seat = sorted(state.pending(), key=lambda d: not d.optional)[0].seat
        other = twin(spec, state, seat, random.Random(index))
        assert other.view(seat) == state.view(seat), "the twin differs in what the seat sees"
        chosen = expert_move(spec, state, seat, random.Random(index), SMALL)
        assert expert_move(spec, other, seat, random.Random(index), SMALL) == chosen, (
            f"{game}: Expert's choice depends on cards hidden from seat {seat}"
        )
        checked += 1
    assert checked >= 3


@pytest.mark.slow
@pytest.mark.parametrize("game", SEARCHING)
def test_an_expert_seat_plays_a_hand_legally(game):
    spec = registry.get(game)
    count = players(spec)
    rng = random.Random(5)

    def expert(state: GameState, seat: int):
        return expert_move(spec, state, seat, rng, SMALL)

    seats = Seats(policies_for(spec, count, "ai"), 5, movers={0: expert})
    result = play_match(spec, seats, 5, most_hands=1)
    assert result.steps > 0


EXPERT_CHECKED = 12  # free checks an Expert is asked about (each costs tens of ms)


@pytest.mark.slow
def test_no_level_folds_where_checking_is_free_nor_misses_a_free_call():
    lowball = registry.get("lowball")
    checked_free = 0
    for state in states_along_a_match(lowball, 3, 400):
        seat = state.pending()[0].seat
        kinds = {action.kind for action in state.legal_actions(seat)}
        if "check" in kinds and "fold" in kinds:
            checked_free += 1
            assert all(action.kind != "fold" for action in plausible(state, seat))
            for draw in range(20):
                move = beginner_move(state, seat, lowball.ai, random.Random(draw))
                assert move is not None and move.kind != "fold"
            if checked_free <= EXPERT_CHECKED:  # its own Expert weighs 500 deals a bet
                move = expert_move(lowball, state, seat, random.Random(checked_free), SMALL)
                assert move is not None and move.kind != "fold"
    assert checked_free
    last_one = registry.get("lastone")
    calls = 0
    for state in states_along_a_match(last_one, 4, 600):
        for decision in state.pending():
            if decision.optional:
                calls += 1
                for draw in range(5):
                    standard = ai_move(state, decision.seat, last_one.ai, random.Random(draw))
                    beginner = beginner_move(state, decision.seat, last_one.ai, random.Random(draw))
                    expert = expert_move(last_one, state, decision.seat, random.Random(draw))
                    assert beginner == standard == expert
    assert calls
    # Beginner plays as Standard now and then, and slips more often than not.
    assert all(0.5 < spec.ai.beginner_slips < 1 for spec in registry.games() if spec.ai)


def test_expert_leaves_the_standard_pick_only_for_a_move_surely_better():
    rng = random.Random(1)
    noisy = [[rng.gauss(0, 1) for _ in range(6)] for _ in range(12)]  # six equal moves
    assert surely_better(noisy) == 0  # the luckiest-looking of equals is no reason to move
    better = [[v[0], v[1], v[2] + 3, *v[3:]] for v in noisy]
    assert surely_better(better) == 2
    assert surely_better([[0.0, 5.0]]) == 0  # one world proves nothing


def test_a_slow_playout_is_abandoned_at_the_deadline():
    """Each Standard move takes 10 ms of a fake clock: a playout's whole hand (tens of moves)
    would overshoot a 50 ms budget many times over, were the deadline checked only between
    playouts. It is checked within them, so a decision ends within a few moves of it."""
    botifarra = registry.get("botifarra")
    clock = FakeClock()
    slow = botifarra.model_copy(update={"ai": Slowed(botifarra.ai, clock)})
    budget = Budget(worlds=40, seconds=0.05, candidates=4)
    searched = 0
    for index, state in enumerate(states_along_a_match(botifarra, 7, 30)):
        seat = sorted(state.pending(), key=lambda d: not d.optional)[0].seat
        started = clock.now
        _, worlds = search(slow, state, seat, random.Random(index), budget, clock)
        assert clock.now - started <= budget.seconds + 0.06, "a playout outran the deadline"
        searched += worlds == 0 and len(plausible(state, seat)) > 1
    assert searched, "no search was cut short before its first world"


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Slowed:
    """A policy whose every answer advances the fake clock by 10 ms."""

    def __init__(self, policy, clock: FakeClock) -> None:
        self.policy, self.clock, self.game_id = policy, clock, policy.game_id

    def choose(self, *args):
        self.clock.now += 0.01
        return self.policy.choose(*args)

    def ranked(self, *args):
        return self.policy.ranked(*args)


class Ranking:
    """A policy that ranks the legal moves last first, a made-up move ahead of them."""

    def __init__(self, policy, made_up) -> None:
        self.policy, self.made_up, self.game_id = policy, made_up, policy.game_id

    def choose(self, *args):
        return self.policy.choose(*args)

    def ranked(self, seat, view, decision, legal, rng):
        return [self.made_up, *reversed(legal)]


def a_big_two_choice() -> tuple[GameSpec, GameState, int]:
    """Big Two, a state of its match where the seat to play has more than four plausible
    moves, and that seat."""
    big_two = registry.get("bigtwo")
    state = next(
        s
        for s in states_along_a_match(big_two, 3, 200)
        if len(plausible(s, s.pending()[0].seat)) > 4
    )
    return big_two, state, state.pending()[0].seat


def test_expert_compares_the_moves_its_policy_ranks_next():
    big_two, state, seat = a_big_two_choice()
    legal = plausible(state, seat)
    standard = ai_move(state, seat, big_two.ai, random.Random(0))
    made_up = legal[0].model_copy(update={"kind": "made-up"})
    ranking = big_two.model_copy(update={"ai": Ranking(big_two.ai, made_up)})
    found = candidates_for(ranking, state, seat, standard, random.Random(0), 3)
    expected = [move for move in reversed(legal) if move != standard][:2]
    assert found == [standard, *expected]  # the made-up move is no candidate


def test_expert_drops_a_candidate_surely_no_better():
    assert hopeless([0.0, 0.0, 0.0, 0.0])  # ties the Standard pick world after world
    assert hopeless([-1.0, -0.5, -1.0, 0.0])
    assert not hopeless([0.0, 1.0, 0.0, 0.0])  # one world better: not yet clearly no better
    assert not hopeless([1.0, 0.5, 1.0, -0.5])
    assert not hopeless([-3.0])  # one world proves nothing


def test_ties_and_a_few_worlds_are_no_evidence():
    tie = 0.1 + 0.2 - 0.3  # two equal hands' values, apart in their last bits
    assert tie > 0 and surely_better([[0.0, tie]] * 10) == 0
    assert hopeless([tie] * 4)
    assert surely_better([[0.0, 0.8]] * 3) == 0  # three worlds alike: no spread, no proof
    assert surely_better([[0.0, 0.8]] * 4) == 1


class OwnExpert:
    """A policy with an Expert of its own that plays `move` (or raises it, an exception)."""

    def __init__(self, policy, move) -> None:
        self.policy, self.move, self.game_id = policy, move, policy.game_id
        self.asked: list[float | None] = []

    def choose(self, *args):
        return self.policy.choose(*args)

    def expert_choose(self, seat, view, decision, legal, rng, seconds):
        self.asked.append(seconds)
        if isinstance(self.move, Exception):
            raise self.move
        return self.move


def test_a_policys_own_expert_plays_its_legal_move_else_standards():
    big_two, state, seat = a_big_two_choice()
    standard = ai_move(state, seat, big_two.ai, random.Random(0))
    other = next(move for move in plausible(state, seat) if move != standard)
    not_held = other.model_copy(update={"cards": state.hands[(seat + 1) % len(state.hands)][:1]})
    budget = Budget(seconds=0.1)
    for move, expected in ((other, other), (not_held, standard), (ValueError(), standard)):
        policy = OwnExpert(big_two.ai, move)
        spec = big_two.model_copy(update={"ai": policy})
        assert search(spec, state, seat, random.Random(0), budget) == (expected, 0)
        assert policy.asked == [0.1]
