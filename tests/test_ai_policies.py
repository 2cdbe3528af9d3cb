"""Every game's AI policy, through the simulator: over many seeds and table sizes, every
seat's AI answers legally (`ai_move` never falls back to the default), matches end, and a
policy sees only its seat's view: the AI's answer doesn't change when the cards hidden from
it are dealt differently. The policies' own tests show their play; bench/ai.py shows they
beat random players."""

import json
import logging
import random

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.engine import registry
from bot.games.ai import ai_move, policy_for
from bot.games.simulate import Seats, play_match, policies_for
from tests.conformance import seat_counts
from tests.test_conformance import QUICKER

PLAYED = [spec for spec in registry.games() if not spec.solo]


def test_every_multiplayer_game_has_an_ai_policy():
    assert [spec.id for spec in PLAYED if policy_for(spec) is None] == []


@pytest.mark.parametrize("spec", PLAYED, ids=lambda spec: spec.id)
def test_the_ai_always_answers_legally(spec, caplog):
    caplog.set_level(logging.WARNING, logger="bot.games.ai")
    options = spec.options_model(**QUICKER.get(spec.id, {}))
    counts = seat_counts(spec)
    for seed in range(6):
        players = next(counts)
        against = "ai" if seed % 2 else "random"
        seats = Seats(policies_for(spec, players, against), seed)
        most = 3 if spec.chips_for(options) else None
        result = play_match(spec, seats, seed, options=options, most_hands=most)
        assert result.steps > 0
    assert [record.getMessage() for record in caplog.records] == []


@pytest.mark.parametrize("spec", PLAYED, ids=lambda spec: spec.id)
def test_the_ai_sees_only_its_seat(spec):
    """Along random playouts, the seat to act is shown a twin of the game whose cards hidden
    from it are dealt otherwise (swapped among themselves in the snapshot): its view must be
    the same, and so must its AI's answer."""
    policy = policy_for(spec)
    options = spec.options_model(**QUICKER.get(spec.id, {}))
    compared = 0
    for seed in range(4):
        chooser = random.Random(seed)
        players = max(spec.min_players, min(3, spec.max_players))
        state = spec.new_match(options, [100] * players, seed)
        for step in range(60):
            if state.is_over():
                break
            if state.awaiting_next_hand():
                state.next_hand()
                continue
            if not state.required_seats():
                state.close_window()
                continue
            seat = state.required_seats()[0]
            if step % 3 == 0:
                twin = hidden_dealt_otherwise(spec, state, seat, chooser)
                assert twin.view(seat) == state.view(seat), "the view shows hidden cards"
                answer = ai_move(state, seat, policy, random.Random(step))
                assert ai_move(twin, seat, policy, random.Random(step)) == answer
                compared += 1
            state.apply(seat, state.sample(seat, chooser))
    assert compared >= 4


def hidden_dealt_otherwise(spec, state, seat, chooser):
    """The state with the cards hidden from `seat` swapped among themselves."""
    codes = sorted(str(card) for card in state.hidden_from(seat))
    swapped = dict(zip(codes, chooser.sample(codes, len(codes)), strict=True))
    snapshot = json.loads(state.snapshot())
    return spec.state_model.model_validate(swap(snapshot, swapped))


def swap(value, swapped: dict[str, str]):
    if isinstance(value, str):
        return swapped.get(value, value)
    if isinstance(value, list):
        return [swap(item, swapped) for item in value]
    if isinstance(value, dict):
        return {key: swap(item, swapped) for key, item in value.items()}
    return value
