"""Porrazo (shared/rules/porrazo.md, DECISIONS.md).

Two to five players alone, or four in two partnerships (partners sit across), one 52-card pack,
aces low. Three cards each from the dealer's left; the rest is the stock. Every deal of three:

- a player holding a pair or three of a kind may declare a ronda or rondine (the rank stays
  hidden) until the deal's first card is played; once every declared set is out, the highest
  declaration scores (K 4, Q 3, J 2, 10-A 1; a rondine three times that and above any ronda;
  ties to the first from the dealer's left);
- the dealer may deal the tendido (once a hand, at the latest with the last deal): four cards
  face up, arranged for the most points (pips of A-4 lying in their own place, counting either
  way, plus the pairs, threes and fours they make with the table);
- on the last deal the three odd cards of an odd table are turned face up.

Play from the dealer's left: a card takes one table card of its rank, or a run of two or more
consecutive ranks starting at its rank (K-A-2 wraps); it must capture when it can, unless it is
played in place (an A-4 whose pip is the number of table cards once it lies there: its pip
scores). A capture of every table card is a limpia (a ronda of the last rank taken). A card
pairing the card just placed by the previous player is a porrazo: it waits on the table until
the next play; a third card then is a counter-porrazo (a rondine, taking both), a fourth a san
benito (the game); otherwise the porrazo stands (a ronda, taking the card, and a limpia too when
that card was the only one on the table). The dealer's last card of the hand takes every card
left. The side with the most cards scores the difference to the next best; the first side to
the target (61) wins, even mid-hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator

from bot.cards import FrenchCard, Rank, Suit, french_deck
from bot.engine import (
    Action,
    Decision,
    Event,
    GameSpec,
    HandEnded,
    HandStarted,
    IllegalAction,
    Rng,
    Viewer,
    registry,
)
from bot.games.captures import (
    match_captures,
    sequence_captures,
    verify_match_capture,
    verify_sequence_capture,
)
from bot.games.hands import PointsMatchHands
from bot.games.matches import Match

MIN_SEATS, MAX_SEATS = 2, 5
PARTNERSHIP_SEATS = 4
SIDES = 2  # in a partnership game
HAND_SIZE = 3
TENDIDO_SIZE = 4
TARGET = 61
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
FACE_VALUES = {Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}  # a ronda; 10 down to A: 1
SET_TIMES = {2: 1, 3: 3, 4: 6}  # a ronda, a rondine (x3), four of a kind (two rondines)
SET_NAMES = {2: "ronda", 3: "rondine"}
SAN_BENITO = 4  # the fourth card of a rank in a row


def card_key(card: FrenchCard) -> tuple[int, int]:
    """Aces low, then ♠ ♥ ♦ ♣."""
    return int(card.rank), SUIT_ORDER.index(card.suit)


def sort_cards(cards: Sequence[FrenchCard]) -> list[FrenchCard]:
    return sorted(cards, key=card_key)


def ronda_points(rank: Rank) -> int:
    return FACE_VALUES.get(rank, 1)


def set_points(rank: Rank, size: int) -> int:
    """A pair scores as a ronda, three as a rondine, four as two rondines."""
    return ronda_points(rank) * SET_TIMES[size]


def pip(card: FrenchCard) -> int:
    return int(card.rank)


def last_rank(card: FrenchCard, length: int) -> Rank:
    """The last rank of a run of `length` ranks starting at `card`'s (K-A wraps)."""
    return Rank((int(card.rank) - 1 + length - 1) % 13 + 1)


def run_order(card: FrenchCard, taken: Sequence[FrenchCard]) -> list[FrenchCard]:
    """Taken cards as the run reads from `card`'s rank (Q K A 2)."""
    return sorted(taken, key=lambda other: ((other.rank - card.rank) % 13, card_key(other)))


