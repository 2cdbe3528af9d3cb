"""/western: Western Terrapin tables; the game, its GameUI and its rules text are in
bot/games/terrapin/western/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.games.terrapin.western import WESTERN
from bot.games.terrapin.western.ui import RULES, WesternUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

WesternTerrapin = table_game_cog("western", WESTERN, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(WesternUI())
    await bot.add_cog(WesternTerrapin(bot))
