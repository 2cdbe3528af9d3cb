"""What happened at each table, in words: the latest public lines (the table message's
"Latest") and each seat's private ones (its hand's "Just for you")."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from bot.discord.game_ui import GameUI
from bot.engine import Event, HandStarted
from bot.tables import Table
from bot.tables.events import SeatLeft, TableClosed, TableResumed, TimedOut

RECENT_LINES = 6


class TableLines:
    def __init__(self, games: Mapping[str, GameUI]) -> None:
        self.games = games
        self.recent: dict[int, deque[str]] = {}  # table -> its latest public lines
        self.private: dict[tuple[int, int], deque[str]] = {}  # (table, seat) -> its own

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
                    self.private.setdefault(key, deque(maxlen=RECENT_LINES)).append(line)

    def line(self, table: Table, event: Event, names: list[str]) -> str | None:
        """The event in words: the runtime's own events here, the game's by its GameUI."""
        ui = self.games[table.game.id]
        match event:
            case TimedOut():
                taken = event.action.replace("_", " ")  # a secret choice: its kind only
                if event.taken is not None and table.state is not None:
                    taken = ui.action_label(table.view(None), event.taken)
                return f"⏰ {names[event.seat]} ran out of time: {taken}."
            case SeatLeft():
                return f"{names[event.seat]} left the table with {event.chips} chips."
            case TableResumed():
                return "The bot restarted; the game goes on."
            case TableClosed() if table.record.tournament_id is not None:
                return match_over(table.record.tournament_id, event.why)
            case TableClosed():
                paid = ", ".join(
                    f"{names[s]} {chips:,}" for s, chips in enumerate(event.payouts) if chips
                )
                return f"The table is closed. Back to balances: {paid or 'nothing left to pay'}."
        return ui.event_line(event, names)

    def private_lines(self, table_id: int, seat: int) -> Sequence[str]:
        return self.private.get((table_id, seat), ())

    def forget(self, table_id: int) -> None:
        self.recent.pop(table_id, None)
        for key in [key for key in self.private if key[0] == table_id]:
            del self.private[key]


# Why a tournament's match ended before its game did, as its table's last line says.
MATCH_ENDS = {
    "hands_played": "it has played its hands",
    "match_time": "its time ran out",
    "channel_deleted": "its thread was deleted",
    "closed": "a moderator closed it",
}


def match_over(tournament_id: int, why: str) -> str:
    """A tournament table's close: its chips were the tournament's, so nothing goes back."""
    reason = MATCH_ENDS.get(why)
    ended = f"The match is over ({reason})" if reason else "The match is over"
    return f"{ended}; tournament #{tournament_id} records these standings."
