"""What the climbing games (Big Two, Dou Dizhu) show alike: the hand, what there is to beat, the
plays as they happen. Cards are picked with the card picker (bot/discord/picker.py): tap cards,
then Play selected, Pass or Clear, or take a suggested play; an illegal pick is refused with
the rules' reason ("does not beat pair of 7s")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import discord

from bot.cards import FrenchCard
from bot.discord.format import plural
from bot.discord.game_ui import OptionsT
from bot.discord.picker import Picked, Picker, PickerUI, Zone, cards_text
from bot.engine import Action, Event
from bot.games.climbing import Pass, Passed, Play, Played, TrickWon
from bot.tables import Table


class ClimbingView(Protocol):
    """What this UI reads of a climbing game's view."""

    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def to_beat(self) -> Sequence[FrenchCard]: ...  # empty: a free lead
    @property
    def to_beat_name(self) -> str | None: ...
    @property
    def last_player(self) -> int | None: ...
    @property
    def my_cards(self) -> Sequence[FrenchCard] | None: ...


ClimbingViewT = TypeVar("ClimbingViewT", bound=ClimbingView)


class ClimbingUI(PickerUI[ClimbingViewT, OptionsT]):
    title = "Climbing"

    def private_embed(self, table: Table, view: ClimbingViewT, names: list[str]) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(
            title=f"Your {self.title} hand · table {table.id}", colour=self.colour
        )
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        embed.add_field(name="To beat", value=self.to_beat_text(view, names), inline=False)
        return embed

    def to_beat_text(self, view: ClimbingViewT, names: list[str]) -> str:
        if view.phase != "playing" or view.turn is None:
            return "nothing yet"
        if not view.to_beat:
            return f"free lead ({names[view.turn]} leads anything)"
        assert view.last_player is not None  # whoever played the cards there are to beat
        return f"{view.to_beat_name}: {cards_text(view.to_beat)} (by {names[view.last_player]})"

    # ---- picking cards ------------------------------------------------------------------------

    def picker(self, view: ClimbingViewT) -> Picker | None:
        """Cards of the hand, once the play has begun (not in Dou Dizhu's auction)."""
        if view.phase != "playing" or not view.my_cards:
            return None
        return Picker(zones=(Zone("your hand", view.my_cards),))

    def pick_action(self, view: ClimbingViewT, picked: Picked) -> Action:
        return Play(cards=picked.cards)

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: ClimbingViewT, action: Action) -> str:
        match action:
            case Pass():
                return "Pass"
            case Play():
                return cards_text(action.cards)
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Played():
                cards = cards_text(event.cards)
                # A single card is its own name: "plays J♦", not "plays J♦: J♦".
                what = cards if len(event.cards) == 1 else f"{event.combination}: {cards}"
                return f"{names[event.seat]} plays {what} ({event.left} left)."
            case Passed():
                return f"{names[event.seat]} passes."
            case TrickWon():
                return f"Everyone else passed: {names[event.seat]} leads."
        return None
