"""Persistence: the SQLite database, the chip ledger, results."""

from bot.store.db import Database, Migration, SchemaTooNew, bundled_migrations
from bot.store.ledger import (
    Account,
    InsufficientChips,
    Ledger,
    Move,
    ResultRow,
    Standing,
    Totals,
)

__all__ = [
    "Account",
    "Database",
    "InsufficientChips",
    "Ledger",
    "Migration",
    "Move",
    "ResultRow",
    "SchemaTooNew",
    "Standing",
    "Totals",
    "bundled_migrations",
]
