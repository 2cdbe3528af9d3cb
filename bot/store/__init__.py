"""Persistence: the database (SQLite or PostgreSQL), the chip ledger, results."""

from bot.store.backends import open_database
from bot.store.db import (
    Database,
    DatabaseUnavailable,
    Migration,
    SchemaTooNew,
    Transaction,
    bundled_migrations,
)
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
from bot.store.postgres import PostgresDatabase
from bot.store.ratings import Rating, Ratings
from bot.store.sqlite import SQLiteDatabase
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
    "DatabaseUnavailable",
    "GameStanding",
    "GuildSettings",
    "InsufficientChips",
    "Ledger",
    "Migration",
    "Move",
    "PostgresDatabase",
    "Rating",
    "Ratings",
    "ResultRow",
    "SQLiteDatabase",
    "SchemaTooNew",
    "SeatRecord",
    "StaleTable",
    "Standing",
    "TableRecord",
    "TableStatus",
    "TableStore",
    "Totals",
    "Transaction",
    "bundled_migrations",
    "open_database",
]
