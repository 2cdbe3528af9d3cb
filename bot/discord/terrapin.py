"""Discord rendering the Terrapin games share: card lists, your hand and its score, the
common event lines and the end-of-hand result (the poker wording is bot/discord/poker.py's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import discord

from bot.cards.decktet import DecktetCard
from bot.discord.format import chips, plural
from bot.discord.game_ui import OptionsT
from bot.discord.poker import PokerUI, result_lines
from bot.engine import Event
from bot.games.terrapin.table import HandResult, Revealed, SharedDealt
from bot.tables import Table


def card_list(cards: Sequence[DecktetCard], empty: str = "none") -> str:
    return ", ".join(card.label for card in cards) or empty


def score_text(score: int | None) -> str:
    return "Turtle Butt: this hand can't win" if score is None else plural(score, "point")


def shown_value(score: int, turtle_butt: bool) -> str:
    """What a hand shown to everyone is worth."""
    return "Turtle Butt" if turtle_butt else plural(score, "point")


def deal_line(hand: int, dealer: str, pot: int) -> str:
    """A new deal at a table where a dealer antes into the pot (each variant's HandStarted)."""
    return f"Hand {hand}: {dealer} deals; pot {pot}."


class TerrapinView(Protocol):
    """What every Terrapin variant's view shows: the viewer's hand, and the pot."""

    @property
    def my_cards(self) -> Sequence[DecktetCard] | None: ...
    @property
    def my_score(self) -> int | None: ...  # with the shared cards; None for Turtle Butt
    @property
    def pot(self) -> int: ...


class ShowdownView(TerrapinView, Protocol):
    """A variant with shared cards and a showdown (all but Liar's Terrapin)."""

    @property
    def hand(self) -> int: ...
    @property
    def shared(self) -> Sequence[DecktetCard]: ...
    @property
    def result(self) -> HandResult | None: ...  # the last hand's, until the next is dealt


TerrapinViewT = TypeVar("TerrapinViewT", bound=TerrapinView)
ShowdownViewT = TypeVar("ShowdownViewT", bound=ShowdownView)


class TerrapinUI(PokerUI[TerrapinViewT, OptionsT]):
    """What every Terrapin variant shows alike; variants add their own lines and fields."""

    title = "Terrapin"

    def shared_cards(self, view: TerrapinViewT) -> Sequence[DecktetCard]:
        """The cards every hand shares (Liar's Terrapin has none)."""
        return []

    def private_embed(self, table: Table, view: TerrapinViewT, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Your {self.title} hand · table {table.id}", colour=self.colour
        )
        cards = view.my_cards or []
        embed.description = "\n".join(card.label for card in cards) or "You hold no cards now."
        shared = self.shared_cards(view)
        if cards:
            name = "With the shared cards" if shared else "Your hand scores"
            embed.add_field(name=name, value=score_text(view.my_score))
        if shared:
            embed.add_field(name="Shared", value=card_list(shared), inline=False)
        embed.add_field(name="Pot", value=chips(view.pot))
        return embed

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case SharedDealt():
                aside = (
                    f" (set aside as Turtle Butt: {card_list(event.set_aside)})"
                    if event.set_aside
                    else ""
                )
                return f"Shared cards: {card_list(event.cards)}{aside}."
            case Revealed():
                value = shown_value(event.score, event.turtle_butt)
                return f"{names[event.seat]} shows {card_list(event.cards)}: {value}."
        return super().event_line(event, names)


class TerrapinShowdownUI(TerrapinUI[ShowdownViewT, OptionsT]):
    """A variant with shared cards and a showdown: the hand's result is shown when it ends."""

    def shared_cards(self, view: ShowdownViewT) -> Sequence[DecktetCard]:
        return view.shared

    def hand_summary(
        self, table: Table, view: ShowdownViewT, names: list[str]
    ) -> discord.Embed | None:
        result = view.result
        if result is None:
            return None
        embed = discord.Embed(title=f"{self.title} · hand {view.hand} result", colour=self.colour)
        lines = [
            f"**{names[shown.seat]}**: {card_list(shown.cards)} · "
            + shown_value(shown.score, shown.turtle_butt)
            for shown in result.shown
        ]
        if view.shared:
            lines.append(f"Shared: {card_list(view.shared)}")
        lines += result_lines(result.won, result.net, result.carried, names)
        embed.description = "\n".join(lines)
        return embed
