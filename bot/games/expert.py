"""The Expert AI level: determinized Monte Carlo search (README, AI players).

At a decision, Expert compares a few candidate actions (the Standard policy's pick among them)
by playing each out in many sampled worlds. A world is the game as its seat may believe it to
be: every card hidden from the seat is dealt again at random into the places hidden cards lie
(the other hands, the stub, a hole card), and the deal's random source is replaced, so that
what the seat has seen (its hand, every card shown, played, passed or discarded in sight, the
counts of cards each place holds) stays as it is and nothing else is known. In each world every
seat then plays on with the Standard policy to the end of the hand (the same worlds and random
numbers for every candidate: their differences are the candidates', not the deals'). A
candidate is played instead of the Standard pick only when its gain, world by world, is surely
above nothing (`surely_better`); one surely no better is dropped after a few worlds, so the
time goes to the others (`compare`). The time limit holds whatever a playout costs: a playout
still under way at the deadline is abandoned.

A world is made from the state's JSON in two steps: the hidden cards are first relabelled in a
canonical order (the k-th hidden card met is the k-th in card order), then dealt by a random
permutation. So two states a seat cannot tell apart (the same view: only hidden cards lie
differently) give the same worlds for the same random numbers, and the search sees only what
the seat sees, as the other levels do (tests/engines/test_ai_levels.py checks it for every
game that searches). Where the Standard policy knows what the others' play says of their cards
(`Policy.shape_world`: Lowball's draws, say), it deals again in each world the hands that play
makes unlikely, so the search plays against the hands the play implies rather than any hands.

Only games whose hidden information is all cards search (`GameSpec.searches`), or whose policy
chooses its other secrets again in each world (`shape_world`: Provincial's fists): a secret
that is no card would otherwise be read from the state as it is. A policy may instead search
its own way (`Policy.expert_choose`, `own_expert`: Delphi's, whose secret is the oracle's rule)."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from bot.engine import (
    Action,
    Event,
    GameSpec,
    GameState,
    HandEnded,
    IllegalAction,
    MatchEnded,
    Policy,
    registry,
)
from bot.games.ai import ai_move, plausible, rolling_out

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Budget:
    """How much an Expert decision may search: at most `worlds` sampled worlds, and no more
    once `seconds` have passed (None: the worlds alone bound it, for reproducible tests)."""

    worlds: int = 40
    seconds: float | None = 0.2
    # Actions compared at most, the Standard pick always among them: each costs a playout a
    # world, so 4 rather than 8 fits twice the worlds (docs/performance.md, AI levels).
    candidates: int = 4
    steps: int = 600  # a playout longer than this is cut short (and counts as nothing)
    # Worlds played before a candidate may be dropped as surely no better (`hopeless`).
    prune_after: int = 4


DEFAULT_BUDGET = Budget()


def expert_move(
    spec: GameSpec,
    state: GameState,
    seat: int,
    rng: random.Random,
    budget: Budget = DEFAULT_BUDGET,
    clock: Callable[[], float] = time.perf_counter,
) -> Action | None:
    """Expert's choice for `seat`'s pending decision (None: an optional choice let go)."""
    return search(spec, state, seat, rng, budget, clock)[0]


def search(
    spec: GameSpec,
    state: GameState,
    seat: int,
    rng: random.Random,
    budget: Budget = DEFAULT_BUDGET,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Action | None, int]:
    """`expert_move`, and how many worlds it played out (bench/ai.py reports them)."""
    assert spec.ai is not None  # a game that searches has a Standard policy to play out with
    # The budget counts from the decision's start: Standard's own pick may take time too.
    deadline = Deadline(None if budget.seconds is None else clock() + budget.seconds, clock)
    if own_expert(spec) and not optional(state, seat):
        return own_move(spec, state, seat, rng, budget.seconds), 0
    standard = ai_move(state, seat, spec.ai, rng)
    if not spec.searches or optional(state, seat):
        return standard, 0
    candidates = candidates_for(spec, state, seat, standard, rng, budget.candidates)
    if len(candidates) < 2:
        return standard, 0
    gains, worlds = compare(spec, state, seat, candidates, rng, budget, deadline)
    return candidates[surest(gains)], worlds


@dataclass(frozen=True)
class Deadline:
    """When a search must stop (`at` None: never; its worlds alone bound it)."""

    at: float | None
    clock: Callable[[], float] = time.perf_counter

    def passed(self) -> bool:
        return self.at is not None and self.clock() >= self.at


def compare(
    spec: GameSpec,
    state: GameState,
    seat: int,
    candidates: list[Action | None],
    rng: random.Random,
    budget: Budget,
    deadline: Deadline,
) -> tuple[list[list[float]], int]:
    """Each candidate's gain over the Standard pick (candidate 0), world by world, and how
    many worlds were played. A candidate surely no better is dropped after `prune_after`
    worlds, so the time left goes to the others; the search ends once none is left, out of
    worlds or out of time (a world not played out for every candidate still in counts not).
    What is dropped depends only on the worlds' results: deterministic for a given rng."""
    worlds = Worlds(state, seat)
    shapes = shapes_worlds(spec)
    gains: list[list[float]] = [[] for _ in candidates]
    alive = list(range(1, len(candidates)))
    played = 0
    while alive and played < budget.worlds:
        world, seed = worlds.sample(rng), rng.getrandbits(32)
        if shapes:
            world = shaped(spec, world, seat, rng)
        values: list[float] = []
        for index in [0, *alive]:
            action = candidates[index]
            value = playout(spec, spec.restore(world), seat, action, seed, budget.steps, deadline)
            if value is None:
                return gains, played
            values.append(value)
        for index, value in zip(alive, values[1:], strict=True):
            gains[index].append(value - values[0])
        played += 1
        if played >= budget.prune_after:
            alive = [index for index in alive if not hopeless(gains[index])]
    return gains, played


