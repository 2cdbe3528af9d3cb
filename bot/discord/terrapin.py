"""Discord rendering the Terrapin games share: card lists, your hand and its score, the
common event lines and the end-of-hand result (the poker wording is bot/discord/poker.py's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import discord

from bot.cards.decktet import DecktetCard
from bot.discord.game_ui import OptionsT
from bot.discord.poker import PokerUI, result_lines
from bot.engine import Event
from bot.games.terrapin.table import HandResult, Revealed, SharedDealt
from bot.i18n import N_, _, n_
from bot.tables import Table


def card_list(cards: Sequence[DecktetCard], empty: str | None = None) -> str:
    """The cards' names; `empty` (else "none") when there are none."""
    return ", ".join(card.label for card in cards) or (_("none") if empty is None else empty)


def points(score: int) -> str:
    return n_("{count} point", "{count} points", score)


def chips(amount: int) -> str:
    return n_("{count} chip", "{count} chips", amount)


def score_text(score: int | None) -> str:
    return _("Turtle Butt: this hand can't win") if score is None else points(score)


def shown_value(score: int, turtle_butt: bool) -> str:
    """What a hand shown to everyone is worth."""
    return _("Turtle Butt") if turtle_butt else points(score)


def deal_line(hand: int, dealer: str, pot: int) -> str:
    """A new deal at a table where a dealer antes into the pot (each variant's HandStarted)."""
    return _("Hand {hand}: {dealer} deals; pot {pot}.", hand=hand, dealer=dealer, pot=pot)


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

    title = N_("Terrapin")

    def shared_cards(self, view: TerrapinViewT) -> Sequence[DecktetCard]:
        """The cards every hand shares (Liar's Terrapin has none)."""
        return []

    def private_embed(self, table: Table, view: TerrapinViewT, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Your {game} hand · table {table}", game=_(self.title), table=str(table.id)),
            colour=self.colour,
        )
        cards = view.my_cards or []
        embed.description = "\n".join(card.label for card in cards) or _("You hold no cards now.")
        shared = self.shared_cards(view)
        if cards:
            name = _("With the shared cards") if shared else _("Your hand scores")
            embed.add_field(name=name, value=score_text(view.my_score))
        if shared:
            embed.add_field(name=_("Shared"), value=card_list(shared), inline=False)
        embed.add_field(name=_("Pot"), value=chips(view.pot))
        return embed

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case SharedDealt():
                if event.set_aside:
                    return _(
                        "Shared cards: {cards} (set aside as Turtle Butt: {aside}).",
                        cards=card_list(event.cards),
                        aside=card_list(event.set_aside),
                    )
                return _("Shared cards: {cards}.", cards=card_list(event.cards))
            case Revealed():
                return _(
                    "{name} shows {cards}: {value}.",
                    name=names[event.seat],
                    cards=card_list(event.cards),
                    value=shown_value(event.score, event.turtle_butt),
                )
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
        embed = discord.Embed(
            title=_("{game} · hand {hand} result", game=_(self.title), hand=view.hand),
            colour=self.colour,
        )
        lines = [
            f"**{names[shown.seat]}**: {card_list(shown.cards)} · "
            + shown_value(shown.score, shown.turtle_butt)
            for shown in result.shown
        ]
        if view.shared:
            lines.append(_("Shared: {cards}", cards=card_list(view.shared)))
        lines += result_lines(result.won, result.net, result.carried, names)
        embed.description = "\n".join(lines)
        return embed
