"""Crash, or Thirteen-Card Brag (shared/rules/crash.md, DECISIONS.md).

Two to four players, the 52-card pack, thirteen cards each (the rest set aside unseen). Every
player secretly, and at the same time, sets up to four three-card Brag hands, each a pair or
better; the other cards are discarded face down. The bot ranks each player's hands, so a foul
can't happen. At the reveal the strongest hands compete for position 1, the second strongest
for position 2, and so on: the best hand at a position scores a point (a player alone there
wins it), a tie for best is a stick-up and nobody scores. One player taking all four
positions is a crash and wins the game at once. The highest four of a kind used in full in
the set hands scores one more (4s highest, then aces, kings ... 5s, 3s, 2s). A player with six
pairs may declare them instead of setting: the hand is void and the same dealer deals again.
A thirteen-card straight (A to 2) is revealed and wins the game at once. Points are scored
position by position, then the bonus; the first to reach the target (7) wins at once.

The space of arrangements is too large to list: `legal_actions` gives a few strong
arrangements (`suggestions`), `verify` judges any arrangement, `sample` draws a random one,
and `fill_hands` completes the hands a player has started (their "Fill the rest").
"""

from __future__ import annotations

import functools
import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard, Rank, Suit, french_deck
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
    registry,
)
from bot.engine import HandStarted as BaseHandStarted
from bot.games.hands import PointsMatchHands
from bot.games.matches import Match

MIN_SEATS, MAX_SEATS = 2, 4
DEALT = 13  # cards per player
HAND_CARDS = 3  # cards in a Brag hand
MAX_HANDS = 4  # positions scored per deal
SUGGESTED = 6  # arrangements `legal_actions` offers
SIX_PAIRS = 6
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
# Four-of-a-kind bonus: 4s beat everything, then aces, then the usual order down to 2s.
QUAD_ORDER = (
    Rank.FOUR,
    Rank.ACE,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.TEN,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
    Rank.SIX,
    Rank.FIVE,
    Rank.THREE,
    Rank.TWO,
)


# ---- three-card Brag hands ------------------------------------------------------------------


