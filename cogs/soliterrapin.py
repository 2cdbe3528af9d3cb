"""/soliterrapin: the solo game, its daily challenge and high scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.board import render_board, text_board
from bot.discord.commands import rules_command
from bot.discord.format import next_utc_midnight, plural, relative_time
from bot.discord.game_ui import GameUI
from bot.discord.replies import send_answer
from bot.discord.terrapin import SCORING
from bot.engine import Action
from bot.games.terrapin.soliterrapin import (
    SOLITERRAPIN,
    Abandon,
    Place,
    SoliterrapinOptions,
    SoliterrapinView,
)
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import CardTableBot

IDLE_SECONDS = 3600  # a board left alone this long is abandoned

RULES = f"""\
**Soliterrapin** · solo · the 36-card Decktet
The first card goes down by itself. Each next card must be placed next to a card already down \
(up, down, left or right; never only diagonally), and the grid can never grow beyond 6 x 6: \
once a row or column holds six cards, the grid is fixed in that direction.
When all 36 cards are down, every row and every column scores as a Terrapin hand, and your \
score is the sum of the 12 lines.
{SCORING} A Turtle Butt line scores 0.
**Spots.** A spot is named by its column letter and row number, counted on a fixed frame \
around the first card, which is always F6 (columns A to K, rows 1 to 11, as far as the grid \
can reach): a card keeps its name however the grid grows, and the picture shows the letters \
and numbers along its edges, with the card to place and your score above the board.
**Daily challenge.** `/soliterrapin daily` deals the same deck to everyone for the UTC day; \
you get one attempt a day (abandoning uses it up). `/soliterrapin scores` shows the best. Its \
deck comes from the date, not from a table seed, so its board shows no deals commitment.
**House decisions.** Only the player who started a board can play it; others can watch. A \
board left alone for an hour is abandoned and scores nothing. Each member can have one board \
going per channel."""


class SoliterrapinUI(GameUI[SoliterrapinView, SoliterrapinOptions]):
    game_id = SOLITERRAPIN.id
    controls_on_table = True
    warning_kinds = frozenset({"abandon"})

    def public_embed(self, table: Table, view: SoliterrapinView, names: list[str]) -> discord.Embed:
        embed = self._board_embed(view, names[0])
        card = view.next_card
        assert card is not None  # a board still in play has a card to place (closed_embed after)
        embed.description = (
            f"Card to place: **{card.label}** · {view.deck_left} in the deck, this one included\n"
            f"Score so far: **{view.total}** · choose a yellow spot below"
        )
        embed.set_footer(text=f"Only {names[0]} can play this board.")
        return embed

    def closed_embed(self, table: Table, view: SoliterrapinView, names: list[str]) -> discord.Embed:
        embed = self._board_embed(view, names[0])
        if view.abandoned:
            down = plural(len(view.cells), "card")
            embed.description = f"{names[0]} abandoned this board ({down} down)."
        else:
            embed.description = f"{names[0]} placed every card. Final score: **{view.total}**"
        return embed

    def _board_embed(self, view: SoliterrapinView, owner: str) -> discord.Embed:
        daily = f" · daily {view.daily}" if view.daily else ""
        embed = discord.Embed(title=f"Soliterrapin · {owner}{daily}", colour=self.colour)
        embed.add_field(name="Board as text", value=f"```\n{text_board(view)}\n```", inline=False)
        return embed

    def private_embed(
        self, table: Table, view: SoliterrapinView, names: list[str]
    ) -> discord.Embed:
        return self.public_embed(table, view, names)

    def image(self, view: SoliterrapinView) -> bytes:
        return render_board(view)

    def action_label(self, view: SoliterrapinView, action: Action) -> str:
        match action:
            case Abandon():
                return "Abandon"
            case Place():
                return next(
                    s.label for s in view.legal if (s.row, s.col) == (action.row, action.col)
                )
        return super().action_label(view, action)


@app_commands.guild_only()
class Soliterrapin(commands.GroupCog, group_name="soliterrapin", group_description="Soliterrapin"):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    async def _start(self, interaction: discord.Interaction, daily: str | None) -> None:
        once = None
        if daily:
            tomorrow = relative_time(next_utc_midnight(self.bot.clock()))
            refusal = (
                f"You have already played today's daily challenge; the next deck comes {tomorrow}."
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
        what = f"today's daily challenge ({daily})" if daily else "a new board"
        await send_answer(
            interaction,
            f"Your Soliterrapin game, {what}, is below: pick a spot for each card.",
            ephemeral=True,
        )

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
        embed = discord.Embed(title="Soliterrapin scores", colour=discord.Colour.dark_green())
        for name, variant in (("Best ever", None), ("Today's daily", today)):
            best = await boards.best_scores(guild, SOLITERRAPIN.id, variant)
            lines = [
                f"**{i + 1}.** <@{member}> · {score}" for i, (member, score) in enumerate(best)
            ]
            embed.add_field(
                name=name, value="\n".join(lines) or "no finished boards yet", inline=False
            )
        mine = await boards.member_best(guild, SOLITERRAPIN.id, me)
        mine_today = await boards.member_best(guild, SOLITERRAPIN.id, me, today)
        embed.add_field(
            name="You",
            value=f"best {mine if mine is not None else '-'} · today's daily "
            f"{mine_today if mine_today is not None else '-'}",
            inline=False,
        )
        await send_answer(interaction, embed=embed)

    @app_commands.command(name="rules", description="How Soliterrapin is played here.")
    async def rules(self, interaction: discord.Interaction) -> None:
        await rules_command(interaction, SOLITERRAPIN, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(SoliterrapinUI())
    await bot.add_cog(Soliterrapin(bot))
