"""Backhand (shared/rules/backhand.md, DECISIONS.md): blackjack without standing, against the
house.

Every player is dealt two cards face up from a shoe of one pack per two players. Aces among
those two are discarded and replaced (a replacement ace is kept); aces count 1, faces 10. A hand
of 11 or less is dealt cards until it reaches 12. Then the player hits (a card; over 21 busts
and loses, a fifth card without busting wins) or calls backhand: one card is turned, not added,
and the player wins if it would have busted them. Two cards totalling 17 to 20 make a push
hand: the player pushes it away (two new cards, aces replaced, may push again) or plays the
push (one card: 21 or less wins).

Two modes: for chips, each player bets between the table's minimum and maximum and the house
pays even money; or for wins only, the first to the target wins the match. The house deals
every hand, so play always starts with seat 0.

The house covers each hand from its guild balance (DECISIONS.md): every bet brings its even-
money win from the house to the table (`bank`, the house's hold), and when the hand ends the
hold and whatever the house won go back. The runtime moves those chips between the house's
account and the table with the step that brings or releases them, and refuses a bet the house
can't cover; so the table's limits hold as long as the house as a whole can cover them.
"""

from __future__ import annotations

import math
import random
import re
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from bot.cards import FrenchCard, Rank, french_deck
from bot.engine import (
    Action,
    Decision,
    Event,
    GameSpec,
    HandEnded,
    HandStarted,
    IllegalAction,
    MatchEnded,
    Rng,
    Viewer,
    registry,
)
from bot.games.hands import HandAfterHand

AUTO_DEAL_BELOW = 12  # a hand under 12 is dealt cards until it reaches 12
PUSH_LOW, PUSH_HIGH = 17, 20  # two cards totalling 17-20 make a push hand
BUST_OVER = 21
FIVE_CARDS = 5
LADDER = 5  # bet suggestions offered as buttons
ROUND_BETS = [mantissa * 10**power for power in range(7) for mantissa in (1, 2, 5)]
# The most cards one step can draw for one player: two new cards after a push away, two
# replacement aces, and three more up to five cards. The stock is refilled below that.
MOST_DRAWN_PER_PLAYER = 7


def card_value(card: FrenchCard) -> int:
    """Aces 1, faces 10, others their pips."""
    return min(int(card.rank), 10)


def hand_total(cards: list[FrenchCard]) -> int:
    return sum(card_value(card) for card in cards)


def packs_for(seats: int) -> list[FrenchCard]:
    """One pack for every two players, rounded up."""
    return french_deck(packs=math.ceil(seats / 2))


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
                f"The minimum bet ({self.min_bet}) can't be more than the maximum bet "
                f"({self.max_bet})."
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
    """Why a match for chips ended by itself (players leave with their stacks)."""

    kind: Literal["match_over"] = "match_over"
    reason: str


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


