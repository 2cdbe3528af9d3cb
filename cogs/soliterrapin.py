"""/soliterrapin: the solo game, its daily challenge and high scores; the game, its GameUI,
its board picture and its rules text are in bot/games/terrapin/soliterrapin/."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import rules_command
from bot.discord.format import next_utc_midnight, relative_time
from bot.discord.replies import send_answer
from bot.games.terrapin.soliterrapin import SOLITERRAPIN, SoliterrapinOptions
from bot.games.terrapin.soliterrapin.ui import RULES, SoliterrapinUI
from bot.i18n import _

if TYPE_CHECKING:
    from bot.app import CardTableBot

IDLE_SECONDS = 3600  # a board left alone this long is abandoned


@app_commands.guild_only()
class Soliterrapin(commands.GroupCog, group_name="soliterrapin", group_description="Soliterrapin"):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    async def _start(self, interaction: discord.Interaction, daily: str | None) -> None:
        once = None
        if daily:
            tomorrow = relative_time(next_utc_midnight(self.bot.clock()))
            refusal = _(
                "You have already played today's daily challenge; the next deck comes {time}.",
                time=tomorrow,
            )
            once = (
                f"soliterrapin-daily:{interaction.guild_id}:{interaction.user.id}:{daily}",
                refusal,
            )
        runtime = self.bot.runtime
        table = await runtime.open(
            SOLITERRAPIN,
            SoliterrapinOptions(daily=daily),
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            creator_id=interaction.user.id,
            creator_name=interaction.user.display_name,
            buy_in=0,
            turn_seconds=IDLE_SECONDS,
            key=f"open:{interaction.id}",
            once=once,
        )
        await runtime.start(table.id, interaction.user.id, can_manage=False, click=interaction.id)
        if daily:
            said = _(
                "Your Soliterrapin game, today's daily challenge ({date}), is below: pick a spot "
                "for each card.",
                date=daily,
            )
        else:
            said = _("Your Soliterrapin game, a new board, is below: pick a spot for each card.")
        await send_answer(interaction, said, ephemeral=True)

    @app_commands.command(name="play", description="Start a Soliterrapin board in this channel.")
    async def play(self, interaction: discord.Interaction) -> None:
        await self._start(interaction, None)

    @app_commands.command(name="daily", description="Play today's deck, the same for everyone.")
    async def daily(self, interaction: discord.Interaction) -> None:
        await self._start(interaction, self.bot.clock().date().isoformat())

    @app_commands.command(name="scores", description="The best Soliterrapin scores here.")
    async def scores(self, interaction: discord.Interaction) -> None:
        boards, guild, me = self.bot.leaderboards, interaction.guild_id, interaction.user.id
        assert guild is not None  # guild-only: the command tree refuses it outside a server
        today = f"daily:{self.bot.clock().date().isoformat()}"
        embed = discord.Embed(title=_("Soliterrapin scores"), colour=discord.Colour.dark_green())
        for name, variant in ((_("Best ever"), None), (_("Today's daily"), today)):
            best = await boards.best_scores(guild, SOLITERRAPIN.id, variant)
            lines = [
                f"**{i + 1}.** <@{member}> · {score}" for i, (member, score) in enumerate(best)
            ]
            embed.add_field(
                name=name, value="\n".join(lines) or _("no finished boards yet"), inline=False
            )
        mine = await boards.member_best(guild, SOLITERRAPIN.id, me)
        mine_today = await boards.member_best(guild, SOLITERRAPIN.id, me, today)
        embed.add_field(
            name=_("You"),
            value=_(
                "best {best} · today's daily {today}",
                best=mine if mine is not None else "-",
                today=mine_today if mine_today is not None else "-",
            ),
            inline=False,
        )
        await send_answer(interaction, embed=embed)

    @app_commands.command(name="rules", description="How Soliterrapin is played here.")
    async def rules(self, interaction: discord.Interaction) -> None:
        await rules_command(interaction, SOLITERRAPIN, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(SoliterrapinUI())
    await bot.add_cog(Soliterrapin(bot))
