"""The values a tournament's rules exchange: entrants, the rounds planned and their results."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entrant:
    member_id: int
    rating: float | None  # conservative skill (mu - 3 sigma) for this game; None = unrated


@dataclass(frozen=True)
class Table:
    """One table to seat in a round."""

    players: tuple[int, ...]  # member ids in seat order
    advance: int = 0  # elimination: how many of its players go on (0 in swiss)


@dataclass(frozen=True)
class Round:
    number: int  # 1, 2, ...
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()  # member ids going through without playing this round


@dataclass(frozen=True)
class Result:
    """A finished table."""

    players: tuple[int, ...]  # member ids in seat order, as in Table.players
    placings: tuple[int, ...]  # per seat, 1 = first; ties share a placing (1, 1, 3)


@dataclass(frozen=True)
class Played:
    """A round as played so far: its plan and, in the order of round.tables, the result of
    each finished table (None for a table still playing)."""

    round: Round
    results: tuple[Result | None, ...]

    @property
    def finished(self) -> bool:
        return all(result is not None for result in self.results)

    def finished_tables(self) -> list[tuple[Table, Result]]:
        """Each finished table beside its result."""
        pairs = zip(self.round.tables, self.results, strict=True)
        finished = [(table, result) for table, result in pairs if result is not None]
        for table, result in finished:
            check_result(table, result)
        return finished


def check_result(table: Table, result: Result) -> None:
    """A result must be its table's: the same seats, a placing each."""
    if result.players != table.players or len(result.placings) != len(result.players):
        raise ValueError(f"the result {result} is not the table {table}'s")


@dataclass(frozen=True)
class Standing:
    """A line of swiss standings."""

    member_id: int
    points: int
    buchholz: int
    matches: int  # tables played (byes not counted)
    byes: int


def check_table_sizes(table_size: int, least: int) -> None:
    """A game's tables seat from `least` (two or more) to `table_size` players."""
    if not 2 <= least <= table_size:
        raise ValueError(f"a table seating {least} to {table_size} players is no table")
