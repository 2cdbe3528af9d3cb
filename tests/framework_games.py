"""Test-only games, one or two framework facilities each, small enough to read in a minute.
They pass the conformance test and are played end to end, proving each facility works before
a real game relies on it. None is registered with the bot's game registry: tests load them.

- Partners (4 players, two partnerships, a points match): the dealer writes a secret word in
  free text; each player is dealt two cards, told by a private event; everyone plays one card
  in turn; the side of the highest card scores a point. First side to the target wins.
- Banker (1-4 players against the house, one pack per two players): everyone secretly bets
  1-3 chips, each bet bringing its even-money win from the house's balance (a bet it can't
  cover is refused), then each player's card meets the house's card; higher wins even money
  from the house, else the house takes the bet.
"""

from __future__ import annotations

import math
import random
from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter

from bot.cards import FrenchCard, Rank, french_deck
from bot.engine import (
    Action,
    Decision,
    DecisionKind,
    Event,
    GameSpec,
    HandEnded,
    HandStarted,
    HouseBanked,
    IllegalAction,
    MatchEnded,
    Policy,
    Rng,
    TextAnswers,
    UnlistedActions,
    Viewer,
    Windows,
    placings,
)
from bot.games.hands import HandAfterHand, HandAfterHandWithStacks

SIDES = 2


def high(card: FrenchCard) -> int:
    return 14 if card.rank == Rank.ACE else int(card.rank)


# ---- Partners ------------------------------------------------------------------------------


class Word(Action):
    kind: Literal["word"] = "word"
    text: str


class PlayCard(Action):
    kind: Literal["play"] = "play"
    card: FrenchCard


PartnersAction = Annotated[Word | PlayCard, Field(discriminator="kind")]


class Dealt(Event):
    kind: Literal["dealt"] = "dealt"
    cards: list[FrenchCard]


class Played(Event):
    kind: Literal["played"] = "played"
    seat: int
    card: FrenchCard


class PointScored(Event):
    kind: Literal["point"] = "point"
    side: int
    word: str


class PartnersOptions(BaseModel):
    target: int = Field(default=2, ge=1, le=5, description="Points a side needs to win")


class PartnersView(BaseModel):
    hand: int
    phase: str
    points: list[int]
    played: dict[int, FrenchCard]
    turn: int | None
    word_written: bool
    my_cards: list[FrenchCard] = []


class PartnersKind(DecisionKind):
    WORD = "word"
    PLAY = "play"


