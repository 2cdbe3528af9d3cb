"""Backhand's records: the options a table is set with, the decisions seats face (its
DecisionKind), the actions they take, the events they make, each player's hand, and what
everyone is shown.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from bot.cards import FrenchCard
from bot.engine import Action, DecisionKind, Event
from bot.games.backhand.cards import hand_total
from bot.i18n import N_, _

# ---- decisions ------------------------------------------------------------------------------


class BackhandKind(DecisionKind):
    """What a Backhand decision asks: a bet, or a play of the hand."""

    BET = "bet"
    PLAY = "play"


# ---- options --------------------------------------------------------------------------------


class BackhandOptions(BaseModel):
    mode: Literal["chips", "wins"] = Field(
        default="chips", description="Bet chips against the house, or play for wins only"
    )
    min_bet: int = Field(default=1, ge=1, le=10_000, description="Smallest bet (chips mode)")
    max_bet: int = Field(default=10, ge=1, le=10_000, description="Largest bet (chips mode)")
    target: int = Field(default=5, ge=1, le=50, description="Wins-only mode: hands to win")
    hand_limit: int = Field(
        default=0, ge=0, le=200, description="Hands in the match, 0 for no limit"
    )

    @model_validator(mode="after")
    def _bets_in_order(self) -> BackhandOptions:
        if self.min_bet > self.max_bet:
            raise ValueError(
                _(
                    "The minimum bet ({low}) can't be more than the maximum bet ({high}).",
                    low=self.min_bet,
                    high=self.max_bet,
                )
            )
        return self


def plays_for_chips(options: BackhandOptions) -> bool:
    return options.mode == "chips"


def house_cover(options: BackhandOptions) -> int:
    """The most the house covers for one player's hand: the maximum bet at even money."""
    return options.max_bet if plays_for_chips(options) else 0


# ---- actions and events -----------------------------------------------------------------------


class Bet(Action):
    kind: Literal["bet"] = "bet"
    chips: int


class Hit(Action):
    kind: Literal["hit"] = "hit"


class CallBackhand(Action):
    kind: Literal["backhand"] = "backhand"


class PushAway(Action):
    kind: Literal["push_away"] = "push_away"


class PlayPush(Action):
    kind: Literal["play_push"] = "play_push"


BackhandAction = Annotated[
    Bet | Hit | CallBackhand | PushAway | PlayPush, Field(discriminator="kind")
]


class BetPlaced(Event):
    kind: Literal["bet_placed"] = "bet_placed"
    seat: int
    chips: int


class Dealt(Event):
    """Two cards face up to every player in the hand."""

    kind: Literal["dealt"] = "dealt"
    cards: dict[int, list[FrenchCard]]


class AcesReplaced(Event):
    kind: Literal["aces_replaced"] = "aces_replaced"
    seat: int
    aces: list[FrenchCard]
    replacements: list[FrenchCard]


class PushHandDealt(Event):
    kind: Literal["push_hand"] = "push_hand"
    seat: int
    total: int


class AutoDealt(Event):
    kind: Literal["auto_dealt"] = "auto_dealt"
    seat: int
    cards: list[FrenchCard]
    total: int


class CardHit(Event):
    kind: Literal["hit"] = "hit"
    seat: int
    card: FrenchCard
    total: int


class BackhandCalled(Event):
    kind: Literal["backhand_called"] = "backhand_called"
    seat: int
    card: FrenchCard
    total: int  # the hand's total, which the card is not added to


class PushedAway(Event):
    kind: Literal["pushed_away"] = "pushed_away"
    seat: int
    discarded: list[FrenchCard]
    cards: list[FrenchCard]


class PushPlayed(Event):
    kind: Literal["push_played"] = "push_played"
    seat: int
    card: FrenchCard
    total: int


Outcome = Literal["five_cards", "bust", "backhand_won", "backhand_lost", "push_won", "push_lost"]
WINNING: set[str] = {"five_cards", "backhand_won", "push_won"}


class Settled(Event):
    kind: Literal["settled"] = "settled"
    seat: int
    outcome: Outcome
    chips: int  # what the player won (+) or lost (-); 0 in wins-only mode


class StockRefilled(Event):
    """The stock ran low mid-hand: cards out of play were shuffled back into it."""

    kind: Literal["stock_refilled"] = "stock_refilled"
    cards: int


class MatchOver(Event):
    """Why a match for chips ended by itself (players leave with their stacks): one of the
    reasons below, or the house's (bot/tables)."""

    kind: Literal["match_over"] = "match_over"
    reason: str


# Why a match ended, as the table and its events keep it: in English, the same whoever made
# the step (a replay must end in the very state saved). The table's words say it in the
# reader's language (ui.py); the ones with a number are read back from these patterns.
EVERYONE_LEFT = N_("Everyone has left the table.")
TARGET_REACHED = N_("The target is reached.")
NO_MINIMUM_BET = "Nobody at the table has the minimum bet of {min_bet} chips left."
LAST_HAND = "That was hand {limit} of {limit}, the last."


# ---- state ------------------------------------------------------------------------------------


class PlayerHand(BaseModel):
    """One seat's part of a hand. Every card here is face up."""

    bet: int | None = None  # chips mode: None until placed
    cap: int = 0  # chips mode: the largest bet allowed this hand (the maximum, or the stack)
    cards: list[FrenchCard] = []
    discarded: list[FrenchCard] = []  # replaced aces and pushed-away cards
    backhand: FrenchCard | None = None  # the card turned on calling backhand
    push: bool = False  # a push hand waiting for its player's choice
    outcome: Outcome | None = None
    final: int | None = None  # the total when the hand was settled

    @property
    def total(self) -> int:
        return hand_total(self.cards)

    @property
    def won(self) -> bool:
        return self.outcome in WINNING

    def every_card(self) -> list[FrenchCard]:
        return self.cards + self.discarded + ([self.backhand] if self.backhand else [])


class PlayerView(BaseModel):
    seated: bool
    dealt_in: bool
    stack: int
    wins: int
    bet: int | None
    cap: int
    cards: list[FrenchCard]
    total: int
    discarded: list[FrenchCard]
    backhand: FrenchCard | None
    push: bool
    outcome: Outcome | None
    final: int | None


class BackhandView(BaseModel):
    """Everything but the stock is public, so every viewer sees the same (`seat` says who)."""

    hand: int
    phase: str
    mode: str
    min_bet: int
    max_bet: int
    target: int
    hand_limit: int
    bank: int
    turn: int | None
    stock: int
    players: list[PlayerView]
    ended: str | None
    seat: int | None = None
