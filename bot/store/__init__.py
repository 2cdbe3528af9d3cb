"""Persistence: the SQLite database, the chip ledger, results."""

from bot.store.db import Database, Migration, SchemaTooNew, bundled_migrations
from bot.store.dms import DMChannels
from bot.store.ledger import (
    Account,
    GameStanding,
    InsufficientChips,
    Ledger,
    Move,
    ResultRow,
    Standing,
    Totals,
)
from bot.store.tables import (
    ActionRecord,
    ChipOperation,
    GuildSettings,
    SeatRecord,
    StaleTable,
    TableRecord,
    TableStatus,
    TableStore,
)

__all__ = [
    "Account",
    "ActionRecord",
    "ChipOperation",
    "DMChannels",
    "Database",
    "GameStanding",
    "GuildSettings",
    "InsufficientChips",
    "Ledger",
    "Migration",
    "Move",
    "ResultRow",
    "SchemaTooNew",
    "SeatRecord",
    "StaleTable",
    "Standing",
    "TableRecord",
    "TableStatus",
    "TableStore",
    "Totals",
    "bundled_migrations",
]
