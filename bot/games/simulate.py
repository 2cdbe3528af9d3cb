"""Self-play without Discord: AI seats (and random legal players) play whole matches, for
`python -m bot simulate`, the AI benchmark and the tests. Pure: no clock, no I/O."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.engine import (
    Action,
    Event,
    GameSpec,
    GameState,
    HandEnded,
    MatchEnded,
    Policy,
    placings,
)
from bot.games.ai import ai_move, random_move

STACK = 100  # each seat's chips in a chip game
MOST_STEPS = 200_000  # a match that runs longer than this is a bug


@dataclass
class MatchResult:
    hands: int  # hands played to the end
    steps: int  # decisions taken
    placings: list[int]  # per seat, 1 = first
    chips: list[int]  # per seat: chips won (negative: lost); zeros in a points game


@dataclass
class Tally:
    """Results of many matches, per seat."""

    seats: int
    matches: int = 0
    hands: int = 0
    steps: int = 0
    firsts: list[float] = field(init=False)  # shares of first places won
    chips: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.firsts = [0.0] * self.seats
        self.chips = [0] * self.seats

    def add(self, result: MatchResult) -> None:
        self.matches += 1
        self.hands += result.hands
        self.steps += result.steps
        winners = [seat for seat, place in enumerate(result.placings) if place == 1]
        for seat in winners:
            self.firsts[seat] += 1 / len(winners)
        self.chips = [total + won for total, won in zip(self.chips, result.chips, strict=True)]


# A player of its own kind for a seat (an AI level, bench/ai.py): (state, seat) -> its move.
Mover = Callable[[GameState, int], Action | None]


class Seats:
    """Who plays each seat: an AI policy, or a random legal player (None); `movers` puts a
    player of its own in some seats (Beginner, Expert)."""

    def __init__(
        self,
        policies: list[Policy[Any] | None],
        seed: int,
        movers: dict[int, Mover] | None = None,
    ) -> None:
        self.policies = policies
        self.movers = movers or {}
        self.rng = random.Random(f"seats:{seed}")

    def move(self, state: GameState, seat: int) -> Action | None:
        if seat in self.movers:
            return self.movers[seat](state, seat)
        policy = self.policies[seat]
        if policy is None:
            return random_move(state, seat, self.rng)
        return ai_move(state, seat, policy, self.rng)


def play_match(
    spec: GameSpec,
    seats: Seats,
    seed: int,
    *,
    options: BaseModel | None = None,
    most_hands: int | None = None,
) -> MatchResult:
    """One match (or its first `most_hands` hands, for games that go on while players have
    chips), every decision taken by its seat's player."""
    options = options or spec.options_model()
    count = len(seats.policies)
    start = [STACK if spec.chips_for(options) else 0] * count
    state = spec.new_match(options, start, seed)
    hands = steps = 0
    ended: MatchEnded | None = None
    while not state.is_over():
        if state.awaiting_next_hand():
            if most_hands is not None and hands >= most_hands:
                break
            events = state.next_hand()
        else:
            events = step(state, seats)
            steps += 1
            if steps > MOST_STEPS:
                raise RuntimeError(f"{spec.id} seed {seed}: no end after {MOST_STEPS} steps")
        hands += sum(isinstance(event, HandEnded) for event in events)
        ended = next((e for e in events if isinstance(e, MatchEnded)), ended)
    payouts = state.cash_out()
    chips = [paid - began for paid, began in zip(payouts, start, strict=True)]
    ended = ended or state.final_standings()
    places = ended.placings if ended else placings(chips)
    return MatchResult(hands=hands, steps=steps, placings=places, chips=chips)


def step(state: GameState, seats: Seats) -> list[Event]:
    """One move: the first pending seat that acts; optional choices are offered first (a
    "Last one!" call is made before the next player moves, as at a table) and may be let go.
    When only optional choices wait and none is taken, their window closes."""
    for decision in sorted(state.pending(), key=lambda decision: not decision.optional):
        action = seats.move(state, decision.seat)
        if action is not None:
            return state.apply(decision.seat, action)
    return state.close_window()


def usual_players(spec: GameSpec) -> int:
    """A table size to simulate when none is given: three where the game allows it."""
    return max(spec.min_players, min(3, spec.max_players))


def policies_for(spec: GameSpec, players: int, against: str) -> list[Policy[Any] | None]:
    """Every seat the game's AI ("ai"), or seat 0 the AI and the others random ("random")."""
    policy = spec.ai
    if policy is None:
        raise ValueError(f"{spec.name} has no AI policy")
    return [policy if seat == 0 or against == "ai" else None for seat in range(players)]
