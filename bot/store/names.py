"""Members' names as the bot last saw them in a server: the name of their newest seat at one
of its tables, or of their newest tournament registration. The bot keeps no member list (it
asks Discord for no member intent), and a page outside Discord has no mentions to show."""

from __future__ import annotations

from collections.abc import Collection

from bot.store.db import Database


async def member_names(db: Database, guild_id: int, member_ids: Collection[int]) -> dict[int, str]:
    """Each member's last known name in the guild (members never seated there are missing)."""
    if not member_ids:
        return {}
    marks = ", ".join("?" for _ in member_ids)
    rows = await db.fetch_all(
        "SELECT member_id, name, 0 AS source, table_id AS newest FROM table_seats"
        " WHERE table_id IN (SELECT id FROM game_tables WHERE guild_id = ?)"
        f" AND member_id IN ({marks})"
        " UNION ALL SELECT member_id, name, 1 AS source, tournament_id AS newest"
        " FROM tournament_players"
        " WHERE tournament_id IN (SELECT id FROM tournaments WHERE guild_id = ?)"
        f" AND member_id IN ({marks})"
        " ORDER BY source, newest",
        guild_id,
        *member_ids,
        guild_id,
        *member_ids,
    )
    names: dict[int, str] = {}
    for member_id, name, source, _newest in rows:
        if source == 0 or member_id not in names:  # a seat's name before a registration's
            names[int(member_id)] = str(name)
    return names
