"""Temptation Terrapin on Discord: its GameUI (how its table, hands and events read) and RULES,
what `/temptation rules` shows, read from rules.md beside this module. Its slash commands are
cogs/temptation_terrapin.py."""

from __future__ import annotations

import discord

from bot.discord.game_ui import rules_beside
from bot.discord.terrapin import TerrapinShowdownUI, card_list, chips, deal_line
from bot.engine import Action, Event
from bot.games.terrapin.temptation import (
    TEMPTATION,
    Bought,
    Buy,
    HandStarted,
    TemptationOptions,
    TemptationView,
)
from bot.i18n import N_, _, n_, p_
from bot.tables import Table

RULES = rules_beside(__name__)


class TemptationUI(TerrapinShowdownUI[TemptationView, TemptationOptions]):
    game_id = TEMPTATION.id
    title = N_("Temptation Terrapin")

    def public_embed(self, table: Table, view: TemptationView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Temptation Terrapin · hand {hand}", hand=view.hand), colour=self.colour
        )
        embed.description = "\n".join(
            self.seat_line(
                names[seat.seat],
                seat.stack,
                [
                    *([_("dealer")] if seat.seat == view.dealer else []),
                    *([p_("seat", "left")] if not seat.seated else []),
                ],
                acting=seat.seat == view.to_act,
                cards=seat.cards,
            )
            for seat in view.seats
        )
        embed.add_field(name=_("Pot"), value=chips(view.pot))
        embed.add_field(name=_("Shared"), value=card_list(view.shared))
        if view.set_aside:
            embed.add_field(
                name=_("Set aside (Turtle Butt)"), value=card_list(view.set_aside), inline=False
            )
        if view.to_act is not None:
            offer = n_(
                "{name}: buy a card for {count} chip? ({left} left)",
                "{name}: buy a card for {count} chips? ({left} left)",
                view.price,
                name=names[view.to_act],
                left=view.deck_left,
            )
            embed.add_field(
                name=_("Buying round {round}", round=view.price), value=offer, inline=False
            )
        return embed

    def action_label(self, view: TemptationView, action: Action) -> str:
        if isinstance(action, Buy):
            return n_("Buy a card ({count} chip)", "Buy a card ({count} chips)", view.price)
        return _("No thanks")

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return deal_line(event.hand, names[event.dealer], event.pot)
            case Bought():
                name = names[event.seat]
                if not event.took:
                    return _("{name} passes.", name=name)
                return n_(
                    "{name} buys a card for {count} chip.",
                    "{name} buys a card for {count} chips.",
                    event.price,
                    name=name,
                )
        return super().event_line(event, names)
