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
from typing import Any

from bot.engine import Action, GameState, Policy

log = logging.getLogger(__name__)


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
