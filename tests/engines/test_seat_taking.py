"""A new player taking a seat its player left (`can_take_seat`, `take_seat`): the chip games
that play on without the seat let one sit in, dealt in from the next hand; the others refuse.
(The conformance test takes such seats in its playouts, its audit checking every step.)"""

import random

import pytest

from bot.engine import GameState, IllegalAction, registry

CHIPS = [30, 30, 30]


def between_hands(game: str, options: dict | None = None) -> GameState:
    """A three-seat table of `game` after its first hand, played at random."""
    spec = registry.get(game)
    state, _events = spec.open_match(spec.options_model(**(options or {})), CHIPS, seed=7)
    play_on(state, random.Random(7))
    return state


def play_on(state: GameState, chooser: random.Random, never: int | None = None) -> None:
    """Random turns to the hand's end (seat `never` never has one)."""
    for _step in range(2000):
        if state.awaiting_next_hand():
            return
        seat = next(d.seat for d in state.pending() if not d.optional)
        assert seat != never
        state.apply(seat, state.sample(seat, chooser))
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize(
    ("game", "options"),
    [("lowball", None), ("western", None), ("provincial", None), ("backhand", {"mode": "chips"})],
)
def test_a_seat_left_between_hands_is_taken_and_dealt_in_from_the_next_hand(game, options):
    state = between_hands(game, options)
    assert not any(state.can_take_seat(seat) for seat in range(3))  # every seat is taken
    state.leave(1)
    assert state.can_take_seat(1) and not state.can_take_seat(0)
    total = state.chip_total()
    snapshot = state.snapshot()
    with pytest.raises(IllegalAction):
        state.take_seat(0, 25)  # a seated player's
    assert state.snapshot() == snapshot  # refused: nothing changed
    state.take_seat(1, 25)
    assert state.seated[1] and state.stacks[1] == 25 and state.chip_total() == total + 25
    assert not state.can_take_seat(1)
    state.next_hand()
    assert 1 in state.players


def test_a_seat_taken_during_a_hand_waits_for_the_next_deal():
    state = between_hands("lowball")
    state.leave(2)
    state.next_hand()  # dealt without seat 2
    assert 2 not in state.players and state.can_take_seat(2)
    state.take_seat(2, 40)
    assert 2 not in state.players and not any(d.seat == 2 for d in state.pending())
    play_on(state, random.Random(2), never=2)
    state.next_hand()
    assert 2 in state.players


@pytest.mark.parametrize(
    ("game", "options"), [("liars", None), ("backhand", {"mode": "wins"}), ("bigtwo", None)]
)
def test_games_that_cannot_play_on_with_a_new_player_refuse(game, options):
    state = between_hands(game, options)
    state.leave(1)
    assert not any(state.can_take_seat(seat) for seat in range(3))
    with pytest.raises(IllegalAction):
        state.take_seat(1, 25)
