"""Hand histories replayed from a first state and the logged steps, for every game: the replay
follows the game step for step, splits it into hands, and no member's step (nor the public
JSON Lines export) names a card hidden from them at that step."""

from __future__ import annotations

import random
from collections import Counter

import orjson
import pytest

from bot.engine import GameSpec, HandEnded, HandStarted
from bot.games import GAMES
from bot.store.history import LoggedStep, TableLog
from bot.tables.actions import NEXT_HAND as TABLE_NEXT_HAND
from bot.tables.actions import WINDOW_CLOSED, TakeSeat
from bot.tables.history import (
    HandReplay,
    ReplayUnavailable,
    replay_steps,
    replay_table,
    split_hands,
)
from tests.conformance import (
    CLOSE_WINDOW,
    JSON_STRING,
    LEAVE,
    NEXT_HAND,
    SEAT_CHIPS,
    TAKE_SEAT,
    Audit,
    playout,
    seat_counts,
    starting_stacks,
    strings_of,
    with_options,
)
from tests.engines.test_conformance import QUICKER
from tests.tinygame import TINY

SEEDS = 2
LEFT = '{"kind":"leave"}'


def quicker(spec: GameSpec) -> GameSpec:
    return with_options(spec, QUICKER.get(spec.id))


def logged_match(spec: GameSpec, seats: int, seed: int) -> tuple[str, list[LoggedStep], list[str]]:
    """A conformance playout as the table logs it: its first state, the logged steps and the
    snapshot after each (a leave of a seat already gone changes nothing and is not logged)."""
    state, _ = spec.open_match(None, starting_stacks(spec, seats, random.Random(seed)), seed)
    first = state.snapshot()
    log, snapshots, before = [], [], first
    for step in playout(spec, seats, seed, 5000, audit=False):
        if step.action == LEAVE and step.snapshot == before:
            continue
        if step.action == NEXT_HAND:
            seat, action = None, TABLE_NEXT_HAND.model_dump_json()
        elif step.action == CLOSE_WINDOW:
            seat, action = None, WINDOW_CLOSED.model_dump_json()
        elif step.action == LEAVE:
            seat, action = step.seat, LEFT
        elif step.action == TAKE_SEAT:
            seat, action = step.seat, TakeSeat(chips=SEAT_CHIPS).model_dump_json()
        else:
            seat, action = step.seat, step.action.model_dump_json()
        log.append(LoggedStep(len(log) + 1, seat, action, timed_out=False))
        snapshots.append(step.snapshot)
        before = step.snapshot
    return first, log, snapshots


def assert_nothing_hidden_shown(spec: GameSpec, hand: HandReplay, seats: int) -> None:
    audit = Audit(spec, Counter(spec.deck_for(seats)), 0, random.Random(0))
    lines = hand.jsonl(spec, table_id=1).splitlines()
    assert len(lines) == len(hand.steps)
    for number in range(len(hand.steps)):
        state = hand.state_at(spec, number)
        for viewer in [None, *range(seats)]:
            seen = hand.seen(spec, number, viewer)
            shown = strings_of(seen.public) | set().union(*map(strings_of, seen.events))
            if seen.own is not None:
                shown |= strings_of(seen.own)
            leaked = audit.named(state.hidden_from(viewer), shown)
            assert not leaked, f"hand {hand.number} step {number}: {viewer} sees {leaked}"
        exported = set(JSON_STRING.findall(lines[number]))
        leaked = audit.named(state.hidden_from(None), exported)
        assert not leaked, f"hand {hand.number} step {number}: the export shows {leaked}"
        assert orjson.loads(lines[number])["step"] == number


@pytest.mark.parametrize("spec", [TINY, *GAMES], ids=lambda spec: spec.id)
def test_replay_follows_the_game_and_shows_nobody_a_hidden_card(spec):
    spec = quicker(spec)
    counts = seat_counts(spec)
    for seed in range(SEEDS):
        seats = next(counts)
        first, log, snapshots = logged_match(spec, seats, seed)
        replayed = list(replay_steps(spec, first, log))
        assert [step.snapshot for step in replayed[1:]] == snapshots
        hands = split_hands(iter(replayed), spec.restore(first).hand)
        ends = sum(isinstance(e, HandEnded) for step in replayed for e in step.events)
        assert sum(hand.ended for hand in hands) >= min(ends, len(hands) - 1)
        for hand in hands:
            assert not any(
                isinstance(e, HandStarted) for step in hand.steps[1:] for e in step.events
            )
            assert_nothing_hidden_shown(spec, hand, seats)


def test_a_table_started_before_first_states_is_listed_but_not_replayed():
    spec = TINY
    log = TableLog(1, 1, 1, spec.id, True, "{}", 0, False, None, None, (), ())
    with pytest.raises(ReplayUnavailable, match="can't be replayed"):
        replay_table(spec, log)
