"""Last One's table: the hands, the stock and the discards, the turn order, what may be
played on the upcard, drawing, and what each seat sees. The hands are played on it by
LastOneState (rules.py).
"""

from __future__ import annotations

from typing import Literal

from bot.cards import FrenchCard, Rank, Suit
from bot.engine import Event, Viewer
from bot.games.hands import PointsMatchHands
from bot.games.last_one.cards import SUIT_NAMES, full_deck, is_wild, named_text, sort_cards
from bot.games.last_one.records import (
    DrawReason,
    Drew,
    Lack,
    LastOneOptions,
    LastOneView,
    Melee,
    Named,
    StockRebuilt,
)
from bot.i18n import _

KEPT_LACKS = 3  # draws remembered per player: older ones are mostly outdrawn


class LastOneTable(PointsMatchHands):
    """A Last One table's cards; LastOneState plays the hands on it."""

    options: LastOneOptions
    phase: Literal["turn", "free", "suit", "name", "melee", "between", "over"] = "turn"
    players: list[int] = []
    cards_each: int = 0
    hands: list[list[FrenchCard]] = []
    stock: list[FrenchCard] = []  # the top is the end
    discards: list[FrenchCard] = []  # the upcard is the end
    named: Named | None = None
    suit: Suit | None = None
    turn: int = 0  # who plays, adds a card after a 3, or names a suit or card
    direction: int = 1
    melee: Melee | None = None
    caller: int | None = None  # holds one card and must still call "Last one!"
    last_points: list[int] | None = None
    revealed: list[list[FrenchCard]] | None = None
    lacks: list[list[Lack]] = []  # per seat, this hand's draws on a turn (the latest few)

    # ---- turn order -----------------------------------------------------------------------

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places after `seat` in the direction of play, among the players."""
        order = self.players
        return order[(order.index(seat) + steps * self.direction) % len(order)]

    @property
    def heads_up(self) -> bool:
        return len(self.players) == 2

    # ---- what may be played ----------------------------------------------------------------

    def target(self) -> tuple[Rank | None, Suit | None]:
        """The rank and suit the next card must match: a joker's named card, or the upcard
        with the suit its 8 named."""
        upcard = self.discards[-1]
        if self.named is not None:
            return self.named.rank, self.named.suit
        return upcard.rank, self.suit or upcard.suit

    def playable(self, card: FrenchCard) -> bool:
        rank, suit = self.target()
        return is_wild(card) or card.suit == suit or card.rank == rank

    def target_text(self) -> str:
        upcard = self.discards[-1]
        if self.named is not None:
            named = named_text(self.named.rank, self.named.suit)
            return _("{card} as {named}", card=upcard.label, named=named)
        if self.suit is not None:
            suit = _(SUIT_NAMES[self.suit])
            return _("{suit} (named with {card})", suit=suit, card=upcard.label)
        return upcard.label

    def melee_cards(self, seat: int) -> list[FrenchCard]:
        """The cards `seat` may continue the melee with: the next card of its suit, or a
        joker. Never the aggressor's: they can't attack themselves."""
        if self.phase != "melee" or seat not in self.players:
            return []
        melee = self.current_melee
        if seat == melee.aggressor:
            return []
        step = Rank(melee.rank + 1)
        return [
            card
            for card in self.hands[seat]
            if card.is_joker or (card.rank == step and card.suit == melee.suit)
        ]

    @property
    def current_melee(self) -> Melee:
        """The melee being played."""
        assert self.melee is not None  # read only in the "melee" phase, which has one
        return self.melee

    def can_draw(self) -> bool:
        return bool(self.stock) or len(self.discards) > 1

    # ---- drawing ---------------------------------------------------------------------------

    def draw(self, seat: int, count: int, reason: DrawReason) -> list[Event]:
        """Draw `count` from the stock, rebuilding it from the discards when it runs out; the
        draw stops short when both are empty."""
        events: list[Event] = []
        drawn: list[FrenchCard] = []
        for _drawn in range(count):
            if not self.stock:
                events += self.rebuild()
            if not self.stock:
                break
            drawn.append(self.stock.pop())
        self.hands[seat] = sort_cards(self.hands[seat] + drawn)
        for lack in self.lacks[seat] if self.lacks else []:
            lack.since += len(drawn)
        if self.caller == seat and len(self.hands[seat]) != 1:
            self.caller = None
        told = Drew(seat=seat, count=len(drawn), wanted=count, reason=reason)
        mine = told.model_copy(update={"cards": drawn, "audience": (seat,)})
        return [*events, told, mine]

    def rebuild(self) -> list[Event]:
        """The discards under the upcard, shuffled (from the deck's fresh order, see
        Rng.shuffled_gathered), become the stock, drawn in that shuffled order."""
        under = self.discards[:-1]
        if not under:
            return []
        self.stock = self.rng.shuffled_gathered(under, full_deck())[::-1]
        self.discards = self.discards[-1:]
        return [StockRebuilt(count=len(under))]

    def drawing_on_turn(self, seat: int) -> None:
        """Note what `seat` draws on (before the draw: it counts the cards drawn since)."""
        if not self.lacks:  # a hand begun before lacks were kept
            self.lacks = [[] for _ in range(self.seat_count)]
        rank, suit = self.target()
        self.lacks[seat] = [*self.lacks[seat][1 - KEPT_LACKS :], Lack(rank=rank, suit=suit)]

    # ---- what each seat sees ---------------------------------------------------------------

    def view(self, viewer: Viewer) -> LastOneView:
        playing = self.phase not in ("between", "over")
        view = LastOneView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            players=list(self.players),
            turn=self.turn if self.phase in ("turn", "free", "suit", "name") else None,
            direction=self.direction,
            counts=[len(hand) for hand in self.hands],
            scores=list(self.match.scores),
            out=[not self.match.playing(seat) for seat in range(self.seat_count)],
            threshold=self.options.threshold,
            cards_each=self.cards_each,
            upcard=self.discards[-1] if self.discards else None,
            named=self.named,
            suit=self.suit,
            stock=len(self.stock),
            discards=max(len(self.discards) - 1, 0),
            melee=self.melee,
            melee_seconds=self.options.melee_seconds,
            last_points=None if playing else self.last_points,
            revealed=None if playing else self.revealed,
            call_open=self.caller is not None,
        )
        if viewer is not None:
            view.seat = viewer
            view.my_cards = list(self.hands[viewer]) if self.hands else []
            view.must_call = self.caller == viewer
            if playing and self.phase == "turn" and viewer == self.turn:
                view.my_playable = [c for c in self.hands[viewer] if self.playable(c)]
        return view

    def all_cards(self) -> list[FrenchCard]:
        held = [card for hand in self.hands for card in hand]
        return self.stock + self.discards + held

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        hidden = set(self.stock)
        if self.phase in ("between", "over") and self.revealed is not None:
            return hidden  # the hands left were shown when the hand ended
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden |= set(hand)
        return hidden
