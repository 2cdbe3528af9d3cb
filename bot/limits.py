"""Bounds of a table's own settings: the one source for slash options and the runtime's checks."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import UserError
from bot.i18n import N_, _


@dataclass(frozen=True)
class Bounds:
    # The sentence refusing a value outside the bounds (a catalog's message, said with the
    # bounds as {low} and {high}).
    refusal: str
    low: int
    high: int

    def check(self, value: object) -> int:
        """`value` as a whole number inside the bounds, or a UserError saying what is allowed."""
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not self.low <= value <= self.high
        ):
            raise UserError(_(self.refusal, low=self.low, high=self.high))
        return value


BUY_IN = Bounds(N_("The buy-in must be a whole number from {low} to {high}."), 10, 100_000)
TURN_SECONDS = Bounds(N_("The turn time must be a whole number from {low} to {high}."), 15, 86_400)
AI_DELAY = Bounds(N_("The AI delay must be a whole number from {low} to {high}."), 0, 10)
