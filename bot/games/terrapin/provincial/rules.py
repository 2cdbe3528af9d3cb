"""Provincial Terrapin (bot/games/terrapin/provincial/rules.md).

Ante 1; three private cards; two shared. The dealer sets the stake. Then rounds of secret
fists, revealed together: 0 folds, 1 pays the stake to play (and must then discard one card
face up or draw one, from the dealer's left), 2 pays twice the stake to call. Anyone calling
brings a showdown among callers and payers; a lone player takes the pot; if all fold the pot
stays for the next hand; otherwise another round of fists.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards.decktet import DecktetCard
from bot.engine import Action, Decision, DecisionKind, Event, Viewer
from bot.games.betting import Pot
from bot.games.poker import PokerSeatView
from bot.games.terrapin.table import HandResult, HandStarted, TerrapinTable
from bot.i18n import _

ANTE = 1
PRIVATE_CARDS = 3
SHARED_CARDS = 2
FOLD, PAY, CALL = 0, 1, 2


class ProvincialKind(DecisionKind):
    """What a Provincial decision asks: the dealer's stake, a secret fist, an exchange."""

    STAKE = "stake"
    FIST = "fist"
    EXCHANGE = "exchange"


class ProvincialOptions(BaseModel):
    stake_limit: int = Field(default=3, ge=1, le=20, description="Highest stake the dealer may set")


class SetStake(Action):
    kind: Literal["stake"] = "stake"
    chips: int


class Fist(Action):
    kind: Literal["fist"] = "fist"
    chips: int  # 0 fold, 1 pay to play, 2 call


class Discard(Action):
    kind: Literal["discard"] = "discard"
    card: DecktetCard


class DrawDeck(Action):
    kind: Literal["draw_deck"] = "draw_deck"


class DrawDiscard(Action):
    kind: Literal["draw_discard"] = "draw_discard"


ProvincialAction = Annotated[
    SetStake | Fist | Discard | DrawDeck | DrawDiscard, Field(discriminator="kind")
]


class StakeSet(Event):
    kind: Literal["stake_set"] = "stake_set"
    seat: int
    stake: int


class FistClosed(Event):
    """A player has chosen; what they chose stays secret until the reveal."""

    kind: Literal["fist_closed"] = "fist_closed"
    seat: int


class FistsOpened(Event):
    kind: Literal["fists_opened"] = "fists_opened"
    fists: dict[int, int]  # seat -> chips shown
    paid: dict[int, int]  # seat -> chips put in the pot


class Exchanged(Event):
    kind: Literal["exchanged"] = "exchanged"
    seat: int
    discarded: DecktetCard | None = None
    took_discard: DecktetCard | None = None  # taken from the face-up pile: everyone saw it
    drew_from_deck: bool = False


class SeatView(PokerSeatView):
    in_hand: bool
    cards: int
    chosen: bool  # has closed their fist this round (never what they chose)
    fist: int | None  # shown once the fists are open
    known: list[DecktetCard]  # cards everyone saw them take from the discard pile


class ProvincialView(BaseModel):
    hand: int
    phase: str
    dealer: int
    stake: int | None
    stake_limit: int
    fist_round: int
    pot: int
    shared: list[DecktetCard]
    discards: list[DecktetCard]
    deck_left: int
    seats: list[SeatView]
    to_act: list[int]
    result: HandResult | None
    my_cards: list[DecktetCard] | None = None
    my_score: int | None = None
    my_fist: int | None = None


