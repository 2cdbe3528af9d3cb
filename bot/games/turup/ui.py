"""Turup on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/turup rules` shows, read from rules.md beside this module. Its slash commands are
cogs/turup.py."""

from __future__ import annotations

import discord

from bot.discord.format import plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
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
from bot.tables import Table

RULES = rules_beside(__name__)


class TurupUI(PickerUI[TurupView, TurupOptions]):
    game_id = TURUP.id
    colour = discord.Colour.dark_gold()

    def score_noun(self, options: TurupOptions) -> tuple[str, str]:
        return "card won", "cards won"

    # ---- the table -----------------------------------------------------------------------------

    def seat_line(self, view: TurupView, seat: int, names: list[str]) -> str:
        pointer = "▶ " if seat == view.turn else ""
        dealer = " (dealer)" if seat == view.dealer else ""
        if not view.playing[seat]:
            return f"{names[seat]}{dealer} · left the game"
        parts = [plural(view.counts[seat], "card"), f"{view.won[seat]} won"]
        if view.rounds > 1:
            parts.append(f"total {view.totals[seat]}")
        return f"{pointer}**{names[seat]}**{dealer} · {' · '.join(parts)}"

    def public_embed(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Turup · round {view.hand} of {view.rounds}", colour=self.colour
        )
        embed.description = "\n".join(self.seat_line(view, s, names) for s in range(len(names)))
        embed.add_field(name="Community pile", value=pile_text(view), inline=False)
        embed.add_field(name="Stock", value=plural(view.stock, "card"))
        embed.set_footer(
            text="The most cards won wins. The pile left at the end counts for nobody."
        )
        return embed

    def private_embed(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(title=f"Your Turup hand · table {table.id}", colour=self.colour)
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        embed.add_field(name="Community pile", value=pile_text(view), inline=False)
        if view.seat is not None:
            embed.add_field(name="Cards you won", value=str(view.won[view.seat]))
        return embed

    def hand_summary(self, table: Table, view: TurupView, names: list[str]) -> discord.Embed | None:
        if view.phase not in ("between", "over"):
            return None
        embed = discord.Embed(title=f"Turup · round {view.hand} over", colour=self.colour)
        lines = [
            f"**{names[seat]}**: {plural(view.won[seat], 'card')} won"
            + (f" · total {view.totals[seat]}" if view.rounds > 1 else "")
            for seat in range(len(names))
            if view.playing[seat]
        ]
        embed.description = "\n".join(lines)
        left = cards_text(view.pile) if view.pile else "nothing"
        embed.add_field(name="Left on the pile (counts for nobody)", value=left, inline=False)
        return embed

    # ---- picking a card and what it takes --------------------------------------------------

    def picker(self, view: TurupView) -> Picker | None:
        if view.phase != "play" or view.turn != view.seat or not view.my_cards:
            return None
        return Picker(
            zones=(Zone("your hand", view.my_cards, 1, 1), Zone("the pile", view.pile)),
            groups=(Group("Selected", low=1),),
            kinds=frozenset({"capture", "place"}),
            verb="Play selected",
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

    def action_label(self, view: TurupView, action: Action) -> str:
        if isinstance(action, Capture):
            return f"{action.card.label} takes {cards_text(action.cards)}"
        if isinstance(action, Place):
            return f"Place {action.card.label} on the pile"
        return action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case RoundStarted():
                packs = plural(event.packs, "pack")
                return (
                    f"Round {event.hand} of {event.rounds} ({packs}): {names[event.dealer]} "
                    f"deals, {names[event.first]} plays first; the pile: "
                    f"{cards_text(event.pile)}."
                )
            case Captured():
                won = plural(len(event.cards) + 1, "card")
                return (
                    f"{names[event.seat]}'s {event.card.label} takes "
                    f"{cards_text(event.cards)} ({won} won)."
                )
            case Placed():
                return f"{names[event.seat]} places {event.card.label} on the pile."
            case Dealt():
                return dealt_line(event)
            case RoundScored():
                scores = ", ".join(
                    f"{names[seat]} {won}" for seat, won in enumerate(event.won) if won
                )
                return f"Round {event.round} over. Cards won: {scores or 'none'}."
        return None


def pile_text(view: TurupView) -> str:
    if view.pile:
        return f"{cards_text(view.pile)}  ({plural(len(view.pile), 'card')})"
    return "empty: the next player places a card"


def dealt_line(event: Dealt) -> str:
    stock = f"{plural(event.stock, 'card')} left in the stock"
    if not event.turned:
        return f"Every hand is empty: {plural(event.each, 'more card')} each, {stock}."
    verb = "is" if len(event.turned) == 1 else "are"
    turned = f"{cards_text(event.turned)} {verb} turned onto the pile"
    if event.each:
        return (
            f"The end of the stock goes round one card at a time: {event.each} each; "
            f"{turned}, as {'it' if verb == 'is' else 'they'} can't go round."
        )
    return f"Every hand is empty and the last cards can't go round: {turned}."
