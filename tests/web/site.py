"""The web pages served by a test's bot (tests/e2e.py's world), and what their tests share:
links taken from the bot's answers in the fake Discord, and pages fetched over HTTP."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import aiohttp
from pydantic import SecretStr

from bot.web import links_of
from tests.e2e import World
from tests.fakediscord import Message

PUBLIC_URL = "https://cards.example.org"
SECRET = "a test's secret for the pages' links"


@dataclass
class Site:
    world: World
    base: str  # where the bot serves its pages: http://127.0.0.1:<port>

    def local(self, link: str) -> str:
        """A link the bot gave (to PUBLIC_URL), as this test's server answers it."""
        parts = urlsplit(link)
        assert f"{parts.scheme}://{parts.netloc}" == PUBLIC_URL, link
        return f"{self.base}{parts.path}?{parts.query}"

    async def get(
        self, link: str, **headers: str
    ) -> tuple[int, str, aiohttp.typedefs.LooseHeaders]:
        async with aiohttp.ClientSession() as session, session.get(link, headers=headers) as answer:
            return answer.status, await answer.text(), answer.headers


async def serve_pages(world: World) -> Site:
    """The bot of `world` signs links and serves its pages, on a free port."""
    settings = world.settings
    settings.web_port, settings.public_url = 0, PUBLIC_URL
    settings.web_secret = SecretStr(SECRET)
    bot = world.bot
    bot.web_links = links_of(settings)
    await bot._serve_pages()
    assert bot.web_runner is not None
    port = bot.web_runner.addresses[0][1]
    return Site(world, f"http://127.0.0.1:{port}")


def web_links(message: Message) -> list[str]:
    """The link buttons' URLs on a message."""
    return [b["url"] for b in message.buttons() if b.get("style") == 5]


TAG = re.compile(r"<[^>]+>")


def page_text(html: str) -> str:
    """A page's words, without its tags."""
    return re.sub(r"\s+", " ", TAG.sub(" ", html))
