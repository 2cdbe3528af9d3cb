"""/delphi: Delphi tables (3-7 players, an oracle's secret rule, secret yes/no answers); the
game, its GameUI and its rules text are in bot/games/delphi/."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.commands import table_game_cog
from bot.games.delphi import DELPHI
from bot.games.delphi.ui import RULES, DelphiUI

if TYPE_CHECKING:
    from bot.app import CardTableBot

Delphi = table_game_cog("delphi", DELPHI, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(DelphiUI())
    await bot.add_cog(Delphi(bot))
