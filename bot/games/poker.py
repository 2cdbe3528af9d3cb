"""What poker-like chip games share, whatever their cards: seats coming and going between
hands, the pot carried to the next hand, cashing out, and the showdown (revealing from a
first player on, mucking a hand that can't win, paying each pot to its best hands).

`PokerTable` asks its game for a comparable strength per seat (`strength`, greater is better),
whether a hand may win at all (`can_win`), the event that shows a hand (`revealed`) and what
becomes of the odd chips of a split pot (`place_odd_chips`). `BettingTable` adds betting
rounds from bot/games/betting.py and the showdown in turn, with Show and Muck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, model_validator

from bot.engine import (
    Action,
    Decision,
    DecisionKind,
    Event,
    HandEnded,
    IllegalAction,
    MatchEnded,
    placings,
)
from bot.games.betting import Betting, Check, Fold, Limits, Pot, split_pot
from bot.games.hands import HandAfterHand
from bot.i18n import _, n_


class BettingKind(DecisionKind):
    """The decisions of a `BettingTable`: a bet (check, call, raise or fold) and, at the
    showdown, whether a hand that can't win is mucked."""

    BET = "bet"
    MUCK = "muck"


class Show(Action):
    kind: Literal["show"] = "show"


class Muck(Action):
    kind: Literal["muck"] = "muck"


class Mucked(Event):
    kind: Literal["mucked"] = "mucked"
    seat: int


class PokerSeatView(BaseModel):
    """A seat as a poker table shows it; each game adds its own fields."""

    seat: int
    seated: bool
    stack: int


class BettingSeatView(PokerSeatView):
    """A seat at a table with betting rounds."""

    in_hand: bool
    folded: bool
    bet: int  # chips put in during this betting round
    cards: int  # how many private cards


SeatViewT = TypeVar("SeatViewT", bound=PokerSeatView)


class PotAwarded(Event):
    kind: Literal["pot_awarded"] = "pot_awarded"
    amount: int
    winners: list[int]
    carried: int = 0  # chips left in the pot for the next hand (odd chips, or a pot nobody won)


