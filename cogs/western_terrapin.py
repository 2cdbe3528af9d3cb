"""/western: Western Terrapin tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.format import chips
from bot.discord.tables import GameUI, open_table_command, rules_command
from bot.engine import Action, Event
from bot.games.terrapin.western import WESTERN, WesternOptions, WesternView

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = """\
**Western Terrapin** · 2-7 players · the 36-card Decktet
**Scoring.** A hand is your private cards plus the shared cards. **Turtle Butt** (all six suits) \
scores 0 and can never win. Otherwise: 5 for each pair; Aces and Crowns score 5 more for each \
further card of the rank; plus the longest straight (Ace 1 ... Crown 10, no wrap) at 2 per card \
after the first.
**A hand.** Everyone antes 1 and gets two private cards. Betting from the dealer's left. Three \
shared cards (dealt again while they alone are Turtle Butt). Betting from the last aggressive \
player. Then, from the last aggressive player, each may take a card or stand (standing ends your \
drawing) until all stand or the deck is out. A final betting round, then the showdown.
**Betting.** The first player must bet or fold (no checking unless the table allows it). Bets and \
raises are 1 to the raise limit. A round ends when everyone still in has matched the highest bet. \
The last aggressive player is the last to bet or raise (if nobody has, the dealer's left).
**Showdown.** Hands are shown from the last aggressive player on; a hand that can't beat or tie \
one already shown may be mucked (its owner chooses). Ties split the pot; odd chips stay in the pot \
for the next hand. If every shown hand is Turtle Butt, the pot stays and everyone antes again.
**House decisions.** A player who can't cover a bet goes all-in for what they have; side pots \
are settled separately. On timeout you fold when facing a bet (check when checking is allowed) \
and stand in the draw; twice in one hand and you are marked away (press My hand to come back). \
You can leave between hands (or ask to leave at the end of the current one). If the table \
closes with chips still in the pot, they are shared out one by one from the dealer's left. \
Players join before the start."""


class WesternUI(GameUI):
    game_id = WESTERN.id

    def public_embed(self, table, view: WesternView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Western Terrapin · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(self._seat_line(view, seat, names) for seat in view.seats)
        embed.add_field(name="Pot", value=chips(view.pot))
        embed.add_field(
            name="Shared", value=", ".join(c.label for c in view.shared) or "not dealt yet"
        )
        if view.set_aside:
            embed.add_field(
                name="Set aside (Turtle Butt)",
                value=", ".join(c.label for c in view.set_aside),
                inline=False,
            )
        if view.phase == "betting" and view.to_act is not None:
            owed = f"{view.to_call} to call" if view.to_call else "no bet yet"
            embed.add_field(
                name=f"Betting round {view.betting_round}",
                value=f"{names[view.to_act]}: {owed}",
                inline=False,
            )
        elif view.phase == "draw" and view.to_act is not None:
            embed.add_field(
                name="Draw",
                value=f"{names[view.to_act]}: take a card or stand ({view.deck_left} left)",
                inline=False,
            )
        aggressor = names[view.last_aggressor]
        embed.set_footer(
            text=f"Raise limit {view.raise_limit} · last aggressive player: {aggressor}"
        )
        return embed

    @staticmethod
    def _seat_line(view: WesternView, seat, names: list[str]) -> str:
        marks = []
        if seat.seat == view.dealer:
            marks.append("dealer")
        if not seat.seated:
            marks.append("left")
        elif seat.folded:
            marks.append("folded")
        elif seat.in_hand and seat.stack == 0:
            marks.append("all-in")
        if seat.standing:
            marks.append("stands")
        if seat.bet:
            marks.append(f"bet {seat.bet}")
        pointer = "▶ " if seat.seat == view.to_act else ""
        detail = f" · {', '.join(marks)}" if marks else ""
        return f"{pointer}**{names[seat.seat]}** · {chips(seat.stack)} · {seat.cards} cards{detail}"

    def private_embed(self, table, view: WesternView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Your Western Terrapin hand · table {table.id}", colour=self.colour
        )
        cards = view.my_cards or []
        embed.description = "\n".join(c.label for c in cards) or "You are not in this hand."
        if cards and view.shared:
            value = (
                "Turtle Butt: this hand can't win"
                if view.my_score is None
                else f"{view.my_score} points"
            )
            embed.add_field(name="With the shared cards", value=value)
        embed.add_field(
            name="Shared",
            value=", ".join(c.label for c in view.shared) or "not dealt yet",
            inline=False,
        )
        embed.add_field(name="Pot", value=chips(view.pot))
        if view.to_act is not None and view.phase == "betting":
            embed.add_field(name="To call", value=chips(view.to_call))
        return embed

    def action_label(self, view: WesternView, action: Action) -> str:
        match action.kind:
            case "call":
                return f"Call {view.to_call}"
            case "bet":
                return f"Bet {action.amount}"
            case "raise":
                return f"Raise by {action.amount} (put in {view.to_call + action.amount})"
            case "take":
                return "Take a card"
            case "show":
                return "Show my hand"
        return action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event.kind:
            case "hand_started":
                return f"Hand {event.hand}: {names[event.dealer]} deals; pot {event.pot}."
            case "bet_placed":
                verb = {
                    "fold": "folds",
                    "check": "checks",
                    "call": "calls",
                    "bet": "bets",
                    "raise": "raises",
                }[event.action]
                amount = f" {event.amount}" if event.action in ("bet", "raise") else ""
                return f"{names[event.seat]} {verb}{amount}{' (all-in)' if event.all_in else ''}."
            case "shared_dealt":
                aside = (
                    f" (set aside as Turtle Butt: {', '.join(c.label for c in event.set_aside)})"
                    if event.set_aside
                    else ""
                )
                return f"Shared cards: {', '.join(c.label for c in event.cards)}{aside}."
            case "drew":
                return f"{names[event.seat]} {'takes a card' if event.took else 'stands'}."
            case "revealed":
                value = "Turtle Butt" if event.turtle_butt else f"{event.score} points"
                return (
                    f"{names[event.seat]} shows {', '.join(c.label for c in event.cards)}: {value}."
                )
            case "mucked":
                return f"{names[event.seat]} mucks."
            case "pot_awarded":
                if not event.winners:
                    return f"Every hand is Turtle Butt: {event.amount} chips stay in the pot."
                winners = " and ".join(names[s] for s in event.winners)
                odd = f" ({event.carried} odd chip stays)" if event.carried else ""
                verb = "wins" if len(event.winners) == 1 else "win"
                return f"{winners} {verb} {event.amount} chips{odd}."
        return None

    def hand_summary(self, table, view: WesternView, names: list[str]) -> discord.Embed | None:
        result = view.result
        if result is None:
            return None
        embed = discord.Embed(
            title=f"Western Terrapin · hand {view.hand} result", colour=self.colour
        )
        lines = []
        for shown in result.shown:
            value = "Turtle Butt" if shown.turtle_butt else f"{shown.score} points"
            lines.append(
                f"**{names[shown.seat]}**: {', '.join(c.label for c in shown.cards)} · {value}"
            )
        if view.shared:
            lines.append(f"Shared: {', '.join(c.label for c in view.shared)}")
        won = [f"{names[s]} +{amount}" for s, amount in enumerate(result.won) if amount]
        lines.append(
            "Won: "
            + (", ".join(won) if won else "nobody")
            + (f" · {result.carried} stay in the pot" if result.carried else "")
        )
        embed.description = "\n".join(lines)
        return embed


class WesternTerrapin(
    commands.GroupCog, group_name="western", group_description="Western Terrapin tables"
):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description="Open a Western Terrapin table in this channel.")
    @app_commands.guild_only()
    @app_commands.describe(
        buy_in="Chips each player brings to the table",
        raise_limit="Largest bet or raise (default 5)",
        allow_check="May the first player of a round check? (default no)",
        turn_seconds="Time for each decision (default from the bot's settings)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        buy_in: app_commands.Range[int, 10, 100_000] = 100,
        raise_limit: app_commands.Range[int, 1, 100] = 5,
        allow_check: bool = False,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        options = WesternOptions(raise_limit=raise_limit, allow_check=allow_check)
        await open_table_command(interaction, WESTERN, options, buy_in, turn_seconds)

    @app_commands.command(name="rules", description="How Western Terrapin is played here.")
    async def rules(self, interaction: discord.Interaction) -> None:
        await rules_command(interaction, WESTERN, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(WesternUI())
    await bot.add_cog(WesternTerrapin(bot))