class PartnersState(TextAnswers, HandAfterHand):
    options: PartnersOptions
    points: list[int] = [0, 0]
    deck: list[FrenchCard] = []
    hands: list[list[FrenchCard]] = []
    played: dict[int, FrenchCard] = {}
    word: str = ""
    turn: int = 0

    def start_hand(self) -> list[Event]:
        self.deck = self.rng.shuffled(french_deck())
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(self.seat_count)]
        self.played, self.word, self.phase = {}, "", "word"
        self.turn = (self.dealer + 1) % self.seat_count
        dealt = [Dealt(cards=cards, audience=(seat,)) for seat, cards in enumerate(self.hands)]
        return [HandStarted(hand=self.hand), *dealt]

    def pending(self) -> list[Decision]:
        if self.phase == "word":
            question = "Write a secret word, shown when the hand ends"
            return [
                Decision(
                    seat=self.dealer,
                    kind=PartnersKind.WORD,
                    prompt=question,
                    text_question=question,
                )
            ]
        if self.phase == "play":
            return [Decision(seat=self.turn, kind=PartnersKind.PLAY, prompt="Play a card")]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        if self.phase == "word":
            return [Word(text="pass")]  # any word is legal; this one stands for them all
        return [PlayCard(card=card) for card in self.hands[seat]]

    def text_action(self, seat: int, text: str) -> Action:
        word = text.strip()
        if not word.isalpha() or len(word) > 20:
            raise IllegalAction("Write one word of letters only (at most 20).")
        return Word(text=word.lower())

    def verify(self, seat: int, action: Action) -> None:
        if isinstance(action, Word) and seat in self.pending_seats() and self.phase == "word":
            self.text_action(seat, action.text)
            return
        super().verify(seat, action)

    def default_action(self, seat: int) -> Action:
        if self.phase == "word":
            return Word(text="pass")
        return PlayCard(card=min(self.hands[seat], key=high))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Word):
            self.word, self.phase = action.text, "play"
            return []
        self.hands[seat].remove(action.card)
        self.played[seat] = action.card
        if len(self.played) < self.seat_count:
            self.turn = (seat + 1) % self.seat_count
            return [Played(seat=seat, card=action.card)]
        return [Played(seat=seat, card=action.card), *self.score()]

    def score(self) -> list[Event]:
        best = max(self.played, key=lambda seat: (high(self.played[seat]), -seat))
        side = best % SIDES
        self.points[side] += 1
        events: list[Event] = [
            PointScored(side=side, word=self.word),
            HandEnded(
                hand=self.hand,
                players=list(range(self.seat_count)),
                net_chips=[0] * self.seat_count,
                scores=[self.points[seat % SIDES] for seat in range(self.seat_count)],
                winners=[seat for seat in range(self.seat_count) if seat % SIDES == side],
            ),
        ]
        if self.points[side] >= self.options.target:
            self.phase = "over"
            return [*events, self.standings()]
        self.phase = "between"
        return events

    def standings(self) -> MatchEnded:
        scores = [self.points[seat % SIDES] for seat in range(self.seat_count)]
        return MatchEnded(placings=placings(scores), scores=scores)

    def final_standings(self) -> MatchEnded:
        return self.standings()

    def view(self, viewer: Viewer) -> PartnersView:
        view = PartnersView(
            hand=self.hand,
            phase=self.phase,
            points=self.points,
            played=self.played,
            turn=self.turn if self.phase == "play" else None,
            word_written=bool(self.word),
        )
        if viewer is not None:
            view.my_cards = self.hands[viewer]
        return view

    def all_cards(self) -> list[FrenchCard]:
        return self.deck + [card for hand in self.hands for card in hand] + [*self.played.values()]

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        others = {card for seat, hand in enumerate(self.hands) if seat != viewer for card in hand}
        return set(self.deck) | others


def create_partners(options: PartnersOptions, stacks: list[int], rng: Rng) -> PartnersState:
    state = PartnersState(rng=rng, seat_count=len(stacks), options=options, phase="")
    state.start_hand()
    return state


PARTNERS = GameSpec(
    id="fw_partners",
    name="Partners",
    min_players=4,
    max_players=4,
    options_model=PartnersOptions,
    state_model=PartnersState,
    actions=TypeAdapter(PartnersAction),
    deck=french_deck,
    create=create_partners,
    sides=SIDES,
)


# ---- Banker ------------------------------------------------------------------------------------


class Bet(Action):
    kind: Literal["bet"] = "bet"
    chips: int


class Showdown(Event):
    kind: Literal["showdown"] = "showdown"
    bets: list[int]
    cards: dict[int, FrenchCard]
    house_cards: dict[int, FrenchCard]


class BankerOptions(BaseModel):
    hands: int = Field(default=3, ge=1, le=10, description="Hands in the match")


class BankerView(BaseModel):
    hand: int
    phase: str
    stacks: list[int]
    has_bet: list[bool]
    face_up: list[FrenchCard]
    my_bet: int | None = None


MOST_BET = 3


def packs_for(seats: int) -> list[FrenchCard]:
    """One pack per two players, rounded up."""
    return french_deck(packs=math.ceil(seats / 2))


def banker_cover(options: BankerOptions) -> int:
    """The most the house covers for one player: a bet's even-money win."""
    return MOST_BET


class BankerKind(DecisionKind):
    BET = "bet"