class PokerTable(HandAfterHand):
    """Seats, stacks and the showdown of a game played for chips hand after hand."""

    stacks: list[int]
    seated: list[bool]
    carry: int = 0  # chips left in the pot by earlier hands
    stacks_at_start: list[int] = []
    players: list[int] = []  # seats dealt into the current hand
    shown: list[bool] = []  # hands shown to everyone in this hand
    mucked: list[bool] = []
    won: list[int] = []  # chips each seat took from the pot this hand
    net: list[int] = []  # each seat's chips won or lost over the hand just finished
    winners: list[int] = []

    @model_validator(mode="before")
    @classmethod
    def _from_older_snapshots(cls, data: Any) -> Any:
        """Tables saved before this class existed (Terrapin) kept each shown hand's cards
        and the last result in `result`: read them as the flags and winnings they stand for."""
        if not isinstance(data, dict) or "result" not in data:
            return data
        data = dict(data)
        result = data.pop("result") or {}
        data["shown"] = [shown is not None for shown in data.get("shown", [])]
        data.setdefault("won", result.get("won") or [0] * data.get("seat_count", 0))
        data.setdefault("winners", result.get("winners", []))
        return data

    # ---- what a game tells the table ------------------------------------------------------

    def strength(self, seat: int) -> Any:
        """How good `seat`'s hand is: greater is better, equal hands tie."""
        raise NotImplementedError

    def can_win(self, seat: int) -> bool:
        """False for a hand that can never win a pot (Terrapin's Turtle Butt)."""
        return True

    def revealed(self, seat: int) -> Event:
        """The event that shows `seat`'s hand to everyone."""
        raise NotImplementedError

    def place_odd_chips(self, winners: list[int], odd: int) -> int:
        """The chips a split pot can't share evenly, as in poker: one each to the winners
        from the dealer's left. Returns the chips that stay in the pot instead (none here)."""
        order = self.seats_from(self.dealer + 1, lambda s: s in winners)
        for index in range(odd):
            self.stacks[order[index % len(order)]] += 1
        return 0

    def hand_scores(self) -> list[int | None] | None:
        """The game's points for the hand just over, for its results (None: it has none)."""
        return None

    def in_pot(self) -> int:
        """Chips in this hand's pot."""
        return 0

    # ---- seats ----------------------------------------------------------------------------

    def seats_from(self, first: int, wanted) -> list[int]:
        """Seats in clockwise order starting at `first`, keeping those `wanted`."""
        order = [(first + step) % self.seat_count for step in range(self.seat_count)]
        return [seat for seat in order if wanted(seat)]

    def left_of(self, seat: int, wanted) -> int:
        return self.seats_from(seat + 1, wanted)[0]

    def next_dealer(self) -> int:
        """The deal passes left, skipping seats whose players have left."""
        return (
            self.left_of(self.dealer, lambda s: self.seated[s]) if any(self.seated) else self.dealer
        )

    def seat_views(self, model: type[SeatViewT], **per_seat: Sequence[Any]) -> list[SeatViewT]:
        """Each seat's place and stack, with the game's own fields given in `per_seat`, one
        value a seat (`in_hand`, `cards` ...)."""
        return [
            model(
                seat=s,
                seated=self.seated[s],
                stack=self.stacks[s],
                **{name: values[s] for name, values in per_seat.items()},
            )
            for s in range(self.seat_count)
        ]

    # ---- chips, hand after hand -----------------------------------------------------------

    def chip_total(self) -> int:
        return sum(self.stacks) + self.in_pot() + self.carry

    def new_showdown(self) -> None:
        """Forget the last hand's showdown: nothing shown, mucked or won yet."""
        self.shown = [False] * self.seat_count
        self.mucked = [False] * self.seat_count
        self.won = [0] * self.seat_count
        self.net = [0] * self.seat_count
        self.winners = []

    def finish_hand(self) -> list[Event]:
        """The hand is over (its pot paid out or carried): report it and pause for the table."""
        self.phase = "between"
        self.net = [
            now - before for now, before in zip(self.stacks, self.stacks_at_start, strict=True)
        ]
        ended = HandEnded(
            hand=self.hand,
            players=self.players,
            net_chips=self.net,
            scores=self.hand_scores(),
            winners=self.winners,
        )
        return [ended]

    def take_pot(self, winner: int, amount: int) -> None:
        """Everyone else is out: the last player takes the whole pot, carried chips included."""
        self.stacks[winner] += amount
        self.carry = 0
        self.winners = [winner]
        self.won = [amount if s == winner else 0 for s in range(self.seat_count)]

    def end_match(self) -> list[Event]:
        self.phase = "over"
        return [MatchEnded(placings=placings(self.stacks))]

    def leave(self, seat: int) -> int:
        if not (self.awaiting_next_hand() or self.is_over()):
            raise IllegalAction(_("You can leave between hands."))
        if not self.seated[seat]:
            raise IllegalAction(_("You have already left this table."))
        chips, self.stacks[seat], self.seated[seat] = self.stacks[seat], 0, False
        return chips

    def can_take_seat(self, seat: int) -> bool:
        """A seat its player has left: not in the hand being played (they left between
        hands), so a new player waits for the next deal."""
        return not self.seated[seat] and not self.is_over()

    def take_seat(self, seat: int, chips: int) -> None:
        if not self.can_take_seat(seat):
            raise IllegalAction(_("Nobody can sit in this seat now."))
        self.seated[seat], self.stacks[seat] = True, chips

    def left_in_pot(self, seat: int) -> int:
        """Chips carried to the next hand that stay at the table if `seat` leaves now."""
        return self.carry

    def leave_warning(self, seat: int) -> str | None:
        """Leaving between hands gives up your share of a carried pot: say so before."""
        between = self.awaiting_next_hand() and self.seated[seat]
        chips = self.left_in_pot(seat) if between else 0
        if not chips:
            return None
        return n_(
            "The pot of {count} chip carried to the next hand stays at the table: "
            "you give up your share.",
            "The pot of {count} chips carried to the next hand stays at the table: "
            "you give up your share.",
            chips,
        )

    def cash_out(self) -> list[int]:
        """Close the table: odd chips left in the pot go one by one to the seated players
        from the dealer's left, and everyone takes their stack."""
        if not (self.awaiting_next_hand() or self.is_over() or self.can_close_mid_hand()):
            raise IllegalAction(_("The table can close between hands."))
        takers = self.seats_from(self.dealer + 1, lambda s: self.seated[s]) or list(
            range(self.seat_count)
        )
        for index in range(self.carry):
            self.stacks[takers[index % len(takers)]] += 1
        self.carry = 0
        payouts, self.stacks = self.stacks, [0] * self.seat_count
        self.phase = "over"
        return payouts

    # ---- showdown -------------------------------------------------------------------------

    def reveal(self, seat: int) -> Event:
        self.shown[seat] = True
        return self.revealed(seat)

    def must_show(self, seat: int, pots: Sequence[Pot]) -> bool:
        """Shown without asking when, for some pot it is in, it beats or ties every hand shown
        for that pot so far (or none is shown yet)."""
        mine = self.strength(seat)
        for pot in pots:
            if seat in pot.eligible:
                rivals = [self.strength(s) for s in pot.eligible if self.shown[s]]
                if not rivals or mine >= max(rivals):
                    return True
        return False

    def award(self, pots: Sequence[Pot]) -> list[Event]:
        """Pay each pot to its best shown hands that can win; a pot nobody can win stays."""
        events: list[Event] = []
        self.carry = 0
        for pot in pots:
            contenders = {
                s: self.strength(s) for s in pot.eligible if self.shown[s] and self.can_win(s)
            }
            if not contenders:
                self.carry += pot.amount
                events.append(PotAwarded(amount=pot.amount, winners=[], carried=pot.amount))
                continue
            best = max(contenders.values())
            winners = [s for s, value in contenders.items() if value == best]
            before = list(self.stacks)
            carried = self.place_odd_chips(winners, split_pot(pot, winners, self.stacks))
            for seat in range(self.seat_count):
                self.won[seat] += self.stacks[seat] - before[seat]
            self.carry += carried
            events.append(PotAwarded(amount=pot.amount, winners=winners, carried=carried))
        self.winners = sorted({s for e in events if isinstance(e, PotAwarded) for s in e.winners})
        return events


