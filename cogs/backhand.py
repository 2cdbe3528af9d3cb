"""/backhand: Backhand tables (1-7 players, each against the house, for chips or for wins), and
/backhand house for the house's balance; the game, its GameUI and its rules text are in
bot/games/backhand/."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord.commands import table_game_cog
from bot.discord.house import send_house_report
from bot.errors import UserError
from bot.games.backhand import BACKHAND
from bot.games.backhand.ui import RULES, BackhandUI
from bot.i18n import _

if TYPE_CHECKING:
    from bot.app import CardTableBot


class OptionsClash(UserError, app_commands.AppCommandError):
    """Options that don't go together, refused before the command runs."""


# The base is the class table_game_cog makes: mypy can't follow a base made by a call.
class Backhand(table_game_cog("backhand", BACKHAND, RULES)):  # type: ignore[misc]
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """`/backhand new` for wins plays no chips: a buy-in given with it is refused with
        the reason, not ignored (the generic command offers a buy-in for the chips mode)."""
        given, command = interaction.namespace, interaction.command
        opening = command is not None and command.name == "new"
        if opening and given.mode == "wins" and "buy_in" in given:
            raise OptionsClash(
                _("A table for wins plays no chips, so it takes no buy-in: leave buy_in out.")
            )
        return True

    @app_commands.command(
        name="house",
        description="The house's balance and its net per day and game (Manage Server).",
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def house(self, interaction: discord.Interaction) -> None:
        await send_house_report(interaction)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(BackhandUI())
    await bot.add_cog(Backhand(bot))
