"""`/table verify`'s replay (bot/tables/verification.py), on a Porrazo match played over two
hands from a known seed: the true record matches; another Start click, a changed step or a
changed end does not."""

import dataclasses

import pytest

from bot.engine import GameState, registry
from bot.engine.deals import DealSeed
from bot.store import SeatRecord, TableRecord, TableStatus
from bot.store.history import LoggedStep
from bot.tables.verification import UNKNOWN_REASON, parse_hex, same, verdict
from tests.tables.closed_tables import CLICK, NEXT_HAND, SEED, Steps, played_by_defaults

PORRAZO = registry.get("porrazo")


def played() -> tuple[TableRecord, str, Steps]:
    """Porrazo, played until the second hand is dealt, then closed."""

    def dealt_twice(_: GameState, steps: list[LoggedStep]) -> bool:
        return NEXT_HAND in [step.action for step in steps]

    state = PORRAZO.new_match(None, [0, 0, 0], DealSeed(SEED, CLICK))
    return played_by_defaults(PORRAZO, state, 0, dealt_twice)


def test_the_true_record_matches():
    record, first, steps = played()
    assert verdict(PORRAZO, record, first, steps).startswith("Match: this is table #9's seed")
    # A table started before first states were kept: its final state alone is compared.
    assert verdict(PORRAZO, record, None, steps).startswith("Match")


def test_another_start_click_does_not_give_the_first_deal():
    record, first, steps = played()
    record.deal_input = CLICK + 1
    assert "does not give table #9's first deal" in verdict(PORRAZO, record, first, steps)
    assert verdict(PORRAZO, record, None, steps).startswith("Mismatch")  # without a first state


def test_a_changed_end_is_not_every_later_deal():
    record, first, steps = played()
    record.state = first  # saved as if nothing had been played
    assert "not every later one" in verdict(PORRAZO, record, first, steps)


def test_a_step_the_deal_refuses_is_a_mismatch():
    record, first, steps = played()
    seated = next(i for i, step in enumerate(steps) if step.seat is not None)
    wrong = dataclasses.replace(steps[seated], seat=(steps[seated].seat + 1) % 3)
    changed = (*steps[:seated], wrong, *steps[seated + 1 :])
    assert "does not fit the deal" in verdict(PORRAZO, record, first, changed)


def test_a_table_closed_before_its_first_deal():
    record, _, _ = played()
    record.deal_input = None
    assert "closed before its first deal" in verdict(PORRAZO, record, None, ())


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("ab" * 32, bytes([0xAB] * 32)),
        (f"  {'AB' * 32} ", bytes([0xAB] * 32)),  # pasted with spaces, in capitals
        ("ab" * 31, None),
        ("zz" * 32, None),
        ("", None),
    ],
)
def test_seeds_and_commitments_are_64_hex_digits(text, parsed):
    assert parse_hex(text) == parsed


def test_a_house_reason_the_log_does_not_keep_matches_any_text():
    replayed = {"why": f"Closed: {UNKNOWN_REASON}.", "cards": [1, 2]}
    assert same(replayed, {"why": "Closed: the house is short.", "cards": [1, 2]})
    assert not same(replayed, {"why": "Over: the house is short.", "cards": [1, 2]})
    assert not same(replayed, {"why": "Closed: the house is short.", "cards": [2, 1]})
    assert not same({"a": 1}, {"a": 1, "b": 2})


@pytest.mark.parametrize("daily", [None, "2026-11-27"])
def test_a_daily_soliterrapin_deck_is_not_said_to_come_from_the_seed(daily):
    """A daily deck is dealt from its date: its board's seed verifies nothing about it, and
    any seed would re-deal it, so the verdict says so rather than "Match"."""
    soliterrapin = registry.get("soliterrapin")
    options = soliterrapin.options_model(daily=daily)
    state = soliterrapin.new_match(options, [0], DealSeed(SEED, CLICK))
    first = state.snapshot()
    seat = state.required_seats()[0]
    action = state.default_action(seat)
    state.apply(seat, action)
    steps = (LoggedStep(1, seat, action.model_dump_json(), True),)
    record = TableRecord(
        9,
        1,
        2,
        "soliterrapin",
        TableStatus.CLOSED,
        0,
        0,
        options.model_dump_json(),
        60,
        state=state.snapshot(),
    )
    record.seats, record.deal_seed, record.deal_input = (
        [SeatRecord(0, 100, "P0")],
        SEED.hex(),
        CLICK,
    )
    answer = verdict(soliterrapin, record, first, steps)
    if daily is None:
        assert answer.startswith("Match") and "over its 1 logged step," in answer
    else:
        assert answer.startswith("This is table #9's seed, but its deck was not dealt from it.")
        assert "daily challenge of 2026-11-27" in answer
