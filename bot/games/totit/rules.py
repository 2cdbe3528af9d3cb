"""Totit (bot/games/totit/rules.md): a Javanese fishing game for 2-6 players.

The 60-card Totit deck holds two copies of A-9 of spades, hearts and diamonds and of J Q K of
clubs. Eighteen cards are dealt face up to the table, then seven to each player (eleven with two
players), one at a time from the dealer's left; the rest are set aside unseen. From the dealer's
left each player in turn takes one table card with one card of their hand, or trails a card face
up to the table. On a player's first turn of the hand only an identical card (same rank and suit)
may be taken; from their second turn on, any card of the same rank, A J Q K counting as one rank.
Where two identical cards lie beside other cards of their rank, the odd ones go first. When the
hands are played out the table's cards are discarded and every pair of identical cards in a
player's captures scores a point. The deal passes left; the game ends when everyone has dealt.

House decisions: capturing is compulsory when possible (the text lets only a player who cannot
capture trail), unless the `trail_when_able` option lets a player trail anyway. Captured piles are
shown (every capture was seen by all). A timed-out player makes the capture that scores most (the
first listed on a tie), else trails their lowest card. Equal top scores share first place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard, Rank, Suit, totit_deck
from bot.engine import (
    Action,
    Decision,
    DecisionKind,
    Event,
    HandEnded,
    HandStarted,
    IllegalAction,
    Rng,
    Viewer,
)
from bot.games.captures import identical, match_targets, ranks_as_one, verify_match_capture
from bot.games.hands import PointsMatchHands
from bot.games.matches import Match
from bot.i18n import N_, _

MIN_PLAYERS, MAX_PLAYERS = 2, 6
TABLE_CARDS = 18
HAND_SIZE = 7
HEADS_UP_HAND_SIZE = 11  # two players get eleven cards each
HONOURS = (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING)  # one rank for capturing
SAME_RANK = ranks_as_one(*HONOURS)
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
# The turn's prompt, by (the seat's first turn of the hand, the trail_when_able option).
PROMPTS = {
    (True, False): N_(
        "Your turn: take a table card identical to one of yours (same rank and suit), "
        "or, if you can't, trail."
    ),
    (True, True): N_(
        "Your turn: take a table card identical to one of yours (same rank and suit), "
        "or trail a card."
    ),
    (False, False): N_(
        "Your turn: take a table card of the same rank as one of yours (A, J, Q, K are one "
        "rank), or, if you can't, trail."
    ),
    (False, True): N_(
        "Your turn: take a table card of the same rank as one of yours (A, J, Q, K are one "
        "rank), or trail a card."
    ),
}


def hand_size(players: int) -> int:
    return HEADS_UP_HAND_SIZE if players == 2 else HAND_SIZE


def sort_key(card: FrenchCard) -> tuple[bool, int, int, int]:
    """2 up to 9, then A J Q K together (they capture each other); then suit, then pack."""
    rank = card.rank
    assert rank is not None  # no jokers (bot/games/jokerless.py); inline: sorts call it a lot
    return rank in HONOURS, int(rank), SUITS.index(card.suit), card.pack


def sort_cards(cards: Sequence[FrenchCard]) -> list[FrenchCard]:
    return sorted(cards, key=sort_key)


def pairs_in(pile: Sequence[FrenchCard]) -> int:
    """Pairs of identical cards (same rank and suit) among `pile`: a point each."""
    return sum(count // 2 for count in Counter((c.rank, c.suit) for c in pile).values())


def targets(card: FrenchCard, table: Sequence[FrenchCard], first_turn: bool) -> list[FrenchCard]:
    """The table cards `card` may take now: identical ones on a first turn, else the same rank
    (A J Q K as one), odd suits before a pair of identical cards."""
    matches = identical if first_turn else SAME_RANK
    return match_targets(card, table, matches=matches, twins_last=True)


def can_capture(hand: Sequence[FrenchCard], table: Sequence[FrenchCard], first_turn: bool) -> bool:
    return any(targets(card, table, first_turn) for card in hand)


def capture_reason(
    card: FrenchCard,
    target: FrenchCard,
    hand: Sequence[FrenchCard],
    table: Sequence[FrenchCard],
    first_turn: bool,
) -> str | None:
    """Why `card` from `hand` may not take `target` from `table` (None: it may)."""
    if card not in hand:
        return _("You don't hold {card}.", card=card.label)
    if target not in table:
        return _("{card} is not on the table.", card=target.label)
    if first_turn and not identical(card, target):
        return _(
            "On your first turn you may only take a card identical to yours (same rank and "
            "suit): your {card} can't take {target}.",
            card=card.label,
            target=target.label,
        )
    matches = identical if first_turn else SAME_RANK
    try:
        verify_match_capture(card, [target], table, matches=matches, twins_last=True)
    except IllegalAction as refusal:
        return str(refusal)
    return None


def trail_reason(
    card: FrenchCard,
    hand: Sequence[FrenchCard],
    table: Sequence[FrenchCard],
    first_turn: bool,
    trail_when_able: bool,
) -> str | None:
    """Why `card` may not be trailed (None: it may): a player who can capture must."""
    if card not in hand:
        return _("You don't hold {card}.", card=card.label)
    if trail_when_able:
        return None
    for held in hand:
        found = targets(held, table, first_turn)
        if found:
            return _(
                "You must capture when you can: your {card} can take {target}.",
                card=held.label,
                target=found[0].label,
            )
    return None


# ---- actions and events -------------------------------------------------------------------


class TotitKind(DecisionKind):
    """Totit's one decision: a capture, or a card trailed."""

    PLAY = "play"


