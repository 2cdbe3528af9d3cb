"""Backhand's table: seats, stacks and the house's bank, who may leave, how a match ends,
and what everyone sees. The hands are played on it by BackhandState (rules.py).
"""

from __future__ import annotations

from bot.cards import FrenchCard
from bot.engine import Event, HouseBanked, IllegalAction, MatchEnded, UnlistedActions, Viewer
from bot.games.backhand.records import (
    EVERYONE_LEFT,
    TARGET_REACHED,
    BackhandOptions,
    BackhandView,
    MatchOver,
    PlayerHand,
    PlayerView,
    plays_for_chips,
)
from bot.games.hands import HandAfterHand
from bot.i18n import _


class BackhandTable(HouseBanked, UnlistedActions, HandAfterHand):
    """A Backhand table's seats and chips; BackhandState plays hands on it. Its house
    covers each hand; its bets are any amount in range (unlisted: `legal_actions` suggest a
    ladder)."""

    options: BackhandOptions
    stacks: list[int]
    seated: list[bool]
    # The house's chips at the table: the even-money win of every bet of the hand in play, held
    # from the house's balance as the bets are made; 0 between hands (rules.md, For chips).
    bank: int = 0
    wins: list[int]
    last_bets: list[int]
    stock: list[FrenchCard] = []  # the next card is the last
    hands: list[PlayerHand] = []
    players: list[int] = []  # seats dealt into this hand, in playing order
    turn: int | None = None
    ended: str | None = None  # why the match ended, once it has

    @property
    def for_chips(self) -> bool:
        return plays_for_chips(self.options)

    def end_match(self, reason: str | None) -> list[Event]:
        """The match is over: why (unless a player reached the target), and in wins-only
        mode the standings (for chips the table ranks players by the chips they won)."""
        self.phase, self.turn = "over", None
        self.ended = reason or TARGET_REACHED
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
            raise IllegalAction(_("You have already left this table."))
        if not self.can_leave_now(seat):
            raise IllegalAction(_("You can leave between hands."))
        self.seated[seat] = False
        chips, self.stacks[seat] = self.stacks[seat], 0
        if not any(self.seated) and not self.is_over():
            self.end_match(EVERYONE_LEFT)
        return chips

    def can_take_seat(self, seat: int) -> bool:
        """For chips, a seat its player has left: a new player bets from the next hand."""
        return self.for_chips and not self.seated[seat] and not self.is_over()

    def take_seat(self, seat: int, chips: int) -> None:
        if not self.can_take_seat(seat):
            raise IllegalAction(_("Nobody can sit in this seat now."))
        self.seated[seat], self.stacks[seat] = True, chips

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