class BettingTable(PokerTable):
    """A poker table with betting rounds (`betting`) and a showdown in turn: hands are shown
    from a first player on, and a hand that can't win is its owner's to muck or show.

    The game opens rounds with `next_betting_round`, says what follows a round in
    `after_betting`, and handles its own phases before deferring to these methods."""

    betting: Betting = Field(default_factory=lambda: Betting.for_hand(0, []))
    betting_round: int = 0
    showdown_queue: list[int] = []

    @property
    def limits(self) -> Limits:
        raise NotImplementedError

    def after_betting(self) -> list[Event]:
        """A betting round is over: what the hand does next."""
        raise NotImplementedError

    # ---- the flow -------------------------------------------------------------------------

    def in_hand(self) -> list[int]:
        return self.betting.in_hand()

    def in_pot(self) -> int:
        return self.betting.total()

    def pot_size(self) -> int:
        return self.carry + self.betting.total()

    def next_betting_round(self, first: int, blinds: Sequence[tuple[int, int]] = ()) -> list[Event]:
        self.betting_round += 1
        self.phase = "betting"
        if self.betting.start_round(self.stacks, first, blinds):
            return []
        return self.after_betting()

    def uncontested(self) -> list[Event]:
        (winner,) = self.in_hand()
        self.take_pot(winner, self.pot_size())
        return self.end_hand()

    def end_hand(self) -> list[Event]:
        self.betting.committed = [0] * self.seat_count  # paid out or carried by now
        return self.finish_hand()

    def start_showdown(self, first: int) -> list[Event]:
        self.phase = "showdown"
        self.showdown_queue = self.seats_from(first, lambda s: s in self.in_hand())
        return self.run_showdown()

    def run_showdown(self) -> list[Event]:
        """Reveal in order; stop at a hand its owner may muck (their decision)."""
        events: list[Event] = []
        pots = self.betting.pots(self.carry)
        while self.showdown_queue:
            seat = self.showdown_queue[0]
            if not self.must_show(seat, pots):
                return events
            self.showdown_queue.pop(0)
            events.append(self.reveal(seat))
        return events + self.award(pots) + self.end_hand()

    # ---- what the views show ------------------------------------------------------------

    def seat_views(self, model: type[SeatViewT], **per_seat: Sequence[Any]) -> list[SeatViewT]:
        """As at any poker table, with each seat's place in the hand and bet in this round."""
        in_hand, seats = self.in_hand(), range(self.seat_count)
        bets = self.betting.round_bets if self.phase == "betting" else [0] * self.seat_count
        return super().seat_views(
            model, in_hand=[s in in_hand for s in seats], bet=bets, **per_seat
        )

    def turn_shown(self, drawing: int | None) -> tuple[int | None, int]:
        """The seat the table shows acting and what it owes: the bettor and their call in a
        betting round, `drawing` (who draws) in the draw, nobody otherwise."""
        if self.phase == "betting":
            bettor = self.bettor()
            return bettor, self.betting.to_call(bettor)
        return (drawing if self.phase == "draw" else None), 0

    # ---- the protocol, for betting and the showdown ---------------------------------------

    def bettor(self) -> int:
        """Who bets now, in the betting phase."""
        bettor = self.betting.to_act
        # A round that opens or goes on with nobody to act ends at once (`after_betting`).
        assert bettor is not None
        return bettor

    def bet_prompt(self, bettor: int) -> str:
        owed = self.betting.to_call(bettor)
        if owed:
            return _("{owed} to call", owed=owed)
        if not self.limits.allow_check:
            return _("Bet or fold")
        return _("Check or raise") if self.betting.current_bet() else _("Check or bet")

    def pending(self) -> list[Decision]:
        if self.phase == "betting":
            bettor = self.bettor()
            return [Decision(seat=bettor, kind=BettingKind.BET, prompt=self.bet_prompt(bettor))]
        if self.phase == "showdown":
            prompt = _("Your hand can't win: muck it or show it?")
            return [Decision(seat=self.showdown_queue[0], kind=BettingKind.MUCK, prompt=prompt)]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "betting":
            return self.betting.legal(self.stacks, seat, self.limits)
        if self.phase == "showdown" and self.showdown_queue[:1] == [seat]:
            return [Muck(), Show()]
        return []

    def verify(self, seat: int, action: Action) -> None:
        betting = self.phase == "betting" and seat == self.betting.to_act
        if betting and action not in self.legal_actions(seat):
            raise IllegalAction(self.betting.explain(self.stacks, seat, action, self.limits))
        super().verify(seat, action)

    def default_action(self, seat: int) -> Action:
        """Muck at the showdown; check when allowed, else fold."""
        if self.phase == "showdown":
            return Muck()
        return Check() if Check() in self.legal_actions(seat) else Fold()

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if self.phase == "betting":
            events: list[Event] = [self.betting.act(self.stacks, seat, action, self.limits)]
            if self.betting.to_act is None:
                events += self.after_betting()
            return events
        self.showdown_queue.pop(0)
        if isinstance(action, Show):
            event = self.reveal(seat)
        else:
            self.mucked[seat] = True
            event = Mucked(seat=seat)
        return [event, *self.run_showdown()]