class BankerState(HouseBanked, HandAfterHandWithStacks):
    options: BankerOptions
    bank: int = 0  # the house's chips at this table: the wins of this hand's bets
    deck: list[FrenchCard] = []
    face_up: list[FrenchCard] = []
    bets: list[int | None] = []

    def start_hand(self) -> list[Event]:
        self.deck = self.rng.shuffled(packs_for(self.seat_count))
        self.face_up = []
        self.bets = [None if stack else 0 for stack in self.stacks]
        if self.hand > self.options.hands or not any(self.stacks):
            return self.end_match()
        self.phase = "betting"
        return [HandStarted(hand=self.hand)]

    def end_match(self) -> list[Event]:
        self.phase = "over"
        return [MatchEnded(placings=placings(self.stacks), scores=self.stacks)]

    def pending(self) -> list[Decision]:
        if self.phase != "betting":
            return []
        return [
            Decision(
                seat=seat,
                kind=BankerKind.BET,
                prompt=f"Bet 1 to {self.largest_bet(seat)} chips",
                secret=True,
            )
            for seat, bet in enumerate(self.bets)
            if bet is None
        ]

    def largest_bet(self, seat: int) -> int:
        return min(MOST_BET, self.stacks[seat])

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        return [Bet(chips=chips) for chips in range(1, self.largest_bet(seat) + 1)]

    def default_action(self, seat: int) -> Action:
        return Bet(chips=1)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self.bets[seat] = action.chips
        self.bank += action.chips  # the bet's win, brought from the house's balance
        if self.pending():
            return []
        return self.showdown()

    def showdown(self) -> list[Event]:
        cards, house_cards, net = {}, {}, [0] * self.seat_count
        for seat, bet in enumerate(self.bets):
            if not bet:
                continue
            cards[seat], house_cards[seat] = self.deck.pop(), self.deck.pop()
            net[seat] = bet if high(cards[seat]) > high(house_cards[seat]) else -bet
            self.stacks[seat] += net[seat]
        self.face_up = [*cards.values(), *house_cards.values()]
        self.bank = 0  # what the house held, and what it won, back to its balance
        self.phase = "between"
        bets = [bet or 0 for bet in self.bets]
        return [
            Showdown(bets=bets, cards=cards, house_cards=house_cards),
            HandEnded(
                hand=self.hand,
                players=[seat for seat, bet in enumerate(bets) if bet],
                net_chips=net,
                winners=[seat for seat, chips in enumerate(net) if chips > 0],
                house_chips=-sum(net),
            ),
        ]

    def leave(self, seat: int) -> int:
        if not self.can_leave_now(seat):
            raise IllegalAction("You can leave between hands.")
        chips, self.stacks[seat] = self.stacks[seat], 0
        if not any(self.stacks):
            self.phase = "over"
        return chips

    def view(self, viewer: Viewer) -> BankerView:
        view = BankerView(
            hand=self.hand,
            phase=self.phase,
            stacks=self.stacks,
            has_bet=[bet is not None for bet in self.bets],
            face_up=self.face_up,
        )
        if viewer is not None:
            view.my_bet = self.bets[viewer]
        return view

    def all_cards(self) -> list[FrenchCard]:
        return self.deck + self.face_up

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        return set(self.deck)

    def chip_total(self) -> int:
        return sum(self.stacks) + self.bank

    def house_bank(self) -> int:
        return self.bank

    def house_cannot_cover(self, reason: str) -> list[Event]:
        """The hand is void (bets only move at the showdown); the runtime returns the hold."""
        return self.end_match()


def create_banker(options: BankerOptions, stacks: list[int], rng: Rng) -> BankerState:
    state = BankerState(rng=rng, seat_count=len(stacks), options=options, stacks=stacks, phase="")
    state.start_hand()
    return state


