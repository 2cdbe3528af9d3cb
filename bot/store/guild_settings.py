"""Each guild's choices about the bot, set by a server manager."""

from __future__ import annotations

from typing import Literal

from bot.store.db import Database, Transaction

# A guild's on/off choices: each a column of guild_settings, on unless turned off.
Switch = Literal["ai_seats", "web_pages"]


class GuildSettings:
    """Each guild's choices about the bot (Manage Server)."""

    def __init__(self, database: Database) -> None:
        self.db = database

    async def ai_seats(self, guild_id: int) -> bool:
        return await self._switch(guild_id, "ai_seats")

    async def set_ai_seats(self, guild_id: int, allowed: bool) -> None:
        await self._set(guild_id, "ai_seats", allowed)

    async def web_pages(self, guild_id: int) -> bool:
        """Whether the server's web pages may be opened (/table web)."""
        return await self._switch(guild_id, "web_pages")

    async def set_web_pages(self, guild_id: int, allowed: bool) -> None:
        await self._set(guild_id, "web_pages", allowed)

    async def _switch(self, guild_id: int, column: Switch) -> bool:
        row = await self.db.fetch_one(
            f"SELECT {column} FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return True if row is None else bool(row[0])

    async def _set(self, guild_id: int, column: Switch, allowed: bool) -> None:
        async def write(tx: Transaction) -> None:
            await tx.run(
                f"INSERT INTO guild_settings (guild_id, {column}) VALUES (?, ?)"
                f" ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}",
                guild_id,
                allowed,
            )

        await self.db.step(write)
