"""Tables whose matches started before issue 50 shuffled the cards they gathered (the next hand's
deck) in the order gathered. `/table verify` and the hand-history replays re-deal them that
way, as their saved states say, so they still match; a table started now re-deals from the
fresh-deck order. Lowball over two hands, every turn its default."""

import json

import pytest

from bot.engine import GameState, registry
from bot.engine.deals import DealSeed
from bot.store import SeatRecord, TableRecord, TableStatus
from bot.store.history import LoggedStep, SeatName, TableLog
from bot.tables import verification
from bot.tables.history import final_state, replay_table
from bot.tables.verification import verdict

SEED, CLICK = bytes(range(32)), 1234567890123456789
LOWBALL = registry.get("lowball")
NEXT_HAND = '{"kind":"next_hand"}'
BUY_IN = 100


def played(started_before: bool) -> tuple[TableRecord, str, tuple[LoggedStep, ...]]:
    """A closed table's record, first state and logged steps: two hands played, then the
    table closed (its state cashed out, as the runtime's close does)."""
    state: GameState = LOWBALL.new_match(None, [BUY_IN] * 3, DealSeed(SEED, CLICK))
    if started_before:
        state.rng.fresh_order = False  # as the code before issue 50 started it
    first, steps = state.snapshot(), []
    while not (state.hand == 2 and state.awaiting_next_hand()):
        if state.awaiting_next_hand():
            state.next_hand()
            steps.append(LoggedStep(len(steps) + 1, None, NEXT_HAND, False))
            continue
        seat = state.required_seats()[0]
        action = state.default_action(seat)
        state.apply(seat, action)
        steps.append(LoggedStep(len(steps) + 1, seat, action.model_dump_json(), True))
    steps.append(LoggedStep(len(steps) + 1, None, '{"kind":"close"}', False))
    state.cash_out()
    record = TableRecord(
        9, 1, 2, "lowball", TableStatus.CLOSED, 100, BUY_IN, "{}", 60, state=state.snapshot()
    )
    record.seats = [SeatRecord(n, 100 + n, f"P{n}") for n in range(3)]
    record.deal_seed, record.deal_input = SEED.hex(), CLICK
    return record, first, tuple(steps)


def table_log(record: TableRecord, first: str, steps: tuple[LoggedStep, ...]) -> TableLog:
    """The closed table's log, as `/table history` reads it."""
    seats = tuple(SeatName(seat.seat, seat.member_id, seat.name) for seat in record.seats)
    return TableLog(
        9, 1, 2, "lowball", True, "{}", BUY_IN, False, first, record.state, seats, steps
    )


@pytest.mark.parametrize("started_before", [True, False], ids=["started-before", "started-now"])
def test_a_closed_table_verifies_whenever_it_started(started_before):
    record, first, steps = played(started_before)
    assert ("fresh_order" in json.loads(first)["rng"]) is not started_before
    assert verdict(LOWBALL, record, first, steps).startswith("Match: this is table #9's seed")
    assert verdict(LOWBALL, record, None, steps).startswith("Match")  # from its final state


def test_an_old_table_re_dealt_the_new_way_would_not_match(monkeypatch):
    """What the saved states' `fresh_order` is read for: without it, the old table's second
    hand would be re-dealt from the fresh-deck order, which is not what it dealt."""
    record, _, steps = played(started_before=True)
    monkeypatch.setattr(verification, "dealt_fresh", lambda *_: True)
    assert verdict(LOWBALL, record, None, steps).startswith("Mismatch")


@pytest.mark.parametrize("started_before", [True, False], ids=["started-before", "started-now"])
def test_the_replays_deal_every_hand_as_it_was_dealt(started_before):
    record, first, steps = played(started_before)
    log = table_log(record, first, steps)
    assert json.loads(final_state(LOWBALL, log).snapshot()) == json.loads(record.state or "")
    hands = replay_table(LOWBALL, log)
    assert [hand.number for hand in hands] == [1, 2]
    second = hands[1].state_at(LOWBALL, 0)
    assert second.rng.fresh_order is not started_before
