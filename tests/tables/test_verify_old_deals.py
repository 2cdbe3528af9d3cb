"""Tables whose matches started before issue 50 shuffled the cards they gathered (the next hand's
deck) in the order gathered. `/table verify` and the hand-history replays re-deal them that
way, as their saved states say, so they still match; a table started now re-deals from the
fresh-deck order. Lowball over two hands, every turn its default."""

import json

import pytest

from bot.engine import GameState, registry
from bot.engine.deals import DealSeed
from bot.store import TableRecord
from bot.store.history import LoggedStep, SeatName, TableLog
from bot.tables import verification
from bot.tables.history import final_state, replay_table
from bot.tables.verification import verdict
from tests.tables.closed_tables import CLICK, SEED, Steps, played_by_defaults

LOWBALL = registry.get("lowball")
BUY_IN = 100


def played(started_before: bool) -> tuple[TableRecord, str, Steps]:
    """Lowball: two hands played, then the table closed."""
    state = LOWBALL.new_match(None, [BUY_IN] * 3, DealSeed(SEED, CLICK))
    if started_before:
        state.rng.fresh_order = False  # as the code before issue 50 started it

    def two_hands(state: GameState, _: list[LoggedStep]) -> bool:
        return state.hand == 2 and state.awaiting_next_hand()

    return played_by_defaults(LOWBALL, state, BUY_IN, two_hands)


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
