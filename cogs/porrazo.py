"""/porrazo: Porrazo tables (2-5 players, or four in two partnerships; a points game to 61); the
game, its GameUI and its rules text are in bot/games/porrazo/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.porrazo import PORRAZO
from bot.games.porrazo.ui import RULES, PorrazoUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

Porrazo = table_game_cog("porrazo", PORRAZO, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(PorrazoUI())
    await bot.add_cog(Porrazo(bot))
