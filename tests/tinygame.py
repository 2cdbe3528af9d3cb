"""High Card: a game that exists only to prove the conformance harness.

Each hand every seat that can pay antes and gets one private card. In turn each may swap it
for the top of the deck (the old card goes face up to the discards) or keep it. Then all
seats secretly and at the same time stake 0 (fold) or 1 chip; the highest card among those
who staked takes the pot, ties split it and the remainder stays for the next hand, which is
dealt at once. The staked cards, shown, go face up to the discards (the others go back into
the deck), so they stay public while the table shows the showdown. The match lasts a fixed
number of hands. Small as it is, it has what the harness must cover: private cards, a hidden
deck, public discards, cards revealed at a showdown, chips and a pot, turns, and a
simultaneous secret choice.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter

from bot.cards import FrenchCard, Rank, french_deck
from bot.engine import (
    Action,
    Decision,
    DecisionKind,
    Event,
    GameSpec,
    GameState,
    HandEnded,
    MatchEnded,
    Rng,
    Viewer,
    placings,
)


class Swap(Action):
    kind: Literal["swap"] = "swap"


class Keep(Action):
    kind: Literal["keep"] = "keep"


class Stake(Action):
    kind: Literal["stake"] = "stake"
    chips: int


TinyAction = Annotated[Swap | Keep | Stake, Field(discriminator="kind")]


class Revealed(Event):
    kind: Literal["revealed"] = "revealed"
    stakes: list[int | None]
    cards: dict[int, FrenchCard]


class TinyOptions(BaseModel):
    hands: int = Field(default=3, ge=1, le=20)
    ante: int = Field(default=1, ge=1, le=5)


class TinyView(BaseModel):
    hand: int
    phase: str
    pot: int
    stacks: list[int]
    discards: list[FrenchCard]
    turn: int | None
    has_staked: list[bool]
    my_card: FrenchCard | None = None
    my_stake: int | None = None


def high(card: FrenchCard) -> int:
    return 14 if card.rank == Rank.ACE else int(card.rank)


class TinyKind(DecisionKind):
    DRAW = "draw"
    STAKE = "stake"


class TinyState(GameState):
    options: TinyOptions
    stacks: list[int]
    pot: int = 0
    deck: list[FrenchCard] = []
    cards: list[FrenchCard | None] = []
    discards: list[FrenchCard] = []
    phase: Literal["draw", "stake", "over"] = "draw"
    turn: int = 0
    stakes: list[int | None] = []
    stacks_at_start: list[int] = []
    shown: list[FrenchCard] = []  # revealed at the showdown, for the next hand's discards

    # -- flow ------------------------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        returned = [c for c in self.cards if c is not None] + self.discards
        self.deck = self.rng.shuffled(self.deck + returned)
        self.discards, self.shown = self.shown, []
        self.stacks_at_start = list(self.stacks)
        ante = self.options.ante
        playing = [seat for seat in range(self.seat_count) if self.stacks[seat] >= ante]
        self.cards = [None] * self.seat_count
        if len(playing) < 2 or self.hand > self.options.hands:
            self.phase = "over"
            return [MatchEnded(placings=placings(self.stacks))]
        for seat in playing:
            self.stacks[seat] -= ante
            self.pot += ante
            self.cards[seat] = self.deck.pop()
        self.phase, self.turn = "draw", playing[0]
        self.stakes = [None] * self.seat_count
        return []

    def in_hand(self) -> list[int]:
        return [seat for seat, card in enumerate(self.cards) if card is not None]

    def pending(self) -> list[Decision]:
        if self.phase == "draw":
            return [Decision(seat=self.turn, kind=TinyKind.DRAW, prompt="Swap or keep your card?")]
        if self.phase == "stake":
            return [
                Decision(seat=seat, kind=TinyKind.STAKE, prompt="Stake 0 or 1 chip", secret=True)
                for seat in self.in_hand()
                if self.stakes[seat] is None
            ]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        if self.phase == "draw":
            return [Keep(), Swap()] if self.deck else [Keep()]
        return [Stake(chips=0)] + ([Stake(chips=1)] if self.stacks[seat] >= 1 else [])

    def default_action(self, seat: int) -> Action:
        return Keep() if self.phase == "draw" else Stake(chips=0)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Swap):
            self.discards.append(self.cards[seat])
            self.cards[seat] = self.deck.pop()
        if self.phase == "draw":
            later = [s for s in self.in_hand() if s > seat]
            if later:
                self.turn = later[0]
            else:
                self.phase = "stake"
            return []
        self.stakes[seat] = action.chips
        if any(self.stakes[s] is None for s in self.in_hand()):
            return []
        return self.showdown()

    def showdown(self) -> list[Event]:
        stakers = [s for s in self.in_hand() if self.stakes[s] == 1]
        for seat in stakers:
            self.stacks[seat] -= 1
            self.pot += 1
        events: list[Event] = [
            Revealed(stakes=self.stakes, cards={s: self.cards[s] for s in stakers})
        ]
        self.shown = [self.cards[s] for s in stakers]
        winners: list[int] = []
        if stakers:
            best = max(high(self.cards[s]) for s in stakers)
            winners = [s for s in stakers if high(self.cards[s]) == best]
            share = self.pot // len(winners)
            for seat in winners:
                self.stacks[seat] += share
            self.pot -= share * len(winners)
        net = [now - before for now, before in zip(self.stacks, self.stacks_at_start, strict=True)]
        events.append(
            HandEnded(hand=self.hand, players=self.in_hand(), net_chips=net, winners=winners)
        )
        for seat in stakers:
            self.cards[seat] = None
        self.hand += 1
        return events + self.start_hand()

    # -- what the harness inspects ---------------------------------------------------------

    def view(self, viewer: Viewer) -> TinyView:
        view = TinyView(
            hand=self.hand,
            phase=self.phase,
            pot=self.pot,
            stacks=self.stacks,
            discards=self.discards,
            turn=self.turn if self.phase == "draw" else None,
            has_staked=[stake is not None for stake in self.stakes],
        )
        if viewer is not None:
            view.my_card = self.cards[viewer]
            view.my_stake = self.stakes[viewer]
        return view

    def is_over(self) -> bool:
        return self.phase == "over"

    def all_cards(self) -> list[FrenchCard]:
        return self.deck + [c for c in self.cards if c is not None] + self.discards + self.shown

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        others = {c for seat, c in enumerate(self.cards) if c is not None and seat != viewer}
        return set(self.deck) | others

    def chip_total(self) -> int:
        return sum(self.stacks) + self.pot

    def cash_out(self) -> list[int]:
        for index in range(self.pot):  # odd chips one by one from seat 0
            self.stacks[index % self.seat_count] += 1
        payouts, self.stacks, self.pot = self.stacks, [0] * self.seat_count, 0
        self.phase = "over"
        return payouts


def tiny_spec(state_model: type[TinyState] = TinyState, game_id: str = "highcard") -> GameSpec:
    """The spec for High Card, or for a deliberately broken subclass of its state."""

    def create(options: TinyOptions, stacks: list[int], rng: Rng) -> TinyState:
        state = state_model(
            rng=rng,
            seat_count=len(stacks),
            options=options,
            stacks=stacks,
            deck=french_deck(),
        )
        state.start_hand()
        return state

    return GameSpec(
        id=game_id,
        name="High Card",
        min_players=2,
        max_players=5,
        options_model=TinyOptions,
        state_model=state_model,
        actions=TypeAdapter(TinyAction),
        deck=french_deck,
        create=create,
        uses_chips=True,
    )


TINY = tiny_spec()
