"""Dou Dizhu's records: the options a table is set with, the decisions seats face (its
DecisionKind), the actions they take, the events they make, and what each seat is shown.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard
from bot.engine import Action, DecisionKind, Event
from bot.engine import HandStarted as BaseHandStarted
from bot.games.climbing import Pass, Play


class DouDizhuKind(DecisionKind):
    """What a Dou Dizhu decision asks: a bid for the landlord, or a play."""

    BID = "bid"
    PLAY = "play"


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
    widow: list[FrenchCard] = []  # turned face up as the landlord takes it (none in old records)


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
    last_player: int | None
    turn: int | None
    my_cards: list[FrenchCard] | None = None
    played: list[FrenchCard] = []  # every card played this hand (all shown on the table)
    widow: list[FrenchCard] = []  # the widow the landlord took, shown to all for the hand
