"""Western Terrapin on Discord: its GameUI (how its table, hands and events read) and RULES,
what `/western rules` shows, read from rules.md beside this module. Its slash commands are
cogs/western_terrapin.py."""

from __future__ import annotations

import discord

from bot.discord.format import chips
from bot.discord.game_ui import rules_beside
from bot.discord.poker import BettingUI
from bot.discord.terrapin import TerrapinShowdownUI, card_list, deal_line
from bot.engine import Action, Event
from bot.games.terrapin.western import (
    WESTERN,
    Drew,
    HandStarted,
    SeatView,
    Take,
    WesternOptions,
    WesternView,
)
from bot.tables import Table

RULES = rules_beside(__name__)


class WesternUI(
    TerrapinShowdownUI[WesternView, WesternOptions], BettingUI[WesternView, WesternOptions]
):
    game_id = WESTERN.id
    title = "Western Terrapin"

    def public_embed(self, table: Table, view: WesternView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Western Terrapin · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(self._seat_line(view, seat, names) for seat in view.seats)
        embed.add_field(name="Pot", value=chips(view.pot))
        embed.add_field(name="Shared", value=card_list(view.shared, "not dealt yet"))
        if view.set_aside:
            embed.add_field(
                name="Set aside (Turtle Butt)", value=card_list(view.set_aside), inline=False
            )
        if view.phase == "betting" and view.to_act is not None:
            owed = f"{view.to_call} to call" if view.to_call else "no bet yet"
            embed.add_field(
                name=f"Betting round {view.betting_round}",
                value=f"{names[view.to_act]}: {owed}",
                inline=False,
            )
        elif view.phase == "draw" and view.to_act is not None:
            left = f"{names[view.to_act]}: take a card or stand ({view.deck_left} left)"
            embed.add_field(name="Draw", value=left, inline=False)
        aggressor = names[view.last_aggressor]
        embed.set_footer(
            text=f"Raise limit {view.raise_limit} · last aggressive player: {aggressor}"
        )
        return embed

    def _seat_line(self, view: WesternView, seat: SeatView, names: list[str]) -> str:
        stands = ["stands"] if seat.standing else []
        return self.betting_seat_line(view, seat, names, marks=stands, cards=seat.cards)

    def private_embed(self, table: Table, view: WesternView, names: list[str]) -> discord.Embed:
        embed = super().private_embed(table, view, names)
        if view.to_act is not None and view.phase == "betting" and view.to_call:
            embed.add_field(name="To call", value=chips(view.to_call))
        return embed

    def options_text(self, options: WesternOptions) -> str:
        checks = "yes" if options.allow_check else "no"
        return f"raise limit: {options.raise_limit}, checks allowed: {checks}"

    def action_label(self, view: WesternView, action: Action) -> str:
        return "Take a card" if isinstance(action, Take) else super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return deal_line(event.hand, names[event.dealer], event.pot)
            case Drew():
                return f"{names[event.seat]} {'takes a card' if event.took else 'stands'}."
        return super().event_line(event, names)
