"""/turup: Turup tables (2-12 players, each for themselves, a points match); the game, its
GameUI and its rules text are in bot/games/turup/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.turup import TURUP
from bot.games.turup.ui import RULES, TurupUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

Turup = table_game_cog("turup", TURUP, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(TurupUI())
    await bot.add_cog(Turup(bot))
