"""Events the table runtime adds to the game's own (for rendering and announcements)."""

from typing import Any, Literal

from bot.engine import Event


class TableStarted(Event):
    kind: Literal["table_started"] = "table_started"


class TableResumed(Event):
    kind: Literal["table_resumed"] = "table_resumed"


class TimedOut(Event):
    kind: Literal["timed_out"] = "timed_out"
    seat: int
    action: str  # the default action's kind
    taken: Any = None  # the action itself, unless it was a secret choice


class SeatLeft(Event):
    kind: Literal["seat_left"] = "seat_left"
    seat: int
    chips: int


class AiTookSeat(Event):
    """A departing player's seat went to an AI player mid-match (`departed`: their name)."""

    kind: Literal["ai_took_seat"] = "ai_took_seat"
    seat: int
    departed: str


class SeatTaken(Event):
    """An AI player sat in a seat its player had left, bringing `chips` from the house: it is
    dealt in from the next hand (a chip game's)."""

    kind: Literal["seat_taken"] = "seat_taken"
    seat: int
    chips: int


# Why a table closed where nothing can be shown any more (its players hear by DM).
CHANNEL_DELETED, BOT_REMOVED = "channel_deleted", "bot_removed"


class TableClosed(Event):
    """The table is closed. `why`: "" when the game ended by itself, else "cancelled",
    "closed" (a command), CHANNEL_DELETED or BOT_REMOVED (from the server). A table that was
    played also has its final standings: per seat, its place, its match score (points games)
    and its net chips."""

    kind: Literal["table_closed"] = "table_closed"
    payouts: list[int]
    why: str = ""
    placings: list[int] = []
    scores: list[int] | None = None
    nets: list[int] = []
