"""Western Terrapin on Discord: its GameUI (how its table, hands and events read) and RULES,
what `/western rules` shows, read from rules.md beside this module. Its slash commands are
cogs/western_terrapin.py."""

from __future__ import annotations

import discord

from bot.discord.game_ui import rules_beside
from bot.discord.poker import BettingUI
from bot.discord.terrapin import TerrapinShowdownUI, card_list, chips, deal_line
from bot.engine import Action, Event
from bot.games.terrapin.western import (
    WESTERN,
    Drew,
    HandStarted,
    SeatView,
    Stand,
    Take,
    WesternOptions,
    WesternView,
)
from bot.i18n import N_, _
from bot.tables import Table

RULES = rules_beside(__name__)


class WesternUI(
    TerrapinShowdownUI[WesternView, WesternOptions], BettingUI[WesternView, WesternOptions]
):
    game_id = WESTERN.id
    title = N_("Western Terrapin")

    def public_embed(self, table: Table, view: WesternView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Western Terrapin · hand {hand}", hand=view.hand), colour=self.colour
        )
        embed.description = "\n".join(self._seat_line(view, seat, names) for seat in view.seats)
        embed.add_field(name=_("Pot"), value=chips(view.pot))
        embed.add_field(name=_("Shared"), value=card_list(view.shared, _("not dealt yet")))
        if view.set_aside:
            embed.add_field(
                name=_("Set aside (Turtle Butt)"), value=card_list(view.set_aside), inline=False
            )
        if view.phase == "betting" and view.to_act is not None:
            name = names[view.to_act]
            embed.add_field(
                name=_("Betting round {round}", round=view.betting_round),
                value=_("{name}: {amount} to call", name=name, amount=view.to_call)
                if view.to_call
                else _("{name}: no bet yet", name=name),
                inline=False,
            )
        elif view.phase == "draw" and view.to_act is not None:
            left = _(
                "{name}: take a card or stand ({left} left)",
                name=names[view.to_act],
                left=view.deck_left,
            )
            embed.add_field(name=_("Draw"), value=left, inline=False)
        embed.set_footer(
            text=_(
                "Raise limit {limit} · last aggressive player: {name}",
                limit=view.raise_limit,
                name=names[view.last_aggressor],
            )
        )
        return embed

    def _seat_line(self, view: WesternView, seat: SeatView, names: list[str]) -> str:
        stands = [_("stands")] if seat.standing else []
        return self.betting_seat_line(view, seat, names, marks=stands, cards=seat.cards)

    def private_embed(self, table: Table, view: WesternView, names: list[str]) -> discord.Embed:
        embed = super().private_embed(table, view, names)
        if view.to_act is not None and view.phase == "betting" and view.to_call:
            embed.add_field(name=_("To call"), value=chips(view.to_call))
        return embed

    def options_text(self, options: WesternOptions) -> str:
        if options.allow_check:
            return _("raise limit: {limit}, checks allowed: yes", limit=options.raise_limit)
        return _("raise limit: {limit}, checks allowed: no", limit=options.raise_limit)

    def action_label(self, view: WesternView, action: Action) -> str:
        match action:
            case Take():
                return _("Take a card")
            case Stand():
                return _("Stand")
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return deal_line(event.hand, names[event.dealer], event.pot)
            case Drew():
                if event.took:
                    return _("{name} takes a card.", name=names[event.seat])
                return _("{name} stands.", name=names[event.seat])
        return super().event_line(event, names)
