"""Chips: /balance, /daily, /give, /leaderboard (chips, a game's results or its skill
ratings), /stats, /chips grant, bankroll and house."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import bot.games  # noqa: F401  (the game choices below come from the registry)
from bot.discord.boards import SKILL, LeaderboardPage, board_of
from bot.discord.format import next_utc_midnight, relative_time
from bot.discord.house import send_house_report
from bot.discord.replies import send_answer
from bot.discord.stats import stats_embed
from bot.discord.web_links import OPEN_ON_THE_WEB, web_link
from bot.engine import registry
from bot.errors import UserError
from bot.i18n import _, n_
from bot.text import chips

if TYPE_CHECKING:
    from bot.app import CardTableBot

MAX_AMOUNT = 1_000_000_000
Amount = app_commands.Range[int, 1, MAX_AMOUNT]
GAME_CHOICES = [app_commands.Choice(name=spec.name, value=spec.id) for spec in registry.games()]
VIEW_CHOICES = [
    app_commands.Choice(name="Results", value="results"),
    app_commands.Choice(name="Skill rating", value=SKILL),
]


def guild_of(interaction: discord.Interaction) -> int:
    """The server a command runs in: every command here is guild-only, and the command tree
    refuses one sent from anywhere else."""
    assert interaction.guild_id is not None
    return interaction.guild_id


def refuse_bots(member: discord.abc.User, why: str | None = None) -> None:
    if member.bot:
        raise UserError(why or _("Bots don't hold chips."))


class Economy(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    async def _open_account(self, interaction: discord.Interaction) -> None:
        """Every economy command opens the caller's account (with the starting chips), so
        whoever uses one shows on /leaderboard."""
        await self.bot.ledger.balance(guild_of(interaction), interaction.user.id)

    @app_commands.command(description="Show your chips, or another member's.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose chips to show (you, if left out)")
    async def balance(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        whom = member or interaction.user
        refuse_bots(whom)
        await self._open_account(interaction)
        amount = await self.bot.ledger.balance(guild_of(interaction), whom.id)
        if whom.id == interaction.user.id:
            said = n_("You have {count} chip.", "You have {count} chips.", amount)
        else:
            said = n_(
                "{member} has {count} chip.",
                "{member} has {count} chips.",
                amount,
                member=whom.mention,
            )
        await send_answer(
            interaction,
            said,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(description="Collect your free chips for today (once per UTC day).")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction) -> None:
        now, guild = self.bot.clock(), guild_of(interaction)
        amount = self.bot.settings.daily_chips
        key = f"daily:{guild}:{interaction.user.id}:{now.date().isoformat()}"
        granted = await self.bot.ledger.grant(
            guild, interaction.user.id, amount, reason="daily", key=key
        )
        next_time = relative_time(next_utc_midnight(now))
        if not granted:
            raise UserError(
                _(
                    "You already collected today's chips. The next ones are ready {time}.",
                    time=next_time,
                )
            )
        total = await self.bot.ledger.balance(guild, interaction.user.id)
        await send_answer(
            interaction,
            _(
                "You collected {amount} and now have {total}. Come back {time}.",
                amount=chips(amount),
                total=chips(total),
                time=next_time,
            ),
        )

    @app_commands.command(description="Give some of your chips to another member.")
    @app_commands.guild_only()
    @app_commands.describe(member="Who receives the chips", amount="How many chips to give")
    async def give(
        self, interaction: discord.Interaction, member: discord.Member, amount: Amount
    ) -> None:
        if member.id == interaction.user.id:
            raise UserError(_("You can't give chips to yourself."))
        refuse_bots(member)
        await self._open_account(interaction)
        guild = guild_of(interaction)
        await self.bot.ledger.transfer(
            guild, interaction.user.id, member.id, amount, key=f"give:{interaction.id}"
        )
        left = await self.bot.ledger.balance(guild, interaction.user.id)
        await send_answer(
            interaction,
            n_(
                "{giver} gave {count} chip to {member}.",
                "{giver} gave {count} chips to {member}.",
                amount,
                giver=interaction.user.mention,
                member=member.mention,
            )
            + " "
            + n_("You have {count} chip left.", "You have {count} chips left.", left),
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )

    @app_commands.command(description="The top chip holders, or the best players of one game.")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Show the best players of this game instead",
        view="With a game: its results (the default), or its players' skill ratings",
    )
    @app_commands.choices(game=GAME_CHOICES, view=VIEW_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        view: app_commands.Choice[str] | None = None,
    ) -> None:
        skill = view is not None and view.value == SKILL
        game_id = game.value if game else ""
        board = board_of(guild_of(interaction), interaction.user.id, game_id, skill)
        await self._open_account(interaction)
        embed, page_buttons = await board.page(self.bot, 0)
        await send_answer(interaction, embed=embed, view=page_buttons)

    @app_commands.command(description="A member's skill ratings, matches and recent results.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose ratings to show (you, if left out)")
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        whom = member or interaction.user
        refuse_bots(whom, _("Bots aren't rated."))
        guild_id = guild_of(interaction)
        embed = await stats_embed(self.bot, guild_id, whom, interaction.user.id)
        view = discord.ui.View(timeout=None)
        if url := await web_link(self.bot, guild_id, f"/member/{whom.id}"):
            view.add_item(discord.ui.Button(label=_(OPEN_ON_THE_WEB), url=url))
        await send_answer(
            interaction, embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
        )

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
        await self._open_account(interaction)
        guild = guild_of(interaction)
        await self.bot.ledger.grant(
            guild,
            member.id,
            amount,
            reason=f"admin grant by {interaction.user.id}",
            key=f"grant:{interaction.id}",
        )
        total = await self.bot.ledger.balance(guild, member.id)
        await send_answer(
            interaction,
            _(
                "Granted {amount} to {member}, who now has {total}.",
                amount=chips(amount),
                member=member.mention,
                total=chips(total),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @chips_group.command(
        name="bankroll", description="Create chips for the house that banks house games."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(amount="How many chips to create for the house")
    async def bankroll(self, interaction: discord.Interaction, amount: Amount) -> None:
        guild = guild_of(interaction)
        await self.bot.ledger.fund_house(
            guild,
            amount,
            reason=f"house bankroll by {interaction.user.id}",
            key=f"bankroll:{interaction.id}",
        )
        total = await self.bot.ledger.house_balance(guild)
        await send_answer(
            interaction,
            _(
                "Added {amount} to the house, which now has {total}.",
                amount=chips(amount),
                total=chips(total),
            ),
        )

    @chips_group.command(
        name="house", description="The house's balance, and what it won or paid per day and game."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def house(self, interaction: discord.Interaction) -> None:
        await send_house_report(interaction)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(LeaderboardPage)
    await bot.add_cog(Economy(bot))