def searched_moves(game_id: str, snapshot: str, seeds: dict[int, str], budget: Budget) -> str:
    """Each seat's Expert move in the state `snapshot` of game `game_id`, as JSON (seat:
    the action's JSON, or null): what a search in a process of its own sends back
    (bot/tables/search_pool.py); its arguments and answer are plain data, so pickled cheaply."""
    spec = registry.get(game_id)
    state = spec.restore(snapshot)
    moves = {
        str(seat): expert_move(spec, state, seat, random.Random(seed), budget)
        for seat, seed in seeds.items()
    }
    return orjson.dumps(
        {
            seat: None if move is None else move.model_dump(mode="json")
            for seat, move in moves.items()
        }
    ).decode()


def read_moves(spec: GameSpec, found: str) -> dict[int, Action | None]:
    """The moves `searched_moves` found, read back as the game's actions."""
    return {
        int(seat): None if move is None else spec.actions.validate_python(move)
        for seat, move in orjson.loads(found).items()
    }


# How sure the search must be that a move beats the Standard pick to play it instead: the
# lower bound of its gain, in standard errors. With a few noisy worlds the best-looking of
# several moves is often only the luckiest; Standard's pick stands unless one is clearly better.
SURE = 1.3


def surely_better(played: list[list[float]]) -> int:
    """The candidate (index; 0 is the Standard pick) whose gain over the Standard pick, world
    by world, has the best lower bound, if that is above nothing; else the Standard pick.
    `played` holds each world's values, one per candidate."""
    if not played:
        return 0
    return surest([[values[i] - values[0] for values in played] for i in range(len(played[0]))])


# Fewer worlds than this prove nothing: two or three alike have no spread, so no error.
LEAST_WORLDS = 4
# A gain this small is nothing: two equal hands' values may differ in their last bits
# (0.1 + 0.2 - 0.3), and a move that only ever ties must not look surely better.
NOTHING = 1e-9


def surest(gains: list[list[float]]) -> int:
    """`surely_better` from each candidate's gains (candidate 0's are none)."""
    best, best_bound = 0, NOTHING
    for index in range(1, len(gains)):
        bound = gain_bound(gains[index], -SURE) if len(gains[index]) >= LEAST_WORLDS else None
        if bound is not None and bound > best_bound:
            best, best_bound = index, bound
    return best


# When a candidate is dropped (`hopeless`): its gain's upper bound, in standard errors, is
# nothing or below. Looser than SURE, as a move dropped for good should be clearly no better;
# a move that ties the Standard pick world after world (gain 0, no spread) is dropped too.
DROP = 1.0


def hopeless(gains: list[float]) -> bool:
    bound = gain_bound(gains, DROP)
    return bound is not None and bound <= NOTHING


