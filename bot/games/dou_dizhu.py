"""Dou Dizhu (shared/rules/dou-dizhu.md, DECISIONS.md): three players, 54 cards.

A face-up card inserted into the deck chooses the first bidder. The auction (1, 2 or 3; a
player may bid again after passing) ends after two passes following a bid, or on a 3; with
no bid at all the hand is dealt again. The landlord takes the widow and leads. Combinations
are judged by rank only (suits don't matter); bombs and the rocket beat anything else. The
first out wins: farmers pay the landlord, or the landlord pays each farmer, the bid doubled
for every bomb and rocket played.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from functools import lru_cache
from itertools import chain, combinations, compress, pairwise, repeat
from operator import itemgetter
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.cards import FrenchCard, Joker, french_deck
from bot.engine import (
    Action,
    Decision,
    Event,
    GameSpec,
    HandEnded,
    IllegalAction,
    MatchEnded,
    Rng,
    Viewer,
    placings,
    registry,
)
from bot.engine import HandStarted as BaseHandStarted
from bot.games.climbing import Climb, Pass, Play, Played
from bot.games.hands import HandAfterHandWithStacks

PLAYERS, HAND, WIDOW = 3, 17, 3
ACE, TWO, BLACK_JOKER, RED_JOKER = 11, 12, 13, 14
NAMES = [
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "black joker",
    "red joker",
]


def order(card: FrenchCard) -> int:
    """3 -> 0 ... A -> 11, 2 -> 12, black joker 13, red joker 14."""
    if card.joker is not None:
        return BLACK_JOKER if card.joker is Joker.BLACK else RED_JOKER
    return (card.rank - 3) % 13


POWER = {"rocket": 2, "bomb": 1}  # by shape; 0 for the others


class Combo(BaseModel):
    """`shape` says what must match to compete ("pair", "straight:7", "airplane:2:single");
    `rank` orders combinations of one shape; bombs and the rocket beat every other shape."""

    model_config = ConfigDict(frozen=True)
    shape: str
    rank: int
    name: str

    @property
    def power(self) -> int:
        return POWER.get(self.shape, 0)

    def beats(self, other: Combo) -> bool:
        if self.power != other.power:
            return self.power > other.power
        return self.shape == other.shape and self.rank > other.rank


def consecutive(ranks: list[int]) -> bool:
    """A run for a chain: consecutive, and no 2s or jokers in it."""
    return ranks[-1] <= ACE and all(b - a == 1 for a, b in pairwise(ranks))


def kickers_ok(kickers: Counter, size: int, count: int, main: set[int]) -> bool:
    """`count` kickers of `size` cards each, all of different ranks, none of the main ranks,
    and never both jokers."""
    if sorted(kickers.values()) != [size] * count or set(kickers) & main:
        return False
    return not {BLACK_JOKER, RED_JOKER} <= set(kickers)


def classify(cards: list[FrenchCard]) -> Combo:
    """The combination these cards make, or IllegalAction saying why they make none."""
    if not cards or len(cards) != len(set(cards)):
        raise IllegalAction("Choose one or more different cards.")
    return combo_of(tuple(sorted(order(card) for card in cards)))


@lru_cache(maxsize=4096)
def combo_of(played: tuple[int, ...]) -> Combo:
    """The combination of these card ranks (sorted); remembered, as plays on the table recur."""
    counts = Counter(played)
    ranks = sorted(counts)
    n, shape = len(played), sorted(counts.values(), reverse=True)
    top = ranks[-1]
    if n == 2 and set(ranks) == {BLACK_JOKER, RED_JOKER}:
        return Combo(shape="rocket", rank=RED_JOKER, name="the rocket")
    if shape == [1] * n and n == 1:
        return Combo(shape="single", rank=top, name=NAMES[top])
    if shape == [2]:
        return Combo(shape="pair", rank=top, name=f"pair of {NAMES[top]}s")
    if shape == [3]:
        return Combo(shape="trio", rank=top, name=f"three {NAMES[top]}s")
    if shape == [4]:
        return Combo(shape="bomb", rank=top, name=f"bomb of {NAMES[top]}s")
    if shape == [1] * n and n >= 5 and consecutive(ranks):
        return Combo(shape=f"straight:{n}", rank=top, name=f"{n}-card straight to {NAMES[top]}")
    if shape == [2] * (n // 2) and n // 2 >= 3 and n % 2 == 0 and consecutive(ranks):
        return Combo(
            shape=f"pairs:{n // 2}", rank=top, name=f"{n // 2} pairs in a row to {NAMES[top]}"
        )
    found = trio_combo(counts, n) or four_with_two(counts, n)
    if found:
        return found
    raise IllegalAction(reason(n, counts))


def trio_combo(counts: Counter, n: int) -> Combo | None:
    """Trios with a single or a pair, and chains of trios (airplanes) with or without kickers."""
    trio_ranks = sorted(r for r, c in counts.items() if c >= 3)
    best = None
    for length in range(1, len(trio_ranks) + 1):
        for start in range(len(trio_ranks) - length + 1):
            run = trio_ranks[start : start + length]
            if length > 1 and not consecutive(run):
                continue
            rest = counts.copy()
            for rank in run:
                rest[rank] -= 3
            rest = +rest
            kind = None
            if not rest and length > 1:
                kind = "plain"
            elif kickers_ok(rest, 1, length, set(run)):
                kind = "single"
            elif kickers_ok(rest, 2, length, set(run)):
                kind = "pair"
            if kind is None or (kind == "plain" and length == 1):
                continue
            if length == 1:
                name = f"three {NAMES[run[0]]}s with a {'single' if kind == 'single' else 'pair'}"
                combo = Combo(shape=f"trio+{kind}", rank=run[0], name=name)
            else:
                extra = "" if kind == "plain" else f" with {kind}s"
                combo = Combo(
                    shape=f"airplane:{length}:{kind}",
                    rank=run[-1],
                    name=f"{length} trios in a row{extra}",
                )
            if best is None or combo.rank > best.rank:
                best = combo
    return best


def four_with_two(counts: Counter, n: int) -> Combo | None:
    for rank, count in counts.items():
        if count == 4:
            rest = counts.copy()
            del rest[rank]
            for size in (1, 2):
                if n == 4 + 2 * size and kickers_ok(rest, size, 2, {rank}):
                    what = "singles" if size == 1 else "pairs"
                    return Combo(
                        shape=f"four+2{what}",
                        rank=rank,
                        name=f"four {NAMES[rank]}s with two {what}",
                    )
    return None


def reason(n: int, counts: Counter) -> str:
    if n == 2:
        return "A pair must be two cards of the same rank."
    if any(r > ACE for r in counts) and len(counts) >= 5:
        return "2s and jokers can't be part of a straight or a chain."
    return "Those cards make no Dou Dizhu combination."


# ---- every legal play ------------------------------------------------------------------------
#
# Plays are built already classified, and when following only the shape on the table (plus
# bombs and the rocket) is built: classifying every candidate again took most of the time. The
# pieces plays are cut from (each rank's first cards, the runs of ranks) are built once per
# call, a play's cards are slices and concatenations of them, and plays are gathered by shape,
# each shape's in rank order, so listing them sorts a few shapes rather than every play.


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
        if card.joker is None:
            by_rank[RANK_ORDER[card.rank]].append(card)
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
        streak, previous, row = 0, -2, []
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


# ---- the game -----------------------------------------------------------------------------------


def check_play(cards: list[FrenchCard], to_beat: list[FrenchCard]) -> None:
    """Raise IllegalAction with the reason unless `cards` may be played on `to_beat` (the
    engine's verify and the player's preview of a pick both ask this)."""
    combo = classify(cards)
    if to_beat and not combo.beats(target := classify(to_beat)):
        raise IllegalAction(f"{combo.name.capitalize()} does not beat {target.name}.")


class DouDizhuOptions(BaseModel):
    """Dou Dizhu has no table options: three players, bids of 1 to 3 chips."""


class Bid(Action):
    kind: Literal["bid"] = "bid"
    chips: int  # 0: pass


DouDizhuAction = Annotated[Bid | Play | Pass, Field(discriminator="kind")]


class HandStarted(BaseHandStarted):
    """A deal (bot.engine.HandStarted) and what the table shows of it."""

    dealer: int
    face_up: FrenchCard
    first_bidder: int


class BidMade(Event):
    kind: Literal["bid_made"] = "bid_made"
    seat: int
    chips: int


class Redeal(Event):
    kind: Literal["redeal"] = "redeal"


class LandlordChosen(Event):
    kind: Literal["landlord_chosen"] = "landlord_chosen"
    seat: int
    bid: int


class Settled(Event):
    kind: Literal["settled"] = "settled"
    winner: int
    landlord_won: bool
    doublings: int
    paid: list[int]  # net chips per seat


class DouDizhuView(BaseModel):
    hand: int
    phase: str
    dealer: int
    counts: list[int]
    stacks: list[int]
    face_up: FrenchCard | None  # public while its drawer still holds it
    face_up_holder: int | None
    bids: list[int | None]
    bid: int
    landlord: int | None
    doublings: int
    to_beat: list[FrenchCard]
    to_beat_name: str | None
    last_player: int | None
    turn: int | None
    my_cards: list[FrenchCard] | None = None
    played: list[FrenchCard] = []  # every card played this hand (all shown on the table)


class DouDizhuState(HandAfterHandWithStacks):
    options: DouDizhuOptions
    phase: Literal["bidding", "playing", "between", "over"] = "bidding"
    hands: list[list[FrenchCard]] = []
    widow: list[FrenchCard] = []
    played: list[FrenchCard] = []
    face_up: FrenchCard | None = None
    bids: list[int | None] = []
    bidder: int = 0
    bid: int = 0
    high_bidder: int | None = None
    passes: int = 0
    landlord: int | None = None
    doublings: int = 0
    climb: Climb | None = None

    def start_hand(self) -> list[Event]:
        if min(self.stacks) < 1:
            self.phase = "over"
            return [MatchEnded(placings=placings(self.stacks))]
        deck = self.rng.shuffled(french_deck(jokers=True))
        face_up_at = self.rng.randrange(PLAYERS * HAND)  # turned up and put back in the middle
        self.face_up = deck[face_up_at]
        drawers = [(self.dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]
        self.hands = [[] for _ in range(PLAYERS)]
        for index, card in enumerate(deck[: PLAYERS * HAND]):
            self.hands[drawers[index % PLAYERS]].append(card)
        self.widow, self.played = deck[PLAYERS * HAND :], []
        for hand in self.hands:
            hand.sort(key=order)
        self.bidder = next(s for s in range(PLAYERS) if self.face_up in self.hands[s])
        self.bids, self.bid, self.high_bidder, self.passes = [None] * PLAYERS, 0, None, 0
        self.landlord, self.doublings, self.climb, self.phase = None, 0, None, "bidding"
        return [
            HandStarted(
                hand=self.hand, dealer=self.dealer, face_up=self.face_up, first_bidder=self.bidder
            )
        ]

    # ---- the auction --------------------------------------------------------------------------

    def make_bid(self, seat: int, chips: int) -> list[Event]:
        self.bids[seat] = chips
        events: list[Event] = [BidMade(seat=seat, chips=chips)]
        if chips:
            self.bid, self.high_bidder, self.passes = chips, seat, 0
        else:
            self.passes += 1
        if self.bid == 3 or (self.high_bidder is not None and self.passes >= 2):
            return events + self.crown_landlord()
        if self.high_bidder is None and self.passes >= PLAYERS:
            self.dealer = self.next_dealer()
            return [*events, Redeal(), *self.start_hand()]
        self.bidder = (seat + 1) % PLAYERS
        return events

    def crown_landlord(self) -> list[Event]:
        self.landlord = self.high_bidder
        self.hands[self.landlord] = sorted(self.hands[self.landlord] + self.widow, key=order)
        self.widow = []
        self.climb = Climb(
            seats=[(self.landlord + i) % PLAYERS for i in range(PLAYERS)], turn=self.landlord
        )
        self.phase = "playing"
        return [LandlordChosen(seat=self.landlord, bid=self.bid)]

    # ---- the end of a hand ----------------------------------------------------------------------

    def settle(self, winner: int) -> list[Event]:
        """Pay the bid, doubled per bomb and rocket; nobody pays more than they have (the
        landlord's payment is split evenly, an odd chip to the first farmer on their left)."""
        stake = self.bid * 2**self.doublings
        farmers = [(self.landlord + 1) % PLAYERS, (self.landlord + 2) % PLAYERS]
        before = list(self.stacks)
        landlord_won = winner == self.landlord
        if landlord_won:
            for farmer in farmers:
                paid = min(stake, self.stacks[farmer])
                self.stacks[farmer] -= paid
                self.stacks[self.landlord] += paid
        else:
            owed = min(2 * stake, self.stacks[self.landlord])
            self.stacks[self.landlord] -= owed
            self.stacks[farmers[0]] += owed - owed // 2
            self.stacks[farmers[1]] += owed // 2
        net = [after - b for after, b in zip(self.stacks, before, strict=True)]
        winners = [self.landlord] if landlord_won else farmers
        self.phase = "between"
        return [
            Settled(winner=winner, landlord_won=landlord_won, doublings=self.doublings, paid=net),
            HandEnded(hand=self.hand, players=list(range(PLAYERS)), net_chips=net, winners=winners),
        ]

    # ---- the protocol -----------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "bidding":
            return [
                Decision(seat=self.bidder, kind="bid", prompt=f"Bid more than {self.bid}, or pass")
            ]
        if self.phase == "playing":
            prompt = "Lead anything" if self.climb.free_lead else "Beat it or pass"
            return [Decision(seat=self.climb.turn, kind="play", prompt=prompt)]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "bidding" and seat == self.bidder:
            return [Bid(chips=0), *(Bid(chips=n) for n in range(self.bid + 1, 4))]
        if self.phase != "playing" or seat != self.climb.turn:
            return []
        plays = [Play(cards=cards) for cards in legal_plays(self.hands[seat], self.climb.to_beat)]
        return plays if self.climb.free_lead else [Pass(), *plays]

    def canonical(self, seat: int, action: Action) -> Action:
        """Suits don't matter: a play is listed with the hand's first cards of each rank."""
        if isinstance(action, Play) and set(action.cards) <= set(self.hands[seat]):
            counts = Counter(order(card) for card in action.cards)
            return Play(cards=pick(cards_by_rank(self.hands[seat]), counts))
        return action

    def verify(self, seat: int, action: Action) -> None:
        """Plays are judged by what they are, with the reason, not by listing every play."""
        if isinstance(action, Play) and self.phase == "playing" and seat == self.climb.turn:
            if not set(action.cards) <= set(self.hands[seat]):
                raise IllegalAction("You don't hold those cards.")
            check_play(action.cards, self.climb.to_beat)
            return
        if isinstance(action, Pass) and self.phase == "playing" and seat == self.climb.turn:
            if self.climb.free_lead:
                raise IllegalAction("You lead this trick: play something.")
            return
        super().verify(seat, action)

    def default_action(self, seat: int) -> Action:
        """Pass (in the auction too); on a free lead, the single lowest card."""
        if self.phase == "bidding" or not self.climb.free_lead:
            return Bid(chips=0) if self.phase == "bidding" else Pass()
        return Play(cards=[min(self.hands[seat], key=order)])

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Bid):
            return self.make_bid(seat, action.chips)
        if isinstance(action, Pass):
            return self.climb.passed(seat)
        for card in action.cards:
            self.hands[seat].remove(card)
        self.played += action.cards
        combo = classify(action.cards)
        if combo.power:
            self.doublings += 1
        self.climb.played(seat, action.cards)
        left = len(self.hands[seat])
        events: list[Event] = [
            Played(seat=seat, cards=action.cards, combination=combo.name, left=left)
        ]
        return events + (self.settle(seat) if not left else [])

    def view(self, viewer: Viewer) -> DouDizhuView:
        playing = self.phase == "playing"
        to_beat = self.climb.to_beat if playing else []
        holder = next((s for s in range(PLAYERS) if self.face_up in self.hands[s]), None)
        view = DouDizhuView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            counts=[len(hand) for hand in self.hands],
            stacks=self.stacks,
            face_up=self.face_up if holder is not None else None,
            face_up_holder=holder,
            bids=self.bids,
            bid=self.bid,
            landlord=self.landlord,
            doublings=self.doublings,
            to_beat=to_beat,
            to_beat_name=classify(to_beat).name if to_beat else None,
            last_player=self.climb.last_player if playing else None,
            turn=self.climb.turn if playing else (self.bidder if self.phase == "bidding" else None),
            played=self.played,
        )
        if viewer is not None:
            view.my_cards = self.hands[viewer]
        return view

    def all_cards(self) -> list[FrenchCard]:
        return [c for hand in self.hands for c in hand] + self.widow + self.played

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        hidden = set(self.widow)
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden |= set(hand) - {self.face_up}  # everyone saw the face-up card drawn
        return hidden

    def chip_total(self) -> int:
        return sum(self.stacks)


def new_dou_dizhu(
    options: DouDizhuOptions, stacks: list[int], rng: Rng
) -> tuple[DouDizhuState, list[Event]]:
    state = DouDizhuState(rng=rng, seat_count=PLAYERS, options=options, stacks=stacks)
    return state, state.start_hand()


DOU_DIZHU = registry.register(
    GameSpec(
        id="doudizhu",
        name="Dou Dizhu",
        min_players=3,
        max_players=3,
        options_model=DouDizhuOptions,
        state_model=DouDizhuState,
        action_model=DouDizhuAction,
        deck=lambda: french_deck(jokers=True),
        create=new_dou_dizhu,
        uses_chips=True,
    )
)
