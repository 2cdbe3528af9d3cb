"""What the climbing games (Big Two, Dou Dizhu) show alike: the hand, what there is to beat, the
plays as they happen. Cards are picked with the card picker (bot/discord/picker.py): tap cards,
then Play selected, Pass or Clear, or take a suggested play; an illegal pick is refused with
the rules' reason ("does not beat pair of 7s")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import discord

from bot.cards import FrenchCard
from bot.discord.game_ui import OptionsT
from bot.discord.picker import Picked, Picker, PickerUI, Zone, cards_text
from bot.engine import Action, Event
from bot.games.climbing import Pass, Passed, Play, Played, TrickWon
from bot.i18n import N_, _, n_
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
    def last_player(self) -> int | None: ...
    @property
    def my_cards(self) -> Sequence[FrenchCard] | None: ...


ClimbingViewT = TypeVar("ClimbingViewT", bound=ClimbingView)


class ClimbingUI(PickerUI[ClimbingViewT, OptionsT]):
    title = N_("Climbing")

    def combination_name(self, cards: Sequence[FrenchCard]) -> str:
        """How a combination reads ("pair of 7s", "full house"), in the language of the
        moment: named when shown (not the name its event or view carry), by each game."""
        raise NotImplementedError

    def private_embed(self, table: Table, view: ClimbingViewT, names: list[str]) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(
            title=_("Your {game} hand · table {table}", game=_(self.title), table=str(table.id)),
            colour=self.colour,
        )
        count = n_("{count} card", "{count} cards", len(hand))
        embed.description = f"{cards_text(hand)}  ({count})"
        embed.add_field(name=_("To beat"), value=self.to_beat_text(view, names), inline=False)
        return embed

    def to_beat_text(self, view: ClimbingViewT, names: list[str]) -> str:
        if view.phase != "playing" or view.turn is None:
            return _("nothing yet")
        if not view.to_beat:
            return _("free lead ({name} leads anything)", name=names[view.turn])
        assert view.last_player is not None  # whoever played the cards there are to beat
        return _(
            "{combination}: {cards} (by {name})",
            combination=self.combination_name(view.to_beat),
            cards=cards_text(view.to_beat),
            name=names[view.last_player],
        )

    # ---- picking cards ------------------------------------------------------------------------

    def picker(self, view: ClimbingViewT) -> Picker | None:
        """Cards of the hand, once the play has begun (not in Dou Dizhu's auction)."""
        if view.phase != "playing" or not view.my_cards:
            return None
        return Picker(zones=(Zone(_("your hand"), view.my_cards),))

    def pick_action(self, view: ClimbingViewT, picked: Picked) -> Action:
        return Play(cards=picked.cards)

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: ClimbingViewT, action: Action) -> str:
        match action:
            case Pass():
                return _("Pass")
            case Play():
                return cards_text(action.cards)
        return super().action_label(view, action)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Played():
                name, cards = names[event.seat], cards_text(event.cards)
                # A single card is its own name: "plays J♦", not "plays J♦: J♦".
                if len(event.cards) == 1:
                    return _(
                        "{name} plays {cards} ({left} left).",
                        name=name,
                        cards=cards,
                        left=event.left,
                    )
                return _(
                    "{name} plays {combination}: {cards} ({left} left).",
                    name=name,
                    combination=self.combination_name(event.cards),
                    cards=cards,
                    left=event.left,
                )
            case Passed():
                return _("{name} passes.", name=names[event.seat])
            case TrickWon():
                return _("Everyone else passed: {name} leads.", name=names[event.seat])
        return None
