"""Discord wording every poker-like chip game shares: the bet, call, raise and fold controls
and their lines, the showdown's muck and pots, the hand's result, and a seat's line on the
table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from bot.discord.game_ui import GameUI, OptionsT, ViewT
from bot.engine import Action, Event
from bot.games.betting import Bet, BetPlaced, Call, Check, Fold, Raise, UncalledReturned
from bot.games.poker import BettingSeatView, Muck, Mucked, PotAwarded, Show
from bot.i18n import N_, _, n_, p_
from bot.text import chips, signed_chips

# A bet's line, and its line when it puts the player all-in.
BET_LINES = {
    "fold": (N_("{name} folds."), N_("{name} folds (all-in).")),
    "check": (N_("{name} checks."), N_("{name} checks (all-in).")),
    "call": (N_("{name} calls."), N_("{name} calls (all-in).")),
    "bet": (N_("{name} bets {amount}."), N_("{name} bets {amount} (all-in).")),
    "raise": (N_("{name} raises {amount}."), N_("{name} raises {amount} (all-in).")),
}


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
        return [p_("a seat's status", "left")]
    if seat.folded:
        return [p_("a seat's status", "folded")]
    return [p_("a seat's status", "all-in")] if seat.in_hand and seat.stack == 0 else []


def stay_in_pot(amount: int) -> str:
    return n_("{count} chip stays in the pot", "{count} chips stay in the pot", amount)


def result_lines(won: list[int], net: list[int], carried: int, names: list[str]) -> list[str]:
    """Each player's net for the hand, and what they took from the pot where they took some:
    "Won: Ann +4 chips (took the pot of 6)", "Lost: Bob -2 chips, Cy -2 chips". `net` is
    empty for a table saved before it was kept: then only the takings are known."""
    pot = sum(won) + carried

    def entry(seat: int) -> str:
        name = names[seat]
        if not net:  # only the takings are known
            if won[seat] == pot:
                return _("{name} (took the pot of {pot})", name=name, pot=pot)
            return _(
                "{name} (took {share} of the pot of {pot})", name=name, share=won[seat], pot=pot
            )
        amount = signed_chips(net[seat])
        if not won[seat]:
            return _("{name} {chips}", name=name, chips=amount)
        if won[seat] == pot:
            return _("{name} {chips} (took the pot of {pot})", name=name, chips=amount, pot=pot)
        return _(
            "{name} {chips} (took {share} of the pot of {pot})",
            name=name,
            chips=amount,
            share=won[seat],
            pot=pot,
        )

    gain = net or won
    ahead = [s for s in range(len(won)) if gain[s] > 0 or (won[s] and gain[s] == 0)]
    ahead.sort(key=lambda s: -gain[s])
    behind = [s for s in range(len(net)) if net[s] < 0]  # some may have taken a side pot
    stays = f" · {stay_in_pot(carried)}" if carried else ""
    winners = (
        _("Won: {players}", players=", ".join(map(entry, ahead))) if ahead else _("Won: nobody")
    )
    lines = [winners + stays]
    if behind:
        lines.append(_("Lost: {players}", players=", ".join(map(entry, behind))))
    return lines


def pot_line(event: PotAwarded, names: list[str]) -> str:
    """Who won the pot, or that nobody could: what stays in it for the next hand."""
    if not event.winners:
        return n_(
            "No hand can win: {count} chip stays in the pot.",
            "No hand can win: {count} chips stay in the pot.",
            event.amount,
        )
    if len(event.winners) == 1:
        name = names[event.winners[0]]
        if event.carried:
            return n_(
                "{name} wins {count} chip ({odd}).",
                "{name} wins {count} chips ({odd}).",
                event.amount,
                name=name,
                odd=stay_in_pot(event.carried),
            )
        return n_(
            "{name} wins {count} chip.", "{name} wins {count} chips.", event.amount, name=name
        )
    players = _(" and ").join(names[s] for s in event.winners)
    if event.carried:
        return n_(
            "{players} win {count} chip ({odd}).",
            "{players} win {count} chips ({odd}).",
            event.amount,
            players=players,
            odd=stay_in_pot(event.carried),
        )
    return n_(
        "{players} win {count} chip.", "{players} win {count} chips.", event.amount, players=players
    )


class PokerUI(GameUI[ViewT, OptionsT]):
    """Lines of the betting actions and the showdown, and the seats' lines."""

    warning_kinds = frozenset({"fold"})

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case BetPlaced():
                line = BET_LINES[event.action][event.all_in]
                return _(line, name=names[event.seat], amount=event.amount)
            case UncalledReturned():
                return n_(
                    "{name} takes back {count} chip nobody called.",
                    "{name} takes back {count} chips nobody called.",
                    event.amount,
                    name=names[event.seat],
                )
            case Mucked():
                return _("{name} mucks.", name=names[event.seat])
            case PotAwarded():
                return pot_line(event, names)
        return None

    @staticmethod
    def seat_line(
        name: str, stack: int, marks: list[str], *, acting: bool, cards: int | None = None
    ) -> str:
        pointer = "▶ " if acting else ""
        held = " · " + n_("{count} card", "{count} cards", cards) if cards is not None else ""
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
        dealer = [p_("a seat's role", "dealer")] if seat.seat == view.dealer else []
        bet = [_("bet {amount}", amount=seat.bet)] if seat.bet else []
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
                return _("Call {amount}", amount=view.to_call)
            case Bet():
                return _("Bet {amount}", amount=action.amount)
            case Raise():
                total = view.to_call + action.amount
                return _("Raise by {amount} (put in {total})", amount=action.amount, total=total)
            case Fold():
                return _("Fold")
            case Check():
                return _("Check")
            case Show():
                return _("Show my hand")
            case Muck():
                return _("Muck")
        return super().action_label(view, action)
