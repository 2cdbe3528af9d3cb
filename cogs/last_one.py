"""/lastone: Last One tables (2-6 players, Crazy Eights with specials, out at a threshold); the
game, its GameUI and its rules text are in bot/games/last_one/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.games.last_one import LAST_ONE
from bot.games.last_one.ui import RULES, LastOneUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

LastOne = table_game_cog("lastone", LAST_ONE, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(LastOneUI())
    await bot.add_cog(LastOne(bot))