def declarable(hand: Sequence[FrenchCard]) -> list[FrenchCard]:
    """The cards of the pair or three of a kind in a hand of three (none: empty)."""
    counts = Counter(card.rank for card in hand)
    rank, count = max(counts.items(), key=lambda item: item[1], default=(None, 0))
    return [card for card in hand if card.rank == rank] if count >= 2 else []


# ---- captures: shared by the engine and the picker's preview -----------------------------------


def fits_in_place(card: FrenchCard, table: Sequence[FrenchCard]) -> bool:
    """An A-4 placed without capturing, whose pip is the number of open table cards once it
    lies there (a pending porrazo has stood and left the table by then)."""
    return card.rank <= Rank.FOUR and pip(card) == len(table) + 1


def capture_options(
    card: FrenchCard,
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
    trailed: FrenchCard | None = None,
) -> list[list[FrenchCard]]:
    """Every set of cards `card` may take: a pending porrazo of its rank (countering it), the
    card just placed (a porrazo), runs from its rank (longest first), then the other pairs."""
    options = [sort_cards(stack)] if stack and stack[0].rank == card.rank else []
    porrazo = trailed is not None and trailed.rank == card.rank
    if porrazo:
        options.append([trailed])
    options += [sort_cards(run) for run in sequence_captures(card, table).options]
    pairs = match_captures(card, table).options
    return options + [pair for pair in pairs if not porrazo or pair != [trailed]]


def play_options(
    card: FrenchCard,
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
    trailed: FrenchCard | None = None,
) -> list[list[FrenchCard]]:
    """What `card` may take, with the empty set when it may be placed: a card that can capture
    must, unless it is played in place."""
    captures = capture_options(card, table, stack, trailed)
    placing = not captures or fits_in_place(card, table)
    return captures + ([[]] if placing else [])


def play_problem(
    card: FrenchCard,
    take: Sequence[FrenchCard],
    hand: Sequence[FrenchCard],
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
) -> str | None:
    """Why playing `card` to take `take` is refused, or None when it is a legal play."""
    if card not in hand:
        return "You don't hold that card."
    if not take:
        if capture_options(card, table, stack) and not fits_in_place(card, table):
            return (
                f"Your {card.label} can capture, so it must: only a card played in place "
                "may pass up its capture."
            )
        return None
    if set(take) & set(stack):
        if Counter(take) == Counter(stack) and card.rank == stack[0].rank:
            return None
        return f"The porrazo's cards are taken all together, and only by a {stack[0].rank.label}."
    if len(take) > 1 and all(taken.rank == card.rank for taken in take):
        return f"Your {card.label} takes only one card of its rank, even from a pair."
    try:
        if len(take) == 1:
            verify_match_capture(card, take, table)
        else:
            verify_sequence_capture(card, take, table)
    except IllegalAction as refusal:
        return str(refusal)
    return None


def meant_take(
    card: FrenchCard,
    take: Sequence[FrenchCard],
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
) -> list[FrenchCard]:
    """What a card picked with `take` takes: as picked, except that a card picked alone that
    must capture and matches a pending porrazo counters it (the porrazo's cards lie apart from
    the table, so a player who means the counter-porrazo picks just the card)."""
    if take or not stack or stack[0].rank != card.rank or fits_in_place(card, table):
        return list(take)
    return sort_cards(stack)


def move_of(
    card: FrenchCard,
    take: Sequence[FrenchCard],
    table: Sequence[FrenchCard],
    stack: Sequence[FrenchCard] = (),
    trailed: FrenchCard | None = None,
) -> str:
    """What a legal play is: placed, in_place, pair, sequence, limpia, porrazo, counter or
    san_benito."""
    if not take:
        return "in_place" if fits_in_place(card, table) else "placed"
    if stack and set(take) == set(stack):
        return "san_benito" if len(stack) + 1 == SAN_BENITO else "counter"
    if trailed is not None and list(take) == [trailed]:
        return "porrazo"
    if len(take) == len(table):
        return "limpia"
    return "pair" if len(take) == 1 else "sequence"


# ---- tendido -------------------------------------------------------------------------------------


