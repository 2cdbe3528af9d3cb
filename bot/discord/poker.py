"""Discord wording every poker-like chip game shares: the bet, call, raise and fold controls
and their lines, the showdown's muck and pots, the hand's result, and a seat's line on the
table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from bot.discord.format import chips, plural, signed_chips
from bot.discord.game_ui import GameUI, OptionsT, ViewT
from bot.engine import Action, Event
from bot.games.betting import Bet, BetPlaced, Call, Raise, UncalledReturned
from bot.games.poker import BettingSeatView, Mucked, PotAwarded, Show

VERBS = {"fold": "folds", "check": "checks", "call": "calls", "bet": "bets", "raise": "raises"}


class BettingTableView(Protocol):
    """What a betting seat's line reads of its table's view."""

    dealer: int
    to_act: int | None


class OwingView(Protocol):
    """What the betting labels read of a view: what the seat to act owes."""

    @property
    def to_call(self) -> int: ...


OwingViewT = TypeVar("OwingViewT", bound=OwingView)


def hand_status(seat: BettingSeatView) -> list[str]:
    """Whether the seat has left, folded or is all-in: the first that holds, if any."""
    if not seat.seated:
        return ["left"]
    if seat.folded:
        return ["folded"]
    return ["all-in"] if seat.in_hand and seat.stack == 0 else []


def stay_in_pot(amount: int) -> str:
    return f"{chips(amount)} {'stays' if amount == 1 else 'stay'} in the pot"


def result_lines(won: list[int], net: list[int], carried: int, names: list[str]) -> list[str]:
    """Each player's net for the hand, and what they took from the pot where they took some:
    "Won: Ann +4 chips (took the pot of 6)", "Lost: Bob -2 chips, Cy -2 chips". `net` is
    empty for a table saved before it was kept: then only the takings are known."""
    pot = sum(won) + carried

    def entry(seat: int) -> str:
        amount = f" {signed_chips(net[seat])}" if net else ""
        if not won[seat]:
            return f"{names[seat]}{amount}"
        took = "the pot" if won[seat] == pot else f"{won[seat]:,} of the pot"
        return f"{names[seat]}{amount} (took {took} of {pot:,})"

    gain = net or won
    ahead = [s for s in range(len(won)) if gain[s] > 0 or (won[s] and gain[s] == 0)]
    ahead.sort(key=lambda s: -gain[s])
    behind = [s for s in range(len(net)) if net[s] < 0]  # some may have taken a side pot
    stays = f" · {stay_in_pot(carried)}" if carried else ""
    lines = ["Won: " + (", ".join(map(entry, ahead)) or "nobody") + stays]
    if behind:
        lines.append("Lost: " + ", ".join(map(entry, behind)))
    return lines


class PokerUI(GameUI[ViewT, OptionsT]):
    """Lines of the betting actions and the showdown, and the seats' lines."""

    warning_kinds = frozenset({"fold"})

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case BetPlaced():
                amount = f" {event.amount}" if event.action in ("bet", "raise") else ""
                all_in = " (all-in)" if event.all_in else ""
                return f"{names[event.seat]} {VERBS[event.action]}{amount}{all_in}."
            case UncalledReturned():
                return f"{names[event.seat]} takes back {chips(event.amount)} nobody called."
            case Mucked():
                return f"{names[event.seat]} mucks."
            case PotAwarded():
                if not event.winners:
                    return f"No hand can win: {stay_in_pot(event.amount)}."
                winners = " and ".join(names[s] for s in event.winners)
                verb = "wins" if len(event.winners) == 1 else "win"
                odd = f" ({stay_in_pot(event.carried)})" if event.carried else ""
                return f"{winners} {verb} {chips(event.amount)}{odd}."
        return None

    @staticmethod
    def seat_line(
        name: str, stack: int, marks: list[str], *, acting: bool, cards: int | None = None
    ) -> str:
        pointer = "▶ " if acting else ""
        held = f" · {plural(cards, 'card')}" if cards is not None else ""
        detail = f" · {', '.join(marks)}" if marks else ""
        return f"{pointer}**{name}** · {chips(stack)}{held}{detail}"

    def betting_seat_line(
        self,
        view: BettingTableView,
        seat: BettingSeatView,
        names: list[str],
        *,
        roles: Sequence[str] = (),
        marks: Sequence[str] = (),
        cards: int | None,
    ) -> str:
        """A seat at a table with betting rounds, marked in this order: dealer, its `roles`
        (the blinds), left, folded or all-in, the game's own `marks`, and its bet this round."""
        dealer = ["dealer"] if seat.seat == view.dealer else []
        bet = [f"bet {seat.bet}"] if seat.bet else []
        return self.seat_line(
            names[seat.seat],
            seat.stack,
            [*dealer, *roles, *hand_status(seat), *marks, *bet],
            acting=seat.seat == view.to_act,
            cards=cards,
        )


class BettingUI(PokerUI[OwingViewT, OptionsT]):
    """A game with betting rounds: the labels of its bets, calls and raises."""

    def action_label(self, view: OwingViewT, action: Action) -> str:
        match action:
            case Call():
                return f"Call {view.to_call}"
            case Bet():
                return f"Bet {action.amount}"
            case Raise():
                return f"Raise by {action.amount} (put in {view.to_call + action.amount})"
            case Show():
                return "Show my hand"
        return super().action_label(view, action)
