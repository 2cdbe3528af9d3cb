"""Totit on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/totit rules` shows, read from rules.md beside this module. Its slash commands are
cogs/totit.py."""

from __future__ import annotations

import discord

from bot.discord.format import plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.discord.points import player_line
from bot.engine import Action, Event
from bot.games.totit import (
    TABLE_CARDS,
    TOTIT,
    Capture,
    Captured,
    Dealt,
    HandScored,
    TotitOptions,
    TotitView,
    Trail,
    Trailed,
    capture_reason,
    trail_reason,
)
from bot.tables import Table

RULES = rules_beside(__name__)


def seat_line(view: TotitView, seat: int, name: str) -> str:
    first = ["first turn"] if view.first_turn[seat] else []
    taken = len(view.captured[seat])
    captured = (
        f"captured {taken}, {plural(view.pairs[seat], 'pair')}" if taken else "nothing captured"
    )
    details = [plural(view.counts[seat], "card"), *first, captured, f"total {view.scores[seat]}"]
    return player_line(name, details, turn=seat == view.turn, dealer=seat == view.dealer)


class TotitUI(PickerUI[TotitView, TotitOptions]):
    game_id = TOTIT.id
    colour = discord.Colour.dark_teal()

    # ---- the table -------------------------------------------------------------------------

    def public_embed(self, table: Table, view: TotitView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Totit · hand {view.hand} of {view.deals}", colour=self.colour)
        embed.description = "\n".join(
            seat_line(view, seat, name) for seat, name in enumerate(names)
        )
        left = "left on the table" if view.phase == "play" else "discarded"
        embed.add_field(
            name=f"Table ({len(view.table)})",
            value=cards_text(view.table) if view.phase == "play" else f"{len(view.table)} {left}",
            inline=False,
        )
        aside = f" {plural(view.set_aside, 'card')} set aside." if view.set_aside else ""
        embed.set_footer(
            text="A pair of identical cards captured scores 1. A, J, Q, K count as one rank."
            + aside
        )
        return embed

    def private_embed(self, table: Table, view: TotitView, names: list[str]) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(title=f"Your Totit hand · table {table.id}", colour=self.colour)
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        if view.phase == "play":
            embed.add_field(name="Table", value=cards_text(view.table), inline=False)
        assert view.seat is not None  # a private view is its seat's
        mine = view.captured[view.seat]
        if mine:
            embed.add_field(
                name=f"Your captures ({plural(view.pairs[view.seat], 'pair')})",
                value=cards_text(mine),
                inline=False,
            )
        return embed

    # ---- picking cards ------------------------------------------------------------------------

    def picker(self, view: TotitView) -> Picker | None:
        if view.phase != "play" or view.turn != view.seat:
            return None
        return Picker(
            zones=(
                Zone("your hand", view.my_cards or [], low=1, high=1),
                Zone("the table", view.table, low=0, high=1),
            ),
            groups=(Group("Selected", low=1, high=2),),
            kinds=frozenset({"capture", "trail"}),
            verb="Play selected",
        )

    def pick_action(self, view: TotitView, picked: Picked) -> Action:
        (card,), taken = picked.zones
        return Capture(card=card, target=taken[0]) if taken else Trail(card=card)

    def pick_of(self, view: TotitView, action: Action) -> list[list] | None:
        match action:
            case Capture():
                return [[action.card, action.target]]
            case Trail():
                return [[action.card]]
        return None

    def pick_reason(self, view: TotitView, picked: Picked) -> str | None:
        held, taken = picked.zones
        if len(held) != 1:
            return None  # the counts say what is missing
        assert view.seat is not None  # only a seat's own turn has a picker
        hand, first = view.my_cards or [], view.first_turn[view.seat]
        if taken:
            return capture_reason(held[0], taken[0], hand, view.table, first)
        return trail_reason(held[0], hand, view.table, first, view.trail_when_able)

    # ---- words ------------------------------------------------------------------------------

    def action_label(self, view: TotitView, action: Action) -> str:
        match action:
            case Capture():
                return f"Take {action.target.label} with {action.card.label}"
            case Trail():
                return f"Trail {action.card.label}"
        return super().action_label(view, action)

    def options_text(self, options: TotitOptions) -> str:
        return f"trail when able: {'yes' if options.trail_when_able else 'no'}"

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                aside = f" ({event.set_aside} set aside)" if event.set_aside else ""
                return (
                    f"Hand {event.hand} of {event.deals}: {names[event.dealer]} deals "
                    f"{TABLE_CARDS} cards face up and {event.hand_size} to each player"
                    f"{aside}; {names[event.first]} plays first."
                )
            case Captured():
                line = f"{names[event.seat]} takes {event.target.label} with {event.card.label}."
                if event.pairs:
                    line += f" {plural(event.pairs, 'pair')} of identical cards!"
                return line
            case Trailed():
                return f"{names[event.seat]} trails {event.card.label}."
            case HandScored():
                pairs = ", ".join(f"{names[s]} {n}" for s, n in enumerate(event.pairs))
                totals = ", ".join(f"{names[s]} {n}" for s, n in enumerate(event.totals))
                return (
                    f"Hand over: {plural(event.discarded, 'card')} left on the table "
                    f"are discarded. Pairs: {pairs}. Totals: {totals}."
                )
        return None
