"""Playing tournaments out in tests: results by seed or at random."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.tournaments.model import Played, Result, Round, Table

Decide = Callable[[Table], Result]


def placings_from(scores: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking of scores, lower is better: (0, 0, 5) -> (1, 1, 3)."""
    return tuple(1 + sum(other < score for other in scores) for score in scores)


def random_results(rng: random.Random) -> Decide:
    """A result with random places, ties included."""

    def decide(table: Table) -> Result:
        scores = [rng.randrange(len(table.players)) for _ in table.players]
        return Result(table.players, placings_from(scores))

    return decide


def by_seed(seeds: Sequence[int], *, upsets: bool = False) -> Decide:
    """Best seed first at every table (or worst first, with upsets)."""
    rank = {member: index for index, member in enumerate(seeds)}
    sign = -1 if upsets else 1

    def decide(table: Table) -> Result:
        return Result(table.players, placings_from([sign * rank[p] for p in table.players]))

    return decide


def played(round_: Round, decide: Decide) -> Played:
    return Played(round_, tuple(decide(table) for table in round_.tables))


def unfinished(round_: Round) -> Played:
    return Played(round_, tuple(None for _ in round_.tables))
