"""The one error handler for slash commands and components, and the check of every option.

A user's mistake (UserError, a failed check) gets a short ephemeral sentence. Anything else is
logged with its context and the user is told that nothing was changed, which holds because
every chip movement and game action is one database transaction.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

import discord
from discord import AppCommandOptionType as OptionType
from discord import InteractionResponseType, app_commands

from bot.discord.languages import speak_to
from bot.discord.replies import acknowledge_if_late, expired, send_answer
from bot.errors import UserError
from bot.i18n import N_, _, n_, number, p_
from bot.i18n.commands import NAME_CONTEXT

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong, nothing was changed. Please try again.")
NOT_A_MEMBER = N_("That user is not a member of this server.")
# Discord's own bounds for an integer option, for a parameter that declares no Range.
DISCORD_INTEGER_LIMIT = 2**53
SNOWFLAKE = re.compile(r"[0-9]{1,20}")


class OptionRefused(UserError, app_commands.AppCommandError):
    """An option value Discord's client never sends, but a modified client can."""


def user_message(error: BaseException) -> str | None:
    """The sentence to show for a user's mistake, or None for an unexpected error."""
    if _is_not_a_member(error):
        return _(NOT_A_MEMBER)
    error = _underlying(error)
    if isinstance(error, UserError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(_permission_name(p) for p in error.missing_permissions)
        return _("You need the {permission} permission to do that.", permission=needed)
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works only in a server.")
    if isinstance(error, app_commands.CommandOnCooldown):
        seconds = round(error.retry_after)
        return n_(
            "Slow down: try again in {count} second.",
            "Slow down: try again in {count} seconds.",
            seconds,
        )
    if isinstance(error, app_commands.CheckFailure):
        return _("You can't use this command here.")
    return None


# Discord's names of the permissions the commands ask for, as its apps show them.
PERMISSION_NAMES = {"manage_guild": N_("Manage Server"), "manage_events": N_("Manage Events")}


def _permission_name(permission: str) -> str:
    name = PERMISSION_NAMES.get(permission)
    return _(name) if name else permission.replace("_", " ").title()


def _underlying(error: BaseException) -> BaseException:
    """What went wrong inside a command or an option's transformer, as discord.py wraps it."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        return error.__cause__ or error
    return error


def _is_not_a_member(error: BaseException) -> bool:
    """A member option naming someone who has left the server: Discord then resolves only
    the user, and discord.py's Member transformer refuses it."""
    return (
        isinstance(error, app_commands.TransformerError)
        and error.type is OptionType.user
        and not isinstance(error.value, discord.Member)
    )


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    response = interaction.response
    if response.is_done() and response.type is not InteractionResponseType.deferred_channel_message:
        await interaction.followup.send(text, ephemeral=True)
    else:
        await send_answer(interaction, content=text, ephemeral=True)


async def handle_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    if expired(_underlying(error)):
        # Discord no longer takes an answer: the member saw "This interaction failed".
        log.info("%s was answered too late for Discord (user %s)", where, interaction.user.id)
        return
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
        message = _(UNEXPECTED)
    try:
        await reply_privately(interaction, message)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error in %s", interaction.user.id, where)


class CommandTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Check the invocation against the command's own declaration before anything runs:
        Discord's client enforces option types, ranges, choices and guild-only commands, but
        a modified client can send anything, and discord.py checks none of it."""
        await speak_to(interaction)
        command = interaction.command
        invoked = interaction.type is discord.InteractionType.application_command
        if invoked and not await _acknowledged_in_time(interaction):
            return False  # too late for Discord to take any answer: the command does nothing
        if invoked and isinstance(command, app_commands.Command):
            if interaction.guild_id is None and _guild_only(command):
                raise app_commands.NoPrivateMessage()
            check_options(command, _invoked_options(interaction.data or {}))
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command.qualified_name if interaction.command else "a command"
        await handle_error(interaction, error, f"/{command}")


async def _acknowledged_in_time(interaction: discord.Interaction) -> bool:
    """Acknowledge a late command before it runs (`acknowledge_if_late`); False if even
    that came too late."""
    try:
        await acknowledge_if_late(interaction, privately=True)
    except discord.NotFound as error:
        if not expired(error):
            raise
        log.info("a command of user %s came too late to answer", interaction.user.id)
        return False
    return True


def _guild_only(command: app_commands.Command) -> bool:
    holder: app_commands.Command | app_commands.Group | None = command
    while holder is not None:  # a subcommand is guild-only when its group is
        if holder.guild_only:
            return True
        holder = holder.parent
    return False


def _invoked_options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options given to the (sub)command itself, below any subcommand layers (walked the
    way discord.py walks them to find the command)."""
    options = data.get("options", [])
    subcommand = (OptionType.subcommand.value, OptionType.subcommand_group.value)
    while options and options[0].get("type") in subcommand:
        options = options[0].get("options", [])
    return options


def check_options(command: app_commands.Command, given: Sequence[dict[str, Any]]) -> None:
    """Refuse (OptionRefused) any option that does not fit its declared parameter, and a
    required one left out. Options the command doesn't declare are never read."""
    declared = {parameter.display_name: parameter for parameter in command.parameters}
    for option in given:
        parameter = declared.get(option.get("name", ""))
        if parameter is not None and not _fits(parameter, option.get("type"), option.get("value")):
            raise OptionRefused(_expectation(parameter))
    sent = {option.get("name") for option in given}
    for parameter in declared.values():
        if parameter.required and parameter.display_name not in sent:
            raise OptionRefused(f"{parameter.display_name} is required.")


def _fits(parameter: app_commands.Parameter, kind: object, value: object) -> bool:
    # discord.py decodes a value by the type the option claims, so that must match too.
    if kind != parameter.type.value or not _has_type(value, parameter.type):
        return False
    if parameter.choices:
        return value in [choice.value for choice in parameter.choices]
    size = len(value) if isinstance(value, str) else value
    low, high = _bounds(parameter)
    return (low is None or size >= low) and (high is None or size <= high)


def _has_type(value: object, kind: OptionType) -> TypeGuard[str | float]:
    """Whether `value` is of the option's type (then text or a number, as `_fits` needs)."""
    if kind is OptionType.string:
        return isinstance(value, str)
    if kind is OptionType.integer:
        return type(value) is int  # not a bool, not 2.0, not "2"
    if kind is OptionType.number:
        return type(value) is int or (type(value) is float and math.isfinite(value))
    if kind is OptionType.boolean:
        return type(value) is bool
    # users, channels, roles, mentionables and attachments are sent as snowflake strings
    return isinstance(value, str) and SNOWFLAKE.fullmatch(value) is not None


def _bounds(parameter: app_commands.Parameter) -> tuple[float | None, float | None]:
    """The declared Range (a length for text); an integer without one gets Discord's."""
    low, high = parameter.min_value, parameter.max_value
    if parameter.type is OptionType.integer:
        low = -DISCORD_INTEGER_LIMIT if low is None else low
        high = DISCORD_INTEGER_LIMIT if high is None else high
    return low, high


def _expectation(parameter: app_commands.Parameter) -> str:
    """What a value of this parameter must be, as one sentence."""
    name, kind = p_(NAME_CONTEXT, parameter.display_name), parameter.type
    if parameter.choices:
        names = ", ".join(_(choice.name) for choice in parameter.choices)
        return _("{name} must be one of: {choices}.", name=name, choices=names)
    low, high = _whole(parameter.min_value), _whole(parameter.max_value)
    if kind is OptionType.string:
        return _(_TEXT_SPANS[low is not None, high is not None], name=name, low=low, high=high)
    if kind in (OptionType.integer, OptionType.number):
        spans = _WHOLE_SPANS if kind is OptionType.integer else _NUMBER_SPANS
        return _(spans[low is not None, high is not None], name=name, low=low, high=high)
    if kind is OptionType.boolean:
        return _("{name} must be True or False.", name=name)
    return _("{name} must be a valid {kind}.", name=name, kind=kind.name)


def _whole(bound: float | None) -> float | str | None:
    """A bound as the language writes it."""
    if bound is None:
        return None
    return number(int(bound)) if bound == int(bound) else str(bound)


# What a number or text must be, by which bounds it has: (low, high).
_WHOLE_SPANS = {
    (True, True): N_("{name} must be a whole number from {low} to {high}."),
    (True, False): N_("{name} must be a whole number of at least {low}."),
    (False, True): N_("{name} must be a whole number of at most {high}."),
    (False, False): N_("{name} must be a whole number."),
}
_NUMBER_SPANS = {
    (True, True): N_("{name} must be a number from {low} to {high}."),
    (True, False): N_("{name} must be a number of at least {low}."),
    (False, True): N_("{name} must be a number of at most {high}."),
    (False, False): N_("{name} must be a number."),
}
_TEXT_SPANS = {
    (True, True): N_("{name} must be text from {low} to {high} characters."),
    (True, False): N_("{name} must be text of at least {low} characters."),
    (False, True): N_("{name} must be text of at most {high} characters."),
    (False, False): N_("{name} must be text."),
}


class BaseView(discord.ui.View):
    """A view whose errors go through the shared handler."""

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item
    ) -> None:
        await handle_error(interaction, error, f"component {getattr(item, 'custom_id', item)!r}")
