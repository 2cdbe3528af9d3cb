"""Trick-taking mechanics shared by Calabrasella and Botifarra: the trick on the table, who is
winning it, which cards a player may add to it, and the won piles each side counts at the end.

A game supplies its rank order (highest first), the trump suit of the hand (or None), and a
`TrickRules` saying which obligations it enforces:

- follow: play a card of the led suit when you have one (both games);
- head: following suit, beat the winning card when you can (Botifarra);
- overtrump: void in the led suit, beat the winning card with a trump when you can (Botifarra);
- partner_frees: neither of the two while your partner is winning the trick; then a card worth
  no points (by `card_points`) must be your lowest of its suit (Botifarra).

Whoever cannot beat the winning card plays any card the follow rule allows (no obligation to
play a losing trump).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, model_validator

from bot.cards import FrenchCard, Rank, Suit
from bot.i18n import _

CardPoints = Callable[[FrenchCard], int]


@dataclass(frozen=True)
class TrickRules:
    """Which card a game ranks above which, and which obligations its players follow."""

    order: tuple[Rank, ...]  # highest first, e.g. 3 2 A K Q J 7 6 5 4
    follow: bool = True
    head: bool = False
    overtrump: bool = False
    partner_frees: bool = False
    card_points: CardPoints | None = None  # with partner_frees: the lowest-blank-card rule

    def power(self, card: FrenchCard) -> int:
        """Higher is stronger within a suit."""
        return len(self.order) - self.order.index(card.rank)


class TrickPlay(BaseModel):
    model_config = ConfigDict(frozen=True)
    seat: int
    card: FrenchCard


class Trick(BaseModel):
    """The cards played to one trick, in order; the leader played first."""

    leader: int
    plays: list[TrickPlay] = []

    @property
    def led(self) -> Suit | None:
        return self.plays[0].card.suit if self.plays else None

    @property
    def cards(self) -> list[FrenchCard]:
        return [play.card for play in self.plays]

    def add(self, seat: int, card: FrenchCard) -> None:
        """Record a play (legality is the caller's check, with `legal_cards`)."""
        expected = self.leader if not self.plays else None
        if expected is not None and seat != expected:
            raise ValueError(f"seat {expected} leads this trick, not {seat}")
        if any(play.seat == seat for play in self.plays):
            raise ValueError(f"seat {seat} has already played to this trick")
        self.plays.append(TrickPlay(seat=seat, card=card))

    def next_seat(self, turn_order: Sequence[int]) -> int | None:
        """Who plays next, going round `turn_order` from the leader; None once all have."""
        if len(self.plays) >= len(turn_order):
            return None
        start = turn_order.index(self.leader)
        return turn_order[(start + len(self.plays)) % len(turn_order)]

    def winning(self, rules: TrickRules, trump: Suit | None = None) -> TrickPlay | None:
        """The play currently winning: the highest trump, else the highest of the led suit."""
        best: TrickPlay | None = None
        for play in self.plays:
            if best is None or beats(play.card, best.card, rules, trump):
                best = play
        return best

    def winner(self, rules: TrickRules, trump: Suit | None = None) -> int:
        best = self.winning(rules, trump)
        if best is None:
            raise ValueError("nobody has played to this trick")
        return best.seat


def beats(card: FrenchCard, best: FrenchCard, rules: TrickRules, trump: Suit | None) -> bool:
    """Whether `card` would take the trick from `best`, the card winning it so far (which is
    of the led suit or a trump): a higher card of its suit, or a trump over a non-trump."""
    if card.suit == best.suit:
        return rules.power(card) > rules.power(best)
    return trump is not None and card.suit == trump


def legal_cards(
    hand: Sequence[FrenchCard],
    trick: Trick,
    rules: TrickRules,
    *,
    trump: Suit | None = None,
    partners: Collection[int] = (),
) -> list[FrenchCard]:
    """The cards of `hand` that may be played to `trick` now, in hand order. `partners` are
    the seats on the player's side (the partner-winning exception)."""
    led = trick.led
    if led is None:
        return list(hand)
    followers = [card for card in hand if card.suit == led]
    allowed = followers if rules.follow and followers else list(hand)
    best = trick.winning(rules, trump)
    if rules.partner_frees and best is not None and best.seat in partners:
        return _free_under_partner(allowed, rules)
    obliged = rules.head if followers else rules.overtrump
    if obliged and best is not None:
        heading = [c for c in allowed if beats(c, best.card, rules, trump)]
        if heading:
            return heading
    return allowed


def _free_under_partner(allowed: list[FrenchCard], rules: TrickRules) -> list[FrenchCard]:
    """Any card worth points; a card worth nothing only if it is the lowest of its suit."""
    if rules.card_points is None:
        return allowed
    lowest: dict[Suit | None, FrenchCard] = {}
    for card in allowed:
        if card.suit not in lowest or rules.power(card) < rules.power(lowest[card.suit]):
            lowest[card.suit] = card
    return [c for c in allowed if rules.card_points(c) > 0 or lowest[c.suit] == c]


def why_illegal(
    card: FrenchCard,
    hand: Sequence[FrenchCard],
    trick: Trick,
    rules: TrickRules,
    *,
    trump: Suit | None = None,
    partners: Collection[int] = (),
) -> str | None:
    """A player-facing reason `card` may not be played now, or None when it may."""
    if card not in hand:
        return _("You don't hold that card.")
    legal = legal_cards(hand, trick, rules, trump=trump, partners=partners)
    if card in legal:
        return None
    led = trick.led
    if rules.follow and card.suit != led and any(c.suit == led for c in hand):
        return _("You must follow suit.")
    best = trick.winning(rules, trump)
    if rules.partner_frees and best is not None and best.seat in partners:
        return _("Your partner is winning: play a card worth points or your lowest of that suit.")
    if any(c.suit == led for c in hand):
        return _("You must beat the winning card when you can.")
    return _("You must trump, beating the winning card, when you can.")


class WonPiles(BaseModel):
    """The cards each side has won. A side is a list of seats; in solo games every seat is its
    own side. `tricks` counts the tricks each side took; `last` is the side that took the
    most recent one (the last-trick bonus, and where Calabrasella's discards go)."""

    sides: list[list[int]]
    cards: list[list[FrenchCard]] = []
    tricks: list[int] = []
    last: int | None = None

    @model_validator(mode="after")
    def _fill(self) -> WonPiles:
        seats = [seat for side in self.sides for seat in side]
        if len(seats) != len(set(seats)) or any(not side for side in self.sides):
            raise ValueError("sides must be non-empty and disjoint")
        self.cards = self.cards or [[] for _ in self.sides]
        self.tricks = self.tricks or [0] * len(self.sides)
        return self

    @classmethod
    def solo(cls, seat_count: int) -> WonPiles:
        return cls(sides=[[seat] for seat in range(seat_count)])

    def side_of(self, seat: int) -> int:
        return next(index for index, side in enumerate(self.sides) if seat in side)

    def partners(self, seat: int) -> list[int]:
        """The other seats on `seat`'s side."""
        return [other for other in self.sides[self.side_of(seat)] if other != seat]

    def take(self, seat: int, cards: Sequence[FrenchCard]) -> int:
        """`seat` won a trick of `cards`; returns its side."""
        side = self.side_of(seat)
        self.cards[side] += cards
        self.tricks[side] += 1
        self.last = side
        return side

    def add(self, side: int, cards: Sequence[FrenchCard]) -> None:
        """Cards a side gets outside any trick (Calabrasella's discards and widow)."""
        self.cards[side] += cards

    def points(
        self, card_points: CardPoints, *, per_trick: int = 0, last_trick: int = 0
    ) -> list[int]:
        """Each side's points: its cards, `per_trick` for every trick, and `last_trick` to
        the side that took the last one."""
        return [
            sum(map(card_points, cards))
            + per_trick * tricks
            + (last_trick if side == self.last else 0)
            for side, (cards, tricks) in enumerate(zip(self.cards, self.tricks, strict=True))
        ]
