"""Dou Dizhu on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/doudizhu rules` shows, read from rules.md beside this module. Its slash commands are
cogs/dou_dizhu.py."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.cards import FrenchCard
from bot.discord.climbing import ClimbingUI
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Picked, cards_text
from bot.engine import Action, Event, IllegalAction
from bot.games.dou_dizhu import (
    DOU_DIZHU,
    Bid,
    BidMade,
    DouDizhuOptions,
    DouDizhuView,
    HandStarted,
    LandlordChosen,
    Redeal,
    Settled,
    check_play,
    classify,
)
from bot.i18n import N_, _, n_
from bot.tables import Table

RULES = rules_beside(__name__)


def times_doubled(times: int) -> str:
    if times == 1:
        return _("doubled once")
    if times == 2:
        return _("doubled twice")
    return n_("doubled {count} time", "doubled {count} times", times)


class DouDizhuUI(ClimbingUI[DouDizhuView, DouDizhuOptions]):
    game_id = DOU_DIZHU.id
    title = N_("Dou Dizhu")

    def combination_name(self, cards: Sequence[FrenchCard]) -> str:
        return classify(list(cards)).name

    def public_embed(self, table: Table, view: DouDizhuView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Dou Dizhu · hand {hand}", hand=view.hand), colour=self.colour
        )
        lines = []
        for seat, name in enumerate(names):
            marks = [_("landlord")] if seat == view.landlord else []
            marks.append(n_("{count} card", "{count} cards", view.counts[seat]))
            marks.append(n_("{count} chip", "{count} chips", view.stacks[seat]))
            bid = view.bids[seat]
            if bid:
                marks.append(_("bid {bid}", bid=bid))
            elif bid == 0 and view.phase == "bidding":
                marks.append(_("passed"))
            pointer = "▶ " if seat == view.turn else ""
            lines.append(f"{pointer}**{name}** · " + " · ".join(marks))
        embed.description = "\n".join(lines)
        if view.face_up is not None and view.face_up_holder is not None:  # set together
            embed.add_field(
                name=_("Face-up card"),
                value=_(
                    "{card} (held by {name})",
                    card=view.face_up.label,
                    name=names[view.face_up_holder],
                ),
            )
        if view.phase == "bidding":
            embed.add_field(
                name=_("Auction"), value=_("highest bid {bid}", bid=view.bid), inline=False
            )
        else:
            stake = view.bid * 2**view.doublings
            embed.add_field(
                name=_("Stake"),
                value=n_(
                    "bid {bid}, doubled to {count} chip",
                    "bid {bid}, doubled to {count} chips",
                    stake,
                    bid=view.bid,
                )
                if view.doublings
                else _("bid {bid}", bid=view.bid),
            )
            if view.widow:
                embed.add_field(name=_("Widow"), value=cards_text(view.widow))
            embed.add_field(name=_("To beat"), value=self.to_beat_text(view, names), inline=False)
        return embed

    def action_label(self, view: DouDizhuView, action: Action) -> str:
        if isinstance(action, Bid):
            return _("Pass") if action.chips == 0 else _("Bid {chips}", chips=action.chips)
        return super().action_label(view, action)

    def pick_reason(self, view: DouDizhuView, picked: Picked) -> str | None:
        """The rules' verdict on a pick, from what the player sees (as DouDizhuState.verify)."""
        try:
            check_play(picked.cards, view.to_beat)
        except IllegalAction as refusal:
            return str(refusal)
        return None

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case HandStarted():
                return _(
                    "Hand {hand}: {name} drew the face-up {card} and bids first.",
                    hand=event.hand,
                    name=names[event.first_bidder],
                    card=event.face_up.label,
                )
            case BidMade():
                name = names[event.seat]
                if event.chips == 0:
                    return _("{name} passes.", name=name)
                return _("{name} bids {chips}.", name=name, chips=event.chips)
            case Redeal():
                return _("Nobody bid: the cards are dealt again.")
            case LandlordChosen():
                return _(
                    "{name} is the landlord for {bid} and takes the widow.",
                    name=names[event.seat],
                    bid=event.bid,
                )
            case Settled():
                return f"{self.settled_outcome(event, names)} {self.settled_payments(event, names)}"
        return super().event_line(event, names)

    @staticmethod
    def settled_outcome(event: Settled, names: list[str]) -> str:
        """Who went out, which side won, and how many times the stake doubled, if it did."""
        name = names[event.winner]
        if event.doublings:
            doubled = times_doubled(event.doublings)
            if event.landlord_won:
                return _(
                    "{name} is out: the landlord wins ({doubled}).", name=name, doubled=doubled
                )
            return _("{name} is out: the farmers win ({doubled}).", name=name, doubled=doubled)
        if event.landlord_won:
            return _("{name} is out: the landlord wins.", name=name)
        return _("{name} is out: the farmers win.", name=name)

    @staticmethod
    def settled_payments(event: Settled, names: list[str]) -> str:
        paid = ", ".join(f"{names[s]} {n:+}" for s, n in enumerate(event.paid) if n)
        return f"{paid}." if paid else _("Nothing to pay.")
