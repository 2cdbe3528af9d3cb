"""Liar's Terrapin on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/liars rules` shows, read from rules.md beside this module. Its slash commands are
cogs/liars_terrapin.py."""

from __future__ import annotations

import discord

from bot.discord.format import kind_name
from bot.discord.game_ui import rules_beside
from bot.discord.terrapin import TerrapinUI, card_list, chips, shown_value
from bot.engine import Action, Event
from bot.games.terrapin.liars import (
    LIARS,
    Accept,
    Accepted,
    Challenge,
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
from bot.i18n import N_, _, n_, p_
from bot.tables import Table

RULES = rules_beside(__name__)


class LiarsUI(TerrapinUI[LiarsView, LiarsOptions]):
    game_id = LIARS.id
    title = N_("Liar's Terrapin")

    def public_embed(self, table: Table, view: LiarsView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Liar's Terrapin · hand {hand}", hand=view.hand), colour=self.colour
        )
        lines = []
        for seat in view.seats:
            marks = [] if seat.alive else [_("out")]
            if not seat.seated:
                marks.append(p_("seat", "left"))
            if seat.seat == view.holder:
                marks.append(
                    n_(
                        "holds the hand ({count} card)",
                        "holds the hand ({count} cards)",
                        view.hand_size,
                    )
                )
            acting = seat.seat == (view.responder if view.phase == "responding" else view.holder)
            lines.append(
                self.seat_line(
                    names[seat.seat], seat.stack, marks, acting=acting and view.holder is not None
                )
            )
        embed.description = "\n".join(lines)
        embed.add_field(name=_("Pot"), value=chips(view.pot))
        embed.add_field(name=_("Claim"), value=str(view.claim) if view.claim else _("none yet"))
        now = None
        if view.phase == "responding":
            assert view.responder is not None and view.holder is not None  # a claim is answered
            now = _(
                "{responder}: challenge or accept {holder}'s claim of {claim}",
                responder=names[view.responder],
                holder=names[view.holder],
                claim=view.claim,
            )
        elif view.holder is not None:
            holder = names[view.holder]
            if view.phase == "discarding":
                now = _("{name} is discarding", name=holder)
            else:
                now = _("{name} is drawing", name=holder)
        if now:
            embed.add_field(name=_("Now"), value=now, inline=False)
        return embed

    def private_embed(self, table: Table, view: LiarsView, names: list[str]) -> discord.Embed:
        embed = super().private_embed(table, view, names)
        if view.claim:
            embed.add_field(name=_("Claim to beat"), value=str(view.claim))
        return embed

    def action_label(self, view: LiarsView, action: Action) -> str:
        match action:
            case Claim():
                return _("Claim {points}", points=action.points)
            case Draw():
                return _("Draw a card")
            case DiscardOne():
                return _("Discard {card}", card=action.card.label)
            case DoneDiscarding():
                return _("Done discarding")
            case Challenge():
                return _("Challenge")
            case Accept():
                return _("Accept")
        return kind_name(action.kind)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return _(
                    "Hand {hand}: {name} holds the hand; pot {pot}.",
                    hand=event.hand,
                    name=names[event.holder],
                    pot=event.pot,
                )
            case Drew():
                return n_(
                    "{name} draws {count} card.",
                    "{name} draws {count} cards.",
                    event.cards,
                    name=names[event.seat],
                )
            case Discarded():
                return _("{name} discards a card.", name=names[event.seat])
            case Claimed():
                return _("{name} claims {points}.", name=names[event.seat], points=event.points)
            case Accepted():
                return _("{name} accepts and takes the hand.", name=names[event.seat])
            case Challenged():
                return _(
                    "{challenger} challenges {holder}'s {claim}: {cards} is {value}. {out} is out.",
                    challenger=names[event.challenger],
                    holder=names[event.holder],
                    claim=event.claim,
                    cards=card_list(event.cards),
                    value=shown_value(event.score, event.turtle_butt),
                    out=names[event.out],
                )
        return super().event_line(event, names)

    def hand_summary(self, table: Table, view: LiarsView, names: list[str]) -> discord.Embed | None:
        challenge = view.last_challenge
        if challenge is None:
            return None
        value = shown_value(challenge.score, challenge.turtle_butt)
        took = ", ".join(f"{names[s]} +{n}" for s, n in challenge.paid.items()) or _("nobody")
        embed = discord.Embed(
            title=_("Liar's Terrapin · challenge in hand {hand}", hand=view.hand),
            colour=self.colour,
        )
        embed.description = "\n".join(
            [
                _(
                    "{holder} claimed {claim}; {challenger} challenged.",
                    holder=names[challenge.holder],
                    claim=challenge.claim,
                    challenger=names[challenge.challenger],
                ),
                _("The hand: {cards} · {value}", cards=card_list(challenge.cards), value=value),
                _(
                    "**{name} is out.** From the pot: {took}.",
                    name=names[challenge.out],
                    took=took,
                ),
            ]
        )
        return embed
