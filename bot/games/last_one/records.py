"""Last One's records: the options a table is set with, the decisions seats face (its
DecisionKind), the actions they take, the events they make, and what each seat is shown.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard, Rank, Suit
from bot.engine import Action, DecisionKind, Event

# ---- decisions --------------------------------------------------------------------------------


class LastOneKind(DecisionKind):
    """What a Last One decision asks: a turn's play (a turn's kind is its phase's name),
    continuing a melee, or calling "Last one!"."""

    TURN = "turn"
    FREE = "free"
    SUIT = "suit"
    NAME = "name"
    MELEE = "melee"
    CALL = "call"


# ---- actions ----------------------------------------------------------------------------------


class Play(Action):
    kind: Literal["play"] = "play"
    card: FrenchCard


class Draw(Action):
    kind: Literal["draw"] = "draw"


class EndTurn(Action):
    """After a 3: no extra card."""

    kind: Literal["end"] = "end"


class NameSuit(Action):
    """After an 8: the suit the next player must play."""

    kind: Literal["suit"] = "suit"
    suit: Suit


class NameCard(Action):
    """After a joker: the natural card it stands for (a rank and a suit, not a card: the real
    one may be in someone's hand)."""

    kind: Literal["name"] = "name"
    rank: Rank
    suit: Suit


class Continue(Action):
    """A melee card: the next card of the melee's suit, or a joker standing for it (`rank`
    names the step, so a button for an earlier step can't be taken for a later one)."""

    kind: Literal["melee"] = "melee"
    card: FrenchCard
    rank: Rank


class Call(Action):
    kind: Literal["call"] = "call"


LastOneAction = Annotated[
    Play | Draw | EndTurn | NameSuit | NameCard | Continue | Call, Field(discriminator="kind")
]


# ---- events -----------------------------------------------------------------------------------


class Dealt(Event):
    kind: Literal["dealt"] = "dealt"
    dealer: int
    cards_each: int
    upcard: FrenchCard


class Played(Event):
    kind: Literal["played"] = "played"
    seat: int
    card: FrenchCard
    left: int  # cards left in the player's hand
    free: bool = False  # the extra card after a 3


class EndedTurn(Event):
    kind: Literal["ended_turn"] = "ended_turn"
    seat: int


class SuitNamed(Event):
    kind: Literal["suit_named"] = "suit_named"
    seat: int
    suit: Suit


class CardNamed(Event):
    kind: Literal["card_named"] = "card_named"
    seat: int
    rank: Rank
    suit: Suit


class Skipped(Event):
    kind: Literal["skipped"] = "skipped"
    seat: int


class Reversed(Event):
    kind: Literal["reversed"] = "reversed"
    direction: int  # 1: to the left (clockwise), -1: to the right


DrawReason = Literal["draw", "two", "melee", "penalty"]


class Drew(Event):
    """A draw. The public copy says how many; the drawer's own copy (audience) also names
    the cards."""

    kind: Literal["drew"] = "drew"
    seat: int
    count: int  # cards actually drawn
    wanted: int  # cards the rules asked for (more than `count` when everything ran out)
    reason: DrawReason
    cards: list[FrenchCard] = []


class StockRebuilt(Event):
    kind: Literal["stock_rebuilt"] = "stock_rebuilt"
    count: int


class MeleeStarted(Event):
    kind: Literal["melee_started"] = "melee_started"
    seat: int
    suit: Suit
    defender: int


class MeleeContinued(Event):
    kind: Literal["melee_continued"] = "melee_continued"
    seat: int
    card: FrenchCard
    rank: Rank  # the card played, or the one a joker stood for
    suit: Suit
    defender: int
    left: int


class MeleeEnded(Event):
    kind: Literal["melee_ended"] = "melee_ended"
    defender: int
    rank: Rank  # the last melee card: the defender draws its pip value


class Called(Event):
    kind: Literal["called"] = "called"
    seat: int


class HandScored(Event):
    kind: Literal["hand_scored"] = "hand_scored"
    winner: int
    hands: list[list[FrenchCard]]  # every hand left, shown when the hand ends
    points: list[int]
    totals: list[int]
    eliminated: list[int]  # seats that reached the threshold with this hand


# ---- options and views ------------------------------------------------------------------------


class LastOneOptions(BaseModel):
    hand_size: int = Field(
        default=7,
        ge=4,
        le=9,
        description="Cards dealt to each player, 4-8 (9: joining accepts it; 5 players at most)",
    )
    threshold: int = Field(
        default=250, ge=10, le=1000, description="Score that puts a player out of the game"
    )
    melee_seconds: int = Field(
        default=10, ge=5, le=60, description="Seconds anyone may continue a melee"
    )


class Lack(BaseModel):
    """A draw on a turn: what the drawer had to follow (they held nothing that did, if they
    play as the AI does), and how many cards they have drawn since (those may follow it)."""

    rank: Rank | None
    suit: Suit | None
    since: int = 0


class Named(BaseModel):
    """The natural card a joker stands for."""

    rank: Rank
    suit: Suit


class Melee(BaseModel):
    suit: Suit
    rank: Rank  # the last melee card's (a joker's: the card it stood for)
    aggressor: int
    defender: int


class LastOneView(BaseModel):
    hand: int
    phase: str
    dealer: int
    players: list[int]  # seats dealt into this hand, in seat order
    turn: int | None
    direction: int
    counts: list[int]
    scores: list[int]
    out: list[bool]  # out of the match (threshold reached, or left)
    threshold: int
    cards_each: int
    upcard: FrenchCard | None
    named: Named | None  # a joker upcard stands for this card
    suit: Suit | None  # the suit an 8 named
    stock: int
    discards: int  # under the upcard
    melee: Melee | None
    melee_seconds: int
    last_points: list[int] | None = None  # the hand just scored (between hands)
    revealed: list[list[FrenchCard]] | None = None  # the hands left when it ended
    seat: int | None = None
    my_cards: list[FrenchCard] | None = None
    my_playable: list[FrenchCard] | None = None  # on your turn: what you may play
    must_call: bool = False  # you hold one card and haven't called yet
    call_open: bool = False  # someone holds one card and may still call (never says who)
