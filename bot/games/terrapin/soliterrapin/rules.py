"""Soliterrapin (bot/games/terrapin/soliterrapin/rules.md): solo, on the basic Decktet.

The first card goes down by itself. Each next card must touch a placed card orthogonally, and
the grid's bounding box may never grow beyond 6 x 6. With all 36 cards down, each row and
each column scores as a Terrapin hand (Turtle Butt lines score 0); the score is the sum.
The daily challenge deals from a seed made of the date, so everyone gets the same deck.
Spots are named on a fixed frame around the first card (it is F6; columns A-K, rows 1-11), so
a card's name never changes as the grid grows (a house decision: the rules name no spots).
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import decktet
from bot.cards.decktet import DecktetCard
from bot.engine import (
    Action,
    Decision,
    DecisionKind,
    Event,
    GameState,
    HandEnded,
    IllegalAction,
    MatchEnded,
    Rng,
    Viewer,
)
from bot.games.terrapin.scoring import is_turtle_butt, score
from bot.i18n import _

SIZE = 6
REACH = SIZE - 1  # how far from the first card the grid can reach, in any direction
COLUMNS = "ABCDEFGHIJK"  # every column the grid can reach: the first card is always in F


class SoliterrapinKind(DecisionKind):
    """Soliterrapin's one decision: where to place the card turned."""

    PLACE = "place"


class SoliterrapinOptions(BaseModel):
    daily: str | None = Field(default=None, description="The UTC date of a daily challenge")


class Place(Action):
    kind: Literal["place"] = "place"
    row: int
    col: int


class Abandon(Action):
    kind: Literal["abandon"] = "abandon"


SoliterrapinAction = Annotated[Place | Abandon, Field(discriminator="kind")]


class Placed(Event):
    kind: Literal["placed"] = "placed"
    card: DecktetCard
    label: str


class Finished(Event):
    kind: Literal["finished"] = "finished"
    score: int
    abandoned: bool


class Cell(BaseModel):
    row: int
    col: int
    card: DecktetCard


class Line(BaseModel):
    """A row or column of the display window with its running score."""

    index: int  # position in the window
    score: int
    turtle_butt: bool


class Spot(BaseModel):
    row: int
    col: int
    label: str


class SoliterrapinView(BaseModel):
    phase: str
    daily: str | None
    cells: list[Cell]
    next_card: DecktetCard | None
    deck_left: int
    top: int  # the window: first row and column shown, and its size
    left: int
    rows: int
    cols: int
    legal: list[Spot]
    row_scores: list[Line]
    col_scores: list[Line]
    total: int
    abandoned: bool


def daily_seed(day: str) -> int:
    """The same deck for everyone on a UTC day (a date string like 2026-11-22)."""
    return int.from_bytes(hashlib.sha256(f"soliterrapin:{day}".encode()).digest()[:8], "big")


def daily_deal(options: SoliterrapinOptions) -> str | None:
    """A daily challenge's deck comes from its date, not from the board's seed."""
    if not options.daily:
        return None
    return _(
        "The daily challenge of {day} is dealt from its date, the same deck for everyone that "
        "day, not from a table seed: compare it with anyone's board of that day.",
        day=options.daily,
    )


def column_name(col: int) -> str:
    return COLUMNS[col + REACH]


def row_name(row: int) -> str:
    return str(row + REACH + 1)


def spot_name(row: int, col: int) -> str:
    """A spot's name on the fixed frame around the first card (always F6): unlike names
    counted from the grid's corner, it never changes as the grid grows left or up."""
    return column_name(col) + row_name(row)


