"""Terrapin tables saved before the poker table was shared with Lowball (each shown hand's
cards and the last result were stored then) still load after an upgrade, and play on exactly
as the older code played them (where a rule has changed since, as the rule now says). The
snapshots and what followed were recorded with that code (commit c9f5556, the last before
bot/games/poker.py), taking the first legal action of the lowest pending seat."""

import json

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.engine import registry
from tests import DATA

RECORDED = json.loads((DATA / "terrapin_snapshots_before_poker_table.json").read_text())
CASES = [(game, case) for game, cases in RECORDED.items() for case in cases]
# Where the rules changed since the recording, what the replay now ends with. Western #0, hand
# 6: seat 1 went all-in with its ante and seat 2 folded; the older code still asked seat 0 to
# bet or fold against nobody who could answer (it folded); now the hand goes on to the draw
# and the showdown (issue 38: nobody is asked to bet when everyone else is all-in).
CHANGED_SINCE = {id(RECORDED["western"][0]): ([112, 0, 8, 0], 7)}


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
    expected = CHANGED_SINCE.get(id(case), (case["stacks_after"], case["hand_after"]))
    assert (state.stacks, state.hand) == expected
