"""/language: the language the bot writes to a member in (README, Languages). A server's own,
for its tables' public messages, is /table language (cogs/table.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.languages import AUTOMATIC, language_choices
from bot.discord.replies import send_answer
from bot.i18n import LANGUAGES, _, speak

if TYPE_CHECKING:
    from bot.app import CardTableBot


class Language(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(
        description="Choose the language the bot writes to you in (replies, your hand, DMs)."
    )
    @app_commands.describe(language="Your language; Automatic follows your Discord app's")
    @app_commands.choices(language=language_choices("Automatic (my Discord app's)"))
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        code = None if language == AUTOMATIC else language
        speakers = self.bot.speakers
        await speakers.store.set_member(interaction.user.id, code)
        speak(await speakers.clicker(interaction))
        if code is None:
            text = _("I will write to you in your Discord app's language.")
        else:
            text = _("I will write to you in {language}.", language=LANGUAGES[code].name)
        await send_answer(interaction, content=text, ephemeral=True)


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Language(bot))
