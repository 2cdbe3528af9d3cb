"""Calabrasella's records: the options a table is set with, the decisions seats face (its
DecisionKind), the actions they take, the events they make, and what each seat is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard
from bot.engine import Action, DecisionKind, Event
from bot.games.tricks import TrickPlay
from bot.i18n import N_

# ---- decisions ----------------------------------------------------------------------------


class CalabrasellaKind(DecisionKind):
    """What a Calabrasella decision asks, one per phase of the hand (a kind is its phase's name)."""

    BIDDING = "bidding"
    NAMING = "naming"
    GIVING_BACK = "giving_back"
    DISCARDING = "discarding"
    TAKING = "taking"
    PLAYING = "playing"


# The decision each phase of the hand asks (a kind is named as its phase).
PHASE_KINDS = {kind.value: kind for kind in CalabrasellaKind}


# ---- actions and events -------------------------------------------------------------------


class CalabrasellaOptions(BaseModel):
    """Calabrasella has no table options: three players, paid in chips."""


class Pass(Action):
    kind: Literal["pass"] = "pass"


class Declare(Action):
    kind: Literal["declare"] = "declare"


class Name(Action):
    kind: Literal["name"] = "name"
    card: FrenchCard


class GiveBack(Action):
    kind: Literal["give_back"] = "give_back"
    card: FrenchCard


class Discard(Action):
    kind: Literal["discard"] = "discard"
    cards: list[FrenchCard]


class Take(Action):
    kind: Literal["take"] = "take"
    cards: list[FrenchCard]


class PlayCard(Action):
    kind: Literal["card"] = "card"
    card: FrenchCard


CalabrasellaAction = Annotated[
    Pass | Declare | Name | GiveBack | Discard | Take | PlayCard, Field(discriminator="kind")
]


class Dealt(Event):
    """Told with every HandStarted: who dealt and who speaks first."""

    kind: Literal["dealt"] = "dealt"
    hand: int
    dealer: int
    first_bidder: int


class BidMade(Event):
    kind: Literal["bid_made"] = "bid_made"
    seat: int
    play: bool


class Redeal(Event):
    kind: Literal["redeal"] = "redeal"


class Named(Event):
    """Public: the declarer named a card (which one stays private) and who held it."""

    kind: Literal["named"] = "named"
    declarer: int
    holder: int | None  # None: nobody, it lies in the widow
    nothing: bool = False  # the declarer held every 3 and every 2


class HandedOver(Event):
    """Private to the declarer and the holder: the named card changing hands."""

    kind: Literal["handed_over"] = "handed_over"
    declarer: int
    holder: int
    card: FrenchCard


class LostInWidow(Event):
    """Private to the declarer: nobody holds the card named, it lies in the widow (the card
    is not named again: the widow is still face down)."""

    kind: Literal["lost_in_widow"] = "lost_in_widow"


class GaveBack(Event):
    """Public without `card`; with it, private to the declarer and the holder."""

    kind: Literal["gave_back"] = "gave_back"
    declarer: int
    holder: int
    card: FrenchCard | None = None


class Discarded(Event):
    kind: Literal["discarded"] = "discarded"
    seat: int
    count: int
    cards: list[FrenchCard] = []  # only in the declarer's own copy


class WidowTurned(Event):
    kind: Literal["widow_turned"] = "widow_turned"
    cards: list[FrenchCard]


class Took(Event):
    kind: Literal["took"] = "took"
    seat: int
    cards: list[FrenchCard]


class Played(Event):
    kind: Literal["played"] = "played"
    seat: int
    card: FrenchCard


class TrickWon(Event):
    kind: Literal["trick_won"] = "trick_won"
    seat: int
    cards: list[FrenchCard]
    points: int  # the cards' points


class Settled(Event):
    kind: Literal["settled"] = "settled"
    declarer: int
    points: list[int]  # [declarer, defenders]
    set_aside: list[FrenchCard]  # the discards and the unused widow, now shown
    to_side: int  # the side that took the last trick and gets them
    per_defender: int  # each defender pays (positive) or is owed (negative) this
    net: list[int]  # chips per seat, as paid
    short: bool  # someone paid less than owed (table stakes)


class TrickPlayView(BaseModel):
    seat: int
    card: FrenchCard


def plays_view(plays: Sequence[TrickPlay]) -> list[TrickPlayView]:
    return [TrickPlayView(seat=play.seat, card=play.card) for play in plays]


class CalabrasellaView(BaseModel):
    hand: int
    phase: str
    dealer: int
    stacks: list[int]
    counts: list[int]
    bids: list[bool | None]  # per seat: passed (False), played (True), not yet (None)
    turn: int | None
    declarer: int | None
    holder: int | None  # who handed over the named card (None: nobody, or not yet)
    named_done: bool
    discard_count: int
    widow: list[FrenchCard] | None  # face up once turned: what is left of it
    widow_count: int
    leader: int | None
    trick: list[TrickPlayView]
    last_trick: list[TrickPlayView]
    played: list[TrickPlayView]  # the finished tricks of the hand, in order, leader first
    taken: list[FrenchCard]  # what the declarer took from the face-up widow
    tricks: list[int]  # [declarer, defenders]
    points: list[int]  # card points won in tricks so far, [declarer, defenders]
    to_take: int  # while taking: how many widow cards
    my_cards: list[FrenchCard] | None = None
    my_discards: list[FrenchCard] | None = None
    named_card: FrenchCard | None = None  # for the declarer (even lost in the widow), the holder
    given_back: FrenchCard | None = None  # for the declarer and the holder
    legal: list[FrenchCard] | None = None  # while playing: the cards the seat may play


# What each phase asks of the seat to act ("taking" counts its cards: `pending`).
PROMPTS = {
    "bidding": N_("Play (become the declarer) or pass"),
    "naming": N_("Name a card you lack: its holder hands it to you"),
    "giving_back": N_("Give back a card in exchange"),
    "discarding": N_("Discard 1 to 4 cards"),
    "playing": N_("Play a card"),
}
