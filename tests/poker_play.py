"""Playing the poker family's states move by move in tests, and the check every betting game
shares for a player facing only all-in players."""

import pytest

from bot.engine import Event, IllegalAction
from bot.games.betting import Call, Fold, Raise, UncalledReturned


def play(state, *moves) -> list[Event]:
    """Apply `(seat, action)` moves in order; the events they made."""
    events = []
    for seat, action in moves:
        events += state.apply(seat, action)
    return events


def call_facing_all_ins(state, seat: int, refused: Raise) -> None:
    """`seat` faces only all-in players: it may call or fold, the raise `refused` is refused
    with the reason and nothing changed, and its call hands no chips back."""
    assert state.legal_actions(seat) == [Fold(), Call()]
    before = state.model_dump()
    with pytest.raises(IllegalAction, match="Everyone else is all-in"):
        state.apply(seat, refused)
    assert state.model_dump() == before
    events = play(state, (seat, Call()))
    assert not any(isinstance(e, UncalledReturned) for e in events)
