"""Chips: /balance, /daily, /give, /leaderboard and /chips grant."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import bot.games  # noqa: F401  (the game choices below come from the registry)
from bot.discord.errors import BaseView, handle_error
from bot.discord.format import chips, next_utc_midnight, plural, relative_time
from bot.engine import registry
from bot.errors import UserError
from bot.store import GameStanding

if TYPE_CHECKING:
    from bot.app import CardTableBot

MAX_AMOUNT = 1_000_000_000
PAGE_SIZE = 10
Amount = app_commands.Range[int, 1, MAX_AMOUNT]
GAME_CHOICES = [app_commands.Choice(name=spec.name, value=spec.id) for spec in registry.games()]


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

    @app_commands.command(description="The top chip holders, or the best players of one game.")
    @app_commands.guild_only()
    @app_commands.describe(game="Show wins and chips won at this game instead")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        await self.bot.ledger.balance(interaction.guild_id, interaction.user.id)  # rank the viewer
        board = Board(interaction.guild_id, interaction.user.id, game.value if game else "")
        embed, view = await board.page(self.bot, 0)
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


@dataclass(frozen=True)
class Board:
    """A leaderboard: chips in the server, or one game's results (`game_id`)."""

    guild_id: int
    viewer_id: int
    game_id: str = ""

    async def page(self, bot: CardTableBot, page: int) -> tuple[discord.Embed, discord.ui.View]:
        count, title = await self._size(bot)
        pages = max(1, math.ceil(count / PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        lines, own = await self._lines(bot, page * PAGE_SIZE)
        embed = discord.Embed(
            title=title, description="\n".join(lines) or "Nobody is ranked here yet."
        )
        embed.add_field(name="Rank", value=f"<@{self.viewer_id}> is {own}.")
        embed.set_footer(text=f"Page {page + 1} of {pages}")
        view = BaseView(timeout=None)
        view.add_item(LeaderboardPage(self, page - 1, "Previous", disabled=page == 0))
        view.add_item(LeaderboardPage(self, page + 1, "Next", disabled=page >= pages - 1))
        return embed, view

    async def _size(self, bot: CardTableBot) -> tuple[int, str]:
        if self.game_id:
            name = registry.get(self.game_id).name
            return await bot.ledger.game_player_count(
                self.guild_id, self.game_id
            ), f"{name} leaderboard"
        return await bot.ledger.member_count(self.guild_id), "Chip leaderboard"

    async def _lines(self, bot: CardTableBot, offset: int) -> tuple[list[str], str]:
        ledger = bot.ledger
        if not self.game_id:
            standings = await ledger.leaderboard(self.guild_id, offset=offset, limit=PAGE_SIZE)
            lines = [f"**{s.rank}.** <@{s.member_id}> · {chips(s.chips)}" for s in standings]
            mine = await ledger.standing(self.guild_id, self.viewer_id)
            own = f"#{mine.rank} with {chips(mine.chips)}" if mine else "not ranked yet"
            return lines, own
        results = await ledger.game_standings(self.guild_id, self.game_id, offset, PAGE_SIZE)
        lines = [f"**{s.rank}.** <@{s.member_id}> · {self._record(s)}" for s in results]
        mine = await ledger.game_standing(self.guild_id, self.game_id, self.viewer_id)
        own = f"#{mine.rank} · {self._record(mine)}" if mine else "not ranked in this game yet"
        return lines, own

    @staticmethod
    def _record(standing: GameStanding) -> str:
        return (
            f"{standing.net:+,} chips · {plural(standing.wins, 'win')}"
            f" in {plural(standing.hands, 'hand')}"
        )


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lb:(?P<viewer>\d+):(?P<page>-?\d+):?(?P<game>[\w-]*)",
):
    """A page button. The board (whose rank, which game) and the page live in the custom_id,
    so the buttons keep working after a restart."""

    def __init__(
        self, board: Board, page: int, label: str = "Next", *, disabled: bool = False
    ) -> None:
        self.board, self.page = board, page
        custom_id = f"lb:{board.viewer_id}:{page}:{board.game_id}"
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LeaderboardPage:
        board = Board(interaction.guild_id, int(match["viewer"]), match["game"])
        return cls(board, int(match["page"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            embed, view = await self.board.page(interaction.client, self.page)
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as error:  # dynamic items have no view to report through
            await handle_error(interaction, error, "leaderboard page")


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(LeaderboardPage)
    await bot.add_cog(Economy(bot))
