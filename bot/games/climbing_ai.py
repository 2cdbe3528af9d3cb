"""What the climbing-game AIs (Big Two, Dou Dizhu) share: judging a move by the hand it leaves.

Each game plans a hand as the cheapest split into combinations it could play one per turn: a
combination costs a turn, and more when it is weak (a weak combination needs a free lead to
go, a strong one wins tricks back). A move is then worth the plan of what it leaves, adjusted
for the table: spending a control card or a bomb costs extra until near the end; an opponent
about to go out is beaten with the strongest and never led what they can beat to go out; a
partner's trick is left alone, and a partner about to go out is fed low. A play nobody can
beat, after which the rest goes in one play, wins. The games say how to plan a hand and how
strong a combination is.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from bot.cards import FrenchCard
from bot.engine import Action, IllegalAction
from bot.games.climbing import Pass, Play

WEAKNESS = 0.5  # what the weakest combination costs over a turn; the strongest costs a turn
CONTROL = 0.85  # a single or pair this strong is kept to win a trick back
CONTROL_SIZE = 2
NEAR_END = 2.5  # a plan this cheap goes out soon: controls and bombs may be spent
HOLD_CONTROL = 0.8  # cost of spending a control card early
HOLD_BOMB = 1.5  # cost of spending a bomb early
# By threat (none, an opponent near out, an opponent who may go out on this very trick): the
# cost of passing, and of beating with less than the strongest.
PASS_UNDER_THREAT = (0.0, 2.0, 6.0)
PRESS = (0.0, 1.5, 4.0)
LEAD_RISK = 3.0  # cost of leading what an opponent may beat to go out, weakest first
PARTNER_CLASH = 5.0  # cost of overtaking a partner's trick with a strong combination
FEED = 2.0  # gain of leading low to a partner about to go out
GOES_OUT_NEXT = -1000.0  # the score of a play that wins the lead for the last combination
SHED = 0.02  # per card kept: between equal plans, shed more
THREAT = 2  # an opponent with this many cards or fewer may go out any time


def combo_cost(strength: float) -> float:
    """A turn, plus more the weaker the combination (strength 0 weakest ... 1 strongest)."""
    return 1 + WEAKNESS * (1 - strength)


class Sense(ABC):
    """A climbing game's judgement of hands and combinations."""

    @abstractmethod
    def plan_cost(self, hand: Sequence[FrenchCard]) -> float:
        """The cost of the cheapest split of `hand` into combinations."""

    @abstractmethod
    def strength(self, cards: Sequence[FrenchCard], seen: frozenset[FrenchCard]) -> float:
        """How strong a legal combination is, 0 weakest ... 1 strongest (1 when none of the
        cards not `seen`, held by the others or out of play, can beat it)."""

    def is_bomb(self, cards: Sequence[FrenchCard]) -> bool:
        """A combination that beats any other kind (Dou Dizhu's bombs and rocket)."""
        return False

    @abstractmethod
    def classify(self, cards: list[FrenchCard]) -> object:
        """The game's own classifier: raises IllegalAction for cards that are no combination."""

    def one_combination(self, cards: Sequence[FrenchCard]) -> bool:
        """Whether these cards can all go at once."""
        try:
            self.classify(list(cards))
        except IllegalAction:
            return False
        return True


@dataclass
class Table:
    """What a climbing AI reads from its seat's view."""

    seat: int
    hand: list[FrenchCard]
    counts: list[int]  # cards each seat holds
    to_beat: list[FrenchCard]  # empty: a free lead
    last_player: int | None
    opponents: list[int]
    partner: int | None = None
    next_seat: int | None = None
    played: list[FrenchCard] = field(default_factory=list)  # this hand's, all public

    @cached_property
    def seen(self) -> frozenset[FrenchCard]:
        """The cards nobody else can hold: the seat's own and those played."""
        return frozenset(self.hand) | frozenset(self.played)

    @property
    def free_lead(self) -> bool:
        return not self.to_beat

    def threat(self) -> int:
        """2: an opponent holds just as many cards as the combination to beat, and may go out
        on it; 1: an opponent is near out; 0: neither."""
        counts = [self.counts[o] for o in self.opponents]
        if self.to_beat and len(self.to_beat) in counts:
            return 2
        return int(min(counts) <= THREAT)


def choose_play(sense: Sense, table: Table, legal: list[Action], rng: random.Random) -> Action:
    """The play (or pass) that leaves the best hand, all things on the table considered."""
    base = sense.plan_cost(table.hand)
    scored = [(score(sense, table, action, base), index) for index, action in enumerate(legal)]
    low = min(value for value, _ in scored)
    tied = [legal[index] for value, index in scored if value <= low + 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def score(sense: Sense, table: Table, action: Action, base: float) -> float:
    """Lower is better: the plan of the hand the action leaves, with the table's adjustments."""
    if isinstance(action, Pass):
        return base + PASS_UNDER_THREAT[table.threat()]
    if not isinstance(action, Play):
        return float("inf")
    left = list(table.hand)
    for card in action.cards:
        left.remove(card)
    if not left:
        return float("-inf")
    strength = sense.strength(action.cards, table.seen)
    if strength >= 1 and sense.one_combination(left):
        return GOES_OUT_NEXT  # nobody beats this, and the rest goes on the lead it wins
    rest = sense.plan_cost(left)
    bomb = sense.is_bomb(action.cards)
    value = rest + SHED * len(left)
    if table.free_lead:
        return value + lead_adjustment(table, action.cards, strength, bomb, rest)
    return value + follow_adjustment(table, action.cards, strength, bomb, rest)


def lead_adjustment(
    table: Table, cards: list[FrenchCard], strength: float, bomb: bool, rest: float
) -> float:
    size = len(cards)
    extra = 0.0
    if bomb and rest > NEAR_END:
        extra += HOLD_BOMB
    if any(table.counts[o] == size for o in table.opponents):
        extra += LEAD_RISK * (1 - strength)
    partner = table.partner
    if partner is not None and partner == table.next_seat and table.counts[partner] == size:
        extra -= FEED * (1 - strength)
    return extra


def follow_adjustment(
    table: Table, cards: list[FrenchCard], strength: float, bomb: bool, rest: float
) -> float:
    if table.last_player is not None and table.last_player == table.partner:
        partner_close = table.counts[table.partner] <= THREAT + 1
        return PARTNER_CLASH if bomb or strength >= 0.5 or partner_close else 0.0
    if threat := table.threat():
        return PRESS[threat] * (1 - strength)
    if bomb and rest > NEAR_END:
        return HOLD_BOMB
    if strength >= CONTROL and len(cards) <= CONTROL_SIZE and rest > NEAR_END:
        return HOLD_CONTROL
    return 0.0
