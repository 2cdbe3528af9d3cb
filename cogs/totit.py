"""/totit: Totit tables; the game, its GameUI and its rules text are in bot/games/totit/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.totit import TOTIT
from bot.games.totit.ui import RULES, TotitUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

Totit = table_game_cog("totit", TOTIT, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(TotitUI())
    await bot.add_cog(Totit(bot))
