"""What happened at each table, in words: the latest public lines (the table message's
"Latest") and each seat's private ones (its hand's "Just for you")."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from bot.discord.format import kind_name
from bot.discord.game_ui import GameUI
from bot.engine import Event, HandStarted
from bot.i18n import N_, _, n_
from bot.tables import Table
from bot.tables.events import (
    AiTookSeat,
    SeatLeft,
    SeatTaken,
    TableClosed,
    TableResumed,
    TimedOut,
)

RECENT_LINES = 6


class TableLines:
    def __init__(self, games: Mapping[str, GameUI]) -> None:
        self.games = games
        self.recent: dict[int, deque[str]] = {}  # table -> its latest public lines
        # (table, seat) -> its own events, said when shown: in its member's language
        self.private: dict[tuple[int, int], deque[Event]] = {}

    def remember(self, table: Table, events: Sequence[Event], names: list[str]) -> None:
        lines = self.recent.setdefault(table.id, deque(maxlen=RECENT_LINES))
        batch: list[str] = []
        for event in events:
            if isinstance(event, HandStarted):
                # The last hand's showdown named cards that are hidden again now.
                lines.clear()
                lines.extend(batch)
                for seat in range(len(names)):
                    self.private.pop((table.id, seat), None)
            line = self.line(table, event, names)
            if not line:
                continue
            if event.audience is None:  # public: the table message's "Latest"
                lines.append(line)
                batch.append(line)
            else:  # a private event: only its audience's DMs / My hand show it
                for seat in event.audience:
                    key = (table.id, seat)
                    self.private.setdefault(key, deque(maxlen=RECENT_LINES)).append(event)

    def line(self, table: Table, event: Event, names: list[str]) -> str | None:
        """The event in words: the runtime's own events here, the game's by its GameUI."""
        ui = self.games[table.game.id]
        match event:
            case TimedOut():
                taken = kind_name(event.action)  # a secret choice: its kind only
                if event.taken is not None and table.state is not None:
                    taken = ui.chosen_text(table.view(None), event.taken)
                return "⏰ " + _(
                    "{name} ran out of time: {action}.", name=names[event.seat], action=taken
                )
            case SeatLeft():
                return n_(
                    "{name} left the table with {count} chip.",
                    "{name} left the table with {count} chips.",
                    event.chips,
                    name=names[event.seat],
                )
            case TableResumed():
                return _("The bot restarted; the game goes on.")
            case AiTookSeat():
                return _(
                    "{name} takes {departed}'s seat: this table has an AI player from now on, "
                    "so its results are not rated.",
                    name=names[event.seat],
                    departed=event.departed,
                )
            case SeatTaken():
                return n_(
                    "{name} sits in the empty seat with {count} chip from the house and is dealt "
                    "in from the next hand: this table has an AI player from now on, so its "
                    "results are not rated.",
                    "{name} sits in the empty seat with {count} chips from the house and is dealt "
                    "in from the next hand: this table has an AI player from now on, so its "
                    "results are not rated.",
                    event.chips,
                    name=names[event.seat],
                )
            case TableClosed() if table.record.tournament_id is not None:
                return match_over(table.record.tournament_id, event.why)
            case TableClosed():
                paid = ", ".join(
                    _("{name} {chips}", name=names[s], chips=chips)
                    for s, chips in enumerate(event.payouts)
                    if chips
                )
                if not paid:
                    return _("The table is closed. Back to balances: nothing left to pay.")
                return _("The table is closed. Back to balances: {paid}.", paid=paid)
        return ui.event_line(event, names)

    def private_lines(self, table: Table, seat: int) -> list[str]:
        """The seat's own latest lines, in the language of the moment."""
        events, names = self.private.get((table.id, seat), ()), table.names()
        return [line for event in events if (line := self.line(table, event, names))]

    def forget(self, table_id: int) -> None:
        self.recent.pop(table_id, None)
        for key in [key for key in self.private if key[0] == table_id]:
            del self.private[key]


# Why a tournament's match ended before its game did, as its table's last line says.
MATCH_ENDS = {
    "hands_played": N_("it has played its hands"),
    "match_time": N_("its time ran out"),
    "channel_deleted": N_("its thread was deleted"),
    "closed": N_("a moderator closed it"),
}


def match_over(tournament_id: int, why: str) -> str:
    """A tournament table's close: its chips were the tournament's, so nothing goes back."""
    reason, tournament = MATCH_ENDS.get(why), str(tournament_id)  # an id: not grouped
    if reason is None:
        return _(
            "The match is over; tournament #{tournament} records these standings.",
            tournament=tournament,
        )
    return _(
        "The match is over ({reason}); tournament #{tournament} records these standings.",
        reason=_(reason),
        tournament=tournament,
    )
