"""The Expert AI level: determinized Monte Carlo search (README, AI players).

At a decision, Expert compares a few candidate actions (the Standard policy's pick among them)
by playing each out in many sampled worlds. A world is the game as its seat may believe it to
be: every card hidden from the seat is dealt again at random into the places hidden cards lie
(the other hands, the stub, a hole card), and the deal's random source is replaced, so that
what the seat has seen (its hand, every card shown, played, passed or discarded in sight, the
counts of cards each place holds) stays as it is and nothing else is known. In each world every
seat then plays on with the Standard policy to the end of the hand, and the candidate with the
best mean result is chosen (the same worlds for every candidate: their differences are the
candidates', not the deals').

A world is made from the state's JSON in two steps: the hidden cards are first relabelled in a
canonical order (the k-th hidden card met is the k-th in card order), then dealt by a random
permutation. So two states a seat cannot tell apart (the same view: only hidden cards lie
differently) give the same worlds for the same random numbers, and the search sees only what
the seat sees, as the other levels do (tests/engines/test_ai_levels.py checks it for every
game that searches).

Only games whose hidden information is all cards search (`GameSpec.searches`): a secret that is
no card (Delphi's rule, Provincial's fists) would be read from the state as it is."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from bot.engine import Action, Event, GameSpec, GameState, HandEnded, MatchEnded
from bot.games.ai import ai_move, plausible, rolling_out
from bot.games.simulate import Seats, step


@dataclass(frozen=True)
class Budget:
    """How much an Expert decision may search: at most `worlds` sampled worlds, and no more
    once `seconds` have passed (None: the worlds alone bound it, for reproducible tests)."""

    worlds: int = 40
    seconds: float | None = 0.2
    candidates: int = 8  # actions compared at most, the Standard pick always among them
    steps: int = 600  # a playout longer than this is cut short (and counts as nothing)


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
    assert spec.ai is not None  # a game that searches has a Standard policy to play out with
    standard = ai_move(state, seat, spec.ai, rng)
    if not spec.searches or optional(state, seat):
        return standard
    candidates = candidates_for(state, seat, standard, rng, budget.candidates)
    if len(candidates) < 2:
        return standard
    worlds = Worlds(state, seat)
    played: list[list[float]] = []  # per world, each candidate's value
    deadline = None if budget.seconds is None else clock() + budget.seconds
    for _world in range(budget.worlds):
        world, seed = worlds.sample(rng), rng.getrandbits(32)
        values: list[float] = []
        for action in candidates:
            if values and deadline is not None and clock() >= deadline:
                break  # out of time: a world not played out for every candidate counts not
            values.append(playout(spec, spec.restore(world), seat, action, seed, budget.steps))
        if len(values) < len(candidates):
            break
        played.append(values)
    return candidates[surely_better(played)]


# How sure the search must be that a move beats the Standard pick to play it instead: the
# lower bound of its gain, in standard errors. With a few noisy worlds the best-looking of
# several moves is often only the luckiest; Standard's pick stands unless one is clearly better.
SURE = 1.3


def surely_better(played: list[list[float]]) -> int:
    """The candidate (index; 0 is the Standard pick) whose gain over the Standard pick, world
    by world, has the best lower bound, if that is above nothing; else the Standard pick."""
    if len(played) < 2:
        return 0
    best, best_bound = 0, 0.0
    for index in range(1, len(played[0])):
        gains = [values[index] - values[0] for values in played]
        mean = sum(gains) / len(gains)
        spread = (sum((g - mean) ** 2 for g in gains) / (len(gains) - 1)) ** 0.5
        bound = mean - SURE * spread / len(gains) ** 0.5
        if bound > best_bound:
            best, best_bound = index, bound
    return best


def optional(state: GameState, seat: int) -> bool:
    """An optional choice (a free "Last one!" call, a claim) is taken at once, as Standard
    takes it: a search's time could let the next move take it away."""
    return any(d.optional for d in state.pending() if d.seat == seat)


def candidates_for(
    state: GameState, seat: int, standard: Action | None, rng: random.Random, most: int
) -> list[Action | None]:
    """The actions compared: every legal one when few, else the Standard pick and a random
    sample of the others (passing kept among them)."""
    found: list[Action | None] = [standard]
    legal = plausible(state, seat)  # never a fold where checking is free
    others = [action for action in legal if action != standard]
    rng.shuffle(others)
    others.sort(key=lambda action: action.kind != "pass")  # a pass stays among the sample
    found += others[: max(0, most - len(found))]
    return found


def playout(
    spec: GameSpec, world: GameState, seat: int, first: Action | None, seed: int, most: int
) -> float:
    """`seat` takes `first` in `world`, then everyone plays the Standard policy to the end of
    the hand: what the hand was worth to `seat`."""
    assert spec.ai is not None
    events: list[Event] = [] if first is None else world.apply(seat, first)
    players = Seats([spec.ai] * world.seat_count, seed)
    with rolling_out():
        for _step in range(most):
            ended = next((e for e in events if isinstance(e, HandEnded | MatchEnded)), None)
            if ended is not None:
                return hand_value(ended, seat)
            if world.is_over() or world.awaiting_next_hand():
                return 0.0
            events = step(world, players)
    return 0.0


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
