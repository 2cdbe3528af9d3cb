"""AI seats: each game's policy (`GameSpec.ai`, in bot/games/<game>/ai.py, a `Policy` of the
game's view) is pure and seeded and sees only what its seat sees.

A policy gets the seat's view (`state.view(seat)`, never the hidden cards), the decision it
faces and the actions the seat may take (for a game that can't list them, its suggestions);
it returns one of them, or an action it builds itself from its own cards (Crash's
arrangements), or None to let an optional choice go. `ai_move` asks it and checks the answer:
an illegal answer, or an error, falls back to the seat's default action, so an AI never blocks
a table.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from bot.engine import Action, GameState, Policy, UnlistedActions
from bot.i18n import N_

log = logging.getLogger(__name__)


_rolling_out: ContextVar[bool] = ContextVar("rolling_out", default=False)


@contextmanager
def rolling_out() -> Iterator[None]:
    """Within it, policies play the Expert's playouts: thousands of moves a decision, so a
    policy that searches on its own (a trick game's endgame) plays its quick rules instead."""
    token = _rolling_out.set(True)
    try:
        yield
    finally:
        _rolling_out.reset(token)


def in_rollout() -> bool:
    return _rolling_out.get()


def ai_move(state: GameState, seat: int, policy: Policy[Any], rng: random.Random) -> Action | None:
    """What the AI in `seat` does now: its policy's legal answer, else (for a required
    decision) the default action. None: it lets an optional choice go."""
    decision = next(d for d in state.pending() if d.seat == seat)
    try:
        action = policy.choose(seat, state.view(seat), decision, state.legal_actions(seat), rng)
        if action is None and decision.optional:
            return None
        if action is not None and state.can(seat, action):
            return action
        log.warning("%s AI chose an illegal %r", policy.game_id, action)
    except Exception:
        log.exception("%s AI failed; the default action is played", policy.game_id)
    return None if decision.optional else state.default_action(seat)


def random_move(state: GameState, seat: int, rng: random.Random) -> Action | None:
    """A random legal player: a required decision gets a random action, an optional one is
    taken half the time."""
    decision = next(d for d in state.pending() if d.seat == seat)
    if decision.optional and rng.random() < 0.5:
        return None
    return state.sample(seat, rng)


# ---- levels (README, AI players) ----------------------------------------------------------

BEGINNER, STANDARD, EXPERT = "beginner", "standard", "expert"
LEVELS = (BEGINNER, STANDARD, EXPERT)
LEVEL_NAMES = {BEGINNER: N_("Beginner"), STANDARD: N_("Standard"), EXPERT: N_("Expert")}


def beginner_move(
    state: GameState, seat: int, policy: Policy[Any], rng: random.Random
) -> Action | None:
    """A player a newcomer can beat: the Standard move, but often a random plausible one
    instead. Never an absurd one: an optional choice (a free "Last one!" call, a claim) is
    taken as Standard takes it, and a fold is never chosen where checking is free."""
    standard = ai_move(state, seat, policy, rng)
    decision = next(d for d in state.pending() if d.seat == seat)
    if decision.optional or rng.random() >= policy.beginner_slips:
        return standard
    choices = plausible(state, seat)
    return rng.choice(choices) if choices else standard


def plausible(state: GameState, seat: int) -> list[Action]:
    """The seat's legal moves a beginner might make: for a game that can't list its moves,
    its suggestions (each a sensible one); no fold while a check is allowed."""
    actions = (
        state.suggestions(seat, 12)
        if isinstance(state, UnlistedActions)
        else state.legal_actions(seat)
    )
    kinds = {action.kind for action in actions}
    return [a for a in actions if not (a.kind == "fold" and "check" in kinds)]


# ---- the Expert's worlds, as the others' play implies (`Policy.shape_world`) ------------------

Place = tuple[list[Any], int]  # a face-down card: its pile and its index there


def reshape(
    hand: list[Any],
    likelihood: Callable[[list[Any]], float],
    piles: Sequence[list[Any]],
    rng: random.Random,
    tries: int,
    choose: Callable[[list[Place]], list[Place] | None] | None = None,
) -> None:
    """Deal a hand again from the face-down cards in `piles` until it is kept, each hand
    with the chance `likelihood` gives it (a few `tries` at most): the hands a player holds
    in the Expert's worlds then come as often as their play makes them likely. `choose` may
    say which of the face-down cards, shuffled, to deal first (those that make a likely hand
    where such hands are rare); the cards stay hidden, only where they lie changes."""
    for _ in range(tries):
        if rng.random() < likelihood(hand):
            return
        places = [(pile, index) for pile in piles for index in range(len(pile))]
        rng.shuffle(places)
        chosen = choose(places) if choose is not None else None
        for position, (pile, index) in enumerate((chosen or places)[: len(hand)]):
            hand[position], pile[index] = pile[index], hand[position]
