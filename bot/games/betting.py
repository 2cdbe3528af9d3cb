"""Betting shared by every betting game: rounds, bet and raise limits, all-ins and side pots.

A `Betting` lives inside a game state for one hand. It knows what each seat has put in and who
has folded; the game decides when rounds start, who acts first, and who wins each pot. Stacks
stay in the game state and are passed in, so chips only ever move between a stack and the pot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from bot.engine import Action, Event, IllegalAction
from bot.i18n import _, n_


class Fold(Action):
    kind: Literal["fold"] = "fold"


class Check(Action):
    kind: Literal["check"] = "check"


class Call(Action):
    kind: Literal["call"] = "call"


class Bet(Action):
    kind: Literal["bet"] = "bet"
    amount: int


class Raise(Action):
    kind: Literal["raise"] = "raise"
    amount: int  # on top of what calling costs


BettingAction = Fold | Check | Call | Bet | Raise


class BetPlaced(Event):
    """A seat folded, checked, called, bet or raised. `amount` is what went into the pot."""

    kind: Literal["bet_placed"] = "bet_placed"
    seat: int
    action: str
    amount: int = 0
    all_in: bool = False


class UncalledReturned(Event):
    """The part of a bet nobody matched went back to its owner when the round ended."""

    kind: Literal["uncalled_returned"] = "uncalled_returned"
    seat: int
    amount: int


class Pot(BaseModel):
    amount: int
    eligible: list[int]


class Limits(BaseModel):
    """What a bet or raise may be: between `low` and `high`, at most `max_raises` per round."""

    low: int = 1
    high: int
    allow_check: bool = False
    max_raises: int | None = None


class Betting(BaseModel):
    committed: list[int]  # chips each seat has put in this hand (antes included)
    folded: list[bool]  # seats not in this hand count as folded
    round_bets: list[int]
    owes_action: list[bool]
    to_act: int | None = None
    raises: int = 0  # bets and raises this round (a round opened by blinds starts at 1)
    last_aggressor: int | None = None  # the last to bet or raise in this round
    # A forced bet every player must match in full this round, even when its poster is all-in
    # for less (a short big blind).
    bet_level: int = 0

    @classmethod
    def for_hand(cls, seat_count: int, playing: list[int]) -> Betting:
        return cls(
            committed=[0] * seat_count,
            folded=[seat not in playing for seat in range(seat_count)],
            round_bets=[0] * seat_count,
            owes_action=[False] * seat_count,
        )

    # ---- who is in ---------------------------------------------------------------------

    def in_hand(self) -> list[int]:
        return [seat for seat, folded in enumerate(self.folded) if not folded]

    def can_act(self, stacks: list[int], seat: int) -> bool:
        return not self.folded[seat] and stacks[seat] > 0

    def next_seat(self, after: int, wanted) -> int | None:
        """The first seat clockwise after `after` (or `after` itself last) that is `wanted`."""
        count = len(self.folded)
        for step in range(1, count + 1):
            seat = (after + step) % count
            if wanted(seat):
                return seat
        return None

    def first_from(self, seat: int, wanted) -> int | None:
        """`seat` itself if wanted, else the next wanted seat clockwise."""
        return self.next_seat((seat - 1) % len(self.folded), wanted)

    # ---- chips -------------------------------------------------------------------------

    def put_in(self, stacks: list[int], seat: int, amount: int) -> int:
        """Move up to `amount` from the seat's stack into the pot; returns what moved."""
        amount = min(amount, stacks[seat])
        stacks[seat] -= amount
        self.committed[seat] += amount
        self.round_bets[seat] += amount
        return amount

    def total(self) -> int:
        return sum(self.committed)

    def current_bet(self) -> int:
        """What every player still betting must have put in this round."""
        return max([self.bet_level, *self.round_bets])

    def to_call(self, seat: int) -> int:
        return self.current_bet() - self.round_bets[seat]

    def return_uncalled(self, stacks: list[int]) -> UncalledReturned | None:
        """Once a round is over: chips the one highest contributor put in that nobody matched
        (everyone else folded or is all-in for less) go back to their stack."""
        top = max(self.committed)
        leaders = [seat for seat, chips in enumerate(self.committed) if chips == top]
        if top == 0 or len(leaders) > 1:
            return None
        (seat,) = leaders
        amount = top - max(c for s, c in enumerate(self.committed) if s != seat)
        stacks[seat] += amount
        self.committed[seat] -= amount
        self.round_bets[seat] -= amount
        return UncalledReturned(seat=seat, amount=amount)

    # ---- rounds ------------------------------------------------------------------------

    def start_round(
        self, stacks: list[int], first: int, blinds: Sequence[tuple[int, int]] = ()
    ) -> bool:
        """Open a round with `first` (or the next seat able to act). False: nobody bets.

        `blinds` are forced bets (seat, chips) posted first, all-in when the stack is short;
        the largest is the round's bet: it counts as the first bet towards `max_raises`, and
        everyone else must match it in full while two of them can still bet."""
        self.round_bets = [0] * len(self.folded)
        self.raises, self.last_aggressor, self.bet_level = 0, None, 0
        for seat, chips in blinds:
            self.put_in(stacks, seat, chips)
        if blinds:
            self.bet_level = max(chips for _, chips in blinds)
            self.raises = 1
        self.owes_action = [self.can_act(stacks, seat) for seat in range(len(self.folded))]
        self.face_all_ins(stacks)
        if not any(self.owes_action) or len(self.in_hand()) < 2:
            self.to_act = None
            return False
        self.to_act = self.first_from(first, lambda s: self.owes_action[s])
        return True

    def others_can_act(self, stacks: list[int], seat: int) -> bool:
        return any(self.can_act(stacks, s) for s in self.in_hand() if s != seat)

    def face_all_ins(self, stacks: list[int]) -> None:
        """When one player with chips is left and everyone else still in is all-in, that
        player acts only to call or fold what is not yet matched (an all-in blind or bet), and
        only up to the largest all-in: the full big blind no longer binds, more would come back.
        """
        able = [seat for seat in self.in_hand() if self.can_act(stacks, seat)]
        if len(able) == 1:
            (seat,) = able
            self.bet_level = 0
            self.owes_action[seat] = self.owes_action[seat] and self.to_call(seat) > 0

    def legal(self, stacks: list[int], seat: int, limits: Limits) -> list[Action]:
        if seat != self.to_act:
            return []
        owed, stack = self.to_call(seat), stacks[seat]
        actions: list[Action] = [Fold()]
        if owed == 0 and limits.allow_check:
            actions.append(Check())
        if owed > 0:
            actions.append(Call())
        room = stack - owed
        capped = limits.max_raises is not None and self.raises >= limits.max_raises
        if room > 0 and not capped and self.others_can_act(stacks, seat):
            top = min(limits.high, room)
            sizes = range(min(limits.low, top), top + 1)
            opened = self.current_bet() > 0
            actions += [Raise(amount=n) if opened else Bet(amount=n) for n in sizes]
        return actions

    def act(self, stacks: list[int], seat: int, action: Action, limits: Limits) -> BetPlaced:
        if action not in self.legal(stacks, seat, limits):
            raise IllegalAction(self.explain(stacks, seat, action, limits))
        self.owes_action[seat] = False
        paid = 0
        if isinstance(action, Fold):
            self.folded[seat] = True
        elif isinstance(action, Call):
            paid = self.put_in(stacks, seat, self.to_call(seat))
        elif isinstance(action, Bet | Raise):
            paid = self.put_in(stacks, seat, self.to_call(seat) + action.amount)
            self.raises += 1
            self.last_aggressor = seat
            for other in self.in_hand():
                self.owes_action[other] = other != seat and self.can_act(stacks, other)
        self.face_all_ins(stacks)
        self.to_act = self.next_to_act(stacks, seat)
        return BetPlaced(seat=seat, action=action.kind, amount=paid, all_in=stacks[seat] == 0)

    def next_to_act(self, stacks: list[int], after: int) -> int | None:
        if len(self.in_hand()) < 2:
            return None
        return self.next_seat(after, lambda s: self.owes_action[s] and self.can_act(stacks, s))

    def explain(self, stacks: list[int], seat: int, action: Action, limits: Limits) -> str:
        if seat != self.to_act:
            return _("It is not your turn to bet.")
        owed = self.to_call(seat)
        if isinstance(action, Check):
            return (
                _("You can't check: {owed} to call.", owed=owed)
                if owed
                else _("Checking is not allowed: bet or fold.")
            )
        if isinstance(action, Call):
            return _("There is no bet to call.")
        if isinstance(action, Bet) and self.current_bet() > 0:
            return _("There is already a bet: call, raise or fold.")
        if isinstance(action, Raise) and self.current_bet() == 0:
            return _("There is no bet to raise yet.")
        if isinstance(action, Bet | Raise):
            if limits.max_raises is not None and self.raises >= limits.max_raises:
                return _("The betting is capped for this round.")
            if not self.others_can_act(stacks, seat):
                return _("Everyone else is all-in: nobody could call a raise. Call or fold.")
            top = min(limits.high, stacks[seat] - owed)
            low = min(limits.low, top)
            if top <= 0:
                return _("Your chips don't cover more than a call: call or fold.")
            raising = isinstance(action, Raise)
            if low == top:  # fixed limit, or all you have left
                if raising:
                    return n_(
                        "A raise is {count} chip here.", "A raise is {count} chips here.", top
                    )
                return n_("A bet is {count} chip here.", "A bet is {count} chips here.", top)
            if raising:
                return _("You may raise between {low} and {high} chips.", low=low, high=top)
            return _("You may bet between {low} and {high} chips.", low=low, high=top)
        return _("That bet is not allowed.")

    # ---- pots --------------------------------------------------------------------------

    def pots(self, carried: int = 0) -> list[Pot]:
        """Main pot and side pots by contribution level. The carried-in pot joins the main pot.

        Chips from a level nobody still in can win (a folded seat put in more than any
        remaining all-in player) join the pot below it.
        """
        pots: list[Pot] = []
        previous = 0
        for level in sorted({c for c in self.committed if c > 0}):
            contributors = [s for s, c in enumerate(self.committed) if c >= level]
            amount = (level - previous) * len(contributors)
            eligible = [s for s in contributors if not self.folded[s]]
            if eligible and (not pots or pots[-1].eligible != eligible):
                pots.append(Pot(amount=amount, eligible=eligible))
            elif pots:
                pots[-1].amount += amount
            else:
                carried += amount
            previous = level
        if not pots:
            return [Pot(amount=carried, eligible=self.in_hand())] if carried else []
        pots[0].amount += carried
        return pots


def split_pot(pot: Pot, winners: list[int], stacks: list[int]) -> int:
    """Share the pot evenly among winners; returns the odd chips left over (they carry)."""
    share = pot.amount // len(winners)
    for seat in winners:
        stacks[seat] += share
    return pot.amount - share * len(winners)
