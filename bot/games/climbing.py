"""Climbing mechanics shared by Big Two and Dou Dizhu: leading, beating the combination on the
table, passing (and coming back in on a later turn), and the trick ending when everyone else
has passed in a row, which gives the last player to play a free lead.

Which cards form a combination, and what beats what, is each game's own business.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from bot.cards import FrenchCard, format_french, parse_french
from bot.engine import Action, Event


class Play(Action):
    kind: Literal["play"] = "play"
    cards: list[FrenchCard]


class Pass(Action):
    kind: Literal["pass"] = "pass"


class Played(Event):
    kind: Literal["played"] = "played"
    seat: int
    cards: list[FrenchCard]
    combination: str  # how it read when played; shown, it is named again from the cards
    left: int  # cards the player still holds


class Passed(Event):
    kind: Literal["passed"] = "passed"
    seat: int


class TrickWon(Event):
    """Everyone else passed: the last player to play leads anything next."""

    kind: Literal["trick_won"] = "trick_won"
    seat: int


class Climb(BaseModel):
    """Whose turn it is and what they must beat."""

    seats: list[int]  # the players, in turn order
    turn: int
    to_beat: list[FrenchCard] = []  # empty: a free lead
    last_player: int | None = None
    passes: int = 0
    # Every play and pass of the hand so far, in turn, as `seat:codes;` (`format_french`; a
    # pass: no codes): as a list of lists it held some 10 KB a table late in a hand, as text under
    # one. Public: the Expert's worlds are dealt to fit it (`history`, climbing_ai.passes_seen).
    moves: str = ""

    @property
    def free_lead(self) -> bool:
        return not self.to_beat

    def next_seat(self, seat: int) -> int:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def history(self) -> list[tuple[int, list[FrenchCard]]]:
        """Every play and pass of the hand so far, in turn: (seat, its cards; none: a pass)."""
        found = []
        for move in self.moves.split(";")[:-1]:
            seat, codes = move.split(":")
            found.append((int(seat), parse_french(codes)))
        return found

    def played(self, seat: int, cards: list[FrenchCard]) -> None:
        self.to_beat, self.last_player, self.passes = list(cards), seat, 0
        self.moves += f"{seat}:{format_french(cards)};"
        self.turn = self.next_seat(seat)

    def passed(self, seat: int) -> list[Event]:
        """A pass; when all the others have passed in a row, the trick goes to the last player."""
        self.passes += 1
        self.moves += f"{seat}:;"
        events: list[Event] = [Passed(seat=seat)]
        if self.passes >= len(self.seats) - 1 and self.last_player is not None:
            self.turn, self.to_beat, self.passes = self.last_player, [], 0
            events.append(TrickWon(seat=self.last_player))
        else:
            self.turn = self.next_seat(seat)
        return events
