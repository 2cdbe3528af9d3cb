"""The slash commands' words in every language: discord.py hands each name, description and
choice to `CatalogTranslator` when the commands are synced, and `command_words` lists them all
for the catalogs (`python -m bot.i18n extract`)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from bot.i18n import ENGLISH, catalog, language_of_locale

# Names are words of their own (a command's "new" is not a new card): they have a context.
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)
NAME_CONTEXT = "command name"


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = language_of_locale(locale.value)
        if code is None or code == ENGLISH:
            return None
        said = catalog(code)
        if context.location in NAMES:
            text = said.pgettext(NAME_CONTEXT, string.message)
        else:
            text = said.gettext(string.message)
        return None if text == string.message else text


def command_words(modules: list[str]) -> Iterator[tuple[str | None, str]]:
    """(context, message) for every word the cogs in `modules` register with Discord."""
    for module in modules:
        for value in vars(importlib.import_module(module)).values():
            if isinstance(value, type) and issubclass(value, commands.Cog):
                for command in value.__cog_app_commands__:
                    yield from _words(command)


def _words(command: app_commands.Command | app_commands.Group) -> Iterator[tuple[str | None, str]]:
    yield NAME_CONTEXT, command.name
    yield None, command.description
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _words(child)
        return
    for parameter in command.parameters:
        yield NAME_CONTEXT, parameter.name
        yield None, parameter.description
        for choice in parameter.choices:
            yield None, choice.name
