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
from bot.store.guild_settings import GuildSettings
from bot.store.languages import Languages, MemberLanguages
from bot.store.leaderboards import GameStanding, Leaderboards, Standing
from bot.store.ledger import Account, InsufficientChips, Ledger, Move, Totals
from bot.store.postgres import PostgresDatabase
from bot.store.ratings import Rating, Ratings
from bot.store.records import (
    ActionRecord,
    ChipOperation,
    SeatRecord,
    StaleTable,
    TableRecord,
    TableStatus,
)
from bot.store.results import ResultRow
from bot.store.sqlite import SQLiteDatabase
from bot.store.tables import TableStore

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
    "Languages",
    "Leaderboards",
    "Ledger",
    "MemberLanguages",
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
