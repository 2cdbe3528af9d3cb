"""/doudizhu: Dou Dizhu tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.climbing import ClimbingUI
from bot.discord.commands import table_game_cog
from bot.discord.format import chips, plural
from bot.discord.picker import Picked, add_picker
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

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = """\
**Dou Dizhu** · 3 players · 52 cards and two jokers; suits don't matter
**Order.** 3 lowest ... K, A, 2, black joker, red joker.
**The auction.** A card turned up in the deck picks the first bidder. Bid 1, 2 or 3 (more \
than the last bid) or pass; you may bid again after passing. The auction ends after two \
passes following a bid, or on a bid of 3. If nobody bids, the cards are dealt again. The \
landlord takes the three widow cards and leads.
**Combinations.** Single, pair, three (alone, with a single or with a pair), straight of 5-12 \
cards, 3+ pairs in a row, 2+ threes in a row (alone, with one single each or one pair each), \
four with two singles or two pairs. Kickers are of different ranks, not the ranks of the \
threes, and never both jokers. No 2s or jokers in straights or rows. Four alone is a \
**bomb**; the two jokers are the **rocket**: they beat anything (a higher bomb beats a \
bomb; nothing beats the rocket). Otherwise beat a play with a higher one of the same shape.
**Payment.** The first out wins. If it is the landlord, each farmer pays the bid; otherwise \
the landlord pays each farmer the bid. Every bomb or rocket played doubles the payment.
**House decisions.** Nobody pays more than they have (the landlord's payment is then split \
evenly). The face-up card is shown until it is played. On timeout you pass (on a free lead: \
your lowest single card). Leaving between hands ends the game. A player with no chips left \
ends the game."""


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


DouDizhu = table_game_cog("doudizhu", DOU_DIZHU, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(DouDizhuUI())
    await bot.add_cog(DouDizhu(bot))
