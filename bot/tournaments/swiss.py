"""Swiss rounds over tables: a set number of rounds, each seating players of equal or nearest
points together, avoiding rematches where a swap between tables can; points by place at the
table, Buchholz (the opponents' points) to break ties.

Rematch avoidance: tables are first filled in standing order; then, while some swap of two
players between tables lowers the count of repeat meetings, the swap lowering it most is
made (ties: players nearest in points, then tables nearest in the standings, then the first
in order). Each swap lowers the count, so the search ends; it is deterministic.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from bot.tournaments.model import Played, Round, Standing, Table, check_table_sizes

BYE_POINTS = 3
WIN_POINTS = 3  # the first place's points at any table

Meetings = Counter[frozenset[int]]  # how often each pair of players sat at a table together


def points(placings: Sequence[int], seat: int) -> int:
    """A seat's points: by place, 3 for first down to 0 for last; tied seats share the mean
    of the places they cover, rounded down."""
    size = len(placings)
    if size < 2:
        raise ValueError("a table of fewer than two scores no points")
    place = placings[seat]
    tied = list(placings).count(place)
    covered = range(place, place + tied)
    return sum(WIN_POINTS * (size - spot) // (size - 1) for spot in covered) // tied


@dataclass
class _Tally:
    points: int = 0
    matches: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)  # once per meeting


def standings(
    seeds: Sequence[int],
    history: Sequence[Played],
    ratings: Mapping[int, float | None] | None = None,
    withdrawn: Collection[int] = (),
) -> list[Standing]:
    """Every entrant by points, Buchholz, rating and seed; the withdrawn after all who
    stayed. A bye counts once its round is planned; a table once it is finished."""
    tallies = _tallies(seeds, history)
    lines = [
        Standing(
            member_id=member,
            points=tally.points,
            buchholz=sum(tallies[opponent].points for opponent in tally.opponents),
            matches=tally.matches,
            byes=tally.byes,
        )
        for member, tally in tallies.items()
    ]
    rank = {member: index for index, member in enumerate(seeds)}
    out = set(withdrawn)
    rated = ratings or {}

    def order(line: Standing) -> tuple[bool, int, int, bool, float, int]:
        rating = rated.get(line.member_id)
        unrated = rating is None
        return (
            line.member_id in out,
            -line.points,
            -line.buchholz,
            unrated,
            0.0 if rating is None else -rating,
            rank[line.member_id],
        )

    return sorted(lines, key=order)


def _tallies(seeds: Sequence[int], history: Sequence[Played]) -> dict[int, _Tally]:
    tallies = {member: _Tally() for member in seeds}
    for played in history:
        for member in played.round.byes:
            tallies[member].points += BYE_POINTS
            tallies[member].byes += 1
        for _, result in played.finished_tables():
            for seat, member in enumerate(result.players):
                tally = tallies[member]
                tally.points += points(result.placings, seat)
                tally.matches += 1
                tally.opponents += [other for other in result.players if other != member]
    return tallies


def next_round(
    seeds: Sequence[int],
    table_size: int,
    least: int,
    rounds: int,
    history: Sequence[Played],
    withdrawn: Collection[int] = (),
    ratings: Mapping[int, float | None] | None = None,
) -> Round | None:
    """The next round to seat; None while a round is playing, after the last round, or when
    too few players are left for a table."""
    check_table_sizes(table_size, least)
    if (history and not history[-1].finished) or len(history) >= rounds:
        return None
    out = set(withdrawn)
    lines = [line for line in standings(seeds, history, ratings) if line.member_id not in out]
    bye_count = byes_needed(len(lines), table_size, least)
    if bye_count is None:
        return None
    byes = _bye_takers(lines, bye_count)
    seated = [line for line in lines if line.member_id not in byes]
    groups = _fewer_rematches(_fill_tables(seated, table_size), _meetings(history))
    tables = tuple(Table(tuple(line.member_id for line in group)) for group in groups)
    in_order = tuple(line.member_id for line in lines if line.member_id in byes)
    return Round(number=len(history) + 1, tables=tables, byes=in_order)


def byes_needed(players: int, table_size: int, least: int) -> int | None:
    """The fewest byes that let the rest sit at tables of `least` to `table_size`, as even
    as possible; None when there are too few for one table."""
    for byes in range(players - least + 1):
        seated = players - byes
        if seated // _table_count(seated, table_size) >= least:
            return byes
    return None


def _table_count(seated: int, table_size: int) -> int:
    return -(-seated // table_size)


def _bye_takers(lines: Sequence[Standing], count: int) -> set[int]:
    """The lowest standing with the fewest byes so far."""
    lowest_first = list(reversed(lines))
    lowest_first.sort(key=lambda line: line.byes)  # stable: lowest standing first
    return {line.member_id for line in lowest_first[:count]}


def _fill_tables(lines: Sequence[Standing], table_size: int) -> list[list[Standing]]:
    """Consecutive runs of the standing order, the top tables taking any extra player."""
    count = _table_count(len(lines), table_size)
    size, extra = divmod(len(lines), count)
    groups, start = [], 0
    for index in range(count):
        end = start + size + (index < extra)
        groups.append(list(lines[start:end]))
        start = end
    return groups


def _meetings(history: Sequence[Played]) -> Meetings:
    met: Meetings = Counter()
    for played in history:
        for table in played.round.tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table.players, 2))
    return met


def _fewer_rematches(groups: list[list[Standing]], met: Meetings) -> list[list[Standing]]:
    """Swaps players between tables while a swap lowers the repeat meetings; each table then
    seats its players in standing order."""
    standing = {line.member_id: index for index, line in enumerate(itertools.chain(*groups))}
    while (swap := _best_swap(groups, met)) is not None:
        first, second, one, other = swap
        groups[first][one], groups[second][other] = groups[second][other], groups[first][one]
    return [sorted(group, key=lambda line: standing[line.member_id]) for group in groups]


Swap = tuple[int, int, int, int]  # table, other table, seat at one, seat at the other


def _best_swap(groups: list[list[Standing]], met: Meetings) -> Swap | None:
    best: tuple[tuple[int, int, int], Swap] | None = None
    for first, second in itertools.combinations(range(len(groups)), 2):
        for one, other in itertools.product(range(len(groups[first])), range(len(groups[second]))):
            change = _swap_change(groups[first], one, groups[second], other, met)
            if change >= 0:
                continue
            gap = abs(groups[first][one].points - groups[second][other].points)
            key = (change, gap, second - first)
            if best is None or key < best[0]:
                best = (key, (first, second, one, other))
    return None if best is None else best[1]


def _swap_change(
    table: list[Standing], one: int, other_table: list[Standing], other: int, met: Meetings
) -> int:
    """How the repeat meetings change when table[one] and other_table[other] change places."""
    leaving, coming = table[one].member_id, other_table[other].member_id
    stay = [line.member_id for index, line in enumerate(table) if index != one]
    stay_other = [line.member_id for index, line in enumerate(other_table) if index != other]
    before = _met_with(leaving, stay, met) + _met_with(coming, stay_other, met)
    after = _met_with(coming, stay, met) + _met_with(leaving, stay_other, met)
    return after - before


def _met_with(member: int, others: Sequence[int], met: Meetings) -> int:
    return sum(met[frozenset((member, other))] for other in others)
