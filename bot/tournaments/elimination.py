"""Single elimination over tables: each round seats the field at tables of the game's sizes,
the best of each table go on (with some byes when the field does not split evenly), until a
final table of all that are left crowns the champion.

The plan for a field of n is searched over every choice of tables, byes and players going on
per table, preferring one going on per table, then the fewest byes, then the fewest rounds to
the end, then the fewest (fullest) tables; the best plan of each field size is memoized.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.tournaments.model import (
    Played,
    Result,
    Round,
    Table,
    check_result,
    check_table_sizes,
)


@dataclass(frozen=True)
class Step:
    """How one round plays a field: its tables, byes and players going on per table."""

    tables: int
    byes: int
    advance: int
    rounds: int  # rounds to the champion, this one included


def plan_exists(field: int, table_size: int, least: int) -> bool:
    """Whether a field of this many can be played down to one champion."""
    return best_step(field, table_size, least) is not None


def best_step(field: int, table_size: int, least: int) -> Step | None:
    """The preferred way to play a field's round, or None when it cannot be played."""
    check_table_sizes(table_size, least)
    # Fills the memo from the bottom up, so each search looks only one level down.
    for smaller in range(field):
        _best_step(smaller, table_size, least)
    return _best_step(field, table_size, least)


@functools.cache
def _best_step(field: int, table_size: int, least: int) -> Step | None:
    if field < least:
        return None
    if field <= table_size:
        return Step(tables=1, byes=0, advance=1, rounds=1)
    for advance in range(1, table_size):
        for byes in range(field - least + 1):
            steps = _steps(field - byes, byes, advance, table_size, least)
            if steps:
                return min(steps, key=lambda step: (step.rounds, step.tables))
    return None


def _steps(seated: int, byes: int, advance: int, table_size: int, least: int) -> list[Step]:
    """Every playable way to seat `seated` players with this many byes and going on."""
    steps = []
    for tables in range(-(-seated // table_size), seated // least + 1):
        if advance >= seated // tables:  # some would go on from a table without losing
            continue
        after = _best_step(tables * advance + byes, table_size, least)
        if after is not None:
            steps.append(Step(tables, byes, advance, after.rounds + 1))
    return steps


def next_round(
    seeds: Sequence[int],
    table_size: int,
    least: int,
    history: Sequence[Played],
    withdrawn: Collection[int] = (),
) -> Round | None:
    """The next round to seat, or None while a round is playing or once it is over."""
    if history and not history[-1].finished:
        return None
    field = _next_field(seeds, history, withdrawn)
    step = best_step(len(field), table_size, least)
    if step is None:  # a champion (or nobody) is left, or too few to seat a table
        return None
    seated = _serpentine(field[step.byes :], step.tables)
    tables = tuple(Table(tuple(players), step.advance) for players in seated)
    return Round(number=len(history) + 1, tables=tables, byes=tuple(field[: step.byes]))


def advancers(
    table: Table, result: Result, seeds: Sequence[int], withdrawn: Collection[int] = ()
) -> list[int]:
    """The table's `advance` best by placing, then by seed, passing over the withdrawn."""
    check_result(table, result)
    rank = _seed_ranks(seeds)
    out = set(withdrawn)
    staying = [seat for seat in range(len(result.players)) if result.players[seat] not in out]
    staying.sort(key=lambda seat: (result.placings[seat], rank[result.players[seat]]))
    return [result.players[seat] for seat in staying[: table.advance]]


def ranking(
    seeds: Sequence[int], history: Sequence[Played], withdrawn: Collection[int] = ()
) -> list[int]:
    """Every entrant, the champion first; then by the last round reached, the placing there
    and the seed; the withdrawn after all who stayed."""
    reached = _reached(seeds, history, withdrawn)
    rank = _seed_ranks(seeds)
    out = set(withdrawn)

    def order(member: int) -> tuple[bool, int, int, int]:
        number, placing = reached[member]
        return (member in out, -number, placing, rank[member])

    return sorted(seeds, key=order)


def _reached(
    seeds: Sequence[int], history: Sequence[Played], withdrawn: Collection[int]
) -> dict[int, tuple[int, int]]:
    """Each entrant's last round and placing there (0: none yet, or going on)."""
    reached = dict.fromkeys(seeds, (0, 0))
    for played in history:
        number = played.round.number
        reached.update(dict.fromkeys(played.round.byes, (number, 0)))
        for table, result in zip(played.round.tables, played.results, strict=True):
            for seat, member in enumerate(table.players):
                reached[member] = (number, result.placings[seat] if result else 0)
    if history:
        # The last round's byes and winners are already in the round after it.
        last = history[-1]
        going_on = _going_on(last, seeds, withdrawn)
        reached.update(dict.fromkeys(going_on, (last.round.number + 1, 0)))
    return reached


def _next_field(
    seeds: Sequence[int], history: Sequence[Played], withdrawn: Collection[int]
) -> list[int]:
    """Who plays the round after the history, best seed first."""
    field = _going_on(history[-1], seeds, withdrawn) if history else list(seeds)
    out = set(withdrawn)
    rank = _seed_ranks(seeds)
    return sorted((member for member in field if member not in out), key=rank.__getitem__)


def _going_on(played: Played, seeds: Sequence[int], withdrawn: Collection[int]) -> list[int]:
    """A round's byes and the advancers of its finished tables."""
    field = list(played.round.byes)
    for table, result in played.finished_tables():
        field += advancers(table, result, seeds, withdrawn)
    return field


def _serpentine(players: Sequence[int], tables: int) -> list[list[int]]:
    """Deals players to tables 1, 2, ... t, then back t ... 1, so top seeds meet late."""
    seated: list[list[int]] = [[] for _ in range(tables)]
    for index, player in enumerate(players):
        row, column = divmod(index, tables)
        seated[column if row % 2 == 0 else tables - 1 - column].append(player)
    return seated


def _seed_ranks(seeds: Sequence[int]) -> dict[int, int]:
    return {member: rank for rank, member in enumerate(seeds)}
