"""/doudizhu: Dou Dizhu tables; the game, its GameUI and its rules text are in
bot/games/dou_dizhu/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.dou_dizhu import DOU_DIZHU
from bot.games.dou_dizhu.ui import RULES, DouDizhuUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

DouDizhu = table_game_cog("doudizhu", DOU_DIZHU, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(DouDizhuUI())
    await bot.add_cog(DouDizhu(bot))
