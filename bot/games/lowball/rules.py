"""Triple Draw Lowball (bot/games/lowball/rules.md).

Deuce-to-seven low: aces are high, straights and flushes count against you, and the best hand
is 7-5-4-3-2 in mixed suits (pokerkit's StandardLowHand ranks the hands). Fixed limit from the
table's small bet: the small blind is half of it, the big blind all of it, bets and raises are
the small bet in the first two rounds and twice it in the last two, and a round is capped at a
bet and three raises (the big blind counts as the bet). Five cards each; four betting rounds
with three private draws between them; a showdown in turn where every hand still in is shown
(no mucking); the lowest hand wins.
The table goes on hand after hand while two players have chips.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard, Rank, french_deck
from bot.engine import Action, Decision, DecisionKind, Event, IllegalAction, Rng, Viewer
from bot.engine import HandStarted as BaseHandStarted
from bot.games.betting import Betting, BettingAction, Fold, Limits, Pot
from bot.games.jokerless import rank_of, suit_of
from bot.games.poker import BettingSeatView, BettingTable, Muck, Show
from bot.i18n import _

if TYPE_CHECKING:
    from pokerkit import StandardLowHand

HAND_SIZE = 5
DRAWS = 3
BETTING_ROUNDS = DRAWS + 1
BIG_BET_FROM = 3  # rounds 3 and 4 bet twice the small bet
MAX_BETS = 4  # a bet and three raises per round


# ---- deuce-to-seven, by pokerkit ---------------------------------------------------------------


def high_value(rank: Rank) -> int:
    """Rank order in deuce-to-seven: 2 lowest ... K, then A highest."""
    return 14 if rank is Rank.ACE else int(rank)


def pokerkit_code(card: FrenchCard) -> str:
    """`Ts`, `Ah`, `7c`: the card as pokerkit writes it."""
    rank = "T" if card.rank is Rank.TEN else rank_of(card).code
    return f"{rank}{suit_of(card).value}"


def low_hand(cards: list[FrenchCard]) -> StandardLowHand:
    # Imported at the first showdown: pokerkit builds its hand tables as it is imported
    # (0.3 s), which every process starting the bot would pay, playing Lowball or not.
    from pokerkit import StandardLowHand

    return StandardLowHand("".join(pokerkit_code(card) for card in cards))


def low_strength(cards: list[FrenchCard]) -> int:
    """Greater is a better (lower) deuce-to-seven hand; equal hands tie. pokerkit's entry index
    counts up from the best low, 7-5-4-3-2."""
    return -low_hand(cards).entry.index


def hand_parts(cards: list[FrenchCard]) -> tuple[str, list[Rank]]:
    """pokerkit's name of the hand's kind ("High card", "One pair" ...) and its ranks, the
    most held first, then highest: 7 7 K 5 2."""
    counts = Counter(rank_of(card) for card in cards)
    ranks = sorted(
        (rank_of(card) for card in cards), key=lambda r: (counts[r], high_value(r)), reverse=True
    )
    return low_hand(cards).entry.label.value, ranks


def describe(cards: list[FrenchCard]) -> str:
    """`8-6-5-4-2` for no pair, straight or flush; else `one pair: 7-7-K-5-2`. In English,
    as the records keep it (the table's words say it in the reader's language, ui.py)."""
    label, ranks = hand_parts(cards)
    text = "-".join(rank.code for rank in ranks)
    return text if label == "High card" else f"{label.lower()}: {text}"


def in_hand_order(cards: list[FrenchCard]) -> list[FrenchCard]:
    """Highest first, as players hold a low hand."""
    return sorted(cards, key=lambda c: (high_value(rank_of(c)), suit_of(c).value), reverse=True)


# ---- options, actions, events ----------------------------------------------------------------


class LowballOptions(BaseModel):
    small_bet: int = Field(
        default=2, ge=2, le=1000, description="Small bet: blinds are half and all of it"
    )


class LowballKind(DecisionKind):
    """Lowball's own decision, besides the betting table's (`BettingKind`)."""

    DRAW = "draw"


class Draw(Action):
    """Throw these cards and draw as many."""

    kind: Literal["draw"] = "draw"
    cards: list[FrenchCard]


class StandPat(Action):
    kind: Literal["stand"] = "stand"


# Show and Muck only answer a showdown saved while a losing hand could still be mucked.
LowballAction = Annotated[
    BettingAction | Draw | StandPat | Show | Muck, Field(discriminator="kind")
]


class HandStarted(BaseHandStarted):
    """A deal (bot.engine.HandStarted), with the blinds posted."""

    dealer: int
    players: list[int]
    small_blind: int
    big_blind: int
    blinds: list[int]  # chips posted by the small and the big blind (less when all-in)


class Drew(Event):
    """How many cards a player threw and drew: everyone sees the number."""

    kind: Literal["drew"] = "drew"
    seat: int
    count: int  # 0: stood pat


class CardsDrawn(Event):
    """The cards a player drew: told to that player alone (audience)."""

    kind: Literal["cards_drawn"] = "cards_drawn"
    cards: list[FrenchCard]


class StubReshuffled(Event):
    kind: Literal["stub_reshuffled"] = "stub_reshuffled"
    cards: int


class Revealed(Event):
    kind: Literal["revealed"] = "revealed"
    seat: int
    cards: list[FrenchCard]
    description: str


# ---- views -----------------------------------------------------------------------------------


class SeatView(BettingSeatView):
    draws: list[int]  # cards drawn in each draw of this hand


class ShownHand(BaseModel):
    seat: int
    cards: list[FrenchCard]
    description: str


class HandResult(BaseModel):
    shown: list[ShownHand]
    winners: list[int]
    won: list[int]  # chips each seat took from the pot
    net: list[int] = []  # each seat's chips won or lost over the hand


class LowballView(BaseModel):
    hand: int
    phase: str
    betting_round: int
    draw_round: int
    dealer: int
    small_blind: int
    big_blind: int
    small_bet: int
    bet_size: int  # what a bet or raise is in this round
    bets: int  # bets and raises made in this round (the cap is MAX_BETS)
    pot: int
    stub_left: int
    discards: int
    seats: list[SeatView]
    to_act: int | None
    to_call: int
    result: HandResult | None
    my_cards: list[FrenchCard] | None = None
    my_hand: str | None = None  # its deuce-to-seven name


Phase = Literal["betting", "draw", "showdown", "between", "over"]


class LowballState(BettingTable):
    options: LowballOptions
    phase: Phase = "betting"
    stub: list[FrenchCard] = []
    hands: list[list[FrenchCard]] = []
    discards: list[FrenchCard] = []  # thrown and folded cards, face down
    small_blind: int = 0
    big_blind: int = 0
    draw_round: int = 0
    draw_queue: list[int] = []  # players still to draw in this draw, in order
    draws: list[list[int]] = []  # per seat: cards drawn in each draw of this hand

    @property
    def bet_size(self) -> int:
        big = self.betting_round >= BIG_BET_FROM
        return self.options.small_bet * (2 if big else 1)

    @property
    def limits(self) -> Limits:
        size = self.bet_size
        return Limits(low=size, high=size, allow_check=True, max_raises=MAX_BETS)

    # ---- the flow of a hand ---------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        self.collect_cards()
        playing = [s for s in range(self.seat_count) if self.seated[s] and self.stacks[s] > 0]
        self.betting = Betting.for_hand(self.seat_count, playing)
        if len(playing) < 2:
            return self.end_match()
        self.dealer = self.seats_from(self.dealer, lambda s: s in playing)[0]
        order = self.seats_from(self.dealer + 1, lambda s: s in playing)
        self.stacks_at_start, self.players = list(self.stacks), order
        for _round in range(HAND_SIZE):
            for seat in order:
                self.hands[seat].append(self.stub.pop(0))
        self.hands = [in_hand_order(hand) for hand in self.hands]
        # Heads-up the dealer posts the small blind and acts first before the first draw.
        self.small_blind, self.big_blind = (self.dealer, order[0]) if len(order) == 2 else order[:2]
        blinds = [(self.small_blind, self.options.small_bet // 2)]
        blinds.append((self.big_blind, self.options.small_bet))
        started = HandStarted(
            hand=self.hand,
            dealer=self.dealer,
            players=order,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            blinds=[min(chips, self.stacks[seat]) for seat, chips in blinds],
        )
        self.betting_round, self.draw_round = 0, 0
        first = self.left_of(self.big_blind, lambda s: s in playing)
        return [started, *self.next_betting_round(first, blinds)]

    def collect_cards(self) -> None:
        """Every card back into one shuffled stub (the whole deck, from its fresh order in a
        match started since issue 50); nothing shown, drawn or won yet."""
        cards = self.stub + [c for hand in self.hands for c in hand] + self.discards
        self.stub = self.rng.shuffled_gathered(cards, french_deck())
        self.hands = [[] for _ in range(self.seat_count)]
        self.discards = []
        self.draws = [[] for _ in range(self.seat_count)]
        self.new_showdown()

    def first_left_of_dealer(self) -> int:
        return self.left_of(self.dealer, lambda s: s in self.in_hand())

    def after_betting(self) -> list[Event]:
        """A round is over: uncalled chips go back; then a draw, or the showdown."""
        if len(self.in_hand()) == 1:
            return self.uncontested()
        returned = self.betting.return_uncalled(self.stacks)
        events: list[Event] = [returned] if returned else []
        if self.betting_round <= DRAWS:
            return events + self.start_draw()
        # The last to bet or raise in the final round shows first, else the dealer's left.
        aggressor = self.betting.last_aggressor
        first = self.first_left_of_dealer() if aggressor is None else aggressor
        return events + self.start_showdown(first)

    def start_draw(self) -> list[Event]:
        self.phase = "draw"
        self.draw_round += 1
        self.draw_queue = self.seats_from(self.dealer + 1, lambda s: s in self.in_hand())
        return []

    def draw(self, seat: int, thrown: list[FrenchCard]) -> list[Event]:
        """Replace the thrown cards from the stub. A stub that runs out is made again from the
        discards (in the deck's fresh order, see Rng.shuffled_gathered); the drawing player's own
        throw joins the discards only afterwards, so they never draw back a card they just
        threw."""
        events: list[Event] = []
        drawn: list[FrenchCard] = []
        for card in thrown:
            self.hands[seat].remove(card)
        for _thrown in thrown:
            if not self.stub:
                events.append(StubReshuffled(cards=len(self.discards)))
                self.stub = self.rng.shuffled_gathered(self.discards, french_deck())
                self.discards = []
            drawn.append(self.stub.pop(0))
        self.discards += thrown
        self.hands[seat] = in_hand_order(self.hands[seat] + drawn)
        self.draws[seat].append(len(thrown))
        events.append(Drew(seat=seat, count=len(thrown)))
        if drawn:
            events.append(CardsDrawn(cards=drawn, audience=(seat,)))
        return events

    # ---- the showdown ---------------------------------------------------------------------

    def strength(self, seat: int) -> int:
        return low_strength(self.hands[seat])

    def revealed(self, seat: int) -> Revealed:
        cards = self.hands[seat]
        return Revealed(seat=seat, cards=cards, description=describe(cards))

    def must_show(self, seat: int, pots: Sequence[Pot]) -> bool:
        """Every hand still in is shown, none mucked: the text says "they reveal their hands"."""
        return True

    # ---- the protocol ---------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "draw":
            prompt = _(
                "Draw {draw} of {draws}: throw up to five cards, or stand pat",
                draw=self.draw_round,
                draws=DRAWS,
            )
            return [Decision(seat=self.draw_queue[0], kind=LowballKind.DRAW, prompt=prompt)]
        return super().pending()

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase != "draw":
            return super().legal_actions(seat)
        if self.draw_queue[:1] != [seat]:
            return []
        hand = self.hands[seat]
        throws = [
            Draw(cards=list(cards))
            for count in range(1, HAND_SIZE + 1)
            for cards in combinations(hand, count)
        ]
        return [StandPat(), *throws]

    def canonical(self, seat: int, action: Action) -> Action:
        """A throw is listed with its cards in the order of the hand."""
        if isinstance(action, Draw) and set(action.cards) <= set(self.hands[seat]):
            return Draw(cards=[card for card in self.hands[seat] if card in action.cards])
        return action

    def verify(self, seat: int, action: Action) -> None:
        if isinstance(action, Draw) and self.phase == "draw" and self.draw_queue[:1] == [seat]:
            if not action.cards:
                raise IllegalAction(_("Pick the cards to throw, or stand pat."))
            if len(set(action.cards)) != len(action.cards):
                raise IllegalAction(_("You picked a card twice."))
            if not set(action.cards) <= set(self.hands[seat]):
                raise IllegalAction(_("You don't hold those cards."))
        super().verify(seat, self.canonical(seat, action))

    def default_action(self, seat: int) -> Action:
        """Stand pat in a draw; check if possible, else fold."""
        return StandPat() if self.phase == "draw" else super().default_action(seat)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if self.phase != "draw":
            if isinstance(action, Fold):  # a folded hand goes face down to the discards
                self.discards += self.hands[seat]
                self.hands[seat] = []
            return super()._apply(seat, action)
        self.draw_queue.pop(0)
        thrown = action.cards if isinstance(action, Draw) else []
        events = self.draw(seat, thrown)
        if not self.draw_queue:
            events += self.next_betting_round(self.dealer + 1)
        return events

    def view(self, viewer: Viewer) -> LowballView:
        betting = self.betting
        to_act, to_call = self.turn_shown(self.draw_queue[0] if self.draw_queue else None)
        seats = self.seat_views(
            SeatView,
            folded=[s in self.players and betting.folded[s] for s in range(self.seat_count)],
            cards=[len(hand) for hand in self.hands],
            draws=self.draws,
        )
        view = LowballView(
            hand=self.hand,
            phase=self.phase,
            betting_round=self.betting_round,
            draw_round=self.draw_round,
            dealer=self.dealer,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            small_bet=self.options.small_bet,
            bet_size=self.bet_size,
            bets=betting.raises,
            pot=self.pot_size(),
            stub_left=len(self.stub),
            discards=len(self.discards),
            seats=seats,
            to_act=to_act,
            to_call=to_call,
            result=self.result if self.phase == "between" else None,
        )
        hand = self.hands[viewer] if viewer is not None else []
        if hand:
            view.my_cards, view.my_hand = hand, describe(hand)
        return view

    @property
    def result(self) -> HandResult:
        """The showdown of the last hand (the current one's so far)."""
        shown = [
            ShownHand(seat=s, cards=self.hands[s], description=describe(self.hands[s]))
            for s in range(self.seat_count)
            if self.shown[s]
        ]
        return HandResult(shown=shown, winners=self.winners, won=self.won, net=self.net)

    def all_cards(self) -> list[FrenchCard]:
        return self.stub + [c for hand in self.hands for c in hand] + self.discards

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        hidden = set(self.stub) | set(self.discards)
        for seat, hand in enumerate(self.hands):
            if seat != viewer and not self.shown[seat]:
                hidden |= set(hand)
        return hidden


def new_lowball(
    options: LowballOptions, stacks: list[int], rng: Rng
) -> tuple[LowballState, list[Event]]:
    state = LowballState(
        rng=rng,
        seat_count=len(stacks),
        options=options,
        stacks=stacks,
        seated=[True] * len(stacks),
        stub=french_deck(),
    )
    return state, state.start_hand()
