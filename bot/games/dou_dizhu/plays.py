"""Every legal play of a hand, by shape (the engine's legal actions and the AI's moves).

Plays are built already classified, and when following only the shape on the table (plus
bombs and the rocket) is built: classifying every candidate again took most of the time. The
pieces plays are cut from (each rank's first cards, the runs of ranks) are built once per
call, a play's cards are slices and concatenations of them, and plays are gathered by shape,
each shape's in rank order, so listing them sorts a few shapes rather than every play.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import chain, combinations, compress, repeat
from operator import itemgetter

from bot.cards import FrenchCard, Joker
from bot.games.dou_dizhu.combos import ACE, BLACK_JOKER, POWER, RED_JOKER, combo_of, order


def shape_size(shape: str) -> int:
    """How many cards a play of `shape` has."""
    fixed = {"single": 1, "pair": 2, "trio": 3, "bomb": 4, "rocket": 2, "trio+single": 4}
    fixed |= {"trio+pair": 5, "four+2singles": 6, "four+2pairs": 8}
    if shape in fixed:
        return fixed[shape]
    family, length, *kind = shape.split(":")
    per_rank = {"straight": 1, "pairs": 2}.get(family) or 3 + KICKER_SIZE.get(kind[0], 0)
    return per_rank * int(length)


KICKER_SIZE = {"plain": 0, "single": 1, "pair": 2}
LONGEST = 12  # ranks 3 to ace
SHAPES = {"single", "pair", "trio", "bomb", "rocket", "trio+single", "trio+pair"}
SHAPES |= {"four+2singles", "four+2pairs"} | {f"straight:{n}" for n in range(5, LONGEST + 1)}
SHAPES |= {f"pairs:{n}" for n in range(3, LONGEST + 1)}
SHAPES |= {f"airplane:{n}:{kind}" for n in range(2, LONGEST + 1) for kind in KICKER_SIZE}
# Legal plays are listed by power, then size, then shape name (as text), then rank: the first
# three make one int per shape.
SHAPE_KEY = {
    shape: (POWER.get(shape, 0) * 32 + shape_size(shape)) * 64 + place
    for place, shape in enumerate(sorted(SHAPES))
}
# The same keys for the shapes with a length, by length.
CHAIN_KEYS = {
    family: [SHAPE_KEY.get(f"{family}:{n}", 0) for n in range(LONGEST + 1)]
    for family in ("straight", "pairs")
} | {
    f"airplane:{kind}": [SHAPE_KEY.get(f"airplane:{n}:{kind}", 0) for n in range(LONGEST + 1)]
    for kind in KICKER_SIZE
}

# Plays gathered by shape: listing key -> that shape's plays, in rank order.
Plays = dict[int, list[list[FrenchCard]]]


def legal_plays(hand: list[FrenchCard], to_beat: list[FrenchCard] | None) -> list[list[FrenchCard]]:
    """Every play `hand` may make against `to_beat` (None or empty: a free lead). Suits don't
    matter, so each distinct play by ranks comes once, with the hand's first cards of each."""
    holding = Holding(hand)
    plays: Plays = {}
    if not to_beat:
        for add in (add_sets, add_bombs, add_rocket, add_chains, add_airplanes, add_trios):
            add(plays, holding, None, -1)
        add_fours(plays, holding, None, -1)
    else:
        target = combo_of(tuple(sorted(map(order, to_beat))))  # checked when it was played
        power = target.power
        if power == 0:
            ADDERS[target.shape.split(":")[0]](plays, holding, target.shape, target.rank)
        if power < 2:
            add_bombs(plays, holding, None, target.rank if power else -1)
            add_rocket(plays, holding, None, -1)
    return list(chain.from_iterable(map(plays.__getitem__, sorted(plays))))


def cards_by_rank(hand: list[FrenchCard]) -> list[list[FrenchCard]]:
    """The hand's cards of each rank (index: `order`), in the hand's order."""
    # One list per rank, written out (quicker than a comprehension); `order` inline.
    by_rank: list[list[FrenchCard]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], []]
    for card in hand:
        rank = card.rank
        if rank is not None:  # else a joker
            by_rank[RANK_ORDER[rank]].append(card)
        else:
            by_rank[BLACK_JOKER if card.joker is Joker.BLACK else RED_JOKER].append(card)
    return by_rank


