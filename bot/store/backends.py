"""Choosing the backend: PostgreSQL if DATABASE_URL is set, else SQLite at DATABASE_PATH."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.store.db import Backend, Database
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import SQLiteDatabase

if TYPE_CHECKING:
    from bot.settings import Settings

BACKENDS: dict[Backend, type[Database]] = {"sqlite": SQLiteDatabase, "postgres": PostgresDatabase}


async def open_database(settings: Settings) -> Database:
    """The bot's database, migrated; DatabaseUnavailable or SchemaTooNew (one sentence each)
    if it cannot be used."""
    if settings.database_url is not None:
        return await PostgresDatabase.open(
            settings.database_url.get_secret_value(), durability=settings.durability
        )
    return await SQLiteDatabase.open(settings.database_path, durability=settings.durability)
