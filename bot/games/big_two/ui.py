"""Big Two on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/bigtwo rules` shows, read from rules.md beside this module. Its slash commands are
cogs/big_two.py."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.cards import FrenchCard
from bot.discord.climbing import ClimbingUI
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Picked
from bot.engine import Event, IllegalAction
from bot.games.big_two import (
    BIG_TWO,
    BigTwoOptions,
    BigTwoView,
    HandStarted,
    check_play,
    classify,
)
from bot.i18n import N_, _, n_
from bot.tables import Table

RULES = rules_beside(__name__)


def cards(count: int) -> str:
    return n_("{count} card", "{count} cards", count)


def points(count: int) -> str:
    return n_("{count} point", "{count} points", count)


class BigTwoUI(ClimbingUI[BigTwoView, BigTwoOptions]):
    game_id = BIG_TWO.id
    title = N_("Big Two")

    def combination_name(self, cards: Sequence[FrenchCard]) -> str:
        return classify(list(cards)).name

    def public_embed(self, table: Table, view: BigTwoView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=_("Big Two · hand {hand}", hand=view.hand), colour=self.colour)
        embed.description = "\n".join(
            f"{'▶ ' if seat == view.turn else ''}**{name}** · "
            f"{cards(view.counts[seat])} · {points(view.scores[seat])}"
            for seat, name in enumerate(names)
        )
        embed.add_field(name=_("To beat"), value=self.to_beat_text(view, names), inline=False)
        if view.first_play:
            embed.add_field(
                name=_("First play"), value=_("must include the lowest card dealt"), inline=False
            )
        embed.set_footer(
            text=n_(
                "The game ends at {count} point; the lowest score wins.",
                "The game ends at {count} points; the lowest score wins.",
                view.target,
            )
        )
        return embed

    def pick_reason(self, view: BigTwoView, picked: Picked) -> str | None:
        """The rules' verdict on a pick, from what the player sees (as BigTwoState.verify)."""
        try:
            check_play(picked.cards, view.to_beat, view.must_include)
        except IllegalAction as refusal:
            return str(refusal)
        return None

    def event_line(self, event: Event, names: list[str]) -> str | None:
        if isinstance(event, HandStarted):
            return _(
                "Hand {hand}: {name} holds the lowest card and leads.",
                hand=event.hand,
                name=names[event.leader],
            )
        return super().event_line(event, names)

    def hand_summary(
        self, table: Table, view: BigTwoView, names: list[str]
    ) -> discord.Embed | None:
        embed = discord.Embed(
            title=_("Big Two · hand {hand} over", hand=view.hand), colour=self.colour
        )
        embed.description = "\n".join(
            f"**{n}**: {points(view.scores[s])}" for s, n in enumerate(names)
        )
        return embed
