"""/calabrasella: Calabrasella tables; the game, its GameUI and its rules text are in
bot/games/calabrasella/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.calabrasella import CALABRASELLA
from bot.games.calabrasella.ui import DEFAULT_BUY_IN, RULES, CalabrasellaUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

Calabrasella = table_game_cog("calabrasella", CALABRASELLA, RULES, buy_in=DEFAULT_BUY_IN)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(CalabrasellaUI())
    await bot.add_cog(Calabrasella(bot))
