"""/liars: Liar's Terrapin tables; the game, its GameUI and its rules text are in
bot/games/terrapin/liars/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.games.terrapin.liars import LIARS
from bot.games.terrapin.liars.ui import RULES, LiarsUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

LiarsTerrapin = table_game_cog("liars", LIARS, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(LiarsUI())
    await bot.add_cog(LiarsTerrapin(bot))
