"""Points matches played over many deals, shared by the games scored hand after hand.

A `Match` keeps each side's score (a side is a list of seats; solo games give every seat its
own side) and knows when the match ends:

- "target": as soon as a side reaches the target, even mid-hand (`add` scores one side at
  once); the higher or the lower score wins (Big Two 100 lowest, Botifarra 101, Porrazo 61,
  Crash 7);
- "elimination": a side reaching the threshold goes out; the last side left wins (Last One);
- "hands": after a set number of hands (Turup's rounds, Totit's one deal each).

A side may also win outright (a san benito, a crash) or drop out (a player leaves: their side
forfeits). Placings: an outright winner, then sides still playing by score, then eliminated
sides (the later out the better, then by score), then sides that dropped out (by score); an
optional per-side tie-break key (smaller first) separates equal scores, and sides still equal
share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, model_validator

Sides = int | list[list[int]]  # a number of solo seats, or the seats of each side


def _sides(sides: Sides) -> list[list[int]]:
    return [[seat] for seat in range(sides)] if isinstance(sides, int) else sides


class Match(BaseModel):
    sides: list[list[int]]
    mode: Literal["target", "elimination", "hands"]
    target: int | None = None  # "target": the score ending the match; "elimination": out at
    hands: int | None = None  # "hands": how many hands the match lasts
    higher_wins: bool = True
    scores: list[int] = []
    played: int = 0  # hands finished
    out: list[int | None] = []  # "elimination": the wave (1, 2, ...) each side went out in
    dropped: list[bool] = []
    winner: int | None = None  # a side that won outright

    @model_validator(mode="after")
    def _check(self) -> Match:
        seats = sorted(seat for side in self.sides for seat in side)
        if len(self.sides) < 2 or seats != list(range(len(seats))):
            raise ValueError("a match needs two or more sides sharing seats 0..n-1")
        needs = "hands" if self.mode == "hands" else "target"
        if getattr(self, needs) is None:
            raise ValueError(f"a {self.mode} match needs {needs}")
        if self.mode == "elimination" and self.higher_wins:
            raise ValueError("in an elimination match the lower score is better")
        count = len(self.sides)
        self.scores = self.scores or [0] * count
        self.out = self.out or [None] * count
        self.dropped = self.dropped or [False] * count
        return self

    # ---- making one -------------------------------------------------------------------------

    @classmethod
    def to_target(cls, sides: Sides, target: int, *, higher_wins: bool = True) -> Match:
        return cls(sides=_sides(sides), mode="target", target=target, higher_wins=higher_wins)

    @classmethod
    def elimination(cls, sides: Sides, threshold: int) -> Match:
        return cls(sides=_sides(sides), mode="elimination", target=threshold, higher_wins=False)

    @classmethod
    def for_hands(cls, sides: Sides, hands: int, *, higher_wins: bool = True) -> Match:
        return cls(sides=_sides(sides), mode="hands", hands=hands, higher_wins=higher_wins)

    # ---- who is in ----------------------------------------------------------------------------

    @property
    def seat_count(self) -> int:
        return sum(len(side) for side in self.sides)

    def side_of(self, seat: int) -> int:
        return next(index for index, side in enumerate(self.sides) if seat in side)

    def playing(self, side: int) -> bool:
        return self.out[side] is None and not self.dropped[side]

    def sides_in(self) -> list[int]:
        return [side for side in range(len(self.sides)) if self.playing(side)]

    def seats_in(self) -> list[int]:
        """The seats still dealt in, in seat order."""
        return [seat for seat in range(self.seat_count) if self.playing(self.side_of(seat))]

    def next_dealer(self, dealer: int) -> int:
        """The next seat clockwise after `dealer` still dealt in."""
        for step in range(1, self.seat_count + 1):
            seat = (dealer + step) % self.seat_count
            if self.playing(self.side_of(seat)):
                return seat
        raise ValueError("nobody is left to deal")

    # ---- scoring ------------------------------------------------------------------------------

    def add(self, side: int, points: int) -> bool:
        """Score `points` for one side now (mid-hand bonuses); True if that ended the match."""
        self._score({side: points})
        return self.is_over()

    def add_hand(self, points: Sequence[int]) -> bool:
        """Score a finished hand (points per side); True if that ended the match."""
        if len(points) != len(self.sides):
            raise ValueError("one score per side")
        self._score({side: p for side, p in enumerate(points) if p or self.playing(side)})
        self.played += 1
        return self.is_over()

    def _score(self, points: dict[int, int]) -> None:
        if self.is_over():
            raise ValueError("the match is over")
        if not all(self.playing(side) for side in points):
            raise ValueError("only sides still playing score")
        for side, amount in points.items():
            self.scores[side] += amount
        if self.mode == "elimination":
            threshold = self.target
            assert threshold is not None  # _check: every mode but "hands" has a target
            wave = max((w for w in self.out if w is not None), default=0) + 1
            for side in points:
                if self.scores[side] >= threshold:
                    self.out[side] = wave

    def win(self, side: int) -> None:
        """`side` wins the match outright."""
        if not self.playing(side):
            raise ValueError("only a side still playing can win")
        self.winner = side

    def drop(self, seat: int) -> None:
        """`seat` leaves the match; its side forfeits (a side already out keeps its place)."""
        side = self.side_of(seat)
        if self.out[side] is None:
            self.dropped[side] = True

    # ---- the end ------------------------------------------------------------------------------

    def is_over(self) -> bool:
        if self.winner is not None or len(self.sides_in()) <= 1:
            return True
        if self.mode == "target":
            target = self.target
            assert target is not None  # _check: every mode but "hands" has a target
            return any(self.scores[side] >= target for side in self.sides_in())
        return self.mode == "hands" and self.played >= self.hands_to_play()

    def hands_to_play(self) -> int:
        """How many hands a "hands" match lasts."""
        assert self.hands is not None  # _check: a "hands" match has its number of hands
        return self.hands

    def placings(self, tie_break: Sequence[Any] | None = None) -> list[int]:
        """Place per side, 1 = first; equal sides share a place."""
        keys = [self._key(side, tie_break) for side in range(len(self.sides))]
        ranked = sorted(keys)
        return [ranked.index(key) + 1 for key in keys]

    def _key(self, side: int, tie_break: Sequence[Any] | None) -> tuple:
        if side == self.winner:
            group, wave = 0, 0
        elif self.playing(side):
            group, wave = 1, 0
        elif (went_out := self.out[side]) is not None:
            group, wave = 2, -went_out
        else:
            group, wave = 3, 0
        score = -self.scores[side] if self.higher_wins else self.scores[side]
        return (group, wave, score, tie_break[side] if tie_break is not None else 0)

    def seat_placings(self, tie_break: Sequence[Any] | None = None) -> list[int]:
        """Place per seat (MatchEnded.placings): each seat gets its side's place."""
        places = self.placings(tie_break)
        return [places[self.side_of(seat)] for seat in range(self.seat_count)]

    def seat_scores(self) -> list[int]:
        return [self.scores[self.side_of(seat)] for seat in range(self.seat_count)]
