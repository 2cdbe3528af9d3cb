"""What the Terrapin betting variants share: dealing shared cards (redealt while Turtle Butt),
the showdown with mucking and pots, the carried pot, and seats coming and going between hands.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from bot.cards import decktet
from bot.cards.decktet import DecktetCard
from bot.engine import (
    Action,
    Event,
    GameSpec,
    HandEnded,
    IllegalAction,
    MatchEnded,
    Rng,
    placings,
    registry,
)
from bot.games.betting import Pot, split_pot
from bot.games.hands import HandAfterHand
from bot.games.terrapin.scoring import is_turtle_butt, score

TURTLE_BUTT = -1  # ranks below every scoring hand: a Turtle Butt hand can never win


class Show(Action):
    kind: Literal["show"] = "show"


class Muck(Action):
    kind: Literal["muck"] = "muck"


class SharedDealt(Event):
    kind: Literal["shared_dealt"] = "shared_dealt"
    cards: list[DecktetCard]
    set_aside: list[DecktetCard] = []


class Revealed(Event):
    kind: Literal["revealed"] = "revealed"
    seat: int
    cards: list[DecktetCard]
    score: int
    turtle_butt: bool


class Mucked(Event):
    kind: Literal["mucked"] = "mucked"
    seat: int


class PotAwarded(Event):
    kind: Literal["pot_awarded"] = "pot_awarded"
    amount: int
    winners: list[int]
    carried: int = 0  # odd chips, or the whole pot when every hand was Turtle Butt


class ShownHand(BaseModel):
    seat: int
    cards: list[DecktetCard]
    score: int
    turtle_butt: bool


class HandResult(BaseModel):
    """The end of the last hand, shown to everyone until the next hand is dealt."""

    shown: list[ShownHand] = []
    winners: list[int] = []
    won: list[int] = []  # chips each seat took from the pot
    carried: int = 0


def hand_value(cards: list[DecktetCard]) -> int:
    return TURTLE_BUTT if is_turtle_butt(cards) else score(cards)


class TerrapinTable(HandAfterHand):
    """State shared by Western, Provincial and Temptation Terrapin."""

    stacks: list[int]
    seated: list[bool]
    pot: int = 0  # chips in this hand's pot (variants with betting rounds override in_pot)
    carry: int = 0  # chips left in the pot by earlier hands
    deck: list[DecktetCard] = []
    hands: list[list[DecktetCard]] = []
    shared: list[DecktetCard] = []
    set_aside: list[DecktetCard] = []
    stacks_at_start: list[int] = []
    players: list[int] = []  # seats dealt into the current hand
    shown: list[list[DecktetCard] | None] = []
    mucked: list[bool] = []
    result: HandResult | None = None

    # ---- cards ----------------------------------------------------------------------------

    def collect_and_shuffle(self) -> None:
        cards = self.deck + [c for hand in self.hands for c in hand] + self.shared + self.set_aside
        self.deck = self.rng.shuffled(cards)
        self.hands = [[] for _ in range(self.seat_count)]
        self.shared, self.set_aside = [], []
        self.shown = [None] * self.seat_count
        self.mucked = [False] * self.seat_count
        self.result = None

    def deal_private(self, seats: list[int], count: int) -> None:
        for _ in range(count):
            for seat in seats:
                self.hands[seat].append(self.deck.pop())

    def deal_shared(self, count: int) -> SharedDealt:
        """Deal `count` face up; set them aside and deal again while they alone are Turtle Butt."""
        set_aside: list[DecktetCard] = []
        cards = [self.deck.pop() for _ in range(count)]
        while is_turtle_butt(cards) and len(self.deck) >= count:
            set_aside += cards
            cards = [self.deck.pop() for _ in range(count)]
        self.shared, self.set_aside = cards, set_aside
        return SharedDealt(cards=cards, set_aside=set_aside)

    def full_hand(self, seat: int) -> list[DecktetCard]:
        return self.hands[seat] + self.shared

    def all_cards(self) -> list[DecktetCard]:
        return self.deck + [c for hand in self.hands for c in hand] + self.shared + self.set_aside

    def hidden_from(self, viewer: int | None) -> set[DecktetCard]:
        hidden = set(self.deck)
        for seat, hand in enumerate(self.hands):
            if seat != viewer and self.shown[seat] is None:
                hidden |= set(hand)
        return hidden

    # ---- seats and chips ------------------------------------------------------------------

    def seats_from(self, first: int, wanted) -> list[int]:
        """Seats in clockwise order starting at `first`, keeping those `wanted`."""
        order = [(first + step) % self.seat_count for step in range(self.seat_count)]
        return [seat for seat in order if wanted(seat)]

    def left_of(self, seat: int, wanted) -> int:
        return self.seats_from(seat + 1, wanted)[0]

    def able_to_ante(self, ante: int) -> list[int]:
        return [s for s in range(self.seat_count) if self.seated[s] and self.stacks[s] >= ante]

    # ---- hand after hand ------------------------------------------------------------------

    def start_match(self) -> list[Event]:
        return self.start_hand()

    def in_pot(self) -> int:
        return self.pot

    def chip_total(self) -> int:
        return sum(self.stacks) + self.in_pot() + self.carry

    def finish_hand(self) -> list[Event]:
        """The hand is over (its pot paid out or carried): report it and pause for the table."""
        self.phase = "between"
        net = [now - before for now, before in zip(self.stacks, self.stacks_at_start, strict=True)]
        scores = [
            max(hand_value(self.full_hand(s)), 0) if self.shown[s] is not None else None
            for s in range(self.seat_count)
        ]
        winners = self.result.winners if self.result else []
        return [
            HandEnded(
                hand=self.hand, players=self.players, net_chips=net, scores=scores, winners=winners
            )
        ]

    def take_pot(self, winner: int, amount: int) -> None:
        """Everyone else is out: the last player takes the whole pot, carried chips included."""
        self.stacks[winner] += amount
        self.carry = 0
        self.result = HandResult(
            winners=[winner], won=[amount if s == winner else 0 for s in range(self.seat_count)]
        )

    def next_dealer(self) -> int:
        """The deal passes left, skipping seats whose players have left."""
        return (
            self.left_of(self.dealer, lambda s: self.seated[s]) if any(self.seated) else self.dealer
        )

    def end_match(self) -> list[Event]:
        self.phase = "over"
        return [MatchEnded(placings=placings(self.stacks))]

    def leave(self, seat: int) -> int:
        if not (self.awaiting_next_hand() or self.is_over()):
            raise IllegalAction("You can leave between hands.")
        if not self.seated[seat]:
            raise IllegalAction("You have already left this table.")
        chips, self.stacks[seat], self.seated[seat] = self.stacks[seat], 0, False
        return chips

    def left_in_pot(self, seat: int) -> int:
        """Chips carried to the next hand that stay at the table if `seat` leaves now."""
        return self.carry

    def leave_warning(self, seat: int) -> str | None:
        """Leaving between hands gives up your share of a carried pot: say so before."""
        between = self.awaiting_next_hand() and self.seated[seat]
        chips = self.left_in_pot(seat) if between else 0
        if not chips:
            return None
        amount = f"{chips} chip" + ("" if chips == 1 else "s")
        return (
            f"The pot of {amount} carried to the next hand stays at the table: "
            "you give up your share."
        )

    def cash_out(self) -> list[int]:
        """Close the table: odd chips left in the pot go one by one to the seated players
        from the dealer's left, and everyone takes their stack."""
        if not (self.awaiting_next_hand() or self.is_over()):
            raise IllegalAction("The table can close between hands.")
        takers = self.seats_from(self.dealer + 1, lambda s: self.seated[s]) or list(
            range(self.seat_count)
        )
        for index in range(self.carry):
            self.stacks[takers[index % len(takers)]] += 1
        self.carry = 0
        payouts, self.stacks = self.stacks, [0] * self.seat_count
        self.phase = "over"
        return payouts

    # ---- showdown -------------------------------------------------------------------------

    def reveal(self, seat: int) -> Revealed:
        cards = self.full_hand(seat)
        self.shown[seat] = list(self.hands[seat])
        value = hand_value(cards)
        return Revealed(
            seat=seat, cards=self.hands[seat], score=max(value, 0), turtle_butt=value < 0
        )

    def must_show(self, seat: int, pots: list[Pot]) -> bool:
        """Shown without asking when, for some pot it is in, it beats or ties every hand shown
        for that pot so far (or none is shown yet)."""
        mine = hand_value(self.full_hand(seat))
        for pot in pots:
            if seat in pot.eligible:
                rivals = [
                    hand_value(self.full_hand(s)) for s in pot.eligible if self.shown[s] is not None
                ]
                if not rivals or mine >= max(rivals):
                    return True
        return False

    def award(self, pots: list[Pot]) -> list[Event]:
        """Pay each pot to its best shown non-Turtle-Butt hands; odd chips and unwon pots carry."""
        events: list[Event] = []
        won = [0] * self.seat_count
        self.carry = 0
        for pot in pots:
            values = {
                s: hand_value(self.full_hand(s)) for s in pot.eligible if self.shown[s] is not None
            }
            contenders = {s: v for s, v in values.items() if v != TURTLE_BUTT}
            if not contenders:
                self.carry += pot.amount
                events.append(PotAwarded(amount=pot.amount, winners=[], carried=pot.amount))
                continue
            best = max(contenders.values())
            winners = [s for s, v in contenders.items() if v == best]
            before = list(self.stacks)
            odd = split_pot(pot, winners, self.stacks)
            for seat in winners:
                won[seat] += self.stacks[seat] - before[seat]
            self.carry += odd
            events.append(PotAwarded(amount=pot.amount, winners=winners, carried=odd))
        self.result = HandResult(
            shown=[self.shown_hand(s) for s in range(self.seat_count) if self.shown[s] is not None],
            winners=sorted({s for e in events if isinstance(e, PotAwarded) for s in e.winners}),
            won=won,
            carried=self.carry,
        )
        return events

    def shown_hand(self, seat: int) -> ShownHand:
        value = hand_value(self.full_hand(seat))
        return ShownHand(
            seat=seat, cards=self.hands[seat], score=max(value, 0), turtle_butt=value < 0
        )


def register_terrapin(
    game_id: str,
    name: str,
    state_model: type[TerrapinTable],
    options_model: type[BaseModel],
    action_model: object,
) -> GameSpec:
    """Register a Terrapin variant: 2-7 players on the basic Decktet, playing for chips."""

    def create(options: BaseModel, stacks: list[int], rng: Rng) -> TerrapinTable:
        state = state_model(
            rng=rng,
            seat_count=len(stacks),
            options=options,
            stacks=stacks,
            seated=[True] * len(stacks),
            deck=decktet.deck(),
        )
        state.start_match()
        return state

    return registry.register(
        GameSpec(
            id=game_id,
            name=name,
            min_players=2,
            max_players=7,
            options_model=options_model,
            state_model=state_model,
            action_model=action_model,
            deck=decktet.deck,
            create=create,
            uses_chips=True,
        )
    )
