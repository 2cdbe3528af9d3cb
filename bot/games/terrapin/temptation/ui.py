"""Temptation Terrapin on Discord: its GameUI (how its table, hands and events read) and RULES,
what `/temptation rules` shows, read from rules.md beside this module. Its slash commands are
cogs/temptation_terrapin.py."""

from __future__ import annotations

import discord

from bot.discord.format import chips
from bot.discord.game_ui import rules_beside
from bot.discord.terrapin import TerrapinShowdownUI, card_list, deal_line
from bot.engine import Action, Event
from bot.games.terrapin.temptation import (
    TEMPTATION,
    Bought,
    Buy,
    HandStarted,
    TemptationOptions,
    TemptationView,
)
from bot.tables import Table

RULES = rules_beside(__name__)


class TemptationUI(TerrapinShowdownUI[TemptationView, TemptationOptions]):
    game_id = TEMPTATION.id
    title = "Temptation Terrapin"

    def public_embed(self, table: Table, view: TemptationView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Temptation Terrapin · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(
            self.seat_line(
                names[seat.seat],
                seat.stack,
                [
                    m
                    for m, on in (("dealer", seat.seat == view.dealer), ("left", not seat.seated))
                    if on
                ],
                acting=seat.seat == view.to_act,
                cards=seat.cards,
            )
            for seat in view.seats
        )
        embed.add_field(name="Pot", value=chips(view.pot))
        embed.add_field(name="Shared", value=card_list(view.shared))
        if view.set_aside:
            embed.add_field(
                name="Set aside (Turtle Butt)", value=card_list(view.set_aside), inline=False
            )
        if view.to_act is not None:
            offer = (
                f"{names[view.to_act]}: buy a card for {chips(view.price)}? ({view.deck_left} left)"
            )
            embed.add_field(name=f"Buying round {view.price}", value=offer, inline=False)
        return embed

    def action_label(self, view: TemptationView, action: Action) -> str:
        return f"Buy a card ({chips(view.price)})" if isinstance(action, Buy) else "No thanks"

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return deal_line(event.hand, names[event.dealer], event.pot)
            case Bought():
                verb = f"buys a card for {chips(event.price)}" if event.took else "passes"
                return f"{names[event.seat]} {verb}."
        return super().event_line(event, names)
