"""Chips: /balance, /daily, /give, /leaderboard and /chips grant."""

from __future__ import annotations

import math
import re
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.errors import BaseView, handle_error
from bot.discord.format import chips, relative_time
from bot.errors import UserError

if TYPE_CHECKING:
    from bot.app import CardTableBot

MAX_AMOUNT = 1_000_000_000
PAGE_SIZE = 10
Amount = app_commands.Range[int, 1, MAX_AMOUNT]


def next_utc_midnight(now: datetime) -> datetime:
    return datetime.combine(now.date() + timedelta(days=1), time(0), tzinfo=now.tzinfo)


def refuse_bots(member: discord.abc.User) -> None:
    if member.bot:
        raise UserError("Bots don't hold chips.")


class Economy(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(description="Show your chips, or another member's.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose chips to show (you, if left out)")
    async def balance(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        member = member or interaction.user
        refuse_bots(member)
        amount = await self.bot.ledger.balance(interaction.guild_id, member.id)
        whose = "You have" if member.id == interaction.user.id else f"{member.mention} has"
        await interaction.response.send_message(
            f"{whose} {chips(amount)}.", allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(description="Collect your free chips for today (once per UTC day).")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction) -> None:
        now = self.bot.clock()
        amount = self.bot.settings.daily_chips
        key = f"daily:{interaction.guild_id}:{interaction.user.id}:{now.date().isoformat()}"
        granted = await self.bot.ledger.grant(
            interaction.guild_id, interaction.user.id, amount, reason="daily", key=key
        )
        next_time = relative_time(next_utc_midnight(now))
        if not granted:
            raise UserError(
                f"You already collected today's chips. The next ones are ready {next_time}."
            )
        total = await self.bot.ledger.balance(interaction.guild_id, interaction.user.id)
        await interaction.response.send_message(
            f"You collected {chips(amount)} and now have {chips(total)}. Come back {next_time}."
        )

    @app_commands.command(description="Give some of your chips to another member.")
    @app_commands.guild_only()
    @app_commands.describe(member="Who receives the chips", amount="How many chips to give")
    async def give(
        self, interaction: discord.Interaction, member: discord.Member, amount: Amount
    ) -> None:
        if member.id == interaction.user.id:
            raise UserError("You can't give chips to yourself.")
        refuse_bots(member)
        guild = interaction.guild_id
        await self.bot.ledger.transfer(
            guild, interaction.user.id, member.id, amount, key=f"give:{interaction.id}"
        )
        left = await self.bot.ledger.balance(guild, interaction.user.id)
        await interaction.response.send_message(
            f"{interaction.user.mention} gave {chips(amount)} to {member.mention}. "
            f"You have {chips(left)} left.",
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )

    @app_commands.command(description="The members with the most chips in this server.")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await self.bot.ledger.balance(interaction.guild_id, interaction.user.id)  # rank the viewer
        embed, view = await leaderboard_page(self.bot, interaction.guild_id, interaction.user.id, 0)
        await interaction.response.send_message(embed=embed, view=view)

    chips_group = app_commands.Group(
        name="chips",
        description="Chip administration.",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @chips_group.command(
        name="grant", description="Create chips for a member (Manage Server only)."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(member="Who receives the chips", amount="How many chips to create")
    async def grant(
        self, interaction: discord.Interaction, member: discord.Member, amount: Amount
    ) -> None:
        refuse_bots(member)
        guild = interaction.guild_id
        await self.bot.ledger.grant(
            guild,
            member.id,
            amount,
            reason=f"admin grant by {interaction.user.id}",
            key=f"grant:{interaction.id}",
        )
        total = await self.bot.ledger.balance(guild, member.id)
        await interaction.response.send_message(
            f"Granted {chips(amount)} to {member.mention}, who now has {chips(total)}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def leaderboard_page(
    bot: CardTableBot, guild_id: int, viewer_id: int, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    ledger = bot.ledger
    pages = max(1, math.ceil(await ledger.member_count(guild_id) / PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    standings = await ledger.leaderboard(guild_id, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
    lines = [f"**{s.rank}.** <@{s.member_id}> · {chips(s.chips)}" for s in standings]
    embed = discord.Embed(
        title="Chip leaderboard", description="\n".join(lines) or "Nobody has chips here yet."
    )
    own = await ledger.standing(guild_id, viewer_id)
    rank = f"#{own.rank} with {chips(own.chips)}" if own else "not ranked yet"
    embed.add_field(name="Rank", value=f"<@{viewer_id}> is {rank}.")
    embed.set_footer(text=f"Page {page + 1} of {pages}")
    view = BaseView(timeout=None)
    view.add_item(LeaderboardPage(viewer_id, page - 1, "Previous", disabled=page == 0))
    view.add_item(LeaderboardPage(viewer_id, page + 1, "Next", disabled=page >= pages - 1))
    return embed, view


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button], template=r"lb:(?P<viewer>\d+):(?P<page>-?\d+)"
):
    """A page button; the page and whose rank to show live in the custom_id, so the buttons
    keep working after a restart."""

    def __init__(
        self, viewer_id: int, page: int, label: str = "Next", *, disabled: bool = False
    ) -> None:
        self.viewer_id, self.page = viewer_id, page
        super().__init__(
            discord.ui.Button(label=label, custom_id=f"lb:{viewer_id}:{page}", disabled=disabled)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LeaderboardPage:
        return cls(int(match["viewer"]), int(match["page"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            embed, view = await leaderboard_page(
                interaction.client, interaction.guild_id, self.viewer_id, self.page
            )
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as error:  # dynamic items have no view to report through
            await handle_error(interaction, error, "leaderboard page")


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(LeaderboardPage)
    await bot.add_cog(Economy(bot))