def in_place_points(row: Sequence[FrenchCard]) -> int:
    """The pips of the cards lying in their own place (an A first, a 2 second, ...)."""
    return sum(pip(card) for place, card in enumerate(row, start=1) if pip(card) == place)


def arrangements(cards: Sequence[FrenchCard]) -> list[list[FrenchCard]]:
    """The rows a tendido may make: the cards of each pair swapped or not, counted from
    either end (which puts either pair first)."""
    first, second = list(cards[:2]), list(cards[2:])
    rows = []
    for lead, tail in ((first, second), (second, first)):
        for a in (lead, lead[::-1]):
            rows += [a + b for b in (tail, tail[::-1])]
    return rows


def best_arrangement(cards: Sequence[FrenchCard]) -> list[FrenchCard]:
    """The arrangement scoring the most (the row as dealt when nothing beats it)."""
    return max(arrangements(cards), key=in_place_points)


class TendidoSet(BaseModel):
    rank: Rank
    count: int
    points: int


def tendido_sets(tendido: Sequence[FrenchCard], table: Sequence[FrenchCard]) -> list[TendidoSet]:
    """The pairs, threes and fours a tendido forms with the cards already on the table."""
    counts = Counter(card.rank for card in [*table, *tendido])
    ranks = sorted({card.rank for card in tendido})
    return [
        TendidoSet(rank=rank, count=counts[rank], points=set_points(rank, counts[rank]))
        for rank in ranks
        if counts[rank] >= 2
    ]


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

Move = Literal[
    "placed", "in_place", "pair", "sequence", "limpia", "porrazo", "counter", "san_benito", "last"
]
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


def partnership_sides(options: PorrazoOptions) -> int:
    return SIDES if options.partnerships else 0


def table_sides(seats: int, partnerships: bool) -> list[list[int]]:
    if not partnerships:
        return [[seat] for seat in range(seats)]
    if seats % SIDES:
        raise ValueError("partnerships need an even number of players")
    return [[seat for seat in range(seats) if seat % SIDES == side] for side in range(SIDES)]


class Declaration(BaseModel):
    seat: int
    cards: list[FrenchCard]  # hidden until played

    @property
    def name(self) -> str:
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


# ---- the game ------------------------------------------------------------------------------


