"""The house's report (Manage Server): its balance, the chips it holds at tables in play (the
wins of the bets being played), and what it won or paid per day and per house-banked game.
`/chips house` and each house game's `/<game> house` show it."""

from __future__ import annotations

import discord

from bot.discord.port import TableHost, host
from bot.discord.replies import send_answer
from bot.engine import registry
from bot.i18n import _, n_, number
from bot.text import chips, signed_chips

REPORT_DAYS = 7


async def house_embed(bot: TableHost, guild_id: int) -> discord.Embed:
    ledger = bot.ledger
    balance = await ledger.house_balance(guild_id)
    at_tables = sum(
        table.house_bank()
        for table in bot.runtime.tables.values()
        if table.record.guild_id == guild_id
    )
    embed = discord.Embed(title=_("The house"))
    balance_line = _("**Balance:** {chips}", chips=chips(balance))
    if at_tables:
        balance_line += " · " + _("**held at tables now:** {chips}", chips=chips(at_tables))
    embed.description = (
        balance_line
        + "\n"
        + _(
            "A server manager adds chips with `/chips bankroll`. The house covers each hand "
            "from this balance as its bets are made: a bet it can't cover is refused."
        )
    )
    days = await ledger.house_days(guild_id, REPORT_DAYS)
    embed.add_field(
        name=_("Per day (UTC, last {days})", days=REPORT_DAYS),
        value="\n".join(
            n_(
                "{day} · {count} hand · {net}",
                "{day} · {count} hands · {net}",
                hands,
                day=str(day),
                net=signed(net),
            )
            for day, hands, net in days
        )
        or _("No hands yet."),
        inline=False,
    )
    games = await ledger.house_report(guild_id)
    embed.add_field(
        name=_("Per game"),
        value="\n".join(
            n_(
                "**{game}** · {count} hand · {chips}",
                "**{game}** · {count} hands · {chips}",
                hands,
                game=_(registry.get(game_id).name),
                chips=signed_chips(net),
            )
            for game_id, hands, net in games
        )
        or _("No house-banked game has been played yet."),
        inline=False,
    )
    embed.set_footer(text=_("Positive: the house won from the players. Negative: it paid."))
    return embed


def signed(amount: int) -> str:
    """`+1,234`, `-5`, `+0`: a net without its unit, as the language writes numbers."""
    return ("+" if amount >= 0 else "-") + number(abs(amount))


async def send_house_report(interaction: discord.Interaction) -> None:
    guild_id = interaction.guild_id
    assert guild_id is not None  # its commands are for a server's managers: never in DMs
    embed = await house_embed(host(interaction), guild_id)
    await send_answer(interaction, embed=embed, ephemeral=True)
