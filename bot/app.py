"""The bot process: builds the client and runs it until stopped."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
from discord.ext import commands

from bot.settings import Settings

log = logging.getLogger(__name__)
COGS_DIR = Path(__file__).resolve().parent.parent / "cogs"


def cog_modules() -> list[str]:
    """Every extension under cogs/ (a module with a `setup` function), by dotted name."""
    return [
        f"cogs.{path.stem}"
        for path in sorted(COGS_DIR.glob("*.py"))
        if not path.name.startswith("_")
    ]


class CardTableBot(commands.Bot):
    def __init__(self, settings: Settings) -> None:
        # Slash commands and components need no privileged intents (no members, no content).
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.settings = settings

    async def setup_hook(self) -> None:
        for module in cog_modules():
            await self.load_extension(module)
            log.info("loaded %s", module)


async def run_bot(settings: Settings, token: str) -> None:
    async with CardTableBot(settings) as client:
        await client.start(token)
