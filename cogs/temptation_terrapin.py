"""/temptation: Temptation Terrapin tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import chips
from bot.discord.terrapin import CARRIED_POT, SCORING, TerrapinShowdownUI, card_list, deal_line
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

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = f"""\
**Temptation Terrapin** · 2-7 players · the 36-card Decktet
{SCORING}
**A hand.** Everyone antes 3 chips and gets two private cards; three cards are dealt face up \
in the middle (dealt again while they alone are Turtle Butt). Then buying rounds: from the \
dealer's left, each player may buy one more face-down card, for 1 chip in the first round, \
2 in the second, 3 in the third and so on. Everyone may buy in every round, whether or not \
they bought before. Buying ends after a full round in which nobody buys, or when the deck is \
empty. Then everyone shows; the best hand without Turtle Butt takes the pot.
**Ties and Turtle Butt.** Ties split the pot; odd chips stay in it. If every hand is Turtle \
Butt the pot stays, everyone antes again and the deal passes left.
**House decisions.** A player who can't pay a round's price (or the ante) sits it out. On \
timeout you don't buy. You can leave between hands; if the table closes with chips still in \
the pot, they are shared out one by one from the dealer's left. {CARRIED_POT} Players join \
before the start."""


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


TemptationTerrapin = table_game_cog("temptation", TEMPTATION, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(TemptationUI())
    await bot.add_cog(TemptationTerrapin(bot))
