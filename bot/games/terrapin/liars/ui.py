"""Liar's Terrapin on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/liars rules` shows, read from rules.md beside this module. Its slash commands are
cogs/liars_terrapin.py."""

from __future__ import annotations

import discord

from bot.discord.format import chips, plural
from bot.discord.game_ui import rules_beside
from bot.discord.terrapin import TerrapinUI, card_list, shown_value
from bot.engine import Action, Event
from bot.games.terrapin.liars import (
    LIARS,
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

RULES = rules_beside(__name__)


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
