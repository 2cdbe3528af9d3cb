"""/provincial: Provincial Terrapin tables; the game, its GameUI and its rules text are in
bot/games/terrapin/provincial/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.games.terrapin.provincial import PROVINCIAL
from bot.games.terrapin.provincial.ui import RULES, ProvincialUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

ProvincialTerrapin = table_game_cog("provincial", PROVINCIAL, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(ProvincialUI())
    await bot.add_cog(ProvincialTerrapin(bot))
