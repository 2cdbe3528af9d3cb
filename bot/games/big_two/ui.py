"""Big Two on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/bigtwo rules` shows, read from rules.md beside this module. Its slash commands are
cogs/big_two.py."""

from __future__ import annotations

import discord

from bot.discord.climbing import ClimbingUI
from bot.discord.format import plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Picked
from bot.engine import Event, IllegalAction
from bot.games.big_two import BIG_TWO, BigTwoOptions, BigTwoView, HandStarted, check_play
from bot.tables import Table

RULES = rules_beside(__name__)


class BigTwoUI(ClimbingUI[BigTwoView, BigTwoOptions]):
    game_id = BIG_TWO.id
    title = "Big Two"

    def public_embed(self, table: Table, view: BigTwoView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Big Two · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(
            f"{'▶ ' if seat == view.turn else ''}**{name}** · "
            f"{plural(view.counts[seat], 'card')} · {plural(view.scores[seat], 'point')}"
            for seat, name in enumerate(names)
        )
        embed.add_field(name="To beat", value=self.to_beat_text(view, names), inline=False)
        if view.first_play:
            embed.add_field(
                name="First play", value="must include the lowest card dealt", inline=False
            )
        embed.set_footer(text=f"The game ends at {view.target} points; the lowest score wins.")
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
            return f"Hand {event.hand}: {names[event.leader]} holds the lowest card and leads."
        return super().event_line(event, names)

    def hand_summary(
        self, table: Table, view: BigTwoView, names: list[str]
    ) -> discord.Embed | None:
        embed = discord.Embed(title=f"Big Two · hand {view.hand} over", colour=self.colour)
        embed.description = "\n".join(
            f"**{n}**: {plural(view.scores[s], 'point')}" for s, n in enumerate(names)
        )
        return embed
