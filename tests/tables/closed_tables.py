"""A closed table's record as `/table verify` and the replays read it, made by playing a keyed
match by its defaults (tests/tables/test_verification.py, test_verify_old_deals.py)."""

from collections.abc import Callable

from bot.engine import GameSpec, GameState
from bot.store import SeatRecord, TableRecord, TableStatus
from bot.store.history import LoggedStep

SEED, CLICK = bytes(range(32)), 1234567890123456789
NEXT_HAND = '{"kind":"next_hand"}'
CLOSE = '{"kind":"close"}'

Steps = tuple[LoggedStep, ...]


def played_by_defaults(
    spec: GameSpec, state: GameState, buy_in: int, until: Callable[[GameState, list], bool]
) -> tuple[TableRecord, str, Steps]:
    """The closed table's record, first state and logged steps: every turn its default and
    each next hand dealt until `until(state, steps)`, then the table closed (its state cashed
    out, as the runtime's close does)."""
    first, steps = state.snapshot(), []
    while not until(state, steps):
        if state.awaiting_next_hand():
            state.next_hand()
            steps.append(LoggedStep(len(steps) + 1, None, NEXT_HAND, False))
            continue
        seat = state.required_seats()[0]
        action = state.default_action(seat)
        state.apply(seat, action)
        steps.append(LoggedStep(len(steps) + 1, seat, action.model_dump_json(), True))
    steps.append(LoggedStep(len(steps) + 1, None, CLOSE, False))
    state.cash_out()
    record = TableRecord(
        9, 1, 2, spec.id, TableStatus.CLOSED, 100, buy_in, "{}", 60, state=state.snapshot()
    )
    record.seats = [SeatRecord(n, 100 + n, f"P{n}") for n in range(state.seat_count)]
    record.deal_seed, record.deal_input = SEED.hex(), CLICK
    return record, first, tuple(steps)
