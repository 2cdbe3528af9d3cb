"""The records of game tables: a table, its seats, a step's action and chip work, and where a
table is in its life. Plain data, which the runtime, the presenter and the history read and
change; apart from the store that saves and loads them (bot/store/tables.py and
bot/store/table_reads.py), so that what a table is reads apart from how it is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel

from bot.store.ledger import Account, Move
from bot.store.results import ResultRow


class TableStatus(StrEnum):
    """Where a table is in its life; the values are the text the database holds."""

    LOBBY = "lobby"
    PLAYING = "playing"
    CLOSED = "closed"


@dataclass
class SeatRecord:
    seat: int
    member_id: int
    name: str
    left: bool = False
    leaving: bool = False
    timeouts: int = 0
    away: bool = False
    dm_failed: bool = False
    prompt: int = 0  # the table version at which this seat's pending decision opened
    side: int | None = None  # the partnership, in games played by sides
    ai: bool = False  # the bot plays this seat; its chips are the house's
    ai_level: str | None = None  # how well it plays (bot/games/ai.py, LEVELS): None for a member
    # The prompt last shown to the seat. Saved with the table's next step: after a crash the
    # newest may be shown twice, never not at all.
    prompted: int | None = None
    # The flags as last saved: a step writes only the seats it changed.
    saved: tuple | None = field(default=None, repr=False, compare=False)

    def flags(self) -> tuple:
        return (
            self.left,
            self.leaving,
            self.timeouts,
            self.away,
            self.dm_failed,
            self.prompt,
            self.prompted,
        )

    @property
    def account(self) -> Account:
        """Where this seat's chips come from and go back to."""
        return Account.house() if self.ai else Account.member(self.member_id)


@dataclass
class TableRecord:
    id: int
    guild_id: int
    channel_id: int
    game_id: str
    status: TableStatus
    creator_id: int
    buy_in: int
    options: str
    turn_seconds: int
    message_id: int | None = None
    state: str | None = None
    version: int = 0
    deadline: datetime | None = None
    seats: list[SeatRecord] = field(default_factory=list)
    solo: bool = False  # a personal game: several may share a channel
    ai_delay: int = 2  # seconds an AI seat waits before it acts
    # A fingerprint of what the table message shows (bot.discord.message), once it shows it.
    # Saved at shutdown only: after a crash the restarted bot finds none and redraws.
    drawn: str | None = None
    # Verifiable deals (bot/engine/deals.py): the table seed in hex (secret until the table
    # closes), its SHA-256 (shown from the lobby on) and the Start click's id.
    deal_seed: str | None = None
    deal_commitment: str | None = None
    deal_input: int | None = None
    # A tournament's table (bot/tables/tournaments.py): its chips are tournament chips, which
    # no balance pays for and no cash-out gives back.
    tournament_id: int | None = None

    @property
    def has_ai(self) -> bool:
        return any(seat.ai for seat in self.seats)


@dataclass(frozen=True)
class ChipOperation:
    """Ledger work to do inside a table step (a cash-out, a hand's results)."""

    key: str
    kind: str
    moves: Sequence[Move] = ()
    results: Sequence[ResultRow] = ()


@dataclass(frozen=True)
class ActionRecord:
    """A step for the table's log: a seat's action, or the table's own (seat None), saved as
    the model's JSON."""

    seat: int | None
    action: BaseModel
    timed_out: bool = False


class StaleTable(Exception):
    """The table changed under us (another process wrote a newer version)."""
