"""Fishing captures shared by Totit, Porrazo and Turup: which table cards a played card may take.

Three kinds, each with a lister (for suggestions, capped by `limit`, saying whether more exist)
and a `verify_*` that judges one proposed capture without listing anything, raising
IllegalAction with a player-facing reason:

- match: one table card the played card matches (`identical`, `same_rank`, or `ranks_as_one`
  for Totit's A J Q K); with `twins_last`, cards that have an identical twin on the table are
  taken only once no other candidate is left (Totit);
- sequence: a run of two or more consecutive ranks, one card each, whose lowest rank is the
  played card's (Porrazo; K-A-2 wraps);
- sum: disjoint groups that each equal the played card's value, a group being a single card of
  its rank or number cards adding up to it; J, Q, K take only matching faces (Turup).

Where the table holds several copies of a rank, the sequence lister gives every choice of copies;
the sum lister gives one option per multiset of values (suits never matter in Turup) and its
verifier accepts any copies.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from functools import cache, lru_cache
from itertools import islice, product
from typing import NamedTuple

from bot.cards import FrenchCard, Rank
from bot.engine import IllegalAction
from bot.games.jokerless import rank_of
from bot.i18n import _

Matcher = Callable[[FrenchCard, FrenchCard], bool]
TOP_NUMBER = 10  # the highest number card; J Q K are faces
KING = 13


class Listed(NamedTuple):
    options: list[list[FrenchCard]]  # each a set of table cards the played card may take
    more: bool  # the limit cut the list short


def _listed(found: Iterator[list[FrenchCard]], limit: int | None) -> Listed:
    options = list(found if limit is None else islice(found, limit + 1))
    if limit is not None and len(options) > limit:
        return Listed(options[:limit], True)
    return Listed(options, False)


def _check_taken(taken: Collection[FrenchCard], table: Sequence[FrenchCard]) -> list[FrenchCard]:
    chosen = list(taken)
    if not chosen:
        raise IllegalAction(_("Choose at least one card from the table."))
    if len(set(chosen)) != len(chosen) or not set(chosen) <= set(table):
        raise IllegalAction(_("Choose cards that are on the table, each once."))
    return chosen


# ---- match captures -----------------------------------------------------------------------


def identical(a: FrenchCard, b: FrenchCard) -> bool:
    """Same rank and suit (copies from different packs are identical)."""
    return a.rank == b.rank and a.suit == b.suit


def same_rank(a: FrenchCard, b: FrenchCard) -> bool:
    return a.rank == b.rank


def ranks_as_one(*ranks: Rank) -> Matcher:
    """Same rank, with all of `ranks` counting as one rank (Totit: A, J, Q, K)."""
    merged = frozenset(ranks)
    return lambda a, b: a.rank == b.rank or (a.rank in merged and b.rank in merged)


def match_targets(
    card: FrenchCard,
    table: Sequence[FrenchCard],
    *,
    matches: Matcher = same_rank,
    twins_last: bool = False,
) -> list[FrenchCard]:
    """The table cards `card` may take singly, in table order."""
    found = [other for other in table if matches(card, other)]
    if twins_last:
        odd = [c for c in found if not any(o != c and identical(o, c) for o in found)]
        return odd or found
    return found


def match_captures(
    card: FrenchCard,
    table: Sequence[FrenchCard],
    *,
    matches: Matcher = same_rank,
    twins_last: bool = False,
    limit: int | None = None,
) -> Listed:
    targets = match_targets(card, table, matches=matches, twins_last=twins_last)
    return _listed(([target] for target in targets), limit)


def verify_match_capture(
    card: FrenchCard,
    taken: Collection[FrenchCard],
    table: Sequence[FrenchCard],
    *,
    matches: Matcher = same_rank,
    twins_last: bool = False,
) -> None:
    chosen = _check_taken(taken, table)
    if len(chosen) != 1:
        raise IllegalAction(_("Take exactly one card from the table."))
    if not matches(card, chosen[0]):
        raise IllegalAction(
            _("Your {card} does not match {target}.", card=card.label, target=chosen[0].label)
        )
    if chosen[0] not in match_targets(card, table, matches=matches, twins_last=twins_last):
        raise IllegalAction(
            _(
                "Take a card without an identical twin on the table first; "
                "a pair of identical cards is taken last."
            )
        )


# ---- sequence captures --------------------------------------------------------------------


def _run_ranks(start: Rank | None, present: Collection[Rank | None], wrap: bool) -> list[Rank]:
    """The longest run of consecutive present ranks from `start` upwards (K-A wraps); a card
    without a rank (a joker) starts none."""
    run: list[Rank] = []
    rank: Rank | None = start
    while rank is not None and rank in present and rank not in run:
        run.append(rank)
        rank = Rank(rank % 13 + 1) if wrap or rank != Rank.KING else None
    return run


def sequence_captures(
    card: FrenchCard, table: Sequence[FrenchCard], *, wrap: bool = True, limit: int | None = None
) -> Listed:
    """Runs of two or more consecutive ranks starting at `card`'s rank, longest first, with
    every choice of copies."""
    by_rank: dict[Rank | None, list[FrenchCard]] = {}
    for other in table:
        by_rank.setdefault(other.rank, []).append(other)
    run = _run_ranks(card.rank, by_rank, wrap)

    def found() -> Iterator[list[FrenchCard]]:
        for length in range(len(run), 1, -1):
            yield from map(list, product(*(by_rank[rank] for rank in run[:length])))

    return _listed(found(), limit)


def verify_sequence_capture(
    card: FrenchCard,
    taken: Collection[FrenchCard],
    table: Sequence[FrenchCard],
    *,
    wrap: bool = True,
) -> None:
    chosen = _check_taken(taken, table)
    ranks = {other.rank for other in chosen}
    run = _run_ranks(card.rank, ranks, wrap)
    if len(chosen) < 2 or len(ranks) != len(chosen) or len(run) != len(chosen):
        raise IllegalAction(
            _(
                "A sequence is two or more cards of consecutive ranks, one of each, starting "
                "with a {rank}.",
                rank=rank_of(card).label,
            )
        )


# ---- sum captures -------------------------------------------------------------------------


def pip(card: FrenchCard) -> int:
    """A = 1, number cards as printed; faces 11-13 (they never add up)."""
    rank = card.rank
    assert rank is not None  # no jokers (bot/games/jokerless.py); inline: sums call it a lot
    return int(rank)


def is_face(card: FrenchCard) -> bool:
    return pip(card) > TOP_NUMBER


@cache
def _groups(value: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of number values adding up to `value`, as counts per value 1-10,
    the groups with more cards first."""
    found: list[tuple[int, ...]] = []

    def build(left: int, top: int, counts: list[int]) -> None:
        if left == 0:
            found.append(tuple(counts))
            return
        for part in range(min(left, top), 0, -1):
            counts[part - 1] += 1
            build(left - part, part, counts)
            counts[part - 1] -= 1

    build(value, TOP_NUMBER, [0] * TOP_NUMBER)
    return tuple(sorted(found, key=sum, reverse=True))


