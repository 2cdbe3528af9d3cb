"""Turup (bot/games/turup/rules.md).

2-12 players, each for themselves; one French pack for 2-4 players, two for 5-7, three for
8-12. A round: four cards to each player (from the dealer's left) and four face up on the
community pile. From the dealer's left, each turn a player plays one card: either it captures
from the pile, or it is placed on the pile. A capture takes any set of pile cards made of
disjoint groups that each equal the card's value: single cards of its rank (a match) or number
cards adding up to it (an addition); J, Q, K take only matching faces and never add up; aces
are 1 (bot/games/captures.py's sum captures). Capturing is never compulsory. When every hand is
empty, four more each; when the stock can't give everyone four, what is left goes round one
card at a time and the cards that can't go round are turned onto the pile. Once the stock is
dealt out and played, each player counts the cards they won (their own capturing cards
included); the pile left over counts for nobody. The match lasts a set number of rounds (1 by
default), the deal passing left after each; the most cards won in all wins.

House decisions: the first four cards go to each player in turn from the dealer's left, then
four to the pile; later deals the same, without the pile. A player who leaves between rounds
forfeits (placed last) and the others play on while two remain. On timeout: the suggested
capture taking the most cards, else the lowest card is placed on the pile.
"""

from __future__ import annotations

import random
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard, Suit, french_deck
from bot.engine import (
    Action,
    Decision,
    DecisionKind,
    Event,
    HandEnded,
    HandStarted,
    IllegalAction,
    Rng,
    UnlistedActions,
    Viewer,
)
from bot.games.captures import pip, sum_captures, verify_sum_capture
from bot.games.hands import PointsMatchHands
from bot.games.matches import Match
from bot.i18n import _

MIN_PLAYERS, MAX_PLAYERS = 2, 12
HAND = 4  # cards to each player per deal
PILE = 4  # cards turned face up on the community pile at the start of a round
CAPTURES_PER_CARD = 5  # suggested captures per card held: 4 cards x 5 + 4 placings <= 25
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def packs_for_players(players: int) -> int:
    """The rule text's table: one pack for 2-4 players, two for 5-7, three for 8-12."""
    if players <= 4:
        return 1
    return 2 if players <= 7 else 3


def packs_for(seats: int) -> list[FrenchCard]:
    return french_deck(packs=packs_for_players(seats))


def card_order(card: FrenchCard) -> tuple[int, int, int]:
    """Hands are shown from the lowest value up; suits and packs only keep the order fixed."""
    return pip(card), SUIT_ORDER.index(card.suit), card.pack


# ---- options, actions, events -------------------------------------------------------------


class TurupKind(DecisionKind):
    """Turup's one decision: a capture, or a card placed on the table."""

    PLAY = "play"


class TurupOptions(BaseModel):
    rounds: int = Field(
        default=1, ge=1, le=12, description="Rounds to play; the deal passes left after each"
    )


class Capture(Action):
    """Play `card` and take `cards` from the community pile."""

    kind: Literal["capture"] = "capture"
    card: FrenchCard
    cards: list[FrenchCard]


class Place(Action):
    """Play `card` onto the community pile (no capture)."""

    kind: Literal["place"] = "place"
    card: FrenchCard


TurupAction = Annotated[Capture | Place, Field(discriminator="kind")]


class RoundStarted(HandStarted):
    """A round is dealt: who deals, who plays first, the pile turned up."""

    dealer: int
    first: int
    pile: list[FrenchCard]
    packs: int
    rounds: int


class Captured(Event):
    kind: Literal["captured"] = "captured"
    seat: int
    card: FrenchCard
    cards: list[FrenchCard]  # taken from the pile


class Placed(Event):
    kind: Literal["placed"] = "placed"
    seat: int
    card: FrenchCard


class Dealt(Event):
    """Every hand was empty: the stock deals again. `each` is the cards each player got
    (fewer than four at the end of the stock), `turned` the cards that couldn't go round."""

    kind: Literal["dealt"] = "dealt"
    each: int
    stock: int  # cards left in the stock after this deal
    turned: list[FrenchCard] = []


class NewCards(Event):
    """Private to the player: the cards they were just dealt."""

    kind: Literal["new_cards"] = "new_cards"
    cards: list[FrenchCard]


class RoundScored(Event):
    kind: Literal["round_scored"] = "round_scored"
    round: int
    won: list[int]  # cards won this round, per seat
    totals: list[int]  # cards won over the match so far, per seat
    left_on_pile: list[FrenchCard]  # counted for nobody


