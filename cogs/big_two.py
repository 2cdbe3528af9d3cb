"""/bigtwo: Big Two tables; the game, its GameUI and its rules text are in
bot/games/big_two/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.big_two import BIG_TWO
from bot.games.big_two.ui import RULES, BigTwoUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

BigTwo = table_game_cog("bigtwo", BIG_TWO, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(BigTwoUI())
    await bot.add_cog(BigTwo(bot))
