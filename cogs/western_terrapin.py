"""/western: Western Terrapin tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import chips
from bot.discord.poker import BettingUI
from bot.discord.terrapin import CARRIED_POT, SCORING, TerrapinShowdownUI, card_list, deal_line
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

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = f"""\
**Western Terrapin** · 2-7 players · the 36-card Decktet
{SCORING}
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
are settled separately. Facing an all-in bet you call it (up to the all-in amount) or fold, \
and no raise is offered when everyone else still in is all-in. On timeout you fold when \
facing a bet (check when checking is allowed) and stand in the draw; twice in one hand and \
you are marked away (press My hand to come back). \
You can leave between hands (or ask to leave at the end of the current one). If the table \
closes with chips still in the pot, they are shared out one by one from the dealer's left. \
{CARRIED_POT} Players join before the start."""


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


WesternTerrapin = table_game_cog("western", WESTERN, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(WesternUI())
    await bot.add_cog(WesternTerrapin(bot))
