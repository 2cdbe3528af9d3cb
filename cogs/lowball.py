"""/lowball: Triple Draw Lowball tables; the game, its GameUI and its rules text are in
bot/games/lowball/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.lowball import LOWBALL
from bot.games.lowball.ui import RULES, LowballUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

Lowball = table_game_cog("lowball", LOWBALL, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(LowballUI())
    await bot.add_cog(Lowball(bot))
