"""Turup on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/turup rules` shows, read from rules.md beside this module. Its slash commands are
cogs/turup.py."""

from __future__ import annotations

import discord

from bot.discord.format import bold, kind_name
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.discord.points import player_line
from bot.engine import Action, Event, IllegalAction
from bot.games.captures import verify_sum_capture
from bot.games.turup import (
    TURUP,
    Capture,
    Captured,
    Dealt,
    Place,
    Placed,
    RoundScored,
    RoundStarted,
    TurupOptions,
    TurupView,
)
from bot.i18n import Nn_, _, n_
from bot.tables import Table

RULES = rules_beside(__name__)


class TurupUI(PickerUI[TurupView, TurupOptions]):
    game_id = TURUP.id
    colour = discord.Colour.dark_gold()

    def score_noun(self, options: TurupOptions) -> tuple[str, str]:
        return Nn_("{count} card won", "{count} cards won")

    # ---- the table -----------------------------------------------------------------------------

    def seat_line(self, view: TurupView, seat: int, names: list[str]) -> str:
        dealer = seat == view.dealer
        if not view.playing[seat]:
            name = _("{name} (dealer)", name=names[seat]) if dealer else names[seat]
            return f"{name} · " + _("left the game")
        parts = [
            n_("{count} card", "{count} cards", view.counts[seat]),
            n_("{count} won", "{count} won", view.won[seat]),
        ]
        if view.rounds > 1:
            parts.append(_("total {total}", total=view.totals[seat]))
        return player_line(names[seat], parts, turn=seat == view.turn, dealer=dealer)

    def public_embed(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Turup · round {round} of {rounds}", round=view.hand, rounds=view.rounds),
            colour=self.colour,
        )
        embed.description = "\n".join(self.seat_line(view, s, names) for s in range(len(names)))
        embed.add_field(name=_("Community pile"), value=pile_text(view), inline=False)
        embed.add_field(name=_("Stock"), value=n_("{count} card", "{count} cards", view.stock))
        embed.set_footer(
            text=_("The most cards won wins. The pile left at the end counts for nobody.")
        )
        return embed

    def private_embed(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(
            title=_("Your Turup hand · table {table}", table=str(table.id)), colour=self.colour
        )
        cards = n_("{count} card", "{count} cards", len(hand))
        embed.description = f"{cards_text(hand)}  ({cards})"
        embed.add_field(name=_("Community pile"), value=pile_text(view), inline=False)
        if view.seat is not None:
            embed.add_field(name=_("Cards you won"), value=str(view.won[view.seat]))
        return embed

    def hand_summary(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed | None:
        if view.phase not in ("between", "over"):
            return None
        embed = discord.Embed(
            title=_("Turup · round {round} over", round=view.hand), colour=self.colour
        )
        lines = []
        for seat, name in enumerate(names):
            if not view.playing[seat]:
                continue
            line = n_(
                "{name}: {count} card won",
                "{name}: {count} cards won",
                view.won[seat],
                name=bold(name),
            )
            if view.rounds > 1:
                line += " · " + _("total {total}", total=view.totals[seat])
            lines.append(line)
        embed.description = "\n".join(lines)
        left = cards_text(view.pile) if view.pile else _("nothing")
        embed.add_field(name=_("Left on the pile (counts for nobody)"), value=left, inline=False)
        return embed

    # ---- picking a card and what it takes --------------------------------------------------

    def picker(self, view: TurupView) -> Picker | None:
        if view.phase != "play" or view.turn != view.seat or not view.my_cards:
            return None
        return Picker(
            zones=(Zone(_("your hand"), view.my_cards, 1, 1), Zone(_("the pile"), view.pile)),
            groups=(Group(_("Selected"), low=1),),
            kinds=frozenset({"capture", "place"}),
            verb=_("Play selected"),
        )

    def pick_action(self, view: TurupView, picked: Picked) -> Action:
        (card,), taken = picked.zones
        return Capture(card=card, cards=list(taken)) if taken else Place(card=card)

    def pick_reason(self, view: TurupView, picked: Picked) -> str | None:
        (card,), taken = picked.zones
        if not taken:
            return None
        try:
            verify_sum_capture(card, taken, view.pile)
        except IllegalAction as refusal:
            return str(refusal)
        return None

    def pick_of(self, view: TurupView, action: Action) -> list[list] | None:
        if isinstance(action, Capture):
            return [[action.card, *action.cards]]
        return [[action.card]] if isinstance(action, Place) else None

    # ---- words ---------------------------------------------------------------------------------

    def options_text(self, options: TurupOptions) -> str:
        return _("rounds: {rounds}", rounds=options.rounds)

    def action_label(self, view: TurupView, action: Action) -> str:
        if isinstance(action, Capture):
            return _("{card} takes {cards}", card=action.card.label, cards=cards_text(action.cards))
        if isinstance(action, Place):
            return _("Place {card} on the pile", card=action.card.label)
        return kind_name(action.kind)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case RoundStarted():
                return _(
                    "Round {round} of {rounds} ({packs}): {dealer} deals, {first} plays first; "
                    "the pile: {cards}.",
                    round=event.hand,
                    rounds=event.rounds,
                    packs=n_("{count} pack", "{count} packs", event.packs),
                    dealer=names[event.dealer],
                    first=names[event.first],
                    cards=cards_text(event.pile),
                )
            case Captured():
                return n_(
                    "{name}'s {card} takes {cards} ({count} card won).",
                    "{name}'s {card} takes {cards} ({count} cards won).",
                    len(event.cards) + 1,
                    name=names[event.seat],
                    card=event.card.label,
                    cards=cards_text(event.cards),
                )
            case Placed():
                return _(
                    "{name} places {card} on the pile.",
                    name=names[event.seat],
                    card=event.card.label,
                )
            case Dealt():
                return dealt_line(event)
            case RoundScored():
                scores = ", ".join(
                    f"{names[seat]} {won}" for seat, won in enumerate(event.won) if won
                )
                return _(
                    "Round {round} over. Cards won: {scores}.",
                    round=event.round,
                    scores=scores or _("none"),
                )
        return None


def pile_text(view: TurupView) -> str:
    if view.pile:
        cards = n_("{count} card", "{count} cards", len(view.pile))
        return f"{cards_text(view.pile)}  ({cards})"
    return _("empty: the next player places a card")


def dealt_line(event: Dealt) -> str:
    if not event.turned:
        return n_(
            "Every hand is empty: {count} more card each, {stock}.",
            "Every hand is empty: {count} more cards each, {stock}.",
            event.each,
            stock=n_(
                "{count} card left in the stock", "{count} cards left in the stock", event.stock
            ),
        )
    turned, cards = len(event.turned), cards_text(event.turned)
    if event.each:
        return n_(
            "The end of the stock goes round one card at a time: {each} each; "
            "{cards} is turned onto the pile, as it can't go round.",
            "The end of the stock goes round one card at a time: {each} each; "
            "{cards} are turned onto the pile, as they can't go round.",
            turned,
            each=event.each,
            cards=cards,
        )
    return n_(
        "Every hand is empty and the last cards can't go round: {cards} is turned onto the pile.",
        "Every hand is empty and the last cards can't go round: {cards} are turned onto the pile.",
        turned,
        cards=cards,
    )