def _counts(cards: Sequence[FrenchCard]) -> tuple[int, ...]:
    tally = [0] * (KING + 1)
    for card in cards:
        tally[pip(card)] += 1
    return tuple(tally[1 : TOP_NUMBER + 1])


def _splits(counts: tuple[int, ...], value: int) -> bool:
    """Whether cards with these counts per value split into groups that each add to `value`:
    the highest card left must be in some group; try each (memoised for this call)."""
    known: dict[tuple[int, ...], bool] = {}

    def splits(left: tuple[int, ...]) -> bool:
        top = max((v for v in range(1, TOP_NUMBER + 1) if left[v - 1]), default=0)
        if top == 0:
            return True
        if left not in known:
            known[left] = any(
                splits(tuple(c - g for c, g in zip(left, group, strict=True)))
                for group in _groups(value)
                if group[top - 1] and all(g <= c for g, c in zip(group, left, strict=True))
            )
        return known[left]

    return splits(counts)


def _sum_multisets(counts: tuple[int, ...], value: int) -> Iterator[tuple[int, ...]]:
    """Every non-empty counts vector, within `counts`, made of groups adding to `value`; each
    once, big captures early (a group kind is tried as many times as it fits, then fewer)."""
    kinds = [g for g in _groups(value) if all(n <= c for n, c in zip(g, counts, strict=True))]
    seen: set[tuple[int, ...]] = set()

    def build(index: int, left: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if index == len(kinds):
            taken = tuple(c - rest for c, rest in zip(counts, left, strict=True))
            if any(taken) and taken not in seen:
                seen.add(taken)
                yield taken
            return
        kind = kinds[index]
        most = min(rest // n for rest, n in zip(left, kind, strict=True) if n)
        for times in range(most, -1, -1):
            after = tuple(rest - times * n for rest, n in zip(left, kind, strict=True))
            yield from build(index + 1, after)

    return build(0, counts)


def sum_captures(
    card: FrenchCard, table: Sequence[FrenchCard], *, limit: int | None = None
) -> Listed:
    """What `card` may take: matching faces for a face (any number of them), else disjoint
    groups of number cards that each add up to its value. One option per multiset of values
    (the first copies in table order); the biggest captures tend to come first."""
    if is_face(card):
        same = [other for other in table if other.rank == card.rank]
        return _listed((same[:count] for count in range(len(same), 0, -1)), limit)
    by_value: dict[int, list[FrenchCard]] = {}
    for other in table:
        if not is_face(other):
            by_value.setdefault(pip(other), []).append(other)
    numbers = [c for cards in by_value.values() for c in cards]

    multisets = _first_multisets(_counts(numbers), pip(card), limit)
    found = (
        [c for v, n in enumerate(taken, 1) for c in by_value.get(v, [])[:n]] for taken in multisets
    )
    return _listed(found, limit)


# Sum captures depend only on the counts of number values on the table: the same few recur
# move after move, and world after world in an Expert's playouts, where listing them anew
# was 40% of Turup's playout time (docs/performance.md, AI levels).
@lru_cache(maxsize=1024)
def _first_multisets(
    counts: tuple[int, ...], value: int, limit: int | None
) -> tuple[tuple[int, ...], ...]:
    """`_sum_multisets`'s first `limit` + 1 (all with None): enough for `_listed` to say
    whether more exist."""
    found = _sum_multisets(counts, value)
    return tuple(found if limit is None else islice(found, limit + 1))


def verify_sum_capture(
    card: FrenchCard, taken: Collection[FrenchCard], table: Sequence[FrenchCard]
) -> None:
    chosen = _check_taken(taken, table)
    if is_face(card):
        if any(other.rank != card.rank for other in chosen):
            raise IllegalAction(_("A {rank} takes only {rank}s.", rank=rank_of(card).label))
        return
    if any(is_face(other) for other in chosen):
        raise IllegalAction(_("J, Q and K are taken only by a matching face card."))
    value = pip(card)
    if sum(map(pip, chosen)) % value or not _splits(_counts(chosen), value):
        raise IllegalAction(
            _(
                "Those cards don't split into groups that each make {value} (your {card}'s value).",
                value=value,
                card=card.label,
            )
        )
