"""/crash: Crash (Thirteen-Card Brag) tables: hands set in secret in each player's DM (or My
hand), revealed together, points per position to 7; the game, its GameUI and its rules text are
in bot/games/crash/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.discord.picker import add_picker
from bot.games.crash import CRASH
from bot.games.crash.ui import RULES, CrashUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

Crash = table_game_cog("crash", CRASH, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(CrashUI())
    await bot.add_cog(Crash(bot))