RANK_ORDER = [(rank - 3) % 13 for rank in range(14)]  # by FrenchCard.rank
ALL_RANKS = range(RED_JOKER + 1)
FIRST = [itemgetter(slice(width)) for width in range(5)]  # FIRST[2](cards): cards[:2]
# AT_LEAST[2]: a table for bytes.translate turning card counts into 1 for 2 or more, else 0.
AT_LEAST = [bytes(int(count >= width) for count in range(256)) for width in range(5)]
RUN = [b"\x01" * length for length in range(LONGEST + 1)]  # found in translated counts


def pick(by_rank: list[list[FrenchCard]], counts: dict[int, int]) -> list[FrenchCard]:
    """The cards a play by ranks uses: the hand's first cards of each rank."""
    return [card for rank, k in sorted(counts.items()) for card in by_rank[rank][:k]]


class Holding:
    """A hand's cards by rank, and the pieces its plays are cut from, each built on first use."""

    __slots__ = ("_pools", "by_rank", "counts")

    def __init__(self, hand: list[FrenchCard]) -> None:
        self.by_rank = cards_by_rank(hand)
        self.counts = bytes(map(len, self.by_rank))
        self._pools: dict[int, tuple[list[int], list[list[FrenchCard]]]] = {}

    def pool(self, width: int) -> tuple[list[int], list[list[FrenchCard]]]:
        """The ranks with at least `width` cards, and the first `width` cards of each."""
        found = self._pools.get(width)
        if found is None:  # (translate and compress: no Python loop)
            enough = self.counts.translate(AT_LEAST[width])
            ranks = list(compress(ALL_RANKS, enough))
            cards = list(map(FIRST[width], compress(self.by_rank, enough)))
            found = self._pools[width] = (ranks, cards)
        return found

    def runs(self, width: int, least: int, shape: str | None, above: int) -> dict[int, list]:
        """The cards of every run of ranks (up to the ace) with `width` cards each, topped above
        `above`, of `shape`'s length if given, else at least `least` long: by length, each
        length's by top rank."""
        if shape:
            return self.runs_of(width, int(shape.split(":")[1]), above)
        ranks, sets = self.pool(width)
        found: dict[int, list] = {}
        streak, previous = 0, -2
        row: list[FrenchCard] = []
        for stop, top in enumerate(ranks, 1):
            if top > ACE:
                break
            streak = streak + 1 if top == previous + 1 else 1
            previous = top
            if streak >= least and top > above:
                row = row or list(chain.from_iterable(sets))  # a run is a slice of it
                end = stop * width
                for length in range(least, streak + 1):
                    if length in found:
                        found[length].append(row[end - length * width : end])
                    else:
                        found[length] = [row[end - length * width : end]]
        return found

    def runs_of(self, width: int, length: int, above: int) -> dict[int, list]:
        """`runs` of one length, when following: a few at most, each cut from the hand."""
        wide = self.counts[: ACE + 1].translate(AT_LEAST[width])  # 1: the rank has enough
        found, by_rank, first = [], self.by_rank, FIRST[width]
        low = wide.find(RUN[length], max(0, above + 2 - length))  # a run's lowest rank
        while low >= 0:
            found.append(list(chain.from_iterable(map(first, by_rank[low : low + length]))))
            low = wide.find(RUN[length], low + 1)
        return {length: found} if found else {}


# Each adder takes (plays, holding, shape, above): it adds the plays of `shape` (None: every
# shape it makes) ranked above `above`, each shape's in rank order, and for one main part the
# kicker choices in the order of `combinations`.


def add_sets(plays: Plays, holding: Holding, shape: str | None, above: int) -> None:
    for width, name in ((1, "single"), (2, "pair"), (3, "trio")):
        if shape in (None, name):
            ranks, sets = holding.pool(width)
            if ranks and ranks[-1] > above:
                plays[SHAPE_KEY[name]] = sets[bisect_right(ranks, above) :]


def add_bombs(plays: Plays, holding: Holding, shape: str | None, above: int) -> None:
    counts = holding.counts
    if 4 in counts:
        bombs = [holding.by_rank[r] for r, n in enumerate(counts) if n == 4 and r > above]
        if bombs:
            plays[SHAPE_KEY["bomb"]] = bombs


