"""Bounds of a table's own settings: the one source for slash options and the runtime's checks."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import UserError


@dataclass(frozen=True)
class Bounds:
    name: str
    low: int
    high: int

    def check(self, value: object) -> int:
        """`value` as a whole number inside the bounds, or a UserError saying what is allowed."""
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not self.low <= value <= self.high
        ):
            raise UserError(
                f"The {self.name} must be a whole number from {self.low:,} to {self.high:,}."
            )
        return value


BUY_IN = Bounds("buy-in", 10, 100_000)
TURN_SECONDS = Bounds("turn time", 15, 86_400)
AI_DELAY = Bounds("AI delay", 0, 10)