def gain_bound(gains: list[float], errors: float) -> float | None:
    """The mean gain plus `errors` standard errors (None: under two worlds prove nothing)."""
    if len(gains) < 2:
        return None
    mean = sum(gains) / len(gains)
    spread = (sum((g - mean) ** 2 for g in gains) / (len(gains) - 1)) ** 0.5
    return mean + errors * spread / len(gains) ** 0.5


def optional(state: GameState, seat: int) -> bool:
    """An optional choice (a free "Last one!" call, a claim) is taken at once, as Standard
    takes it: a search's time could let the next move take it away."""
    return any(d.optional for d in state.pending() if d.seat == seat)


def candidates_for(
    spec: GameSpec,
    state: GameState,
    seat: int,
    standard: Action | None,
    rng: random.Random,
    most: int,
) -> list[Action | None]:
    """The actions compared: the Standard pick, then the ones its policy ranks next (where it
    ranks them), else a random sample of the plausible others (passing kept among them)."""
    found: list[Action | None] = [standard]
    legal = plausible(state, seat)  # never a fold where checking is free
    others = [action for action in legal if action != standard]
    ranking = policy_ranking(spec, state, seat, rng)
    if ranking is not None:
        ranked = [action for action in ranking if action in others]  # legal, not Standard's
        return found + ranked[: max(0, most - len(found))]
    rng.shuffle(others)
    others.sort(key=lambda action: action.kind != "pass")  # a pass stays among the sample
    found += others[: max(0, most - len(found))]
    return found


def policy_ranking(
    spec: GameSpec, state: GameState, seat: int, rng: random.Random
) -> list[Action] | None:
    """The Standard policy's own ranking of the seat's moves (None: it gives none, or fails)."""
    assert spec.ai is not None
    decision = next(d for d in state.pending() if d.seat == seat)
    try:
        return spec.ai.ranked(seat, state.view(seat), decision, state.legal_actions(seat), rng)
    except Exception:  # a ranking is a hint: without it the sample is random, as before
        log.exception("%s AI failed to rank its moves", spec.id)
        return None


# A playout checks its deadline every this many steps: a clock read costs far less than a
# step, but a step can be slow (a policy weighing many plays), so a few steps at most.
CHECK_EVERY = 4


def playout(
    spec: GameSpec,
    world: GameState,
    seat: int,
    first: Action | None,
    seed: int,
    most: int,
    deadline: Deadline | None = None,
) -> float | None:
    """`seat` takes `first` in `world`, then everyone plays the Standard policy to the end of
    the hand: what the hand was worth to `seat` (`hand_value`, and the policy's margin).
    None: the deadline came first (abandoned, so that no decision outlasts its budget whatever
    a playout costs)."""
    assert spec.ai is not None
    if deadline is not None and deadline.passed():
        return None
    events: list[Event] = [] if first is None else world.apply(seat, first)
    rng = random.Random(seed)
    with rolling_out():
        for step in range(most):
            ended = next((e for e in events if isinstance(e, HandEnded | MatchEnded)), None)
            if ended is not None:
                return hand_value(ended, seat) + spec.ai.playout_margin(world, seat)
            if world.is_over() or world.awaiting_next_hand():
                return 0.0
            if deadline is not None and step % CHECK_EVERY == CHECK_EVERY - 1 and deadline.passed():
                return None
            events = rollout_step(world, spec.ai, rng)
    return 0.0


def rollout_step(world: GameState, policy: Policy[Any], rng: random.Random) -> list[Event]:
    """`simulate.step` with Standard players, cheaper: `ai_move` checks a policy's answer
    before the step applies it, which checks it again (each check lists the legal actions,
    up to a quarter of a playout's time); here `apply`'s own check is the only one, and an
    answer it refuses gets the default action, as `ai_move` gives it."""
    for decision in sorted(world.pending(), key=lambda decision: not decision.optional):
        seat = decision.seat
        try:
            action = policy.choose(seat, world.view(seat), decision, world.legal_actions(seat), rng)
        except Exception:  # as `ai_move`: a failing policy plays the default
            action = None
        if action is not None:
            try:
                return world.apply(seat, action)
            except IllegalAction:
                pass
        if not decision.optional:
            return world.apply(seat, world.default_action(seat))
    return world.close_window()


