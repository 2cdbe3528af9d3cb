"""/botifarra: Botifarra tables (four players in two partnerships, a points match); the game,
its GameUI and its rules text are in bot/games/botifarra/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.botifarra import BOTIFARRA
from bot.games.botifarra.ui import RULES, BotifarraUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

Botifarra = table_game_cog("botifarra", BOTIFARRA, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(BotifarraUI())
    await bot.add_cog(Botifarra(bot))
