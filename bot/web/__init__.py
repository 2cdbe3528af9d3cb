"""The web pages (README, Web pages): a server's boards, its members' ratings, its closed
tables' hands replayed and its tournaments, read-only, opened by signed links the bot gives in
Discord. bot/web/links.py signs the links, pages.py reads each page, server.py serves them."""

from __future__ import annotations

from bot.settings import Settings, SettingsError
from bot.web.links import Links, derived_secret


def links_of(settings: Settings) -> Links | None:
    """The bot's link signer, or None where the pages are off (no WEB_PORT)."""
    if settings.web_port is None:
        return None
    if settings.web_secret is not None:
        secret = settings.web_secret.get_secret_value().encode()
    elif settings.discord_token is not None and settings.discord_token.get_secret_value():
        secret = derived_secret(settings.discord_token.get_secret_value())
    else:
        raise SettingsError("WEB_PORT is set, but nothing signs the pages' links: set WEB_SECRET.")
    public = settings.public_url or f"http://localhost:{settings.web_port}"
    return Links(secret, public)
