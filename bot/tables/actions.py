"""Actions as the table names and logs them: a seat's action as a token safe in a custom_id,
and the steps the table takes itself, as their action records store them."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, RootModel

from bot.engine import Action, Event, GameState
from bot.i18n import N_, Nn_
from bot.tables.events import SeatLeft, SeatTaken


def action_token(action: Action) -> str:
    """A short, stable name for an action, safe in a custom_id: `bet.3`, `play.3d+3c`,
    `discard.Ace_of_Moons`."""
    values = [
        "+".join(map(str, v)) if isinstance(v, list) else str(v)
        for k, v in action.model_dump(mode="json").items()
        if k != "kind"
    ]
    return re.sub(r"[^\w.+\-]", "_", ".".join([action.kind, *values]))


class TableAction(BaseModel):
    """A step no seat decided, logged as `{"kind":"…"}` (the text old databases hold)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["window_closed", "next_hand", "leave", "close", "house_cannot_cover"]


class TakeSeat(BaseModel):
    """A seat its player left taken by an AI player, with `chips` from the house (the seat is
    the action record's)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["take_seat"] = "take_seat"
    chips: int


TableStep = TableAction | TakeSeat  # what the table does on its own


class EmptyTableClose(RootModel[Literal["close"]]):
    """The close of a table every player has left, logged as the bare JSON string `"close"`
    since the first version: old databases hold it, so it stays."""

    model_config = ConfigDict(frozen=True)
    root: Literal["close"] = "close"


WINDOW_CLOSED = TableAction(kind="window_closed")  # a window for optional choices ran out
NEXT_HAND = TableAction(kind="next_hand")
LEAVE = TableAction(kind="leave")  # the seat is the action record's
CLOSE = TableAction(kind="close")  # the match ends for everyone (the table is being closed)
HOUSE_CANNOT_COVER = TableAction(kind="house_cannot_cover")
EMPTY_TABLE_CLOSE = EmptyTableClose()


# The house's reason for closing is not logged; a replay tells it in these words (kept in the
# replayed state in English, as a catalog's message: whoever shows it says it with _()).
HOUSE_SHORT = N_("The house couldn't cover a bet, so it closed the table.")
# What the runtime keeps in the state when the house closes a table itself: in English too,
# with its numbers (a game's table says it in the reader's language: Backhand's match_end).
HOUSE_CLOSING = Nn_(
    "The house can't cover this bet: it needs {count} chip and has {available}, so it closes "
    "the table; a server manager can add chips with /chips bankroll.",
    "The house can't cover this bet: it needs {count} chips and has {available}, so it closes "
    "the table; a server manager can add chips with /chips bankroll.",
)


def take_table_step(
    state: GameState, step: TableStep, seat: int | None = None, house_reason: str = HOUSE_SHORT
) -> list[Event]:
    """What the table's own step does to `state`: the runtime takes it (bot/tables/play.py)
    and a replay takes it again from the log (bot/tables/history.py). `seat`: a leave's or a
    seat taken; `house_reason`: what the players are told when the house can't cover a bet."""
    if isinstance(step, TakeSeat):
        assert seat is not None  # logged with its seat
        state.take_seat(seat, step.chips)
        return [SeatTaken(seat=seat, chips=step.chips)]
    match step.kind:
        case "next_hand":
            return state.next_hand()
        case "window_closed":
            return state.close_window()
        case "leave":
            assert seat is not None  # a leave is logged with its seat
            return [SeatLeft(seat=seat, chips=state.leave(seat))]
        case "house_cannot_cover":
            return state.house_cannot_cover(house_reason)
    return []  # "close": the match ends as it stands