class TotitOptions(BaseModel):
    trail_when_able: bool = Field(
        default=False, description="Let a player trail a card even when they could capture"
    )


class Capture(Action):
    """Take `target` from the table with `card` from the hand."""

    kind: Literal["capture"] = "capture"
    card: FrenchCard
    target: FrenchCard


class Trail(Action):
    """Put `card` face up on the table."""

    kind: Literal["trail"] = "trail"
    card: FrenchCard


TotitAction = Annotated[Capture | Trail, Field(discriminator="kind")]


class Dealt(Event):
    """Told with every HandStarted: who dealt, how many cards each, who plays first."""

    kind: Literal["dealt"] = "dealt"
    hand: int
    deals: int  # how many hands the game lasts: one deal each
    dealer: int
    first: int
    hand_size: int
    set_aside: int


class Captured(Event):
    kind: Literal["captured"] = "captured"
    seat: int
    card: FrenchCard
    target: FrenchCard
    pairs: int  # pairs of identical cards this capture completed in the seat's pile


class Trailed(Event):
    kind: Literal["trailed"] = "trailed"
    seat: int
    card: FrenchCard


class HandScored(Event):
    kind: Literal["hand_scored"] = "hand_scored"
    pairs: list[int]  # per seat: the hand's points
    totals: list[int]  # per seat, after it
    discarded: int  # cards left on the table, now discarded


class TotitView(BaseModel):
    hand: int
    deals: int  # how many hands the game lasts: one deal each
    phase: str
    dealer: int
    turn: int | None
    table: list[FrenchCard]
    counts: list[int]  # cards in each hand
    captured: list[list[FrenchCard]]  # each seat's captures (all were seen being taken)
    pairs: list[int]  # each seat's pairs this hand
    scores: list[int]  # the game's totals
    first_turn: list[bool]  # who has still to take their first turn this hand
    set_aside: int
    trail_when_able: bool
    seat: int | None = None
    my_cards: list[FrenchCard] | None = None


# ---- the game -----------------------------------------------------------------------------