def hand_value(ended: HandEnded | MatchEnded, seat: int) -> float:
    """A hand's worth to `seat`: its chips won or lost where chips moved; else a share of the
    win, and a little for the score's margin (more or less is better as the winners' scores
    say). A match's end: its place, 1 for first down to 0 for last."""
    if isinstance(ended, MatchEnded):
        places = ended.placings
        return (len(places) - places[seat]) / max(len(places) - 1, 1)
    if any(ended.net_chips):
        return float(ended.net_chips[seat])
    won = 1 / len(ended.winners) if seat in ended.winners else 0.0
    return won + 0.25 * score_margin(ended, seat)


def score_margin(ended: HandEnded, seat: int) -> float:
    scores = ended.scores
    if not scores or any(score is None for score in scores) or not ended.winners:
        return 0.0
    known = [int(score or 0) for score in scores]
    spread = max(known) - min(known)
    best = [known[s] for s in ended.winners]
    if spread == 0:
        return 0.0
    sign = 1 if min(best) == max(known) else -1 if max(best) == min(known) else 0
    others = [known[s] for s in range(len(known)) if s != seat]
    return sign * (known[seat] - sum(others) / max(len(others), 1)) / spread


def own_expert(spec: GameSpec) -> bool:
    """Whether the game's policy has an Expert of its own (`Policy.expert_choose`)."""
    return getattr(type(spec.ai), "expert_choose", Policy.expert_choose) is not (
        Policy.expert_choose
    )


def own_move(
    spec: GameSpec, state: GameState, seat: int, rng: random.Random, seconds: float | None
) -> Action | None:
    """The policy's own Expert move; Standard's where it fails or is not allowed."""
    assert spec.ai is not None
    decision = next(d for d in state.pending() if d.seat == seat)
    try:
        move = spec.ai.expert_choose(
            seat, state.view(seat), decision, state.legal_actions(seat), rng, seconds
        )
        if move is not None and state.can(seat, move):
            return move
    except Exception:  # as `ai_move`: a failing policy plays Standard's move
        log.exception("%s AI's own Expert failed", spec.id)
    return ai_move(state, seat, spec.ai, rng)


def shapes_worlds(spec: GameSpec) -> bool:
    """Whether the game's Standard policy deals a world's hands as the others' play implies."""
    return getattr(type(spec.ai), "shape_world", Policy.shape_world) is not Policy.shape_world


def shaped(spec: GameSpec, world: str, seat: int, rng: random.Random) -> str:
    """The world with the hands the others' play makes unlikely dealt again (`shape_world`)."""
    assert spec.ai is not None
    state = spec.restore(world)
    spec.ai.shape_world(state, seat, rng)
    return state.snapshot()


class Worlds:
    """The worlds `seat` may believe in, dealt from the state's JSON (see the module's text)."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.hidden = sorted(str(card) for card in state.hidden_from(seat))
        hidden = set(self.hidden)
        order: dict[str, str] = {}
        self.tree = _relabelled(orjson.loads(state.snapshot()), hidden, order, self.hidden)

    def sample(self, rng: random.Random) -> str:
        """One world's JSON: the hidden cards dealt again, a fresh random source."""
        dealt = self.hidden[:]
        rng.shuffle(dealt)
        mapping = dict(zip(self.hidden, dealt, strict=True))
        world = _mapped(self.tree, mapping)
        if isinstance(world, dict) and "rng" in world:
            world["rng"] = {"seed": rng.getrandbits(62), "draws": 0, "fresh_order": True}
        return orjson.dumps(world).decode()


def _relabelled(node: Any, hidden: set[str], order: dict[str, str], cards: list[str]) -> Any:
    """The JSON with its hidden cards renamed canonically: the k-th met is `cards[k]`."""

    def name(code: str) -> str:
        if code not in order:
            order[code] = cards[len(order)]
        return order[code]

    if isinstance(node, str):
        return name(node) if node in hidden else node
    if isinstance(node, list):
        return [_relabelled(item, hidden, order, cards) for item in node]
    if isinstance(node, dict):
        return {
            (name(key) if key in hidden else key): _relabelled(value, hidden, order, cards)
            for key, value in node.items()
        }
    return node


def _mapped(node: Any, mapping: dict[str, str]) -> Any:
    if isinstance(node, str):
        return mapping.get(node, node)
    if isinstance(node, list):
        return [_mapped(item, mapping) for item in node]
    if isinstance(node, dict):
        return {mapping.get(key, key): _mapped(value, mapping) for key, value in node.items()}
    return node
