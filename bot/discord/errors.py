"""The one error handler for slash commands and components.

A user's mistake (UserError, a failed check) gets a short ephemeral sentence. Anything else is
logged with its context and the user is told that nothing was changed, which holds because
every chip movement and game action is one database transaction.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.errors import UserError

log = logging.getLogger(__name__)

UNEXPECTED = "Something went wrong, nothing was changed. Please try again."


def user_message(error: BaseException) -> str | None:
    """The sentence to show for a user's mistake, or None for an unexpected error."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or error
    if isinstance(error, UserError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(
            p.replace("_", " ").replace("guild", "server").title()
            for p in error.missing_permissions
        )
        return f"You need the {needed} permission to do that."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works only in a server."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} seconds."
    if isinstance(error, app_commands.CheckFailure):
        return "You can't use this command here."
    return None


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def handle_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    message = user_message(error)
    if message is None:
        log.error(
            "unexpected error in %s (user %s, guild %s, channel %s)",
            where,
            interaction.user.id if interaction.user else None,
            interaction.guild_id,
            interaction.channel_id,
            exc_info=error,
        )
        message = UNEXPECTED
    try:
        await reply_privately(interaction, message)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error in %s", interaction.user.id, where)


class CommandTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command.qualified_name if interaction.command else "a command"
        await handle_error(interaction, error, f"/{command}")


class BaseView(discord.ui.View):
    """A view whose errors go through the shared handler."""

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item
    ) -> None:
        await handle_error(interaction, error, f"component {getattr(item, 'custom_id', item)!r}")