class BackhandState(HandAfterHand):
    options: BackhandOptions
    stacks: list[int]
    seated: list[bool]
    # The house's chips at the table: the even-money win of every bet of the hand in play, held
    # from the house's balance as the bets are made; 0 between hands (DECISIONS.md).
    bank: int = 0
    wins: list[int]
    last_bets: list[int]
    stock: list[FrenchCard] = []  # the next card is the last
    hands: list[PlayerHand] = []
    players: list[int] = []  # seats dealt into this hand, in playing order
    turn: int | None = None
    ended: str | None = None  # why the match ended, once it has

    listable = False  # bets are any amount in range; `suggestions` offer a ladder

    @property
    def for_chips(self) -> bool:
        return plays_for_chips(self.options)

    # ---- starting a hand --------------------------------------------------------------------

    def next_dealer(self) -> int:
        return self.dealer  # the house deals every hand

    def start_hand(self) -> list[Event]:
        reason = self.why_no_hand()
        if reason is not None:
            return self.end_match(reason)
        self.stock = list(reversed(self.rng.shuffled(packs_for(self.seat_count))))
        self.hands = [PlayerHand() for _ in range(self.seat_count)]
        self.players = [seat for seat in range(self.seat_count) if self.can_bet(seat)]
        self.turn = None
        events: list[Event] = [HandStarted(hand=self.hand)]
        if not self.for_chips:
            return events + self.deal()
        for seat in self.players:
            self.hands[seat].cap = min(self.options.max_bet, self.stacks[seat])
        self.phase = "betting"
        return events

    def can_bet(self, seat: int) -> bool:
        """Dealt in: every seated player for wins, those with the minimum bet for chips."""
        if not self.seated[seat]:
            return False
        return not self.for_chips or self.stacks[seat] >= self.options.min_bet

    def why_no_hand(self) -> str | None:
        """Why no further hand can be dealt, or None."""
        if not any(self.seated):
            return "Everyone has left the table."
        if not self.for_chips:
            return None
        if not any(self.can_bet(seat) for seat in range(self.seat_count)):
            return f"Nobody at the table has the minimum bet of {self.options.min_bet} chips left."
        return None

    def deal(self) -> list[Event]:
        """Two cards face up to each player in turn, then play starts with the first."""
        for _ in range(2):
            for seat in self.players:
                self.hands[seat].cards.append(self.draw())
        self.phase = "play"
        dealt = Dealt(cards={seat: list(self.hands[seat].cards) for seat in self.players})
        return [dealt, *self.next_turn()]

    def draw(self) -> FrenchCard:
        return self.stock.pop()

    # ---- decisions --------------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "betting":
            waiting = [seat for seat in self.players if self.hands[seat].bet is None]
            return [self.bet_decision(seat) for seat in waiting]
        if self.phase == "play" and self.turn is not None:
            hand = self.hands[self.turn]
            prompt = (
                f"Push hand ({hand.total}): push it away or play the push"
                if hand.push
                else f"Total {hand.total}: hit or call backhand"
            )
            return [Decision(seat=self.turn, kind="play", prompt=prompt)]
        return []

    def bet_decision(self, seat: int) -> Decision:
        low, high = self.options.min_bet, self.hands[seat].cap
        return Decision(
            seat=seat,
            kind="bet",
            prompt=f"Bet {low} to {high} chips",
            text_question=f"Your bet ({low} to {high} chips)",
        )

    def legal_actions(self, seat: int) -> list[Action]:
        """Every play when playing; when betting, a ladder of suggested bets (see `verify`)."""
        if seat not in self.pending_seats():
            return []
        if self.phase == "betting":
            ladder = bet_ladder(self.options.min_bet, self.hands[seat].cap, self.last_bets[seat])
            return [Bet(chips=chips) for chips in ladder]
        if self.hands[seat].push:
            return [PushAway(), PlayPush()]
        return [Hit(), CallBackhand()]

    def verify(self, seat: int, action: Action) -> None:
        if isinstance(action, Bet) and self.phase == "betting" and seat in self.pending_seats():
            self.check_bet(seat, action.chips)
            return
        if self.phase == "play" and seat == self.turn and not self.is_over():
            self.check_play(self.hands[seat], action)
        super().verify(seat, action)

    @staticmethod
    def check_play(hand: PlayerHand, action: Action) -> None:
        if hand.push and isinstance(action, Hit | CallBackhand):
            raise IllegalAction(
                "This is a push hand: push it away or play the push (one card, "
                f"{BUST_OVER} or less wins)."
            )
        if not hand.push and isinstance(action, PushAway | PlayPush):
            raise IllegalAction(
                f"Only a push hand ({PUSH_LOW} to {PUSH_HIGH} on your first two cards) can be "
                "pushed away or played as a push."
            )

    def check_bet(self, seat: int, chips: int) -> None:
        low, high = self.options.min_bet, self.hands[seat].cap
        if low <= chips <= high:
            return
        if chips > high and high < self.options.max_bet:
            raise IllegalAction(f"You can bet at most {high} chips: that is all you have.")
        raise IllegalAction(f"Bet from {low} to {high} chips.")

    def text_action(self, seat: int, text: str) -> Action:
        words = text.strip().lower()
        number = re.fullmatch(r"(\d{1,9})(?:\s*chips?)?", words)
        if number is None:
            raise IllegalAction("Write the number of chips you bet, like 5.")
        action = Bet(chips=int(number[1]))
        self.verify(seat, action)
        return action

    def sample(self, seat: int, chooser: random.Random) -> Action:
        if self.phase == "betting":
            return Bet(chips=chooser.randint(self.options.min_bet, self.hands[seat].cap))
        return chooser.choice(self.legal_actions(seat))

    def default_action(self, seat: int) -> Action:
        """Timeouts: the minimum bet; push a push hand away; otherwise call backhand."""
        if self.phase == "betting":
            return Bet(chips=self.options.min_bet)
        return PushAway() if self.hands[seat].push else CallBackhand()

    # ---- play -------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Bet):
            return self.place_bet(seat, action.chips)
        events = self.refill_stock()
        hand = self.hands[seat]
        if isinstance(action, Hit):
            card = self.draw()
            hand.cards.append(card)
            events.append(CardHit(seat=seat, card=card, total=hand.total))
            if hand.total > BUST_OVER:
                events.append(self.settle(seat, "bust"))
            elif len(hand.cards) == FIVE_CARDS:
                events.append(self.settle(seat, "five_cards"))
        elif isinstance(action, CallBackhand):
            hand.backhand = self.draw()
            events.append(BackhandCalled(seat=seat, card=hand.backhand, total=hand.total))
            busts = hand.total + card_value(hand.backhand) > BUST_OVER
            events.append(self.settle(seat, "backhand_won" if busts else "backhand_lost"))
        elif isinstance(action, PushAway):
            events += self.push_away(seat)
        else:
            hand.push = False
            card = self.draw()
            hand.cards.append(card)
            events.append(PushPlayed(seat=seat, card=card, total=hand.total))
            events.append(self.settle(seat, "push_won" if hand.total <= BUST_OVER else "push_lost"))
        if hand.outcome is not None:
            events += self.next_turn()
        return events

    def place_bet(self, seat: int, chips: int) -> list[Event]:
        """The bet goes on the table, and the house holds its even-money win beside it."""
        self.hands[seat].bet = chips
        self.stacks[seat] -= chips
        self.bank += chips
        self.last_bets[seat] = chips
        events: list[Event] = [BetPlaced(seat=seat, chips=chips)]
        if all(self.hands[player].bet is not None for player in self.players):
            events += self.deal()
        return events

    def next_turn(self) -> list[Event]:
        """The next player to act gets their hand ready; hands that settle without a
        decision (five cards in the automatic deal) pass the turn on; the hand ends after
        the last player."""
        events: list[Event] = []
        for seat in self.players:
            if self.hands[seat].outcome is None:
                self.turn = seat
                events += self.prepare(seat)
                if self.hands[seat].outcome is None:
                    return events
        self.turn = None
        return events + self.end_hand()

    def prepare(self, seat: int) -> list[Event]:
        """Before a player acts on two fresh cards: aces replaced, then a push hand waits
        for its choice, anything else is dealt up to 12."""
        events = self.replace_aces(seat)
        hand = self.hands[seat]
        if PUSH_LOW <= hand.total <= PUSH_HIGH:
            hand.push = True
            return [*events, PushHandDealt(seat=seat, total=hand.total)]
        return events + self.auto_deal(seat)

    def replace_aces(self, seat: int) -> list[Event]:
        """Aces among the first two cards are discarded and replaced; replacements stay,
        aces included."""
        hand = self.hands[seat]
        aces = [card for card in hand.cards if card.rank == Rank.ACE]
        if not aces:
            return []
        replacements = []
        for index, card in enumerate(hand.cards):
            if card.rank == Rank.ACE:
                hand.cards[index] = self.draw()
                replacements.append(hand.cards[index])
        hand.discarded += aces
        return [AcesReplaced(seat=seat, aces=aces, replacements=replacements)]

    def auto_deal(self, seat: int) -> list[Event]:
        """Cards until the hand reaches 12; five cards without busting win at once."""
        hand = self.hands[seat]
        drawn = []
        while hand.total < AUTO_DEAL_BELOW and len(hand.cards) < FIVE_CARDS:
            drawn.append(self.draw())
            hand.cards.append(drawn[-1])
        events: list[Event] = [AutoDealt(seat=seat, cards=drawn, total=hand.total)] if drawn else []
        if len(hand.cards) == FIVE_CARDS:
            events.append(self.settle(seat, "five_cards"))
        return events

    def push_away(self, seat: int) -> list[Event]:
        hand = self.hands[seat]
        old = hand.cards
        hand.discarded += old
        hand.cards = [self.draw(), self.draw()]
        hand.push = False
        return [PushedAway(seat=seat, discarded=old, cards=list(hand.cards)), *self.prepare(seat)]

    def refill_stock(self) -> list[Event]:
        """Before a play that could draw more cards than the stock holds, the cards out of
        play (settled hands, replaced aces, pushed-away and backhand cards) are shuffled
        back into it."""
        if len(self.stock) >= MOST_DRAWN_PER_PLAYER * len(self.players):
            return []
        gathered: list[FrenchCard] = []
        for seat in self.players:
            hand = self.hands[seat]
            gathered += hand.discarded + ([hand.backhand] if hand.backhand else [])
            hand.discarded, hand.backhand = [], None
            if hand.outcome is not None:
                gathered += hand.cards
                hand.cards = []
        self.stock = self.rng.shuffled(self.stock + gathered)
        return [StockRefilled(cards=len(gathered))]

    def settle(self, seat: int, outcome: Outcome) -> Settled:
        """The hand is won or lost; its bet is paid or collected when the hand ends."""
        hand = self.hands[seat]
        hand.outcome, hand.final, hand.push = outcome, hand.total, False
        self.wins[seat] += hand.won
        bet = hand.bet or 0
        return Settled(seat=seat, outcome=outcome, chips=bet if hand.won else -bet)

    def end_hand(self) -> list[Event]:
        """Even money from the house's hold for every win, lost bets to the house; then the
        house takes its chips back (the hold and what it won): none stay between hands."""
        net = [0] * self.seat_count
        for seat in self.players:
            bet = self.hands[seat].bet or 0
            net[seat] = bet if self.hands[seat].won else -bet
            self.stacks[seat] += bet + net[seat]
        self.bank = 0
        self.phase = "between"
        events: list[Event] = [
            HandEnded(
                hand=self.hand,
                players=list(self.players),
                net_chips=net,
                winners=[seat for seat in self.players if self.hands[seat].won],
                house_chips=-sum(net),
            )
        ]
        if not self.for_chips and max(self.wins) >= self.options.target:
            return events + self.end_match(None)
        limit = self.options.hand_limit
        if limit and self.hand >= limit:
            return events + self.end_match(f"That was hand {limit} of {limit}, the last.")
        reason = self.why_no_hand()
        return events + (self.end_match(reason) if reason else [])

    def end_match(self, reason: str | None) -> list[Event]:
        """The match is over: why (unless a player reached the target), and in wins-only
        mode the standings (for chips the table ranks players by the chips they won)."""
        self.phase, self.turn = "over", None
        self.ended = reason or "The target is reached."
        events: list[Event] = [MatchOver(reason=reason)] if reason else []
        return events if self.for_chips else [*events, self.standings()]

    def standings(self) -> MatchEnded:
        """Wins-only mode: by wins, those still seated before those who left."""
        keys = [(not self.seated[seat], -self.wins[seat]) for seat in range(self.seat_count)]
        ranked = sorted(keys)
        return MatchEnded(placings=[ranked.index(key) + 1 for key in keys], scores=self.wins)

    def final_standings(self) -> MatchEnded | None:
        """Wins-only: the standings; for chips the table ranks players by chips won."""
        return None if self.for_chips else self.standings()

    # ---- seats and chips ----------------------------------------------------------------------

    def can_leave_now(self, seat: int) -> bool:
        """Between hands; or at once for a seat not dealt into this hand."""
        return super().can_leave_now(seat) or seat not in self.players

    def leave(self, seat: int) -> int:
        if not self.seated[seat]:
            raise IllegalAction("You have already left this table.")
        if not self.can_leave_now(seat):
            raise IllegalAction("You can leave between hands.")
        self.seated[seat] = False
        chips, self.stacks[seat] = self.stacks[seat], 0
        if not any(self.seated) and not self.is_over():
            self.end_match("Everyone has left the table.")
        return chips

    def cash_out(self) -> list[int]:
        """Every seat's stack, with a bet still in play given back (the hand is void); the
        house's hold stays for the runtime to return."""
        self.give_bets_back()
        self.phase, self.turn = "over", None
        payouts, self.stacks = self.stacks, [0] * self.seat_count
        return payouts

    def house_cannot_cover(self, reason: str) -> list[Event]:
        """The house can't cover a bet that must be made (a timeout's minimum bet): the hand
        is void, its bets go back, and the match ends; the house's hold stays for the runtime
        to return."""
        self.give_bets_back()
        return self.end_match(reason)

    def give_bets_back(self) -> None:
        """A hand that won't be played out: its bets go back to their stacks."""
        if not self.in_hand():
            return
        for seat in self.players:
            self.stacks[seat] += self.hands[seat].bet or 0
            self.hands[seat].bet = None

    def in_hand(self) -> bool:
        return self.phase in ("betting", "play")

    def in_play(self) -> int:
        """Bets on the table: paid or collected when the hand ends."""
        if not self.in_hand():
            return 0
        return sum(self.hands[seat].bet or 0 for seat in self.players)

    def chip_total(self) -> int:
        return sum(self.stacks) + self.in_play() + self.bank

    def house_bank(self) -> int:
        return self.bank

    # ---- what players see -------------------------------------------------------------------

    def view(self, viewer: Viewer) -> BackhandView:
        return BackhandView(
            hand=self.hand,
            phase=self.phase,
            mode=self.options.mode,
            min_bet=self.options.min_bet,
            max_bet=self.options.max_bet,
            target=self.options.target,
            hand_limit=self.options.hand_limit,
            bank=self.bank,
            turn=self.turn,
            stock=len(self.stock),
            players=[self.player_view(seat) for seat in range(self.seat_count)],
            ended=self.ended,
            seat=viewer,
        )

    def player_view(self, seat: int) -> PlayerView:
        hand = self.hands[seat] if self.hands else PlayerHand()
        return PlayerView(
            seated=self.seated[seat],
            dealt_in=seat in self.players,
            stack=self.stacks[seat],
            wins=self.wins[seat],
            bet=hand.bet,
            cap=hand.cap,
            cards=hand.cards,
            total=hand.total,
            discarded=hand.discarded,
            backhand=hand.backhand,
            push=hand.push,
            outcome=hand.outcome,
            final=hand.final,
        )

    def all_cards(self) -> list[FrenchCard]:
        return self.stock + [card for hand in self.hands for card in hand.every_card()]

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        return set(self.stock)  # every dealt card is face up


