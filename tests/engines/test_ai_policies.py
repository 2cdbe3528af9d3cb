"""Every game's AI policy: through the conformance test's audited playouts every answer is
legal as it stands; against random players in the simulator `ai_move` never falls back to the
default; and a policy sees only its seat's view: the AI's answer doesn't change when the cards
hidden from it are dealt differently. The policies' own tests show their play; bench/ai.py
shows they beat random players."""

import json
import logging
import random

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.engine import Policy, registry
from bot.games.ai import ai_move
from bot.games.climbing import Pass
from bot.games.simulate import Seats, play_match, policies_for, usual_players
from tests.conformance import check_game, seat_counts
from tests.engines.test_conformance import QUICKER

PLAYED = [spec for spec in registry.games() if not spec.solo]


def test_every_multiplayer_game_has_an_ai_policy():
    assert [spec.id for spec in PLAYED if spec.ai is None] == []


@pytest.mark.parametrize("spec", PLAYED, ids=lambda spec: spec.id)
@pytest.mark.slow
def test_the_ai_plays_the_conformance_test_legally(spec):
    """Every seat played by the game's AI through the conformance test's audited playouts:
    each answer must be accepted as it is, and every invariant holds along the way."""
    check_game(spec, seeds=4, options=QUICKER.get(spec.id), policy=spec.ai)


@pytest.mark.parametrize("spec", PLAYED, ids=lambda spec: spec.id)
@pytest.mark.slow
def test_ai_and_random_players_finish_matches_without_a_fallback(spec, caplog):
    caplog.set_level(logging.WARNING, logger="bot.games.ai")
    options = spec.options_model(**QUICKER.get(spec.id, {}))
    counts = seat_counts(spec)
    for seed in range(3):
        seats = Seats(policies_for(spec, next(counts), "random"), seed)
        most = 3 if spec.chips_for(options) else None
        result = play_match(spec, seats, seed, options=options, most_hands=most)
        assert result.steps > 0
    assert [record.getMessage() for record in caplog.records] == []


@pytest.mark.parametrize("spec", PLAYED, ids=lambda spec: spec.id)
@pytest.mark.slow
def test_the_ai_sees_only_its_seat(spec):
    """Along random playouts, the seat to act is shown a twin of the game whose cards hidden
    from it are dealt otherwise (swapped among themselves in the snapshot): its view must be
    the same, and so must its AI's answer."""
    policy = spec.ai
    options = spec.options_model(**QUICKER.get(spec.id, {}))
    compared = 0
    for seed in range(4):
        chooser = random.Random(seed)
        players = usual_players(spec)
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


def test_the_conformance_test_catches_an_illegal_ai_answer():
    class AlwaysPass(Policy):
        game_id = "bigtwo"

        def choose(self, seat, view, decision, legal, rng):
            return Pass()  # not allowed on a free lead

    with pytest.raises(AssertionError, match="AI policy's answer Pass"):
        check_game(registry.get("bigtwo"), seeds=1, policy=AlwaysPass())
