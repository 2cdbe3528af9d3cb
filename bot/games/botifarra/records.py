"""Botifarra's records: the options a table is set with, the decisions seats face (its
DecisionKind), the actions they take, the events they make, and what each seat is shown.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.cards import FrenchCard, Suit
from bot.engine import Action, DecisionKind, Event
from bot.games.tricks import Trick, TrickPlay

# ---- decisions --------------------------------------------------------------------------------


class BotifarraKind(DecisionKind):
    """What a Botifarra decision asks: choose trumps, double, or play a card."""

    TRUMPS = "trumps"
    DOUBLE = "double"
    PLAY = "play"


# ---- actions and events -----------------------------------------------------------------------


class ChooseTrumps(Action):
    """The dealer (or the partner they passed to) names trumps; no suit: botifarra."""

    kind: Literal["trumps"] = "trumps"
    suit: Suit | None = None


class PassChoice(Action):
    """The dealer passes the choice of trumps to their partner."""

    kind: Literal["delegate"] = "delegate"


class Double(Action):
    """Double, redouble or re-redouble, whichever the side is asked."""

    kind: Literal["double"] = "double"


class NoDouble(Action):
    kind: Literal["pass"] = "pass"


class PlayCard(Action):
    kind: Literal["play"] = "play"
    card: FrenchCard


BotifarraAction = Annotated[
    ChooseTrumps | PassChoice | Double | NoDouble | PlayCard, Field(discriminator="kind")
]


class Dealt(Event):
    """Who deals the hand (and so chooses trumps); the cards go to each player's own view."""

    kind: Literal["dealt"] = "dealt"
    dealer: int


class ChoicePassed(Event):
    kind: Literal["choice_passed"] = "choice_passed"
    seat: int
    partner: int


class TrumpsChosen(Event):
    kind: Literal["trumps_chosen"] = "trumps_chosen"
    seat: int
    suit: Suit | None
    multiplier: int


class DoublingCall(BaseModel):
    """One player's word in the doubling, as the whole table hears it."""

    model_config = ConfigDict(frozen=True)
    seat: int
    level: int  # 1 double, 2 redouble, 3 re-redouble: the question answered
    doubles: bool


class DoublingSpoken(Event):
    """A player answered the doubling question in turn, aloud."""

    kind: Literal["doubling_spoken"] = "doubling_spoken"
    call: DoublingCall
    multiplier: int  # after the answer


class Played(Event):
    kind: Literal["played"] = "played"
    seat: int
    card: FrenchCard


class TrickTaken(Event):
    kind: Literal["trick_taken"] = "trick_taken"
    seat: int
    cards: list[FrenchCard]
    points: int  # the cards' points plus 1 for the trick


class HandScored(Event):
    kind: Literal["hand_scored"] = "hand_scored"
    points: list[int]  # trick points per side (72 in all)
    tricks: list[int]
    multiplier: int
    scored: list[int]  # what each side scores for the hand
    totals: list[int]  # the match scores per side after it


# ---- options and views ------------------------------------------------------------------------


class BotifarraOptions(BaseModel):
    target: int = Field(
        default=101, ge=10, le=301, description="Points a partnership needs to win the match"
    )


class BotifarraView(BaseModel):
    hand: int
    phase: str
    dealer: int
    chooser: int | None  # who is choosing trumps now
    passed: bool  # the dealer passed the choice to their partner
    trumps_chosen: bool
    trump: Suit | None
    multiplier: int
    doublings: int  # 0 none, 1 doubled, 2 redoubled, 3 re-redoubled
    speaker: int | None  # who answers the doubling question now
    calls: list[DoublingCall]  # the hand's doubling, in the order spoken
    counts: list[int]
    trick: Trick | None
    last_trick: list[TrickPlay]
    played: list[TrickPlay]  # the finished tricks of the hand, in order, leader first
    turn: int | None
    tricks: list[int]  # tricks won per side this hand
    points: list[int] | None  # trick points per side, once the hand is over
    scored: list[int] | None  # what each side scored for it
    scores: list[int]  # match scores per side
    target: int
    seat: int | None = None
    my_cards: list[FrenchCard] | None = None
    my_legal: list[FrenchCard] | None = None  # the cards the viewer may play now
