"""Dou Dizhu on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/doudizhu rules` shows, read from rules.md beside this module. Its slash commands are
cogs/dou_dizhu.py."""

from __future__ import annotations

import discord

from bot.discord.climbing import ClimbingUI
from bot.discord.format import chips, plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Picked
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
)
from bot.tables import Table

RULES = rules_beside(__name__)


def times_doubled(times: int) -> str:
    return {1: "doubled once", 2: "doubled twice"}.get(times, f"doubled {times} times")


class DouDizhuUI(ClimbingUI[DouDizhuView, DouDizhuOptions]):
    game_id = DOU_DIZHU.id
    title = "Dou Dizhu"

    def public_embed(self, table: Table, view: DouDizhuView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Dou Dizhu · hand {view.hand}", colour=self.colour)
        lines = []
        for seat, name in enumerate(names):
            role = " · landlord" if seat == view.landlord else ""
            bid = view.bids[seat]
            said = (
                f" · bid {bid}"
                if bid
                else " · passed"
                if bid == 0 and view.phase == "bidding"
                else ""
            )
            pointer = "▶ " if seat == view.turn else ""
            held = f"{plural(view.counts[seat], 'card')} · {chips(view.stacks[seat])}"
            lines.append(f"{pointer}**{name}**{role} · {held}{said}")
        embed.description = "\n".join(lines)
        if view.face_up is not None and view.face_up_holder is not None:  # set together
            embed.add_field(
                name="Face-up card",
                value=f"{view.face_up.label} (held by {names[view.face_up_holder]})",
            )
        if view.phase == "bidding":
            embed.add_field(name="Auction", value=f"highest bid {view.bid}", inline=False)
        else:
            stake = view.bid * 2**view.doublings
            embed.add_field(
                name="Stake",
                value=f"bid {view.bid}, doubled to {chips(stake)}"
                if view.doublings
                else f"bid {view.bid}",
            )
            embed.add_field(name="To beat", value=self.to_beat_text(view, names), inline=False)
        return embed

    def action_label(self, view: DouDizhuView, action: Action) -> str:
        if isinstance(action, Bid):
            return "Pass" if action.chips == 0 else f"Bid {action.chips}"
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
                first, card = names[event.first_bidder], event.face_up.label
                return f"Hand {event.hand}: {first} drew the face-up {card} and bids first."
            case BidMade():
                said = "passes" if event.chips == 0 else f"bids {event.chips}"
                return f"{names[event.seat]} {said}."
            case Redeal():
                return "Nobody bid: the cards are dealt again."
            case LandlordChosen():
                return f"{names[event.seat]} is the landlord for {event.bid} and takes the widow."
            case Settled():
                doubled = f" ({times_doubled(event.doublings)})" if event.doublings else ""
                side = "the landlord wins" if event.landlord_won else "the farmers win"
                paid = ", ".join(f"{names[s]} {n:+}" for s, n in enumerate(event.paid) if n)
                return f"{names[event.winner]} is out: {side}{doubled}. {paid or 'Nothing to pay'}."
        return super().event_line(event, names)