class ProvincialState(TerrapinTable):
    options: ProvincialOptions
    phase: Literal["stake", "fists", "exchange", "between", "over"] = "stake"
    stake: int | None = None
    fist_round: int = 0
    in_hand: list[int] = []
    fists: list[int | None] = []  # this round's choices, secret until all are in
    shown_fists: list[int | None] = []  # the last round's, once open
    exchanges: list[int] = []  # payers still to discard or draw, in order
    discards: list[DecktetCard] = []
    known: list[DecktetCard] = []

    # ---- the flow of a hand ---------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        self.deck += self.discards
        self.discards, self.known = [], []
        self.collect_and_shuffle()
        playing = self.able_to_ante(ANTE)
        if len(playing) < 2:
            return self.end_match()
        if self.dealer not in playing:  # the dealer sets the stake, so must be playing
            self.dealer = self.seats_from(self.dealer, lambda s: s in playing)[0]
        self.stacks_at_start, self.players, self.in_hand = list(self.stacks), playing, list(playing)
        for seat in playing:
            self.stacks[seat] -= ANTE
        self.pot = ANTE * len(playing)
        order = self.seats_from(self.dealer + 1, lambda s: s in playing)
        self.deal_private(order, PRIVATE_CARDS)
        self.shared = [self.deck.pop() for _ in range(SHARED_CARDS)]
        self.phase, self.stake, self.fist_round = "stake", None, 0
        self.fists = self.shown_fists = [None] * self.seat_count
        return [
            HandStarted(
                hand=self.hand, dealer=self.dealer, players=order, pot=self.pot + self.carry
            )
        ]

    @property
    def stake_chips(self) -> int:
        """The stake, once the dealer has set it."""
        assert self.stake is not None  # read only in the fists, which come after the stake
        return self.stake

    def open_fists(self) -> list[Event]:
        self.phase = "fists"
        self.fist_round += 1
        self.fists = [None] * self.seat_count
        return []

    def reveal_fists(self) -> list[Event]:
        """Everyone has chosen: open all fists at once, take the payments, drop the folds."""
        fists: dict[int, int] = {}
        for seat in self.in_hand:
            shown = self.fists[seat]
            assert shown is not None  # opened once everyone has chosen
            fists[seat] = shown
        paid = {}
        for seat, chips in fists.items():
            if chips:
                paid[seat] = chips * self.stake_chips
                self.stacks[seat] -= paid[seat]
                self.pot += paid[seat]
        self.shown_fists = list(self.fists)
        self.in_hand = [s for s in self.in_hand if fists[s] != FOLD]
        events: list[Event] = [FistsOpened(fists=fists, paid=paid)]
        if not self.in_hand:  # everyone folded: the pot stays for the next hand
            self.carry += self.pot
            self.pot = 0
            return events + self.finish_hand()
        if len(self.in_hand) == 1:
            self.take_pot(self.in_hand[0], self.pot + self.carry)
            self.pot = 0
            return events + self.finish_hand()
        self.exchanges = self.seats_from(self.dealer + 1, lambda s: fists.get(s) == PAY)
        return events + self.after_exchange()

    def after_exchange(self) -> list[Event]:
        """Next payer to discard or draw; then a showdown if anyone called, else more fists."""
        while self.exchanges and not self.legal_exchanges(self.exchanges[0]):
            self.exchanges.pop(0)  # nothing to discard and nothing to draw
        if self.exchanges:
            self.phase = "exchange"
            return []
        if any(self.shown_fists[s] == CALL for s in self.in_hand):
            return self.showdown()
        return self.open_fists()

    def showdown(self) -> list[Event]:
        """From the caller nearest the dealer's left, every caller and payer shows."""
        callers = self.seats_from(
            self.dealer + 1, lambda s: s in self.in_hand and self.shown_fists[s] == CALL
        )
        order = self.seats_from(callers[0], lambda s: s in self.in_hand)
        events: list[Event] = [self.reveal(s) for s in order]
        pot = Pot(amount=self.pot + self.carry, eligible=self.in_hand)
        self.pot = 0
        return events + self.award([pot]) + self.finish_hand()

    def legal_exchanges(self, seat: int) -> list[Action]:
        actions: list[Action] = [Discard(card=card) for card in self.hands[seat]]
        if self.deck:
            actions.append(DrawDeck())
        if self.discards:
            actions.append(DrawDiscard())
        return actions

    # ---- the protocol ---------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "stake":
            limit = self.options.stake_limit
            return [
                Decision(
                    seat=self.dealer,
                    kind=ProvincialKind.STAKE,
                    prompt=_("Set the stake (1 to {limit})", limit=limit),
                )
            ]
        if self.phase == "fists":
            return [
                Decision(
                    seat=s,
                    kind=ProvincialKind.FIST,
                    prompt=_("Empty fist, one chip or two?"),
                    secret=True,
                )
                for s in self.in_hand
                if self.fists[s] is None
            ]
        if self.phase == "exchange":
            return [
                Decision(
                    seat=self.exchanges[0],
                    kind=ProvincialKind.EXCHANGE,
                    prompt=_("Discard a card or draw one"),
                )
            ]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        if self.phase == "stake":
            return [SetStake(chips=n) for n in range(1, self.options.stake_limit + 1)]
        if self.phase == "fists":
            stake = self.stake_chips
            return [Fist(chips=c) for c in (FOLD, PAY, CALL) if self.stacks[seat] >= c * stake]
        return self.legal_exchanges(seat)

    def default_action(self, seat: int) -> Action:
        """The lowest stake; an empty fist; a card from the deck (else the pile, else a discard)."""
        if self.phase == "stake":
            return SetStake(chips=1)
        if self.phase == "fists":
            return Fist(chips=FOLD)
        legal = self.legal_exchanges(seat)
        for preferred in (DrawDeck(), DrawDiscard()):
            if preferred in legal:
                return preferred
        return legal[0]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, SetStake):
            self.stake = action.chips
            return [StakeSet(seat=seat, stake=self.stake), *self.open_fists()]
        if isinstance(action, Fist):
            self.fists[seat] = action.chips
            events: list[Event] = [FistClosed(seat=seat)]
            if any(self.fists[s] is None for s in self.in_hand):
                return events
            return events + self.reveal_fists()
        self.exchanges.pop(0)
        return [self.exchange(seat, action), *self.after_exchange()]

    def exchange(self, seat: int, action: Action) -> Exchanged:
        if isinstance(action, Discard):
            self.hands[seat].remove(action.card)
            self.discards.append(action.card)
            if action.card in self.known:
                self.known.remove(action.card)
            return Exchanged(seat=seat, discarded=action.card)
        if isinstance(action, DrawDiscard):
            card = self.discards.pop()
            self.hands[seat].append(card)
            self.known.append(card)
            return Exchanged(seat=seat, took_discard=card)
        self.hands[seat].append(self.deck.pop())
        return Exchanged(seat=seat, drew_from_deck=True)

    def view(self, viewer: Viewer) -> ProvincialView:
        seats = range(self.seat_count)
        choosing = self.phase == "fists"
        seat_views = self.seat_views(
            SeatView,
            in_hand=[s in self.in_hand for s in seats],
            cards=[len(hand) for hand in self.hands],
            chosen=[choosing and self.fists[s] is not None for s in seats],
            fist=[self.shown_fists[s] if self.fist_round else None for s in seats],
            known=[[c for c in hand if c in self.known] for hand in self.hands],
        )
        view = ProvincialView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            stake=self.stake,
            stake_limit=self.options.stake_limit,
            fist_round=self.fist_round,
            pot=self.pot + self.carry,
            shared=self.shared,
            discards=self.discards,
            deck_left=len(self.deck),
            seats=seat_views,
            to_act=self.pending_seats(),
            result=self.result if self.phase == "between" else None,
        )
        if viewer is not None and self.hands[viewer]:
            self.show_own_hand(view, viewer)
            view.my_fist = self.fists[viewer] if self.phase == "fists" else None
        return view

    def all_cards(self) -> list[DecktetCard]:
        return super().all_cards() + self.discards

    def hidden_from(self, viewer: Viewer) -> set[DecktetCard]:
        return super().hidden_from(viewer) - set(self.known)
