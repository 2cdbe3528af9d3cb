"""What the Terrapin betting variants share: dealing shared cards (redealt while Turtle Butt),
Terrapin scoring at the showdown, odd chips carried in the pot, and their spec's shape
(`terrapin_spec`). Seats, chips and the showdown itself are the poker table's
(bot/games/poker.py).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, TypeAdapter

from bot.cards import decktet
from bot.cards.decktet import DecktetCard
from bot.engine import Action, Event, GameSpec, Policy, Rng
from bot.engine import HandStarted as BaseHandStarted
from bot.engine.spec import OptionsT
from bot.games.poker import PokerTable
from bot.games.poker import PotAwarded as PotAwarded  # where it was before bot/games/poker.py
from bot.games.terrapin.scoring import is_turtle_butt, score

TURTLE_BUTT = -1  # ranks below every scoring hand: a Turtle Butt hand can never win


class HandStarted(BaseHandStarted):
    """A deal (bot.engine.HandStarted) and what the table shows of it: who dealt, who plays
    and the pot. Western, Provincial and Temptation tell it (Liar's has its own)."""

    dealer: int
    players: list[int]
    pot: int


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
    net: list[int] = []  # each seat's chips won or lost over the hand
    carried: int = 0


class OwnHandView(Protocol):
    """What a Terrapin view shows its viewer of their own hand."""

    my_cards: list[DecktetCard] | None
    my_score: int | None  # with the shared cards; None for Turtle Butt


def hand_value(cards: list[DecktetCard]) -> int:
    return TURTLE_BUTT if is_turtle_butt(cards) else score(cards)


class TerrapinTable(PokerTable):
    """State shared by the Terrapin betting variants: the Decktet cards (private hands, shared
    cards), hands scored by Terrapin scoring with Turtle Butt unable to win, and odd chips
    of a split pot staying in the pot for the next hand."""

    pot: int = 0  # chips in this hand's pot (variants with betting rounds override in_pot)
    deck: list[DecktetCard] = []
    hands: list[list[DecktetCard]] = []
    shared: list[DecktetCard] = []
    set_aside: list[DecktetCard] = []

    # ---- cards ----------------------------------------------------------------------------

    def collect_and_shuffle(self) -> None:
        """Every card back into the deck, shuffled (from the Decktet's fresh order in a match
        started since issue 50, see Rng.shuffled_gathered); cards are dealt from its end."""
        cards = self.deck + [c for hand in self.hands for c in hand] + self.shared + self.set_aside
        self.deck = self.rng.shuffled_gathered(cards, decktet.deck())
        self.hands = [[] for _ in range(self.seat_count)]
        self.shared, self.set_aside = [], []
        self.new_showdown()

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

    def show_own_hand(self, view: OwnHandView, seat: int) -> None:
        """`seat`'s cards on its own view, and their score (None: Turtle Butt, which can't win)."""
        value = hand_value(self.full_hand(seat))
        view.my_cards = self.hands[seat]
        view.my_score = None if value == TURTLE_BUTT else value

    def all_cards(self) -> list[DecktetCard]:
        return self.deck + [c for hand in self.hands for c in hand] + self.shared + self.set_aside

    def hidden_from(self, viewer: int | None) -> set[DecktetCard]:
        hidden = set(self.deck)
        for seat, hand in enumerate(self.hands):
            if seat != viewer and not self.shown[seat]:
                hidden |= set(hand)
        return hidden

    def able_to_ante(self, ante: int) -> list[int]:
        return [s for s in range(self.seat_count) if self.seated[s] and self.stacks[s] >= ante]

    # ---- hands and pots, the Terrapin way -------------------------------------------------

    def start_match(self) -> list[Event]:
        return self.start_hand()

    def in_pot(self) -> int:
        return self.pot

    def strength(self, seat: int) -> int:
        return hand_value(self.full_hand(seat))

    def can_win(self, seat: int) -> bool:
        return self.strength(seat) != TURTLE_BUTT

    def place_odd_chips(self, winners: list[int], odd: int) -> int:
        """Odd chips of a split pot stay in the pot for the next hand."""
        return odd

    def hand_scores(self) -> list[int | None]:
        return [max(self.strength(s), 0) if self.shown[s] else None for s in range(self.seat_count)]

    def revealed(self, seat: int) -> Revealed:
        value = self.strength(seat)
        return Revealed(
            seat=seat, cards=self.hands[seat], score=max(value, 0), turtle_butt=value < 0
        )

    @property
    def result(self) -> HandResult:
        """The end of the last hand (the current one's so far), for the views."""
        return HandResult(
            shown=[self.shown_hand(s) for s in range(self.seat_count) if self.shown[s]],
            winners=self.winners,
            won=self.won,
            net=self.net,
            carried=self.carry,
        )

    def shown_hand(self, seat: int) -> ShownHand:
        value = self.strength(seat)
        return ShownHand(
            seat=seat, cards=self.hands[seat], score=max(value, 0), turtle_butt=value < 0
        )


def terrapin_spec(
    *,
    game_id: str,
    name: str,
    state_model: type[TerrapinTable],
    options_model: type[OptionsT],
    actions: TypeAdapter[Action],
    ai: Policy[Any],
    searches: bool = True,
) -> GameSpec[OptionsT]:
    """A Terrapin betting variant: 2-7 players on the basic Decktet, playing for chips.
    `searches`: Expert searches its hidden cards (False where a secret is no card)."""

    def create(options: OptionsT, stacks: list[int], rng: Rng) -> tuple[TerrapinTable, list[Event]]:
        # Validated from a mapping, as __init__ is: each variant adds its own fields (its
        # options, its phases), which TerrapinTable's signature doesn't know.
        state = state_model.model_validate(
            {
                "rng": rng,
                "seat_count": len(stacks),
                "options": options,
                "stacks": stacks,
                "seated": [True] * len(stacks),
                "deck": decktet.deck(),
            }
        )
        return state, state.start_match()

    return GameSpec(
        id=game_id,
        name=name,
        min_players=2,
        max_players=7,
        options_model=options_model,
        state_model=state_model,
        actions=actions,
        deck=decktet.deck,
        create=create,
        uses_chips=True,
        ai=ai,
        searches=searches,
    )
