"""The "Open on the web" links that /leaderboard, /stats, /table history and a tournament's
message offer (README, Web pages): signed for the server and the page, in the reader's
language, valid for a week. None where the pages are off (no WEB_PORT) or the server's
managers turned them off (/table web)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from bot.i18n import N_, current
from bot.store.guild_settings import GuildSettings
from bot.web.links import Links

if TYPE_CHECKING:
    from bot.store import Database

OPEN_ON_THE_WEB = N_("Open on the web")


class WebLinkHost(Protocol):
    @property
    def web_links(self) -> Links | None: ...
    @property
    def database(self) -> Database: ...
    @property
    def clock(self) -> Callable[[], datetime]: ...


async def web_link(bot: WebLinkHost, guild_id: int | None, page: str) -> str | None:
    """A signed link to the server's `page`, in the language spoken now; None if pages are off."""
    links = bot.web_links
    if links is None or guild_id is None:
        return None
    if not await GuildSettings(bot.database).web_pages(guild_id):
        return None
    return links.url(guild_id, page, current(), bot.clock())