def bet_ladder(low: int, high: int, last: int) -> list[int]:
    """Suggested bets: the minimum, the most allowed, the last bet, and round amounts
    spread between them."""
    picks = {low, high} | ({last} if low <= last <= high else set())
    steps = [amount for amount in ROUND_BETS if low < amount < high and amount not in picks]
    room = LADDER - len(picks)
    if room > 0 and steps:
        indices = {round((i + 1) * (len(steps) + 1) / (room + 1)) - 1 for i in range(room)}
        picks |= {steps[min(max(index, 0), len(steps) - 1)] for index in indices}
    return sorted(picks)


def new_backhand(
    options: BackhandOptions, stacks: list[int], rng: Rng
) -> tuple[BackhandState, list[Event]]:
    seats = len(stacks)
    state = BackhandState(
        rng=rng,
        seat_count=seats,
        options=options,
        phase="",
        stacks=list(stacks),
        seated=[True] * seats,
        wins=[0] * seats,
        last_bets=[0] * seats,
    )
    return state, state.start_hand()


BACKHAND = registry.register(
    GameSpec(
        id="backhand",
        name="Backhand",
        min_players=1,
        max_players=7,
        options_model=BackhandOptions,
        state_model=BackhandState,
        action_model=BackhandAction,
        deck=packs_for,
        deck_by_seats=True,
        create=new_backhand,
        uses_chips=plays_for_chips,
        house=True,
        house_cover=house_cover,
        least_buy_in=lambda options: options.min_bet,
    )
)
