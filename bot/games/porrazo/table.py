"""Porrazo's table: the cards in hands, on the table and won, the sides' points, and what
each seat sees. The deals are played on it by PorrazoState (rules.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.cards import FrenchCard, Rank
from bot.engine import Event, Viewer
from bot.games.hands import PointsMatchHands
from bot.games.porrazo.plays import SET_NAMES, declarable, sort_cards
from bot.games.porrazo.records import (
    Declaration,
    DeclarationView,
    HandResult,
    PorrazoOptions,
    PorrazoView,
    Scored,
    Stack,
    Why,
)


class PorrazoTable(PointsMatchHands):
    """A Porrazo table's cards and scores; PorrazoState plays the deals on it."""

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

    # ---- seats, sides and scores ---------------------------------------------------------------

    def seats_from_left(self) -> list[int]:
        return [(self.dealer + step) % self.seat_count for step in range(1, self.seat_count + 1)]

    def side(self, seat: int) -> int:
        return self.match.side_of(seat)

    def may_declare(self, seat: int) -> bool:
        """Declarations close when the deal's first card is played."""
        return (
            self.phase in ("tendido", "play")
            and not any(self.played)
            and all(d.seat != seat for d in self.declared)
            and bool(declarable(self.hands[seat]))
        )

    def stack_cards(self) -> list[FrenchCard]:
        return self.stack.cards if self.stack else []

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
                cards=list(cards),
                total=self.match.scores[side],
                side_seats=self.match.sides[side],
            )
        ]

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