class Category(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    RUN = 3
    RUNNING_FLUSH = 4
    PRIAL = 5


BragKey = tuple[int, int, int, int]  # (category, then values compared in order)


def high(rank: Rank) -> int:
    """A rank's value with the ace high (14)."""
    return 14 if rank == Rank.ACE else int(rank)


def run_top(values: Sequence[int]) -> int | None:
    """How high a run ranks (values sorted high first), or None for no run. A-2-3 is the
    highest run (15), then A-K-Q (14), K-Q-J (13) ... 4-3-2 (4) the lowest."""
    if list(values) == [14, 3, 2]:
        return 15
    if values[0] - 1 == values[1] and values[1] - 1 == values[2]:
        return values[0]
    return None


def brag_key(cards: Sequence[FrenchCard]) -> BragKey:
    """Compares three-card Brag hands: prial > running flush > run > flush > pair > high
    card. Prials: 3-3-3 highest, then A-A-A, K-K-K ... 2-2-2. Suits never break ties."""
    values = sorted((high(card.rank) for card in cards), reverse=True)
    flush = len({card.suit for card in cards}) == 1
    top = run_top(values)
    if values[0] == values[2]:
        return (Category.PRIAL, 15 if values[0] == 3 else values[0], 0, 0)
    if top is not None:
        return (Category.RUNNING_FLUSH if flush else Category.RUN, top, 0, 0)
    if flush:
        return (Category.FLUSH, *values)
    if values[0] == values[1] or values[1] == values[2]:
        pair = values[1]
        kicker = values[2] if values[0] == pair else values[0]
        return (Category.PAIR, pair, kicker, 0)
    return (Category.HIGH_CARD, *values)


def category(cards: Sequence[FrenchCard]) -> Category:
    return Category(brag_key(cards)[0])


@functools.cache
def all_keys() -> list[BragKey]:
    """The keys of all 22,100 three-card hands, weakest first."""
    return sorted(brag_key(hand) for hand in combinations(french_deck(), HAND_CARDS))


@functools.cache
def strength(key: BragKey) -> int:
    """How many of the 22,100 three-card hands are weaker than a hand of this key."""
    return bisect_left(all_keys(), key)


def value_label(value: int) -> str:
    return Rank(1 if value in (14, 15) else value).label


def hand_name(cards: Sequence[FrenchCard]) -> str:
    """What a Brag hand is, in words: "prial of 3s", "run A-K-Q", "pair of 7s"."""
    key = brag_key(cards)
    kind = Category(key[0])
    if kind == Category.PRIAL:
        return f"prial of {cards[0].rank.label}s"
    if kind in (Category.RUNNING_FLUSH, Category.RUN):
        values = [1, 2, 3] if key[1] == 15 else [key[1], key[1] - 1, key[1] - 2]
        run = "-".join(value_label(value) for value in values)
        return f"{'running flush' if kind == Category.RUNNING_FLUSH else 'run'} {run}"
    if kind == Category.FLUSH:
        return f"{value_label(key[1])}-high flush"
    if kind == Category.PAIR:
        return f"pair of {value_label(key[1])}s"
    return f"{value_label(key[1])} high"


def display_order(cards: Sequence[FrenchCard]) -> list[FrenchCard]:
    """Highest rank first (aces high), then ♠ ♥ ♦ ♣: pairs sit together."""
    return sorted(cards, key=lambda card: (-high(card.rank), SUIT_ORDER.index(card.suit)))


def ranked(hands: Sequence[Sequence[FrenchCard]]) -> list[list[FrenchCard]]:
    """A set's hands strongest first, as the bot lays them out (so a foul can't happen)."""
    ordered = sorted(hands, key=brag_key, reverse=True)
    return [display_order(hand) for hand in ordered]


def cards_label(cards: Sequence[FrenchCard]) -> str:
    return " ".join(card.label for card in cards)


def arrangement_problem(
    hands: Sequence[Sequence[FrenchCard]], held: Sequence[FrenchCard]
) -> str | None:
    """Why a set of hands can't be set from the cards `held`, or None when it can: up to four
    hands of exactly three of your own cards, none used twice, each a pair or better."""
    used = [card for hand in hands for card in hand]
    stranger = next((card for card in used if card not in held), None)
    if stranger is not None:
        return f"{stranger.label} is not in your hand."
    twice = next((card for card, count in Counter(used).items() if count > 1), None)
    if twice is not None:
        return f"{twice.label} is used twice: a card goes into one hand only."
    if len(hands) > MAX_HANDS:
        return f"Set at most {MAX_HANDS} hands."
    wrong = next((hand for hand in hands if len(hand) != HAND_CARDS), None)
    if wrong is not None:
        return f"A hand takes exactly {HAND_CARDS} cards, not {len(wrong)}."
    weak = next((hand for hand in hands if category(hand) == Category.HIGH_CARD), None)
    if weak is not None:
        return (
            f"{cards_label(weak)} is only {hand_name(weak)}: every hand must be a pair or better."
        )
    return None


def pair_count(cards: Sequence[FrenchCard]) -> int:
    """Pairs in a deal: a three of a kind holds one, a four of a kind two."""
    return sum(count // 2 for count in Counter(card.rank for card in cards).values())


def is_thirteen_card_straight(cards: Sequence[FrenchCard]) -> bool:
    """One card of every rank, ace down to 2 (any suits)."""
    return len(cards) == DEALT and {card.rank for card in cards} == set(Rank)


def quad_power(rank: Rank) -> int:
    return len(QUAD_ORDER) - QUAD_ORDER.index(rank)


def quads_in_full(hands: Sequence[Sequence[FrenchCard]]) -> list[Rank]:
    """Ranks whose four cards are all in these set hands (in one hand or spread over several)."""
    counts = Counter(card.rank for hand in hands for card in hand)
    return [rank for rank, count in counts.items() if count == 4]


# ---- finding good arrangements ----------------------------------------------------------------

HAND_WEIGHT = 100_000  # more than four hands' strengths: forming a hand counts first
TOP_HANDS_TRIED = 24  # different strong hands an arrangement is built around
# How strong the other players' hands at each position usually are, from 4,000 simulated
# deals arranged by this planner: per position 1-4, the share of deals with no hand there,
# and the strengths (see `strength`) of the hands there at the 1/40, 2/40 ... quantiles.
# fmt: off
POSITION_TABLES: list[tuple[float, tuple[int, ...]]] = [
    (0.0, (
        21280, 21460, 21580, 21640, 21700, 21760, 21820, 21820, 21880, 21880,
        21940, 21940, 21940, 21940, 22000, 22004, 22012, 22016, 22020, 22028,
        22032, 22036, 22044, 22048, 22052, 22052, 22056, 22060, 22064, 22068,
        22068, 22072, 22076, 22080, 22080, 22084, 22088, 22088, 22092, 22096,
    )),
    (0.0, (
        20520, 20764, 20936, 21056, 21148, 21224, 21280, 21340, 21400, 21400,
        21460, 21460, 21520, 21520, 21520, 21580, 21580, 21640, 21640, 21640,
        21700, 21700, 21700, 21760, 21760, 21820, 21820, 21820, 21880, 21880,
        21880, 21940, 21940, 21940, 21940, 22008, 22020, 22036, 22052, 22068,
    )),
    (0.0, (
        18696, 20112, 20264, 20364, 20456, 20532, 20592, 20656, 20708, 20756,
        20812, 20852, 20884, 20920, 20948, 20984, 21024, 21064, 21108, 21140,
        21172, 21200, 21240, 21276, 21280, 21340, 21340, 21400, 21400, 21400,
        21460, 21460, 21520, 21520, 21580, 21640, 21700, 21700, 21820, 21940,
    )),
    (0.028, (
        16656, 17016, 17376, 17616, 17904, 18216, 18408, 18672, 18888, 19152,
        19296, 19536, 19728, 19848, 20112, 20216, 20260, 20300, 20336, 20380,
        20416, 20456, 20500, 20532, 20564, 20612, 20656, 20696, 20732, 20768,
        20816, 20852, 20896, 20940, 21004, 21060, 21132, 21220, 21340, 21520,
    )),
]
# fmt: on


def win_chance(position: int, key: BragKey) -> float:
    """About how often a hand of this key beats another player's hand at `position` (0-3)."""
    nothing, quantiles = POSITION_TABLES[position]
    below = bisect_left(quantiles, strength(key)) / len(quantiles)
    return nothing + (1 - nothing) * below


def expected_points(keys: Sequence[BragKey], opponents: int) -> float:
    """About how many positions hands of these keys (strongest first) win against
    `opponents` other players."""
    return sum(win_chance(position, key) ** opponents for position, key in enumerate(keys))


class Planner:
    """Arrangements of one deal. Candidates come from `best(mask)`, the plan with the most
    hands, then the greatest total strength, from the cards in `mask` (bit i: card i), found
    by choosing, for the lowest card left, either a hand holding it or its discard: the best
    of all, and the best around each different strong hand put on top. They are then ranked
    by the positions they can expect to win (`expected_points`)."""

    def __init__(self, cards: tuple[FrenchCard, ...]) -> None:
        self.cards = cards
        self.triples: list[tuple[int, BragKey]] = []  # (mask, key), pair or better
        for trio in combinations(range(len(cards)), HAND_CARDS):
            key = brag_key([cards[i] for i in trio])
            if key[0] != Category.HIGH_CARD:
                self.triples.append((sum(1 << i for i in trio), key))
        self.triples.sort(key=lambda triple: triple[1], reverse=True)
        self.keys = dict(self.triples)
        self.by_low: dict[int, list[tuple[int, int]]] = {}  # lowest card -> (mask, score)
        for mask, key in self.triples:
            low = (mask & -mask).bit_length() - 1
            self.by_low.setdefault(low, []).append((mask, HAND_WEIGHT + strength(key)))
        self.memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

    def best(self, mask: int) -> tuple[int, tuple[int, ...]]:
        """(score, the hands' masks) of the best plan using only the cards in `mask`."""
        if mask in self.memo:
            return self.memo[mask]
        low_bit = mask & -mask
        found = self.best(mask ^ low_bit)  # the lowest card discarded
        for hand, score in self.by_low.get(low_bit.bit_length() - 1, ()):
            if hand & mask == hand:
                rest_score, rest = self.best(mask ^ hand)
                if score + rest_score > found[0]:
                    found = (score + rest_score, (hand, *rest))
        self.memo[mask] = found
        return found

    @functools.cached_property
    def candidates(self) -> dict[tuple[BragKey, ...], tuple[int, ...]]:
        """Candidate plans (their hands' masks) by their keys, strongest first: plans that
        rank alike (they differ by suits only) count once."""
        everything = (1 << len(self.cards)) - 1
        plans = [self.best(everything)[1]]
        tried: set[tuple[int, int]] = set()
        for mask, key in self.triples:
            if len(tried) == TOP_HANDS_TRIED:
                break
            if key[:2] not in tried:  # one top hand per kind and rank, for variety
                tried.add(key[:2])
                plans.append((mask, *self.best(everything ^ mask)[1]))
        found: dict[tuple[BragKey, ...], tuple[int, ...]] = {}
        for masks in plans:
            ordered = sorted(masks, key=self.keys.__getitem__, reverse=True)
            found.setdefault(tuple(self.keys[mask] for mask in ordered), tuple(ordered))
        return found

    def plans(self, limit: int, opponents: int) -> list[list[list[FrenchCard]]]:
        """Up to `limit` strong arrangements, the best first."""
        found = self.candidates
        best = sorted(found, key=lambda keys: -expected_points(keys, opponents))
        return [[display_order(self.hand(mask)) for mask in found[keys]] for keys in best[:limit]]

    def hand(self, mask: int) -> list[FrenchCard]:
        return [card for i, card in enumerate(self.cards) if mask >> i & 1]


@functools.lru_cache(maxsize=256)
def planner(cards: tuple[FrenchCard, ...]) -> Planner:
    return Planner(cards)


def strong_arrangements(
    cards: Sequence[FrenchCard], limit: int, opponents: int = 1
) -> list[list[list[FrenchCard]]]:
    return planner(tuple(display_order(cards))).plans(limit, opponents)


def random_arrangement(cards: Sequence[FrenchCard], chooser: random.Random) -> list[list]:
    """Some legal arrangement: a random number of random disjoint hands (none at all too)."""
    plan = planner(tuple(display_order(cards)))
    triples = [mask for mask, _ in plan.triples]
    chooser.shuffle(triples)
    wanted, used, hands = chooser.randint(0, MAX_HANDS), 0, []
    for mask in triples:
        if len(hands) == wanted:
            break
        if not mask & used:
            used |= mask
            hands.append(plan.hand(mask))
    return ranked(hands)


def fill_hands(
    hands: Sequence[Sequence[FrenchCard]], held: Sequence[FrenchCard], opponents: int = 1
) -> list[list[FrenchCard]]:
    """A player's hands so far (up to four, of the cards `held`) with the rest filled in: the
    complete hands stay in their places, and every other card goes into the best hands the
    planner finds for the other places (strongest first), judged with the kept hands as the
    suggestions are (`expected_points`)."""
    kept = [list(hand) if len(hand) == HAND_CARDS else [] for hand in hands]
    kept += [[] for _ in range(MAX_HANDS - len(kept))]
    placed = {card for hand in kept for card in hand}
    plan = planner(tuple(display_order([card for card in held if card not in placed])))
    fixed = [brag_key(hand) for hand in kept if hand]

    def value(keys: tuple[BragKey, ...]) -> float:
        return expected_points(sorted([*fixed, *keys], reverse=True), opponents)

    best = max(plan.candidates, key=value)
    made = (display_order(plan.hand(mask)) for mask in plan.candidates[best])
    return [hand or next(made, []) for hand in kept]


# ---- actions and events -----------------------------------------------------------------------


class Arrange(Action):
    """Set these hands (up to four of three cards); every other card is discarded."""

    kind: Literal["arrange"] = "arrange"
    hands: list[list[FrenchCard]]


class DeclareSixPairs(Action):
    kind: Literal["six_pairs"] = "six_pairs"


class RevealStraight(Action):
    kind: Literal["straight"] = "straight"


CrashAction = Annotated[Arrange | DeclareSixPairs | RevealStraight, Field(discriminator="kind")]


class HandStarted(BaseHandStarted):
    """A deal (bot.engine.HandStarted): who deals, and whether it is a redeal after a void."""

    dealer: int
    redeal: bool = False


class Ready(Event):
    """A player has set their hands, or declared: which of the two stays secret."""

    kind: Literal["ready"] = "ready"
    seat: int


class PositionResult(BaseModel):
    position: int  # 1 for the strongest hands ... 4
    contenders: list[int]  # seats with a hand at this position
    best: list[int]  # seats tied for the best hand there
    winner: int | None  # the one best hand's seat; None: a stick-up, or nobody there


class Bonus(BaseModel):
    seat: int
    rank: Rank  # the four of a kind used in full


class HandResult(BaseModel):
    sets: list[list[list[FrenchCard]]]  # per seat, its hands strongest first
    discards: list[int]  # how many cards each discarded (never shown)
    positions: list[PositionResult]  # scored in order; none once someone reached the target
    bonus: Bonus | None = None
    crash: int | None = None  # the seat that took all four positions
    points: list[int]  # scored this hand, per seat
    totals: list[int]  # match scores after it
    target_reached: bool = False  # the hand stopped there: someone reached the target


class Showdown(Event):
    kind: Literal["showdown"] = "showdown"
    result: HandResult


class HandVoid(Event):
    """Six pairs declared: nobody scores, and the same dealer deals again."""

    kind: Literal["hand_void"] = "hand_void"
    declared: list[int]
    dealer: int


class StraightRevealed(Event):
    """A thirteen-card straight wins the game at once (several: they share the win)."""

    kind: Literal["straight_revealed"] = "straight_revealed"
    seats: list[int]
    cards: list[list[FrenchCard]]  # each winner's thirteen cards


# ---- options and views ------------------------------------------------------------------------


class CrashOptions(BaseModel):
    target: int = Field(default=7, ge=1, le=30, description="Points that win the game")


class SeatView(BaseModel):
    seat: int
    score: int
    ready: bool  # has set or declared this hand (never which)
    hands: list[list[FrenchCard]] | None = None  # set hands, once revealed, strongest first
    discards: int | None = None  # how many cards they discarded, once revealed
    declared: bool = False  # declared six pairs (shown once the hand is void)
    straight: list[FrenchCard] | None = None  # a revealed thirteen-card straight


class CrashView(BaseModel):
    hand: int
    phase: str
    dealer: int
    target: int
    seats: list[SeatView]
    result: HandResult | None  # the last showdown, between hands and at the end
    void: bool  # the last hand was void: the same dealer deals again
    straight_winners: list[int]
    seat: int | None = None
    my_cards: list[FrenchCard] | None = None
    my_set: list[list[FrenchCard]] | None = None  # the viewer's hands once set, strongest first
    my_declared: bool = False
    my_six_pairs: bool = False  # the viewer may declare six pairs now
    my_straight: bool = False  # the viewer holds a thirteen-card straight


# ---- the game ---------------------------------------------------------------------------------


class CrashState(PointsMatchHands):
    listable = False

    options: CrashOptions
    phase: Literal["setting", "between", "over"] = "setting"
    hands: list[list[FrenchCard]] = []  # each seat's thirteen cards
    undealt: list[FrenchCard] = []
    sets: list[list[list[FrenchCard]] | None] = []  # per seat once set, strongest first
    declared: list[bool] = []  # secret until everyone is ready
    result: HandResult | None = None
    void_by: list[int] = []  # who declared six pairs, once the hand is void
    straights: list[int] = []  # seats whose thirteen-card straights won the game

    def start_hand(self) -> list[Event]:
        redeal = bool(self.void_by)
        deck = self.rng.shuffled(french_deck())
        seats = self.seat_count
        self.hands = [[] for _ in range(seats)]
        for index in range(seats):  # blocks of thirteen, from the dealer's left
            seat = (self.dealer + 1 + index) % seats
            self.hands[seat] = display_order(deck[index * DEALT : (index + 1) * DEALT])
        self.undealt = deck[seats * DEALT :]
        self.sets, self.declared = [None] * seats, [False] * seats
        self.phase, self.result, self.void_by = "setting", None, []
        return [HandStarted(hand=self.hand, dealer=self.dealer, redeal=redeal)]

    def next_dealer(self) -> int:
        """The deal passes left, except after a void hand: the same dealer deals again."""
        return self.dealer if self.void_by else super().next_dealer()

    # ---- who decides ----------------------------------------------------------------------

    def ready(self, seat: int) -> bool:
        return self.sets[seat] is not None or self.declared[seat]

    def holds_straight(self, seat: int) -> bool:
        return is_thirteen_card_straight(self.hands[seat])

    def holds_six_pairs(self, seat: int) -> bool:
        return pair_count(self.hands[seat]) == SIX_PAIRS

    def pending(self) -> list[Decision]:
        if self.phase != "setting":
            return []
        return [self.decision(seat) for seat in range(self.seat_count) if not self.ready(seat)]

    def decision(self, seat: int) -> Decision:
        if self.holds_straight(seat):
            prompt = "You hold a thirteen-card straight: reveal it to win the game."
            return Decision(seat=seat, kind="straight", prompt=prompt, secret=True)
        prompt = (
            "Set up to four Brag hands of three cards, each a pair or better; the bot ranks "
            "them, and the other cards are discarded. Everyone sets in secret."
        )
        if self.holds_six_pairs(seat):
            prompt += " You hold six pairs: you may declare them instead, and the hand is void."
        return Decision(seat=seat, kind="arrange", prompt=prompt, secret=True)

    def legal_actions(self, seat: int) -> list[Action]:
        """Suggestions only (the arrangements are too many to list), and the declarations."""
        if seat not in self.pending_seats():
            return []
        actions = self.suggestions(seat, SUGGESTED)
        if self.holds_six_pairs(seat):
            actions.append(DeclareSixPairs())
        return actions

    def suggestions(self, seat: int, limit: int) -> list[Action]:
        if self.holds_straight(seat):
            return [RevealStraight()]
        plans = strong_arrangements(self.hands[seat], limit, self.seat_count - 1)
        return [Arrange(hands=plan) for plan in plans]

    def sample(self, seat: int, chooser: random.Random) -> Action:
        if self.holds_straight(seat):
            return RevealStraight()
        if self.holds_six_pairs(seat) and chooser.random() < 0.3:
            return DeclareSixPairs()
        return Arrange(hands=random_arrangement(self.hands[seat], chooser))

    def default_action(self, seat: int) -> Action:
        """The first suggestion: the most hands, then the strongest (never a declaration of
        six pairs; a thirteen-card straight is revealed)."""
        return self.suggestions(seat, 1)[0]

    def verify(self, seat: int, action: Action) -> None:
        if self.is_over():
            raise IllegalAction("This game is over.")
        if self.phase != "setting":
            raise IllegalAction("The hands are not being set now.")
        if self.ready(seat):
            raise IllegalAction("You have already set your hands for this deal.")
        if self.holds_straight(seat):
            if not isinstance(action, RevealStraight):
                raise IllegalAction("You hold a thirteen-card straight: reveal it, it wins.")
            return
        if isinstance(action, Arrange):
            problem = arrangement_problem(action.hands, self.hands[seat])
            if problem:
                raise IllegalAction(problem)
        elif isinstance(action, DeclareSixPairs):
            if not self.holds_six_pairs(seat):
                raise IllegalAction("You don't hold six pairs.")
        elif isinstance(action, RevealStraight):
            raise IllegalAction("You don't hold a thirteen-card straight.")
        else:
            raise IllegalAction("That move is not allowed right now.")

    # ---- acting ---------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, RevealStraight):
            return self.straight_wins()
        if isinstance(action, DeclareSixPairs):
            self.declared[seat] = True
        else:
            self.sets[seat] = ranked(action.hands)
        events: list[Event] = [Ready(seat=seat)]
        if all(self.ready(s) for s in range(self.seat_count)):
            events += self.reveal()
        return events

    def straight_wins(self) -> list[Event]:
        """Every player holding a thirteen-card straight shows it and wins (shared, if two)."""
        self.straights = [s for s in range(self.seat_count) if self.holds_straight(s)]
        revealed = StraightRevealed(
            seats=self.straights, cards=[self.hands[s] for s in self.straights]
        )
        self.phase = "over"
        hand_ended = self.hand_ended([0] * self.seat_count, self.straights)
        return [revealed, hand_ended, self.standings()]

    def reveal(self) -> list[Event]:
        declared = [s for s in range(self.seat_count) if self.declared[s]]
        if declared:
            self.void_by, self.phase = declared, "between"
            void = HandVoid(declared=declared, dealer=self.dealer)
            return [void, self.hand_ended([0] * self.seat_count, [])]
        return self.showdown()

    def showdown(self) -> list[Event]:
        """Positions 1 to 4 in order, then a crash, then the four-of-a-kind bonus; the hand
        stops as soon as someone reaches the target."""
        seats = range(self.seat_count)
        sets = [self.sets[s] or [] for s in seats]
        points = [0] * self.seat_count
        positions = []
        for index in range(MAX_HANDS):
            if self.match.is_over():
                break
            position = score_position(index, sets)
            positions.append(position)
            if position.winner is not None:
                points[position.winner] += 1
                self.match.add(position.winner, 1)
        crash = next((s for s in seats if points[s] == MAX_HANDS), None)
        if crash is not None and not self.match.is_over():
            self.match.win(crash)
        bonus = None if self.match.is_over() else best_quad(sets)
        if bonus is not None:
            points[bonus.seat] += 1
            self.match.add(bonus.seat, 1)
        self.result = HandResult(
            sets=sets,
            discards=[DEALT - HAND_CARDS * len(hands) for hands in sets],
            positions=positions,
            bonus=bonus,
            crash=crash,
            points=points,
            totals=list(self.match.scores),
            target_reached=any(score >= self.options.target for score in self.match.scores),
        )
        over = self.match.is_over()
        self.phase = "over" if over else "between"
        most = max(points)
        winners = [crash] if crash is not None else [s for s in seats if most and points[s] == most]
        events: list[Event] = [Showdown(result=self.result), self.hand_ended(points, winners)]
        return [*events, self.standings()] if over else events

    def hand_ended(self, points: list[int], winners: list[int]) -> HandEnded:
        seats = list(range(self.seat_count))
        return HandEnded(
            hand=self.hand,
            players=seats,
            net_chips=[0] * self.seat_count,
            scores=points,
            winners=winners,
        )

    def standings(self) -> MatchEnded:
        scores = self.match.seat_scores()
        if not self.straights:
            return MatchEnded(placings=self.match.seat_placings(), scores=scores)
        keys = [(seat not in self.straights, -scores[seat]) for seat in range(self.seat_count)]
        order = sorted(keys)
        return MatchEnded(placings=[order.index(key) + 1 for key in keys], scores=scores)

    def leave(self, seat: int) -> int:
        """Leaving between hands ends the game for everyone; the leaver forfeits."""
        if self.can_leave_now(seat) and not self.is_over():
            self.match.drop(seat)
        return super().leave(seat)

    # ---- what each seat sees --------------------------------------------------------------

    def revealed(self) -> bool:
        return self.result is not None and self.phase in ("between", "over")

    def view(self, viewer: Viewer) -> CrashView:
        shown = self.revealed()
        seats = [
            SeatView(
                seat=seat,
                score=self.match.scores[seat],
                ready=self.phase == "setting" and self.ready(seat),
                hands=self.result.sets[seat] if shown else None,
                discards=self.result.discards[seat] if shown else None,
                declared=seat in self.void_by,
                straight=self.hands[seat] if seat in self.straights else None,
            )
            for seat in range(self.seat_count)
        ]
        view = CrashView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            target=self.options.target,
            seats=seats,
            result=self.result if shown else None,
            void=bool(self.void_by),
            straight_winners=self.straights,
        )
        if viewer is not None:
            setting = self.phase == "setting"
            view.seat = viewer
            view.my_cards = self.hands[viewer]
            view.my_set = self.sets[viewer]
            view.my_declared = self.declared[viewer]
            view.my_six_pairs = setting and not self.ready(viewer) and self.holds_six_pairs(viewer)
            view.my_straight = self.holds_straight(viewer)
        return view

    def all_cards(self) -> list[FrenchCard]:
        return [card for hand in self.hands for card in hand] + self.undealt

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        """The undealt cards and other players' cards, but for set hands once revealed and
        a winning straight; discards are never shown."""
        shown = set()
        if self.revealed():
            shown = {card for hands in self.result.sets for hand in hands for card in hand}
        for seat in self.straights:
            shown |= set(self.hands[seat])
        others = {card for seat, hand in enumerate(self.hands) if seat != viewer for card in hand}
        return set(self.undealt) | (others - shown)


def score_position(index: int, sets: list[list[list[FrenchCard]]]) -> PositionResult:
    """Who wins a position: the best hand there (alone there: it wins); a tie is a stick-up."""
    contenders = [seat for seat, hands in enumerate(sets) if len(hands) > index]
    keys = {seat: brag_key(sets[seat][index]) for seat in contenders}
    top = max(keys.values(), default=None)
    best = [seat for seat in contenders if keys[seat] == top]
    winner = best[0] if len(best) == 1 else None
    return PositionResult(position=index + 1, contenders=contenders, best=best, winner=winner)


def best_quad(sets: list[list[list[FrenchCard]]]) -> Bonus | None:
    """The highest four of a kind used in full in the set hands (4s, A, K ... 5, 3, 2)."""
    quads = [
        Bonus(seat=seat, rank=rank)
        for seat, hands in enumerate(sets)
        for rank in quads_in_full(hands)
    ]
    return max(quads, key=lambda bonus: quad_power(bonus.rank), default=None)


def new_crash(options: CrashOptions, stacks: list[int], rng: Rng) -> tuple[CrashState, list[Event]]:
    seats = len(stacks)
    state = CrashState(
        rng=rng,
        seat_count=seats,
        options=options,
        match=Match.to_target(seats, options.target),
    )
    return state, state.start_hand()


CRASH = registry.register(
    GameSpec(
        id="crash",
        name="Crash",
        min_players=MIN_SEATS,
        max_players=MAX_SEATS,
        options_model=CrashOptions,
        state_model=CrashState,
        action_model=CrashAction,
        deck=french_deck,
        create=new_crash,
    )
)
