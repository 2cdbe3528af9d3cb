"""The house's report (Manage Server): its balance, the chips it holds at tables in play (the
wins of the bets being played), and what it won or paid per day and per house-banked game.
`/chips house` and each house game's `/<game> house` show it."""

from __future__ import annotations

import discord

from bot.discord.format import chips, plural, signed_chips
from bot.discord.port import TableHost, host
from bot.discord.replies import send_answer
from bot.engine import registry

REPORT_DAYS = 7


async def house_embed(bot: TableHost, guild_id: int) -> discord.Embed:
    ledger = bot.ledger
    balance = await ledger.house_balance(guild_id)
    at_tables = sum(
        table.house_bank()
        for table in bot.runtime.tables.values()
        if table.record.guild_id == guild_id
    )
    embed = discord.Embed(title="The house")
    embed.description = (
        f"**Balance:** {chips(balance)}"
        + (f" · **held at tables now:** {chips(at_tables)}" if at_tables else "")
        + "\nA server manager adds chips with `/chips bankroll`. The house covers each hand "
        "from this balance as its bets are made: a bet it can't cover is refused."
    )
    days = await ledger.house_days(guild_id, REPORT_DAYS)
    embed.add_field(
        name=f"Per day (UTC, last {REPORT_DAYS})",
        value="\n".join(f"{day} · {plural(hands, 'hand')} · {net:+,}" for day, hands, net in days)
        or "No hands yet.",
        inline=False,
    )
    games = await ledger.house_report(guild_id)
    embed.add_field(
        name="Per game",
        value="\n".join(
            f"**{registry.get(game_id).name}** · {plural(hands, 'hand')} · {signed_chips(net)}"
            for game_id, hands, net in games
        )
        or "No house-banked game has been played yet.",
        inline=False,
    )
    embed.set_footer(text="Positive: the house won from the players. Negative: it paid.")
    return embed


async def send_house_report(interaction: discord.Interaction) -> None:
    guild_id = interaction.guild_id
    assert guild_id is not None  # its commands are for a server's managers: never in DMs
    embed = await house_embed(host(interaction), guild_id)
    await send_answer(interaction, embed=embed, ephemeral=True)
