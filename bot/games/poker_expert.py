"""What the betting games' Experts share: choosing a bet by its expected chips at the seat's
equity, its expected share of the pot at the showdown against the hands the others' draws and
bets imply (each game estimates its own: bot/games/lowball/expert.py,
bot/games/terrapin/western/expert.py).

From here on, folding is worth nothing more; checking or calling `equity * (pot + to_call)`
less the call; a bet or raise of r, called by every opponent still in, adds `equity * r` for
each chip put in against it, less the seat's own r: worth it only with more than an even share
of the pot (1 / players), and by a margin, as those who call it hold more than the others and
may raise again: `BET_EDGE` to open the betting, `RAISE_EDGE` to raise a bet, whose maker has
shown strength already. Of a game's several sizes the largest is worth most when a bet or
raise is, the least when a bet must be made to stay in. Folds a bet or raise might win are not
counted: against players who call as loosely as the Standard AI, bets made for them lost."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Action
from bot.games.betting import Bet, Call, Check, Fold, Raise

# How far above an even share of the pot the seat's equity must be to bet, and to raise a bet.
BET_EDGE = 0.08
RAISE_EDGE = 0.2


@dataclass(frozen=True)
class Table:
    """The chips of a betting decision as the seat sees them."""

    pot: int  # in the pot now, every bet of this round included
    to_call: int
    opponents: int  # still in the hand
    may_raise: bool = True  # False: past the raises a round allows the seat (only call)

    @property
    def edge(self) -> float:
        return RAISE_EDGE if self.to_call else BET_EDGE


def call_worth(equity: float, table: Table) -> float:
    """Expected chips from here of checking or calling, were the hand shown down as it is."""
    return equity * (table.pot + table.to_call) - table.to_call


def raise_gain(equity: float, table: Table, chips: int) -> float:
    """What a bet or raise of `chips` adds to calling, every opponent calling it, after the
    margin it must clear (`Table.edge`)."""
    return chips * ((equity - table.edge) * (table.opponents + 1) - 1)


def opening_worth(equity: float, table: Table, chips: int) -> float:
    """Expected chips from here of the least bet, where checking is not allowed."""
    return equity * (table.pot + chips * (table.opponents + 1)) - chips


def by_expected_value(equity: float, table: Table, legal: list[Action]) -> Action:
    """The legal move worth most at this equity: the largest bet or raise where it gains,
    else a check, a call worth more than folding, the least bet where a bet is required to
    stay in and worth it, else a fold."""
    raises = [action for action in legal if isinstance(action, Bet | Raise)]
    largest = max(raises, key=lambda action: action.amount, default=None)
    if largest is not None and table.may_raise and raise_gain(equity, table, largest.amount) > 0:
        return largest
    if Check() in legal:
        return Check()
    if Call() in legal:
        return Call() if call_worth(equity, table) >= 0 else Fold()
    least = min(raises, key=lambda action: action.amount, default=None)
    if least is not None and opening_worth(equity, table, least.amount) >= 0:
        return least
    return Fold()