class PorrazoState(PointsMatchHands):
    options: PorrazoOptions
    phase: Literal["tendido", "play", "between", "over"] = "play"
    stock: list[FrenchCard] = []
    hands: list[list[FrenchCard]] = []
    table: list[FrenchCard] = []
    stack: Stack | None = None
    trailed: FrenchCard | None = None
    won: list[list[FrenchCard]] = []  # per side
    turn: int = 0
    deal: int = 0
    tendido: list[FrenchCard] = []
    tendido_dealt: bool = False
    declared: list[Declaration] = []
    played: list[bool] = []  # per seat: has played a card since the last deal
    hand_points: list[int] = []  # per side
    result: HandResult | None = None

    # ---- dealing ------------------------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        self.stock = self.rng.shuffled(french_deck())
        self.hands = [[] for _ in range(self.seat_count)]
        self.table, self.stack, self.trailed = [], None, None
        self.won = [[] for _ in self.match.sides]
        self.deal, self.tendido, self.tendido_dealt = 0, [], False
        self.declared, self.result = [], None
        self.hand_points = [0] * len(self.match.sides)
        return [HandStarted(hand=self.hand), HandDealt(dealer=self.dealer), *self.deal_round()]

    def seats_from_left(self) -> list[int]:
        return [(self.dealer + step) % self.seat_count for step in range(1, self.seat_count + 1)]

    def deal_round(self) -> list[Event]:
        """Three cards each from the dealer's left; then the tendido (asked, or forced on the
        last deal) and, on the last deal, the odd cards."""
        self.deal += 1
        self.played = [False] * self.seat_count
        self.trailed = None
        for seat in self.seats_from_left():
            self.hands[seat] = sort_cards(self.stock[:HAND_SIZE])
            del self.stock[:HAND_SIZE]
        self.turn = (self.dealer + 1) % self.seat_count
        events: list[Event] = [Replenished(deal=self.deal, stock=len(self.stock))]
        events += [
            Dealt(seat=seat, cards=self.hands[seat], audience=(seat,))
            for seat in range(self.seat_count)
        ]
        if self.tendido_dealt:
            return events + self.begin_play()
        if not self.last_deal():
            self.phase = "tendido"
            return events
        return events + self.deal_tendido() + self.begin_play()

    def last_deal(self) -> bool:
        """No full deal is left in the stock once the tendido's cards are set aside."""
        reserve = 0 if self.tendido_dealt else TENDIDO_SIZE
        return len(self.stock) - reserve < HAND_SIZE * self.seat_count

    def begin_play(self) -> list[Event]:
        self.phase = "play"
        if not (self.last_deal() and self.stock):
            return []
        odd, self.stock = self.stock, []
        self.table += odd
        return [OddCards(cards=odd)]

    def deal_tendido(self) -> list[Event]:
        row = best_arrangement(self.stock[:TENDIDO_SIZE])
        del self.stock[:TENDIDO_SIZE]
        sets = tendido_sets(row, self.table)
        self.table += row
        self.tendido, self.tendido_dealt = row, True
        lying = [card for place, card in enumerate(row, start=1) if pip(card) == place]
        points = in_place_points(row) + sum(found.points for found in sets)
        dealt = TendidoDealt(dealer=self.dealer, cards=row, in_place=lying, sets=sets)
        return [dealt, *self.award(self.dealer, points, "tendido")]

    # ---- who decides --------------------------------------------------------------------------

    def side(self, seat: int) -> int:
        return self.match.side_of(seat)

    def required_seat(self) -> int | None:
        if self.phase == "tendido":
            return self.dealer
        return self.turn if self.phase == "play" else None

    def may_declare(self, seat: int) -> bool:
        """Declarations close when the deal's first card is played."""
        return (
            self.phase in ("tendido", "play")
            and not any(self.played)
            and all(d.seat != seat for d in self.declared)
            and bool(declarable(self.hands[seat]))
        )

    def pending(self) -> list[Decision]:
        required = self.required_seat()
        if required is None:
            return []
        if self.phase == "tendido":
            prompt = "Deal your tendido now (four cards face up), or keep it for a later deal."
        else:
            prompt = "Play a card: it takes from the table when it can, or it is placed."
        # The declarations come first: they close with the deal's first card, so whoever
        # takes pending seats in order (the runtime's AI seats) declares before playing.
        declarations = [
            Decision(
                seat=seat,
                kind="declare",
                prompt=f"You may declare your {SET_NAMES[len(declarable(self.hands[seat]))]} "
                "(its rank stays hidden) until the deal's first card is played.",
                optional=True,
            )
            for seat in range(self.seat_count)
            if seat != required and self.may_declare(seat)
        ]
        return [*declarations, Decision(seat=required, kind=self.phase, prompt=prompt)]

    def stack_cards(self) -> list[FrenchCard]:
        return self.stack.cards if self.stack else []

    def plays(self, seat: int) -> list[Play]:
        return [
            Play(card=card, take=take)
            for card in self.hands[seat]
            for take in play_options(card, self.table, self.stack_cards(), self.trailed)
        ]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        declare: list[Action] = [Declare()] if self.may_declare(seat) else []
        if seat != self.required_seat():
            return declare
        if self.phase == "tendido":
            return [DealTendido(), NoTendido(), *declare]
        return [*self.plays(seat), *declare]

    def verify(self, seat: int, action: Action) -> None:
        """The rules' own reasons for a refused card, declaration or tendido."""
        reason = None if self.is_over() else self.refusal(seat, action)
        if reason:
            raise IllegalAction(reason)
        super().verify(seat, action)

    def refusal(self, seat: int, action: Action) -> str | None:
        if isinstance(action, DealTendido | NoTendido) and self.phase != "tendido":
            return "The tendido is the dealer's, once a hand, right after a deal."
        if seat not in self.pending_seats():
            return None
        if isinstance(action, Play) and self.phase == "play" and seat == self.turn:
            hand, stack = self.hands[seat], self.stack_cards()
            return play_problem(action.card, action.take, hand, self.table, stack)
        if isinstance(action, Declare) and not self.may_declare(seat):
            if any(d.seat == seat for d in self.declared):
                return "You have declared already this deal."
            if any(self.played):
                return "Declarations close when the deal's first card is played."
            return "You hold no pair or three of a kind to declare."
        return None

    def default_action(self, seat: int) -> Action:
        """The tendido: not now. Playing: the capture of a pending porrazo, else a porrazo,
        else the capture taking the most cards (your lowest card first); with no capture, your
        lowest card is placed."""
        if self.phase == "tendido":
            return NoTendido()
        stack, trailed = self.stack_cards(), self.trailed
        plays = sorted(self.plays(seat), key=lambda play: card_key(play.card))
        captures = [play for play in plays if play.take]
        if not captures:
            return plays[0]
        return max(
            captures,
            key=lambda p: (p.take == sort_cards(stack), p.take == [trailed], len(p.take)),
        )

    # ---- acting -------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Declare):
            found = Declaration(seat=seat, cards=declarable(self.hands[seat]))
            self.declared.append(found)
            return [Declared(seat=seat, set_name=found.name)]
        if isinstance(action, DealTendido | NoTendido):
            dealt = self.deal_tendido() if isinstance(action, DealTendido) else []
            events = dealt or [TendidoDeferred(dealer=self.dealer)]
            if not self.match.is_over():
                events += self.begin_play()
        else:
            events = self.play(seat, action.card, action.take)
            if not self.match.is_over():
                events += self.advance()
        if self.match.is_over() and self.phase in ("tendido", "play"):
            events += self.close_hand()
        return events

    def play(self, seat: int, card: FrenchCard, take: list[FrenchCard]) -> list[Event]:
        self.played[seat] = True
        if take and set(take) == set(self.stack_cards()):
            self.hands[seat].remove(card)
            return self.counter(seat, card)
        events = self.stand()  # the porrazo was not countered
        if self.match.is_over():
            return events  # play stops at once: the card is not played
        self.hands[seat].remove(card)
        return events + self.place_or_take(seat, card, take)

    def place_or_take(self, seat: int, card: FrenchCard, take: list[FrenchCard]) -> list[Event]:
        move = move_of(card, take, self.table, (), self.trailed)
        self.trailed = card if not take else None
        for taken in take:
            self.table.remove(taken)
        played = Played(seat=seat, card=card, taken=run_order(card, take), move=move)
        if move in ("placed", "in_place"):
            self.table.append(card)
            in_place = pip(card) if move == "in_place" else 0
            return [played, *self.award(seat, in_place, "in_place", card.rank)]
        if move == "porrazo":
            self.stack = Stack(seat=seat, cards=[*take, card], limpia=not self.table)
            return [played]
        self.won[self.side(seat)] += [*take, card]
        if move != "limpia":
            return [played]
        last = last_rank(card, len(take))
        return [played, *self.award(seat, ronda_points(last), "limpia", last)]

    def counter(self, seat: int, card: FrenchCard) -> list[Event]:
        """A third card on a porrazo (a counter-porrazo) or a fourth (a san benito)."""
        taken = self.stack.cards
        self.stack = Stack(seat=seat, cards=[*taken, card])
        self.trailed = None
        if len(self.stack.cards) < SAN_BENITO:
            return [Played(seat=seat, card=card, taken=taken, move="counter")]
        side = self.side(seat)
        self.match.win(side)
        return [
            Played(seat=seat, card=card, taken=taken, move="san_benito"),
            SanBenito(seat=seat, side=side, side_seats=self.match.sides[side]),
        ]

    def stand(self) -> list[Event]:
        """A pending porrazo (or counter-porrazo) stands: its player takes its cards and
        scores a ronda (or rondine) of its rank, and a limpia when the porrazo took the only
        table card (a counter-porrazo took it from the porrazo, so never)."""
        if self.stack is None:
            return []
        stack, self.stack = self.stack, None
        self.won[self.side(stack.seat)] += stack.cards
        size, rank = len(stack.cards), stack.cards[0].rank
        why = "porrazo" if size == 2 else "counter_porrazo"
        events = self.award(stack.seat, set_points(rank, size), why, rank, stack.cards)
        if stack.limpia:
            events += self.award(stack.seat, ronda_points(rank), "limpia", rank, stack.cards[:1])
        return events

    def award(
        self,
        seat: int,
        points: int,
        why: Why,
        rank: Rank | None = None,
        cards: Sequence[FrenchCard] = (),
    ) -> list[Event]:
        """Score for the seat's side now; nothing once the game is over."""
        if points <= 0 or self.match.is_over():
            return []
        side = self.side(seat)
        self.hand_points[side] += points
        self.match.add(side, points)
        return [
            Scored(
                seat=seat,
                side=side,
                points=points,
                why=why,
                rank=rank,
                cards=cards,
                total=self.match.scores[side],
                side_seats=self.match.sides[side],
            )
        ]

    def advance(self) -> list[Event]:
        """After a play: the declarations, the next turn (the dealer's last card of the hand
        plays itself), the end of the deal."""
        events = self.settle_declarations()
        if self.match.is_over():
            return events
        if any(self.hands):
            self.turn = (self.turn + 1) % self.seat_count
            if not self.dealers_last_turn():
                return events
            events += self.last_card()
            if self.match.is_over():
                return events
        return events + self.end_deal()

    def settle_declarations(self) -> list[Event]:
        """Once every declared set has been played (declarations closed with the deal's first
        card), the highest declaration scores (a rondine over a ronda, then rank; ties: first
        from the dealer's left)."""
        if not self.declared:
            return []
        if any(card in self.hands[d.seat] for d in self.declared for card in d.cards):
            return []
        order = self.seats_from_left()
        best = max(
            self.declared,
            key=lambda d: (len(d.cards), d.cards[0].rank, -order.index(d.seat)),
        )
        self.declared = []
        size, rank = len(best.cards), best.cards[0].rank
        return self.award(best.seat, set_points(rank, size), best.name, rank, best.cards)

    def dealers_last_turn(self) -> bool:
        return (
            not self.stock
            and self.turn == self.dealer
            and sum(map(len, self.hands)) == len(self.hands[self.dealer]) == 1
        )

    def last_card(self) -> list[Event]:
        """The dealer's last card takes every card left on the table. It may still counter a
        porrazo (or make a san benito) or make a porrazo, which score; never a limpia or a card
        played in place."""
        dealer, card = self.dealer, self.hands[self.dealer][0]
        countering = self.stack is not None and self.stack.cards[0].rank == card.rank
        events = [] if countering else self.stand()
        if self.match.is_over():
            return events
        self.hands[dealer].clear()
        self.played[dealer] = True
        if countering:
            events += self.counter(dealer, card)
            if self.match.is_over():
                return events
            events += self.stand()
        elif self.trailed is not None and self.trailed.rank == card.rank:
            pair = [self.trailed, card]
            self.table.remove(self.trailed)
            self.won[self.side(dealer)] += pair
            events.append(Played(seat=dealer, card=card, taken=pair[:1], move="porrazo"))
            events += self.award(dealer, set_points(card.rank, 2), "porrazo", card.rank, pair)
        else:
            self.table.append(card)
            events.append(Played(seat=dealer, card=card, taken=[], move="last"))
        swept, self.table = self.table, []
        self.won[self.side(dealer)] += swept
        return [*events, Swept(seat=dealer, cards=swept)]

    def end_deal(self) -> list[Event]:
        """Every hand is empty: a pending porrazo stands (a new deal interrupts it), then the
        next deal, or the hand's count."""
        events = self.stand() + self.settle_declarations()
        self.trailed = None
        if self.match.is_over():
            return events
        if self.stock:
            return events + self.deal_round()
        return events + self.end_hand()

    # ---- the end of a hand ----------------------------------------------------------------------

    def end_hand(self) -> list[Event]:
        """The side with the most cards scores the difference to the next best."""
        won = [len(pile) for pile in self.won]
        ranked = sorted(won, reverse=True)
        best = won.index(ranked[0]) if ranked[0] > ranked[1] else None
        self.result = HandResult(won=won, side=best, points=ranked[0] - ranked[1])
        events: list[Event] = []
        if best is not None:
            seat = self.match.sides[best][0]
            events += self.award(seat, self.result.points, "cards")
        scored = HandScored(
            result=self.result, totals=list(self.match.scores), sides=self.match.sides
        )
        return [*events, scored, *self.close_hand()]

    def close_hand(self) -> list[Event]:
        over = self.match.is_over()
        self.phase = "over" if over else "between"
        most = max(self.hand_points)
        winners = [
            seat
            for seat in range(self.seat_count)
            if most and self.hand_points[self.side(seat)] == most
        ]
        if self.match.winner is not None:
            winners = list(self.match.sides[self.match.winner])
        ended = HandEnded(
            hand=self.hand,
            players=list(range(self.seat_count)),
            net_chips=[0] * self.seat_count,
            scores=[self.hand_points[self.side(seat)] for seat in range(self.seat_count)],
            winners=winners,
        )
        return [ended, self.standings()] if over else [ended]

    # ---- what each seat sees --------------------------------------------------------------------

    def view(self, viewer: Viewer) -> PorrazoView:
        view = PorrazoView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            turn=self.turn if self.phase == "play" else None,
            deal=self.deal,
            stock=len(self.stock),
            table=sort_cards(self.table),
            porrazo=self.stack_cards(),
            porrazo_seat=self.stack.seat if self.stack else None,
            porrazo_limpia=bool(self.stack and self.stack.limpia),
            trailed=self.trailed,
            tendido=self.tendido,
            tendido_dealt=self.tendido_dealt,
            counts=[len(hand) for hand in self.hands],
            sides=self.match.sides,
            won=[len(pile) for pile in self.won],
            scores=list(self.match.scores),
            hand_points=list(self.hand_points),
            declared=[DeclarationView(seat=d.seat, set_name=d.name) for d in self.declared],
            target=self.options.target,
            result=self.result,
        )
        if viewer is not None:
            view.seat = viewer
            view.my_cards = self.hands[viewer]
            if self.may_declare(viewer):
                view.my_declarable = SET_NAMES[len(declarable(self.hands[viewer]))]
            mine = next((d for d in self.declared if d.seat == viewer), None)
            view.my_declared = mine.cards if mine else None
        return view

    def all_cards(self) -> list[FrenchCard]:
        held = [card for hand in self.hands for card in hand]
        won = [card for pile in self.won for card in pile]
        return [*self.stock, *held, *self.table, *self.stack_cards(), *won]

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        held = {card for seat, hand in enumerate(self.hands) if seat != viewer for card in hand}
        return held | set(self.stock)


def new_porrazo(
    options: PorrazoOptions, stacks: list[int], rng: Rng
) -> tuple[PorrazoState, list[Event]]:
    seats = len(stacks)
    state = PorrazoState(
        rng=rng,
        seat_count=seats,
        options=options,
        match=Match.to_target(table_sides(seats, options.partnerships), options.target),
    )
    return state, state.start_hand()


PORRAZO = registry.register(
    GameSpec(
        id="porrazo",
        name="Porrazo",
        min_players=MIN_SEATS,
        max_players=MAX_SEATS,
        options_model=PorrazoOptions,
        state_model=PorrazoState,
        action_model=PorrazoAction,
        deck=french_deck,
        create=new_porrazo,
        sides=partnership_sides,
    )
)