class LargestBet(Policy[BankerView]):
    """Banker's AI seats (tests/discord/test_ai_seats_e2e.py): the largest bet; `fail` makes it
    raise."""

    game_id = "fw_banker"

    def __init__(self) -> None:
        self.fail = False

    def choose(
        self,
        seat: int,
        view: BankerView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if self.fail:
            raise RuntimeError("the AI broke")
        return legal[-1]


BANKER = GameSpec(
    id="fw_banker",
    name="Banker",
    min_players=1,
    max_players=4,
    options_model=BankerOptions,
    state_model=BankerState,
    actions=TypeAdapter(Annotated[Bet, Field(discriminator="kind")]),
    deck_by_seats=packs_for,
    create=create_banker,
    uses_chips=True,
    house=True,
    house_cover=banker_cover,
    ai=LargestBet(),
)


# ---- Snap --------------------------------------------------------------------------------------
#
# 2-4 players, four cards each (private). On your turn: play a card face up, draw one (only you
# see it: a private event), or throw away any set of your cards face down (an action space too
# big to list). After a play, a snap window opens for everyone alike: whoever holds a card of
# the same rank may play it out of turn and scores a point. A player left with one card may
# call "last one" (optional) until the next player acts; if they don't, they draw a penalty
# card. A hand ends when a hand is empty; first to the target wins.

SNAP_WINDOW = 5


class Draw(Action):
    kind: Literal["draw"] = "draw"


class Throw(Action):
    kind: Literal["throw"] = "throw"
    cards: list[FrenchCard]


class Snap(Action):
    kind: Literal["snap"] = "snap"
    card: FrenchCard


class Call(Action):
    kind: Literal["call"] = "call"


SnapAction = Annotated[PlayCard | Draw | Throw | Snap | Call, Field(discriminator="kind")]


class Drew(Event):
    kind: Literal["drew"] = "drew"
    seat: int
    card: FrenchCard | None = None  # only in the drawer's own copy of the event


class Snapped(Event):
    kind: Literal["snapped"] = "snapped"
    seat: int
    card: FrenchCard


class Threw(Event):
    kind: Literal["threw"] = "threw"
    seat: int
    count: int


class SnapOptions(BaseModel):
    target: int = Field(default=2, ge=1, le=5, description="Points to win")


class SnapView(BaseModel):
    hand: int
    phase: str
    points: list[int]
    counts: list[int]
    pile: list[FrenchCard]
    turn: int | None
    window_open: bool
    my_cards: list[FrenchCard] = []


class SnapKind(DecisionKind):
    SNAP = "snap"
    TURN = "turn"
    CALL = "call"


class SnapState(UnlistedActions, Windows, HandAfterHand):
    options: SnapOptions
    points: list[int] = []
    deck: list[FrenchCard] = []
    hands: list[list[FrenchCard]] = []
    pile: list[FrenchCard] = []
    thrown: list[FrenchCard] = []
    turn: int = 0
    caller: int | None = None  # who must still call "last one" before the next player acts

    def start_hand(self) -> list[Event]:
        self.deck = self.rng.shuffled(french_deck())
        self.hands = [[self.deck.pop() for _ in range(4)] for _ in range(self.seat_count)]
        self.pile, self.thrown, self.caller = [], [], None
        self.turn, self.phase = (self.dealer + 1) % self.seat_count, "play"
        return [HandStarted(hand=self.hand)]

    # -- decisions ---------------------------------------------------------------------------

    def snappers(self) -> list[int]:
        top = self.pile[-1]
        return [
            seat
            for seat, hand in enumerate(self.hands)
            if any(card.rank == top.rank for card in hand)
        ]

    def pending(self) -> list[Decision]:
        decisions: dict[int, Decision] = {}
        if self.phase == "window":
            for seat in self.snappers():
                decisions[seat] = Decision(
                    seat=seat, kind=SnapKind.SNAP, prompt="Snap!", optional=True
                )
        elif self.phase == "play":
            decisions[self.turn] = Decision(seat=self.turn, kind=SnapKind.TURN, prompt="Your turn")
        if self.caller is not None and self.caller not in decisions:
            decisions[self.caller] = Decision(
                seat=self.caller, kind=SnapKind.CALL, prompt="Call last one!", optional=True
            )
        return list(decisions.values())

    def window_seconds(self) -> int | None:
        return SNAP_WINDOW if self.phase == "window" else None

    def close_window(self) -> list[Event]:
        if self.phase != "window":
            return super().close_window()
        self.phase = "play"
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        """Suggestions only (throwing any set of cards is legal): see `verify`."""
        if seat not in self.pending_seats():
            return []
        actions: list[Action] = []
        if seat == self.caller:
            actions.append(Call())
        if self.phase == "window":
            top = self.pile[-1]
            actions += [Snap(card=c) for c in self.hands[seat] if c.rank == top.rank]
        elif seat == self.turn:
            actions += [PlayCard(card=card) for card in self.hands[seat]]
            actions += [Draw()] if self.deck else []
            actions += [Throw(cards=self.hands[seat][:1])]
        return actions

    def verify(self, seat: int, action: Action) -> None:
        if isinstance(action, Throw) and seat in self.pending_seats() and self.phase == "play":
            hand = self.hands[seat]
            if seat != self.turn:
                raise IllegalAction("It is not your turn.")
            if not action.cards or len(set(action.cards)) != len(action.cards):
                raise IllegalAction("Throw away one or more different cards.")
            if not set(action.cards) <= set(hand):
                raise IllegalAction("You can only throw away cards you hold.")
            return
        super().verify(seat, action)

    def sample(self, seat: int, chooser) -> Action:
        actions = self.legal_actions(seat)
        if seat == self.turn and self.phase == "play" and chooser.random() < 0.2:
            count = chooser.randint(1, len(self.hands[seat]))
            return Throw(cards=chooser.sample(self.hands[seat], count))
        return chooser.choice(actions)

    def default_action(self, seat: int) -> Action:
        return Draw() if self.deck else PlayCard(card=self.hands[seat][0])

    # -- play ----------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Call):
            self.caller = None
            return []
        if isinstance(action, Snap):
            return self.snap(seat, action.card)
        late = self.caller is not None and self.caller != seat  # the next player acts first
        events = self.penalty(self.caller) if late else []
        if isinstance(action, Draw):
            events += self.draw(seat)
        elif isinstance(action, Throw):
            for card in action.cards:
                self.hands[seat].remove(card)
            self.thrown += action.cards
            events.append(Threw(seat=seat, count=len(action.cards)))
        else:
            self.hands[seat].remove(action.card)
            self.pile.append(action.card)
            events.append(Played(seat=seat, card=action.card))
        if not self.hands[seat]:
            return events + self.end_hand(seat)
        self.caller = seat if len(self.hands[seat]) == 1 else None
        self.turn = (seat + 1) % self.seat_count
        self.phase = "window" if isinstance(action, PlayCard) else "play"
        return events

    def draw(self, seat: int) -> list[Event]:
        if not self.deck:
            return []
        card = self.deck.pop()
        self.hands[seat].append(card)
        return [Drew(seat=seat), Drew(seat=seat, card=card, audience=(seat,))]

    def penalty(self, caller: int) -> list[Event]:
        """The one-card player didn't call before the next player acted: a penalty card."""
        self.caller = None
        return self.draw(caller)

    def snap(self, seat: int, card: FrenchCard) -> list[Event]:
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.points[seat] += 1
        self.phase = "play"
        events: list[Event] = [Snapped(seat=seat, card=card)]
        if not self.hands[seat]:
            return events + self.end_hand(seat)
        if len(self.hands[seat]) == 1:
            self.caller = seat
        return events + self.check_target()

    def end_hand(self, emptied: int) -> list[Event]:
        self.points[emptied] += 1
        self.caller = None
        events: list[Event] = [
            HandEnded(
                hand=self.hand,
                players=list(range(self.seat_count)),
                net_chips=[0] * self.seat_count,
                scores=list(self.points),
                winners=[emptied],
            )
        ]
        self.phase = "between"
        return events + self.check_target()

    def check_target(self) -> list[Event]:
        if max(self.points) < self.options.target:
            return []
        self.phase, self.caller = "over", None
        return [MatchEnded(placings=placings(self.points), scores=self.points)]

    def final_standings(self) -> MatchEnded:
        return MatchEnded(placings=placings(self.points), scores=self.points)

    # -- what players see ------------------------------------------------------------------------

    def view(self, viewer: Viewer) -> SnapView:
        view = SnapView(
            hand=self.hand,
            phase=self.phase,
            points=self.points,
            counts=[len(hand) for hand in self.hands],
            pile=self.pile,
            turn=self.turn if self.phase in ("play", "window") else None,
            window_open=self.phase == "window",
        )
        if viewer is not None:
            view.my_cards = self.hands[viewer]
        return view

    def all_cards(self) -> list[FrenchCard]:
        held = [card for hand in self.hands for card in hand]
        return self.deck + held + self.pile + self.thrown

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        others = {card for seat, hand in enumerate(self.hands) if seat != viewer for card in hand}
        return set(self.deck) | others | set(self.thrown)


def create_snap(options: SnapOptions, stacks: list[int], rng: Rng) -> SnapState:
    state = SnapState(
        rng=rng,
        seat_count=len(stacks),
        options=options,
        points=[0] * len(stacks),
        phase="",
    )
    state.start_hand()
    return state


SNAP = GameSpec(
    id="fw_snap",
    name="Snap",
    min_players=2,
    max_players=4,
    options_model=SnapOptions,
    state_model=SnapState,
    actions=TypeAdapter(SnapAction),
    deck=french_deck,
    create=create_snap,
)

FRAMEWORK_GAMES = (PARTNERS, BANKER, SNAP)
