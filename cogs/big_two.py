"""/bigtwo: Big Two tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.climbing import ClimbingUI
from bot.discord.commands import table_game_cog
from bot.discord.format import plural
from bot.discord.picker import Picked, add_picker
from bot.engine import Event, IllegalAction
from bot.games.big_two import BIG_TWO, BigTwoOptions, BigTwoView, HandStarted, check_play
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = """\
**Big Two** · 2-4 players · 52 cards, 13 each
**Order.** 3 lowest ... K, A, 2 highest; suits ♦ < ♣ < ♥ < ♠.
**Combinations.** A single card, a pair, three of a kind, or a five-card hand: straight < \
flush < full house < four of a kind (with one more card) < straight flush. Straights run \
A-2-3-4-5 (lowest), 2-3-4-5-6 ... 10-J-Q-K-A (highest); J-Q-K-A-2 and the like are not \
straights. Tied straights compare the suit of their top card; flushes compare suit first, \
then cards from the highest; pairs and threes compare rank, then the highest suit in them.
**Play.** The holder of the lowest card dealt leads, and that first play must include it. \
Each next player plays a higher combination of the same size, or passes (and may play again \
on a later turn). When everyone else has passed, the last player leads anything.
**Scoring.** When someone is out of cards, everyone else scores 1 per card left (2 each with \
10-12 left, 3 each with all 13). Hands go on until someone reaches the target; the lowest \
score wins. Everyone's card count is always shown.
**House decisions.** Equal final scores are ranked by the last hand: whoever held fewer cards \
when it ended places higher; players tied on that too share the place. On timeout you pass \
(on a free lead: your lowest single card). Leaving between hands ends the game for everyone: \
the scores so far stand and are ranked the same way. Players join before the start."""


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


BigTwo = table_game_cog("bigtwo", BIG_TWO, RULES)


async def setup(bot: CardTableBot) -> None:
    add_picker(bot)
    bot.presenter.register(BigTwoUI())
    await bot.add_cog(BigTwo(bot))
