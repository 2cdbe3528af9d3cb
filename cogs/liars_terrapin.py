"""/liars: Liar's Terrapin tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.commands import table_game_cog
from bot.discord.format import chips, plural
from bot.discord.terrapin import SCORING, TerrapinUI, card_list, shown_value
from bot.engine import Action, Event
from bot.games.terrapin.liars import (
    LIARS,
    MAX_RAISE,
    Accepted,
    Challenged,
    Claim,
    Claimed,
    Discarded,
    DiscardOne,
    DoneDiscarding,
    Draw,
    Drew,
    HandStarted,
    LiarsOptions,
    LiarsView,
)
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = f"""\
**Liar's Terrapin** · 2-7 players · the 36-card Decktet
{SCORING} (There are no shared cards: the hand is the cards in it.)
**The game.** Everyone antes half the number of players, rounded up. There is one hand, and \
only its holder sees it. The holder draws three cards, may draw more one at a time (seeing \
each), and claims a score of 1 or more. The next player **challenges** or **accepts**.
**Accepting** passes the hand to them in private: they may discard any number of cards, then \
draw, and must claim more than the last claim.
**Challenging** shows the hand to everyone. If it scores at least the claim and is not Turtle \
Butt, the challenger is out; otherwise the holder is out. Each player still in then takes one \
chip from the pot (while it has chips), the deck is shuffled, and a new hand starts with the \
challenger if they won, or with the player after them if they lost. The last player in takes \
the rest of the pot.
**House decisions.** Draws and discards are private; discards go face down and are shuffled \
back into the deck when it runs out. A claim can be at most {MAX_RAISE} above the last one (so \
the first claim is 1 to {MAX_RAISE}). There is a short pause after each challenge. On timeout \
the holder claims the least allowed, the next player accepts, and a new holder keeps their \
cards. Leaving counts as going out: your share of the pot stays with the others (Leave warns \
you first)."""


class LiarsUI(TerrapinUI[LiarsView, LiarsOptions]):
    game_id = LIARS.id
    title = "Liar's Terrapin"

    def public_embed(self, table: Table, view: LiarsView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Liar's Terrapin · hand {view.hand}", colour=self.colour)
        lines = []
        for seat in view.seats:
            marks = [] if seat.alive else ["out"]
            if not seat.seated:
                marks.append("left")
            if seat.seat == view.holder:
                marks.append(f"holds the hand ({plural(view.hand_size, 'card')})")
            acting = seat.seat == (view.responder if view.phase == "responding" else view.holder)
            lines.append(
                self.seat_line(
                    names[seat.seat], seat.stack, marks, acting=acting and view.holder is not None
                )
            )
        embed.description = "\n".join(lines)
        embed.add_field(name="Pot", value=chips(view.pot))
        embed.add_field(name="Claim", value=str(view.claim) if view.claim else "none yet")
        now = None
        if view.phase == "responding":
            assert view.responder is not None and view.holder is not None  # a claim is answered
            responder, holder = names[view.responder], names[view.holder]
            now = f"{responder}: challenge or accept {holder}'s claim of {view.claim}"
        elif view.holder is not None:
            doing = "discarding" if view.phase == "discarding" else "drawing"
            now = f"{names[view.holder]} is {doing}"
        if now:
            embed.add_field(name="Now", value=now, inline=False)
        return embed

    def private_embed(self, table: Table, view: LiarsView, names: list[str]) -> discord.Embed:
        embed = super().private_embed(table, view, names)
        if view.claim:
            embed.add_field(name="Claim to beat", value=str(view.claim))
        return embed

    def action_label(self, view: LiarsView, action: Action) -> str:
        match action:
            case Claim():
                return f"Claim {action.points}"
            case Draw():
                return "Draw a card"
            case DiscardOne():
                return f"Discard {action.card.label}"
            case DoneDiscarding():
                return "Done discarding"
        return action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return f"Hand {event.hand}: {names[event.holder]} holds the hand; pot {event.pot}."
            case Drew():
                return f"{names[event.seat]} draws {plural(event.cards, 'card')}."
            case Discarded():
                return f"{names[event.seat]} discards a card."
            case Claimed():
                return f"{names[event.seat]} claims {event.points}."
            case Accepted():
                return f"{names[event.seat]} accepts and takes the hand."
            case Challenged():
                value = shown_value(event.score, event.turtle_butt)
                return (
                    f"{names[event.challenger]} challenges {names[event.holder]}'s {event.claim}: "
                    f"{card_list(event.cards)} is {value}. {names[event.out]} is out."
                )
        return super().event_line(event, names)

    def hand_summary(self, table: Table, view: LiarsView, names: list[str]) -> discord.Embed | None:
        challenge = view.last_challenge
        if challenge is None:
            return None
        value = shown_value(challenge.score, challenge.turtle_butt)
        took = ", ".join(f"{names[s]} +{n}" for s, n in challenge.paid.items()) or "nobody"
        embed = discord.Embed(
            title=f"Liar's Terrapin · challenge in hand {view.hand}", colour=self.colour
        )
        embed.description = (
            f"{names[challenge.holder]} claimed {challenge.claim}; "
            f"{names[challenge.challenger]} challenged.\n"
            f"The hand: {card_list(challenge.cards)} · {value}\n"
            f"**{names[challenge.out]} is out.** From the pot: {took}."
        )
        return embed


LiarsTerrapin = table_game_cog("liars", LIARS, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(LiarsUI())
    await bot.add_cog(LiarsTerrapin(bot))
