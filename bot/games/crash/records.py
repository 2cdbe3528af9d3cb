"""Crash's records: the options a table is set with, the decisions seats face (its
DecisionKind), the actions they take, the events they make, and what each seat is shown.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard, Rank
from bot.engine import Action, DecisionKind, Event
from bot.engine import HandStarted as BaseHandStarted

# ---- decisions --------------------------------------------------------------------------------


class CrashKind(DecisionKind):
    """What a Crash decision asks, secretly: arrange the hand, or reveal a thirteen-card
    straight."""

    ARRANGE = "arrange"
    STRAIGHT = "straight"


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