# ---- what players see ---------------------------------------------------------------------


class TurupView(BaseModel):
    hand: int  # the round
    rounds: int
    phase: str
    dealer: int
    turn: int | None
    pile: list[FrenchCard]
    stock: int
    counts: list[int]  # cards held, per seat
    won: list[int]  # cards won this round, per seat
    totals: list[int]  # cards won in finished rounds, per seat
    playing: list[bool]  # False for a seat that left the match
    seat: int | None = None
    my_cards: list[FrenchCard] | None = None


# ---- the game -----------------------------------------------------------------------------


class TurupState(UnlistedActions, PointsMatchHands):
    options: TurupOptions
    phase: Literal["play", "between", "over"] = "play"
    stock: list[FrenchCard] = []
    hands: list[list[FrenchCard]] = []
    pile: list[FrenchCard] = []
    won: list[list[FrenchCard]] = []
    turn: int = 0

    # Unlisted: a capture is any set of pile cards that splits right, which verify judges.

    # ---- dealing ----------------------------------------------------------------------------

    def players_from_left(self) -> list[int]:
        """The seats still in the match, from the dealer's left round to the dealer."""
        seats = self.match.seats_in()
        return sorted(seats, key=lambda seat: (seat - self.dealer - 1) % self.seat_count)

    def start_hand(self) -> list[Event]:
        self.stock = self.rng.shuffled(packs_for(self.seat_count))
        self.hands = [[] for _ in range(self.seat_count)]
        self.won = [[] for _ in range(self.seat_count)]
        self.pile = []
        self.deal()
        self.pile, self.stock = self.stock[:PILE], self.stock[PILE:]
        self.turn = self.players_from_left()[0]
        self.phase = "play"
        return [
            RoundStarted(
                hand=self.hand,
                dealer=self.dealer,
                first=self.turn,
                pile=list(self.pile),
                packs=packs_for_players(self.seat_count),
                rounds=self.options.rounds,
            )
        ]

    def deal(self) -> list[FrenchCard]:
        """Four each from the dealer's left. When the stock can't give everyone four, it goes
        round one card at a time; the cards that can't go round are turned onto the pile
        (returned)."""
        players = self.players_from_left()
        if len(self.stock) >= HAND * len(players):
            for seat in players:
                self.give(seat, self.stock[:HAND])
                self.stock = self.stock[HAND:]
            return []
        each = len(self.stock) // len(players)
        for index, seat in enumerate(players):
            self.give(seat, self.stock[index : each * len(players) : len(players)])
        turned = self.stock[each * len(players) :]
        self.pile += turned
        self.stock = []
        return turned

    def give(self, seat: int, cards: list[FrenchCard]) -> None:
        self.hands[seat] = sorted(self.hands[seat] + cards, key=card_order)

    def deal_again(self) -> list[Event]:
        turned = self.deal()
        each = len(self.hands[self.players_from_left()[0]])
        events: list[Event] = [Dealt(each=each, stock=len(self.stock), turned=turned)]
        return events + [
            NewCards(cards=list(self.hands[seat]), audience=(seat,))
            for seat in self.players_from_left()
            if self.hands[seat]
        ]

    # ---- playing ----------------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase != "play":
            return []
        prompt = (
            _("Capture from the pile, or place a card on it")
            if self.pile
            else _("The pile is empty: place a card on it")
        )
        return [Decision(seat=self.turn, kind=TurupKind.PLAY, prompt=prompt)]

    def captures(self, seat: int) -> list[Capture]:
        """Suggested captures, a few per card held, the biggest first."""
        found = [
            Capture(card=card, cards=taken)
            for card in self.hands[seat]
            for taken in sum_captures(card, self.pile, limit=CAPTURES_PER_CARD).options
        ]
        return sorted(found, key=lambda capture: -len(capture.cards))

    def legal_actions(self, seat: int) -> list[Action]:
        """Suggestions only (any set of pile cards that splits right may be taken): the
        captures found first for each card held, then placing each card."""
        if seat not in self.pending_seats():
            return []
        places = [Place(card=card) for card in self.hands[seat]]
        return [*self.captures(seat), *places]

    def verify(self, seat: int, action: Action) -> None:
        if self.phase == "play" and seat == self.turn and isinstance(action, Capture | Place):
            if action.card not in self.hands[seat]:
                raise IllegalAction(_("You don't hold that card."))
            if isinstance(action, Capture):
                self.check_taken(action.cards)
                verify_sum_capture(action.card, action.cards, self.pile)
            return
        super().verify(seat, action)

    def check_taken(self, taken: list[FrenchCard]) -> None:
        """The pile's own words for a capture naming no pile card, or cards not on it."""
        if not self.pile:
            raise IllegalAction(_("The pile is empty: place a card on it."))
        if not taken:
            raise IllegalAction(_("Pick the pile cards your card takes, or place it on the pile."))
        if len(set(taken)) != len(taken) or not set(taken) <= set(self.pile):
            raise IllegalAction(_("Pick cards that are on the pile, each once."))

    def sample(self, seat: int, chooser: random.Random) -> Action:
        return chooser.choice(self.legal_actions(seat))

    def default_action(self, seat: int) -> Action:
        """The suggested capture taking the most cards, else place the lowest card."""
        captures = self.captures(seat)
        if captures:
            return captures[0]
        return Place(card=min(self.hands[seat], key=card_order))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Capture | Place)  # verify lets no other action through
        self.hands[seat].remove(action.card)
        if isinstance(action, Capture):
            events = self.capture(seat, action.card, action.cards)
        else:
            self.pile.append(action.card)
            events = [Placed(seat=seat, card=action.card)]
        if not any(self.hands) and self.stock:
            events += self.deal_again()
        if not any(self.hands):
            return events + self.end_round()
        self.turn = self.next_holder(seat)
        return events

    def capture(self, seat: int, card: FrenchCard, taken: list[FrenchCard]) -> list[Event]:
        """The card played and the cards it takes go to the player's pile of cards won."""
        self.pile = [other for other in self.pile if other not in set(taken)]
        self.won[seat] += [card, *taken]
        return [Captured(seat=seat, card=card, cards=list(taken))]

    def next_holder(self, seat: int) -> int:
        """The next seat to the left still holding cards (every player holds as many)."""
        for step in range(1, self.seat_count + 1):
            following = (seat + step) % self.seat_count
            if self.hands[following]:
                return following
        raise ValueError("nobody holds a card")

    # ---- the end of a round, and of the match ---------------------------------------------

    def end_round(self) -> list[Event]:
        won = [len(pile) for pile in self.won]
        players = self.match.seats_in()
        over = self.match.add_hand(won)
        most = max(won[seat] for seat in players)
        events: list[Event] = [
            RoundScored(
                round=self.hand,
                won=won,
                totals=self.match.seat_scores(),
                left_on_pile=list(self.pile),
            ),
            HandEnded(
                hand=self.hand,
                players=players,
                net_chips=[0] * self.seat_count,
                scores=[won[seat] if seat in players else None for seat in range(self.seat_count)],
                winners=[seat for seat in players if most and won[seat] == most],
            ),
        ]
        if over:
            self.phase = "over"
            return [*events, self.standings()]
        self.phase = "between"
        return events

    def next_dealer(self) -> int:
        return self.match.next_dealer(self.dealer)

    def leave(self, seat: int) -> int:
        """Between rounds: the leaver forfeits (placed last); the others play on while two
        remain."""
        if not self.can_leave_now(seat):
            raise IllegalAction(_("You can leave between rounds."))
        if not self.match.is_over():
            self.match.drop(seat)
            if self.match.is_over():
                self.phase = "over"
        return 0

    # ---- what each seat sees ------------------------------------------------------------------

    def view(self, viewer: Viewer) -> TurupView:
        view = TurupView(
            hand=self.hand,
            rounds=self.options.rounds,
            phase=self.phase,
            dealer=self.dealer,
            turn=self.turn if self.phase == "play" else None,
            pile=self.pile,
            stock=len(self.stock),
            counts=[len(hand) for hand in self.hands],
            won=[len(pile) for pile in self.won],
            totals=self.match.seat_scores(),
            playing=[self.match.playing(self.match.side_of(s)) for s in range(self.seat_count)],
        )
        if viewer is not None:
            view.seat = viewer
            view.my_cards = self.hands[viewer]
        return view

    def all_cards(self) -> list[FrenchCard]:
        held = [card for hand in self.hands for card in hand]
        won = [card for pile in self.won for card in pile]
        return self.stock + held + self.pile + won

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        others = {card for seat, hand in enumerate(self.hands) if seat != viewer for card in hand}
        return set(self.stock) | others


def new_turup(options: TurupOptions, stacks: list[int], rng: Rng) -> tuple[TurupState, list[Event]]:
    seats = len(stacks)
    state = TurupState(
        rng=rng,
        seat_count=seats,
        options=options,
        match=Match.for_hands(seats, options.rounds),
    )
    return state, state.start_hand()
