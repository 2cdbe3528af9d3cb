"""Whose language a message is written in (README, Languages): a reply to a command or a click
in the clicker's, a DM in its member's, a table's public message in its server's.

A member's language is the one they chose (/language), else their Discord client's (the
interaction's locale, kept from their last interaction for their DMs). A server's is the one a
manager chose (/table language), else the server's own Discord locale. English otherwise."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands

from bot.i18n import ENGLISH, OFFERED, language_of_locale, speak
from bot.store import Languages

AUTOMATIC = "auto"  # /language's and /table language's choice of none: Discord's


def language_choices(automatic: str) -> list[app_commands.Choice[str]]:
    """Every language by its own name, after `automatic` (no choice of one's own)."""
    return [
        app_commands.Choice(name=automatic, value=AUTOMATIC),
        *(app_commands.Choice(name=lang.name, value=lang.code) for lang in OFFERED),
    ]


class Speakers:
    def __init__(self, store: Languages, guild_locale: Callable[[int], str | None]) -> None:
        self.store = store
        self.guild_locale = guild_locale  # the server's own Discord locale, where known

    async def clicker(self, interaction: discord.Interaction) -> str:
        """The clicker's language, their client's locale kept for their DMs on the way."""
        member_id, locale = interaction.user.id, interaction.locale.value
        known = await self.store.member(member_id)
        if known.last_locale != locale:
            await self.store.saw_locale(member_id, locale)
        if known.chosen:
            return known.chosen
        if (found := language_of_locale(locale)) is not None:
            return found
        return self.server(interaction.guild_id) if interaction.guild_id else ENGLISH

    async def member(self, member_id: int) -> str:
        known = await self.store.member(member_id)
        return known.chosen or language_of_locale(known.last_locale) or ENGLISH

    def server(self, guild_id: int) -> str:
        return (
            self.store.server(guild_id)
            or language_of_locale(self.guild_locale(guild_id))
            or ENGLISH
        )


async def speak_to(interaction: discord.Interaction) -> None:
    """The rest of this interaction's task speaks its clicker's language."""
    speakers: Speakers = interaction.client.speakers  # type: ignore[attr-defined]
    speak(await speakers.clicker(interaction))


class SpeaksToClicker:
    """A component discord.py runs itself, in a task of its own (the bot's `on_interaction`
    speaks in another): its answer too is in its clicker's language."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await speak_to(interaction)
        return True
