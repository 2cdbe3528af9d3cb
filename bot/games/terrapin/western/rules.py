"""Western Terrapin (bot/games/terrapin/western/rules.md).

Ante 1; two private cards; a betting round from the dealer's left; three shared cards
(redealt while they alone are Turtle Butt); a betting round from the last aggressive player;
take-or-stand draws from the last aggressive player; a final betting round; a showdown from
the last aggressive player with mucking. The table goes on hand after hand.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards.decktet import DecktetCard
from bot.engine import Action, Decision, DecisionKind, Event, Viewer
from bot.games.betting import Betting, BettingAction, Limits
from bot.games.poker import BettingSeatView, BettingTable, Muck, Show
from bot.games.terrapin.table import HandResult, HandStarted, TerrapinTable
from bot.i18n import _

ANTE = 1
PRIVATE_CARDS = 2
SHARED_CARDS = 3


class WesternKind(DecisionKind):
    """Western's own decision, besides the betting table's (`BettingKind`)."""

    DRAW = "draw"


class WesternOptions(BaseModel):
    raise_limit: int = Field(default=5, ge=1, le=100, description="Largest bet or raise")
    allow_check: bool = Field(default=False, description="May the first player check?")


class Take(Action):
    kind: Literal["take"] = "take"


class Stand(Action):
    kind: Literal["stand"] = "stand"


WesternAction = Annotated[BettingAction | Take | Stand | Show | Muck, Field(discriminator="kind")]


class Drew(Event):
    kind: Literal["drew"] = "drew"
    seat: int
    took: bool  # False: stood


class SeatView(BettingSeatView):
    standing: bool


class WesternView(BaseModel):
    hand: int
    phase: str
    betting_round: int
    dealer: int
    pot: int
    shared: list[DecktetCard]
    set_aside: list[DecktetCard]
    deck_left: int
    seats: list[SeatView]
    to_act: int | None
    to_call: int
    last_aggressor: int
    raise_limit: int
    result: HandResult | None
    my_cards: list[DecktetCard] | None = None
    my_score: int | None = None  # with the shared cards; None for Turtle Butt


Phase = Literal["betting", "draw", "showdown", "between", "over"]


class WesternState(BettingTable, TerrapinTable):
    options: WesternOptions
    phase: Phase = "betting"
    last_aggressor: int = 0  # the last to bet or raise in this hand; first the dealer's left
    draw_turn: int | None = None
    standing: list[bool] = []

    @property
    def limits(self) -> Limits:
        return Limits(high=self.options.raise_limit, allow_check=self.options.allow_check)

    # ---- the flow of a hand ---------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        self.collect_and_shuffle()
        playing = self.able_to_ante(ANTE)
        self.betting = Betting.for_hand(self.seat_count, playing)
        if len(playing) < 2:
            return self.end_match()
        self.stacks_at_start, self.players = list(self.stacks), playing
        for seat in playing:
            self.betting.put_in(self.stacks, seat, ANTE)
        order = self.seats_from(self.dealer + 1, lambda s: s in playing)
        self.deal_private(order, PRIVATE_CARDS)
        self.standing = [False] * self.seat_count
        self.last_aggressor = order[0]
        self.betting_round = 0
        events: list[Event] = [
            HandStarted(hand=self.hand, dealer=self.dealer, players=order, pot=self.pot_size())
        ]
        return events + self.next_betting_round(first=order[0])

    def after_betting(self) -> list[Event]:
        """A betting round is over: deal, draw, or show down, as the hand has reached."""
        if self.betting.last_aggressor is not None:
            self.last_aggressor = self.betting.last_aggressor
        if len(self.in_hand()) == 1:
            return self.uncontested()
        if self.betting_round == 1:
            return [
                self.deal_shared(SHARED_CARDS),
                *self.next_betting_round(self.first_after_lap()),
            ]
        if self.betting_round == 2:
            return self.start_draw()
        return self.start_showdown(self.last_aggressor)

    def first_after_lap(self) -> int:
        """The last aggressive player, or the next player still in after them."""
        return self.seats_from(self.last_aggressor, lambda s: s in self.in_hand())[0]

    def start_draw(self) -> list[Event]:
        self.phase = "draw"
        self.draw_turn = self.first_after_lap() if self.deck else None
        return [] if self.draw_turn is not None else self.next_betting_round(self.first_after_lap())

    def next_drawer(self, after: int) -> int | None:
        if not self.deck:
            return None
        drawing = self.seats_from(after + 1, lambda s: s in self.in_hand() and not self.standing[s])
        return drawing[0] if drawing else None

    # ---- the protocol ---------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "draw":
            assert self.draw_turn is not None  # the draw ends when nobody is left to draw
            prompt = _("Take a card or stand")
            return [Decision(seat=self.draw_turn, kind=WesternKind.DRAW, prompt=prompt)]
        return super().pending()

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "draw":
            return [Take(), Stand()] if seat == self.draw_turn else []
        return super().legal_actions(seat)

    def default_action(self, seat: int) -> Action:
        """Stand in the draw; otherwise as at any betting table (check, else fold; muck)."""
        return Stand() if self.phase == "draw" else super().default_action(seat)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if self.phase != "draw":
            return super()._apply(seat, action)
        took = isinstance(action, Take)
        if took:
            self.hands[seat].append(self.deck.pop())
        else:
            self.standing[seat] = True
        self.draw_turn = self.next_drawer(seat)
        events: list[Event] = [Drew(seat=seat, took=took)]
        if self.draw_turn is None:
            events += self.next_betting_round(self.first_after_lap())
        return events

    def view(self, viewer: Viewer) -> WesternView:
        betting = self.betting
        to_act, to_call = self.turn_shown(self.draw_turn)
        seats = self.seat_views(
            SeatView,
            folded=[betting.folded[s] and bool(self.hands[s]) for s in range(self.seat_count)],
            cards=[len(hand) for hand in self.hands],
            standing=self.standing,
        )
        view = WesternView(
            hand=self.hand,
            phase=self.phase,
            betting_round=self.betting_round,
            dealer=self.dealer,
            pot=self.pot_size(),
            shared=self.shared,
            set_aside=self.set_aside,
            deck_left=len(self.deck),
            seats=seats,
            to_act=to_act,
            to_call=to_call,
            last_aggressor=self.last_aggressor,
            raise_limit=self.options.raise_limit,
            result=self.result if self.phase == "between" else None,
        )
        if viewer is not None and self.hands[viewer]:
            self.show_own_hand(view, viewer)
        return view
