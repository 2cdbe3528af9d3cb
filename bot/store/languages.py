"""Who reads in which language (README, Languages): a server's choice for its tables' public
messages, and a member's own choice with their Discord client's locale at their last
interaction (what their DMs are written in when they chose nothing)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.store.db import Database, Transaction

# A member's languages are kept this long in memory: another of the bot's processes may be the
# one a member told, and DMs are sent often enough that asking the database each time costs.
MEMBER_SECONDS = 60.0


@dataclass(frozen=True)
class MemberLanguages:
    chosen: str | None = None
    last_locale: str | None = None


class Languages:
    def __init__(self, database: Database) -> None:
        self.db = database
        self._servers: dict[int, str | None] = {}
        self._members: dict[int, tuple[float, MemberLanguages]] = {}

    async def load_servers(self) -> None:
        """Every server's choice, read once at start: a server's commands and tables are this
        process's (its shards), so what it writes afterwards it knows."""
        rows = await self.db.fetch_all(
            "SELECT guild_id, language FROM guild_settings WHERE language IS NOT NULL"
        )
        self._servers = {int(guild_id): code for guild_id, code in rows}

    def server(self, guild_id: int) -> str | None:
        return self._servers.get(guild_id)

    async def set_server(self, guild_id: int, code: str | None) -> None:
        async def write(tx: Transaction) -> None:
            await tx.run(
                "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                guild_id,
                code,
            )

        await self.db.step(write)
        self._servers[guild_id] = code

    async def member(self, member_id: int) -> MemberLanguages:
        kept = self._members.get(member_id)
        if kept is not None and time.monotonic() - kept[0] < MEMBER_SECONDS:
            return kept[1]
        row = await self.db.fetch_one(
            "SELECT chosen, last_locale FROM member_languages WHERE member_id = ?", member_id
        )
        found = MemberLanguages() if row is None else MemberLanguages(row[0], row[1])
        self._members[member_id] = (time.monotonic(), found)
        return found

    async def set_member(self, member_id: int, code: str | None) -> None:
        await self._write(member_id, "chosen", code)

    async def saw_locale(self, member_id: int, locale: str) -> None:
        """A member's client locale (the caller writes it only when it is not the one kept)."""
        await self._write(member_id, "last_locale", locale)

    async def _write(self, member_id: int, column: str, value: str | None) -> None:
        async def write(tx: Transaction) -> None:
            await tx.run(
                f"INSERT INTO member_languages (member_id, {column}) VALUES (?, ?)"
                f" ON CONFLICT (member_id) DO UPDATE SET {column} = excluded.{column}",
                member_id,
                value,
            )

        await self.db.step(write)
        self._members.pop(member_id, None)
