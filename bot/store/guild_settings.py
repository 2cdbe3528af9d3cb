"""Each guild's choices about the bot, set by a server manager."""

from __future__ import annotations

from bot.store.db import Database, Transaction


class GuildSettings:
    """Each guild's choices about the bot (Manage Server)."""

    def __init__(self, database: Database) -> None:
        self.db = database

    async def ai_seats(self, guild_id: int) -> bool:
        row = await self.db.fetch_one(
            "SELECT ai_seats FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return True if row is None else bool(row[0])

    async def set_ai_seats(self, guild_id: int, allowed: bool) -> None:
        async def write(tx: Transaction) -> None:
            await tx.run(
                "INSERT INTO guild_settings (guild_id, ai_seats) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET ai_seats = excluded.ai_seats",
                guild_id,
                allowed,
            )

        await self.db.step(write)
