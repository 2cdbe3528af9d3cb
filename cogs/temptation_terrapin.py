"""/temptation: Temptation Terrapin tables; the game, its GameUI and its rules text are in
bot/games/terrapin/temptation/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.games.terrapin.temptation import TEMPTATION
from bot.games.terrapin.temptation.ui import RULES, TemptationUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

TemptationTerrapin = table_game_cog("temptation", TEMPTATION, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(TemptationUI())
    await bot.add_cog(TemptationTerrapin(bot))
