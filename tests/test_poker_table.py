"""Terrapin tables saved before the poker table was shared with Lowball (each shown hand's
cards and the last result were stored then) still load after an upgrade, and play on exactly
as the older code played them. The snapshots and what followed were recorded with that code
(commit c9f5556, the last before bot/games/poker.py), taking the first legal action of the
lowest pending seat."""

import json
from pathlib import Path

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.engine import registry

RECORDED = json.loads(
    (Path(__file__).parent / "data" / "terrapin_snapshots_before_poker_table.json").read_text()
)
CASES = [(game, case) for game, cases in RECORDED.items() for case in cases]


@pytest.mark.parametrize(("game", "case"), CASES, ids=[game for game, _ in CASES])
def test_a_table_saved_by_the_older_code_loads_and_plays_on_the_same(game, case):
    state = registry.get(game).restore(case["snapshot"])
    state.view(None), state.view(0)  # both render
    for _ in range(40):
        if state.is_over():
            break
        if state.awaiting_next_hand():
            state.next_hand()
            continue
        seat = min(state.pending_seats())
        state.apply(seat, state.legal_actions(seat)[0])
    assert (state.stacks, state.hand) == (case["stacks_after"], case["hand_after"])
