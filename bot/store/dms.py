"""Members' DM channels with the bot, and the tokens of their latest clicks there, remembered
across restarts."""

from __future__ import annotations

from bot.store.db import Database, Transaction


class DMChannels:
    """Opening a DM channel costs a REST call against Discord's global limit, and after a
    restart every player's next DM would need one. A member's DM channel with the bot does not
    change, so its id is kept here (and in memory once looked up)."""

    def __init__(self, database: Database) -> None:
        self.db = database
        self.known: dict[int, int] = {}

    async def get(self, member_id: int) -> int | None:
        channel_id = self.known.get(member_id)
        if channel_id is None:
            row = await self.db.fetch_one(
                "SELECT channel_id FROM dm_channels WHERE member_id = ?", member_id
            )
            if row is not None:
                channel_id = self.known[member_id] = row[0]
        return channel_id

    async def remember(self, member_id: int, channel_id: int) -> None:
        self.known[member_id] = channel_id

        async def write(tx: Transaction) -> None:
            await tx.run(
                "INSERT INTO dm_channels (member_id, channel_id) VALUES (?, ?)"
                " ON CONFLICT (member_id) DO UPDATE SET channel_id = excluded.channel_id",
                member_id,
                channel_id,
            )

        await self.db.step(write)

    async def forget(self, member_id: int) -> None:
        self.known.pop(member_id, None)

        async def write(tx: Transaction) -> None:
            await tx.run("DELETE FROM dm_channels WHERE member_id = ?", member_id)

        await self.db.step(write)

    async def keep_reply_tokens(self, tokens: dict[int, tuple[str, float]], now: float) -> None:
        """At shutdown: member -> (their latest DM click's token, when it expires, epoch s).
        Other processes keep theirs in the same table (README, Several processes): each one
        drops only the expired, and a member's later token replaces an earlier one."""

        async def write(tx: Transaction) -> None:
            await tx.run("DELETE FROM reply_tokens WHERE expires_at <= ?", now)
            await tx.many(
                "INSERT INTO reply_tokens (member_id, token, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (member_id) DO UPDATE"
                " SET token = excluded.token, expires_at = excluded.expires_at"
                " WHERE excluded.expires_at > reply_tokens.expires_at",
                [(member, token, expires) for member, (token, expires) in tokens.items()],
            )

        await self.db.step(write)

    async def reply_tokens(self, now: float) -> dict[int, tuple[str, float]]:
        """The tokens kept at the last shutdown that still live at `now` (epoch s)."""
        rows = await self.db.fetch_all(
            "SELECT member_id, token, expires_at FROM reply_tokens WHERE expires_at > ?", now
        )
        return {member: (token, expires) for member, token, expires in rows}
