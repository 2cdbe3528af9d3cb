"""Porrazo's records: the options a table is set with, the decisions seats face (its
DecisionKind), the actions they take, the events they make, and what each seat is shown.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator

from bot.cards import FrenchCard, Rank
from bot.engine import Action, DecisionKind, Event
from bot.games.porrazo.plays import SET_NAMES, TARGET, Move, SetName, TendidoSet, sort_cards

# ---- decisions -----------------------------------------------------------------------------


class PorrazoKind(DecisionKind):
    """What a Porrazo decision asks: deal the tendido or keep it, play a card, or declare a set."""

    TENDIDO = "tendido"
    PLAY = "play"
    DECLARE = "declare"


# ---- actions and events --------------------------------------------------------------------


class Play(Action):
    """Play `card`, taking `take` from the table (nothing: the card is placed)."""

    kind: Literal["play"] = "play"
    card: FrenchCard
    take: list[FrenchCard] = []

    @field_validator("take")
    @classmethod
    def _in_order(cls, take: list[FrenchCard]) -> list[FrenchCard]:
        return sort_cards(take)


class Declare(Action):
    """Declare the ronda (pair) or rondine (three of a kind) in your hand; the rank stays
    hidden."""

    kind: Literal["declare"] = "declare"


class DealTendido(Action):
    kind: Literal["tendido"] = "tendido"


class NoTendido(Action):
    kind: Literal["no_tendido"] = "no_tendido"


PorrazoAction = Annotated[Play | Declare | DealTendido | NoTendido, Field(discriminator="kind")]

Why = Literal[
    "in_place", "limpia", "porrazo", "counter_porrazo", "ronda", "rondine", "tendido", "cards"
]


class HandDealt(Event):
    """A new hand: who deals (and plays last)."""

    kind: Literal["hand_dealt"] = "hand_dealt"
    dealer: int


class Replenished(Event):
    kind: Literal["replenished"] = "replenished"
    deal: int
    stock: int  # cards left in the stock


class Dealt(Event):
    """Your three cards (private)."""

    kind: Literal["dealt"] = "dealt"
    seat: int
    cards: list[FrenchCard]


class TendidoDealt(Event):
    kind: Literal["tendido_dealt"] = "tendido_dealt"
    dealer: int
    cards: list[FrenchCard]  # as arranged, counted from the left
    in_place: list[FrenchCard]
    sets: list[TendidoSet]


class TendidoDeferred(Event):
    kind: Literal["tendido_deferred"] = "tendido_deferred"
    dealer: int


class OddCards(Event):
    """The odd cards of an odd table, face up on the table with the last deal."""

    kind: Literal["odd_cards"] = "odd_cards"
    cards: list[FrenchCard]


class Declared(Event):
    kind: Literal["declared"] = "declared"
    seat: int
    set_name: str  # "ronda" or "rondine"


class Played(Event):
    kind: Literal["played"] = "played"
    seat: int
    card: FrenchCard
    taken: list[FrenchCard]
    move: Move


class Scored(Event):
    kind: Literal["scored"] = "scored"
    seat: int
    side: int
    points: int
    why: Why
    rank: Rank | None = None
    cards: list[FrenchCard] = []  # a porrazo's cards, a winning declaration
    total: int  # the side's match score after it
    side_seats: list[int]  # the seats of the side


class SanBenito(Event):
    kind: Literal["san_benito"] = "san_benito"
    seat: int
    side: int
    side_seats: list[int]


class Swept(Event):
    """The dealer's last card takes every card left on the table."""

    kind: Literal["swept"] = "swept"
    seat: int
    cards: list[FrenchCard]


class HandResult(BaseModel):
    won: list[int]  # cards captured per side
    side: int | None  # the side with the most (None: a tie for the most)
    points: int  # the difference to the next best


class HandScored(Event):
    kind: Literal["hand_scored"] = "hand_scored"
    result: HandResult
    totals: list[int]
    sides: list[list[int]]


# ---- options and views ---------------------------------------------------------------------


class PorrazoOptions(BaseModel):
    partnerships: bool = Field(
        default=False, description="Four players in two partnerships (partners sit across)"
    )
    target: int = Field(default=TARGET, ge=5, le=181, description="Points that win the game")


class Declaration(BaseModel):
    seat: int
    cards: list[FrenchCard]  # hidden until played

    @property
    def name(self) -> SetName:
        return SET_NAMES[len(self.cards)]


class DeclarationView(BaseModel):
    seat: int
    set_name: str


class Stack(BaseModel):
    """A porrazo waiting for the next play: the card placed and the cards matching it."""

    seat: int  # who played the last of them
    cards: list[FrenchCard]
    limpia: bool = False  # the porrazo took the only table card: a limpia too, if it stands


class PorrazoView(BaseModel):
    hand: int
    phase: str
    dealer: int
    turn: int | None
    deal: int
    stock: int
    table: list[FrenchCard]  # the open cards, lowest first
    porrazo: list[FrenchCard]  # a pending porrazo (2 cards) or counter-porrazo (3)
    porrazo_seat: int | None
    porrazo_limpia: bool = False  # the pending porrazo also scores a limpia if it stands
    trailed: FrenchCard | None  # placed by the last play: the next player's porrazo chance
    tendido: list[FrenchCard]  # this hand's, as arranged
    tendido_dealt: bool
    counts: list[int]  # cards in each hand
    sides: list[list[int]]
    won: list[int]  # cards captured per side this hand
    scores: list[int]
    hand_points: list[int]  # points per side this hand
    declared: list[DeclarationView]
    target: int
    result: HandResult | None
    seat: int | None = None
    my_cards: list[FrenchCard] | None = None
    my_declarable: str | None = None  # "ronda" / "rondine" you may declare now
    my_declared: list[FrenchCard] | None = None