class TotitState(PointsMatchHands):
    options: TotitOptions
    phase: Literal["play", "between", "over"] = "play"
    table: list[FrenchCard] = []
    hands: list[list[FrenchCard]] = []
    piles: list[list[FrenchCard]] = []  # captured cards per seat
    set_aside: list[FrenchCard] = []  # dealt to nobody: never seen
    turns: list[int] = []  # turns each seat has taken this hand
    turn: int = 0

    # ---- dealing --------------------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        players = self.seat_count
        size = hand_size(players)
        deck = self.rng.shuffled(totit_deck())
        self.table = sort_cards(deck[:TABLE_CARDS])
        dealt = deck[TABLE_CARDS : TABLE_CARDS + size * players]
        self.hands = [[] for _ in range(players)]
        for index in range(players):  # one at a time, from the dealer's left
            self.hands[(self.dealer + 1 + index) % players] = sort_cards(dealt[index::players])
        self.set_aside = deck[TABLE_CARDS + size * players :]
        self.piles = [[] for _ in range(players)]
        self.turns = [0] * players
        self.turn = (self.dealer + 1) % players
        self.phase = "play"
        return [
            HandStarted(hand=self.hand),
            Dealt(
                hand=self.hand,
                deals=self.match.hands_to_play(),
                dealer=self.dealer,
                first=self.turn,
                hand_size=size,
                set_aside=len(self.set_aside),
            ),
        ]

    # ---- playing --------------------------------------------------------------------------

    def first_turn(self, seat: int) -> bool:
        return self.turns[seat] == 0

    def seat_to_act(self) -> int | None:
        return self.turn if self.phase == "play" else None

    def captures(self, seat: int) -> list[Capture]:
        first = self.first_turn(seat)
        return [
            Capture(card=card, target=target)
            for card in self.hands[seat]
            for target in targets(card, self.table, first)
        ]

    def pairs_made(self, seat: int, capture: Capture) -> int:
        pile = self.piles[seat]
        return pairs_in([*pile, capture.card, capture.target]) - pairs_in(pile)

    def capture(self, seat: int, action: Capture) -> list[Event]:
        made = self.pairs_made(seat, action)
        self.hands[seat].remove(action.card)
        self.table.remove(action.target)
        self.piles[seat] += [action.card, action.target]
        event = Captured(seat=seat, card=action.card, target=action.target, pairs=made)
        return [event, *self.end_turn(seat)]

    def trail(self, seat: int, card: FrenchCard) -> list[Event]:
        self.hands[seat].remove(card)
        self.table = sort_cards([*self.table, card])
        return [Trailed(seat=seat, card=card), *self.end_turn(seat)]

    def end_turn(self, seat: int) -> list[Event]:
        self.turns[seat] += 1
        if any(self.hands):
            self.turn = (seat + 1) % self.seat_count
            return []
        return self.end_hand()

    def end_hand(self) -> list[Event]:
        """Score a point per pair of identical cards captured; the table's cards are discarded
        (they stay in `table` until the next deal)."""
        players = self.seat_count
        points = [pairs_in(pile) for pile in self.piles]
        over = self.match.add_hand(points)
        top = max(points)
        events: list[Event] = [
            HandScored(pairs=points, totals=list(self.match.scores), discarded=len(self.table)),
            HandEnded(
                hand=self.hand,
                players=list(range(players)),
                net_chips=[0] * players,
                scores=list(points),
                winners=[seat for seat in range(players) if top and points[seat] == top],
            ),
        ]
        if over:
            self.phase = "over"
            return [*events, self.standings()]
        self.phase = "between"
        return events

    # ---- the protocol -----------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        seat = self.seat_to_act()
        if seat is None:
            return []
        prompt = _(PROMPTS[self.first_turn(seat), self.options.trail_when_able])
        return [Decision(seat=seat, kind=TotitKind.PLAY, prompt=prompt)]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.seat_to_act():
            return []
        captures: list[Action] = list(self.captures(seat))
        if captures and not self.options.trail_when_able:
            return captures
        return captures + [Trail(card=card) for card in self.hands[seat]]

    def verify(self, seat: int, action: Action) -> None:
        if seat == self.seat_to_act():
            reason = self.why_not(seat, action)
            if reason:
                raise IllegalAction(reason)
            return
        if self.phase == "between":
            raise IllegalAction(_("This hand is over; the next one is dealt shortly."))
        super().verify(seat, action)

    def why_not(self, seat: int, action: Action) -> str | None:
        hand, first = self.hands[seat], self.first_turn(seat)
        if isinstance(action, Capture):
            return capture_reason(action.card, action.target, hand, self.table, first)
        if isinstance(action, Trail):
            return trail_reason(action.card, hand, self.table, first, self.options.trail_when_able)
        return _("Take a card from the table or trail one.")

    def default_action(self, seat: int) -> Action:
        """The capture completing the most pairs (the first listed on a tie); with nothing
        to capture, trail the lowest card (2 up to 9, then A J Q K)."""
        captures = self.captures(seat)
        if captures:
            return max(captures, key=lambda capture: self.pairs_made(seat, capture))
        return Trail(card=self.hands[seat][0])

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Capture):
            return self.capture(seat, action)
        assert isinstance(action, Trail)  # verify lets no other action through
        return self.trail(seat, action.card)

    # ---- what each seat sees ------------------------------------------------------------------

    def view(self, viewer: Viewer) -> TotitView:
        view = TotitView(
            hand=self.hand,
            deals=self.match.hands_to_play(),
            phase=self.phase,
            dealer=self.dealer,
            turn=self.seat_to_act(),
            table=self.table,
            counts=[len(hand) for hand in self.hands],
            captured=self.piles,
            pairs=[pairs_in(pile) for pile in self.piles],
            scores=list(self.match.scores),
            first_turn=[self.phase == "play" and turns == 0 for turns in self.turns],
            set_aside=len(self.set_aside),
            trail_when_able=self.options.trail_when_able,
        )
        if viewer is not None:
            view.seat = viewer
            view.my_cards = self.hands[viewer]
        return view

    def all_cards(self) -> list[FrenchCard]:
        held = [card for hand in self.hands for card in hand]
        won = [card for pile in self.piles for card in pile]
        return self.table + held + won + self.set_aside

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        hidden = set(self.set_aside)
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden |= set(hand)
        return hidden


def new_totit(options: TotitOptions, stacks: list[int], rng: Rng) -> tuple[TotitState, list[Event]]:
    players = len(stacks)
    state = TotitState(
        rng=rng,
        seat_count=players,
        options=options,
        match=Match.for_hands(players, players),  # everyone deals once
    )
    return state, state.start_hand()