class SoliterrapinState(GameState):
    options: SoliterrapinOptions
    deck: list[DecktetCard] = []
    cells: list[Cell] = []
    phase: Literal["placing", "over"] = "placing"
    abandoned: bool = False

    def start(self) -> None:
        self.deck = self.rng.shuffled(decktet.deck())
        self.cells = [Cell(row=0, col=0, card=self.deck.pop())]

    # ---- the grid ---------------------------------------------------------------------------

    def occupied(self) -> dict[tuple[int, int], DecktetCard]:
        return {(c.row, c.col): c.card for c in self.cells}

    def bounds(self) -> tuple[int, int, int, int]:
        rows = [c.row for c in self.cells]
        cols = [c.col for c in self.cells]
        return min(rows), max(rows), min(cols), max(cols)

    def legal_spots(self) -> list[tuple[int, int]]:
        """Empty cells touching a card orthogonally that keep the box within 6 x 6."""
        grid = self.occupied()
        top, bottom, left, right = self.bounds()
        spots = set()
        for row, col in grid:
            for spot in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                r, c = spot
                fits = max(bottom, r) - min(top, r) < SIZE and max(right, c) - min(left, c) < SIZE
                if spot not in grid and fits:
                    spots.add(spot)
        return sorted(spots)

    def window(self) -> tuple[int, int, int, int]:
        """What to show: the box, plus one line on each side it may still grow towards."""
        top, bottom, left, right = self.bounds()
        if bottom - top < SIZE - 1:
            top, bottom = top - 1, bottom + 1
        if right - left < SIZE - 1:
            left, right = left - 1, right + 1
        return top, left, bottom - top + 1, right - left + 1

    def lines(self) -> tuple[list[Line], list[Line]]:
        top, left, rows, cols = self.window()
        grid = self.occupied()

        def line(cards: list[DecktetCard], index: int) -> Line:
            return Line(index=index, score=score(cards), turtle_butt=is_turtle_butt(cards))

        row_lines = [
            line([v for (r, _), v in grid.items() if r == top + i], i) for i in range(rows)
        ]
        col_lines = [
            line([v for (_, c), v in grid.items() if c == left + i], i) for i in range(cols)
        ]
        return row_lines, col_lines

    def total(self) -> int:
        row_lines, col_lines = self.lines()
        return sum(line.score for line in row_lines + col_lines)

    # ---- the protocol -----------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase != "placing":
            return []
        card = self.deck[-1]
        prompt = _("Place {card}", card=card.shown_title)
        return [Decision(seat=0, kind=SoliterrapinKind.PLACE, prompt=prompt)]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != 0 or self.phase != "placing":
            return []
        return [Place(row=r, col=c) for r, c in self.legal_spots()] + [Abandon()]

    def default_action(self, seat: int) -> Action:
        """A game left alone for the whole turn time is abandoned, not played badly."""
        return Abandon()

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Abandon):
            self.abandoned = True
            return self.finish()
        assert isinstance(action, Place)  # verify lets no other action through
        card = self.deck.pop()
        self.cells.append(Cell(row=action.row, col=action.col, card=card))
        events: list[Event] = [Placed(card=card, label=spot_name(action.row, action.col))]
        return events + (self.finish() if not self.deck else [])

    def finish(self) -> list[Event]:
        self.phase = "over"
        final = 0 if self.abandoned else self.total()
        variant = f"daily:{self.options.daily}" if self.options.daily else None
        return [
            Finished(score=final, abandoned=self.abandoned),
            HandEnded(
                hand=self.hand,
                players=[] if self.abandoned else [0],
                net_chips=[0],
                scores=[final],
                winners=[0],
                variant=variant,
            ),
            MatchEnded(placings=[1]),
        ]

    def leave(self, seat: int) -> int:
        """Leaving abandons the game (nothing to take: Soliterrapin has no chips)."""
        if self.phase == "placing":
            self.apply(seat, Abandon())
        return 0

    def can_leave_now(self, seat: int) -> bool:
        return True

    def cash_out(self) -> list[int]:
        self.phase = "over"
        return [0]

    def view(self, viewer: Viewer) -> SoliterrapinView:
        top, left, rows, cols = self.window()
        row_lines, col_lines = self.lines()
        placing = self.phase == "placing"
        return SoliterrapinView(
            phase=self.phase,
            daily=self.options.daily,
            cells=self.cells,
            next_card=self.deck[-1] if placing else None,
            deck_left=len(self.deck),
            top=top,
            left=left,
            rows=rows,
            cols=cols,
            legal=[Spot(row=r, col=c, label=spot_name(r, c)) for r, c in self.legal_spots()]
            if placing
            else [],
            row_scores=row_lines,
            col_scores=col_lines,
            total=self.total(),
            abandoned=self.abandoned,
        )

    def is_over(self) -> bool:
        return self.phase == "over"

    def all_cards(self) -> list[DecktetCard]:
        return self.deck + [cell.card for cell in self.cells]

    def hidden_from(self, viewer: Viewer) -> set[DecktetCard]:
        return set(self.deck[:-1]) if self.phase == "placing" else set(self.deck)

    def verify(self, seat: int, action: Action) -> None:
        if isinstance(action, Place) and self.phase == "placing" and seat == 0:
            if (action.row, action.col) in self.occupied():
                raise IllegalAction(_("That space already has a card."))
            if action not in self.legal_actions(seat):
                raise IllegalAction(
                    _("A card must touch another card, and the grid can't grow past 6 x 6.")
                )
        super().verify(seat, action)


def new_soliterrapin(
    options: SoliterrapinOptions, stacks: list[int], rng: Rng
) -> SoliterrapinState:
    if options.daily:  # the same deck for everyone that day
        rng = Rng(seed=daily_seed(options.daily), stacked=rng.stacked)
    state = SoliterrapinState(rng=rng, seat_count=1, options=options)
    state.start()
    return state
