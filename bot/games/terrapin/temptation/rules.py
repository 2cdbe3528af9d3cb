"""Temptation Terrapin (bot/games/terrapin/temptation/rules.md).

Ante 3; two private cards; three shared cards (redealt while they alone are Turtle Butt);
buying rounds from the dealer's left where the k-th round's card costs k chips, until a full
round without a buyer or an empty deck; a showdown; the dealer moves left.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards.decktet import DecktetCard
from bot.engine import Action, Decision, DecisionKind, Event, Viewer
from bot.games.betting import Pot
from bot.games.poker import PokerSeatView
from bot.games.terrapin.table import HandResult, HandStarted, TerrapinTable
from bot.i18n import n_

ANTE = 3
PRIVATE_CARDS = 2
SHARED_CARDS = 3


class TemptationKind(DecisionKind):
    """What a Temptation decision asks: buy the card offered or decline it."""

    BUY = "buy"


class TemptationOptions(BaseModel):
    """Temptation has no table options; the ante and prices are the rule text's."""


class Buy(Action):
    kind: Literal["buy"] = "buy"


class Decline(Action):
    kind: Literal["decline"] = "decline"


TemptationAction = Annotated[Buy | Decline, Field(discriminator="kind")]


class Bought(Event):
    kind: Literal["bought"] = "bought"
    seat: int
    price: int
    took: bool  # False: declined


class SeatView(PokerSeatView):
    in_hand: bool
    cards: int


class TemptationView(BaseModel):
    hand: int
    phase: str
    dealer: int
    pot: int
    price: int
    shared: list[DecktetCard]
    set_aside: list[DecktetCard]
    deck_left: int
    seats: list[SeatView]
    to_act: int | None
    result: HandResult | None
    my_cards: list[DecktetCard] | None = None
    my_score: int | None = None


class TemptationState(TerrapinTable):
    options: TemptationOptions
    phase: Literal["buying", "between", "over"] = "buying"
    price: int = 1  # what a card costs in this buying round
    order: list[int] = []  # the players, from the dealer's left
    position: int = 0  # whose turn it is in this round, as an index into `order`
    buyer: int | None = None
    bought_this_round: bool = False

    def start_hand(self) -> list[Event]:
        self.collect_and_shuffle()
        playing = self.able_to_ante(ANTE)
        if len(playing) < 2:
            return self.end_match()
        self.stacks_at_start, self.players = list(self.stacks), playing
        for seat in playing:
            self.stacks[seat] -= ANTE
        self.pot = ANTE * len(playing)
        self.order = self.seats_from(self.dealer + 1, lambda s: s in playing)
        self.deal_private(self.order, PRIVATE_CARDS)
        self.phase, self.price = "buying", 1
        started = HandStarted(
            hand=self.hand, dealer=self.dealer, players=self.order, pot=self.pot + self.carry
        )
        return [started, self.deal_shared(SHARED_CARDS), *self.open_round()]

    def can_buy(self, seat: int) -> bool:
        return self.stacks[seat] >= self.price and bool(self.deck)

    def open_round(self) -> list[Event]:
        self.position, self.bought_this_round = 0, False
        return self.next_buyer()

    def next_buyer(self) -> list[Event]:
        """The next player in this round who can pay; after the dealer, a dearer round if
        anyone bought in this one; otherwise the showdown."""
        while self.position < len(self.order):
            seat = self.order[self.position]
            if self.can_buy(seat):
                self.buyer = seat
                return []
            self.position += 1
        if self.bought_this_round and self.deck:
            self.price += 1
            return self.open_round()
        return self.showdown()

    def showdown(self) -> list[Event]:
        self.buyer = None
        events: list[Event] = [
            self.reveal(s) for s in self.seats_from(self.dealer + 1, lambda s: s in self.players)
        ]
        pot = Pot(amount=self.pot + self.carry, eligible=self.players)
        self.pot = 0
        return events + self.award([pot]) + self.finish_hand()

    # ---- the protocol ---------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase != "buying" or self.buyer is None:
            return []
        prompt = n_("Buy a card for {count} chip?", "Buy a card for {count} chips?", self.price)
        return [Decision(seat=self.buyer, kind=TemptationKind.BUY, prompt=prompt)]

    def legal_actions(self, seat: int) -> list[Action]:
        return [Buy(), Decline()] if self.pending() and seat == self.buyer else []

    def default_action(self, seat: int) -> Action:
        return Decline()

    def _apply(self, seat: int, action: Action) -> list[Event]:
        took = isinstance(action, Buy)
        if took:
            self.stacks[seat] -= self.price
            self.pot += self.price
            self.hands[seat].append(self.deck.pop())
            self.bought_this_round = True
        self.position += 1
        return [Bought(seat=seat, price=self.price, took=took), *self.next_buyer()]

    def view(self, viewer: Viewer) -> TemptationView:
        seats = self.seat_views(
            SeatView,
            in_hand=[s in self.players for s in range(self.seat_count)],
            cards=[len(hand) for hand in self.hands],
        )
        view = TemptationView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            pot=self.pot + self.carry,
            price=self.price,
            shared=self.shared,
            set_aside=self.set_aside,
            deck_left=len(self.deck),
            seats=seats,
            to_act=self.buyer,
            result=self.result if self.phase == "between" else None,
        )
        if viewer is not None and self.hands[viewer]:
            self.show_own_hand(view, viewer)
        return view