def add_rocket(plays: Plays, holding: Holding, shape: str | None, above: int) -> None:
    by_rank = holding.by_rank
    if by_rank[BLACK_JOKER] and by_rank[RED_JOKER]:
        plays[SHAPE_KEY["rocket"]] = [[by_rank[BLACK_JOKER][0], by_rank[RED_JOKER][0]]]


def add_chains(plays: Plays, holding: Holding, shape: str | None, above: int) -> None:
    for family, width, least in (("straight", 1, 5), ("pairs", 2, 3)):
        if shape is None or shape.startswith(family):
            keys = CHAIN_KEYS[family]
            for length, runs in holding.runs(width, least, shape, above).items():
                plays[keys[length]] = runs


def add_airplanes(plays: Plays, holding: Holding, shape: str | None, above: int) -> None:
    kinds = [shape.split(":")[2]] if shape else list(KICKER_SIZE)
    for length, runs in holding.runs(3, 2, shape, above).items():
        for kind in kinds:
            found = plays[CHAIN_KEYS[f"airplane:{kind}"][length]] = []
            for main in runs:
                if kind == "plain":
                    found.append(main)
                else:
                    low = order(main[0])
                    size = KICKER_SIZE[kind]
                    add_kickers(found, holding, low, low + length - 1, main, size, length)


def add_trios(plays: Plays, holding: Holding, shape: str | None, above: int) -> None:
    """Trios with a single or a pair."""
    ranks, trios = holding.pool(3)
    start = bisect_right(ranks, above)
    if start == len(ranks):
        return
    for kind in [shape[5:]] if shape else ["single", "pair"]:
        found = plays[SHAPE_KEY[f"trio+{kind}"]] = []
        kicker_ranks, kickers = holding.pool(KICKER_SIZE[kind])
        for r, trio in zip(ranks[start:], trios[start:], strict=True):
            at = bisect_left(kicker_ranks, r)  # the trio's own rank: every pool has it
            found += map(list.__add__, kickers[:at], repeat(trio))
            found += map(trio.__add__, kickers[at + 1 :])


def add_fours(plays: Plays, holding: Holding, shape: str | None, above: int) -> None:
    """Four of a kind with two singles or two pairs."""
    counts = holding.counts
    if 4 not in counts:
        return
    fours = [r for r, n in enumerate(counts) if n == 4 and r > above]
    for kind in [shape[6:]] if shape else ["singles", "pairs"]:
        found = plays[SHAPE_KEY[f"four+2{kind}"]] = []
        for r in fours:
            add_kickers(found, holding, r, r, holding.by_rank[r], KICKER_SIZE[kind[:-1]], 2)


def add_kickers(
    found: list[list[FrenchCard]],
    holding: Holding,
    low: int,
    high: int,
    main: list[FrenchCard],
    size: int,
    count: int,
) -> None:
    """`main` (ranks `low` to `high`) plus `count` kickers of `size` cards, of other distinct
    ranks, never both jokers; the cards in rank order."""
    ranks, kicks = holding.pool(size)
    split, resume = bisect_left(ranks, low), bisect_right(ranks, high)
    candidates = kicks[:split] + kicks[resume:]  # those before `split` go below the main part
    jokers = ranks[-2:] == [BLACK_JOKER, RED_JOKER]  # then the last two candidates
    if count == 2:
        found += [
            first + candidates[j] + main
            if j < split
            else first + main + candidates[j]
            if i < split
            else main + first + candidates[j]
            for i, first in enumerate(candidates)
            for j in range(i + 1, len(candidates))
        ]
        if jokers:
            found.pop()  # the last choice made
        return
    for picks in combinations(range(len(candidates)), count):
        if jokers and picks[-2] == len(candidates) - 2:
            continue  # picks[-1] is then the red joker
        below = [c for i in picks if i < split for c in candidates[i]]
        above = [c for i in picks if i >= split for c in candidates[i]]
        found.append(below + main + above)


ADDERS = {
    "single": add_sets,
    "pair": add_sets,
    "trio": add_sets,
    "trio+single": add_trios,
    "trio+pair": add_trios,
    "four+2singles": add_fours,
    "four+2pairs": add_fours,
    "straight": add_chains,
    "pairs": add_chains,
    "airplane": add_airplanes,
}
