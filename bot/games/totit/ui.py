"""Totit on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/totit rules` shows, read from rules.md beside this module. Its slash commands are
cogs/totit.py."""

from __future__ import annotations

import discord

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
from bot.i18n import _, n_
from bot.tables import Table

RULES = rules_beside(__name__)


def seat_line(view: TotitView, seat: int, name: str) -> str:
    first = [_("first turn")] if view.first_turn[seat] else []
    taken = len(view.captured[seat])
    captured = (
        n_(
            "captured {taken}, {count} pair",
            "captured {taken}, {count} pairs",
            view.pairs[seat],
            taken=taken,
        )
        if taken
        else _("nothing captured")
    )
    details = [
        n_("{count} card", "{count} cards", view.counts[seat]),
        *first,
        captured,
        _("total {total}", total=view.scores[seat]),
    ]
    return player_line(name, details, turn=seat == view.turn, dealer=seat == view.dealer)


class TotitUI(PickerUI[TotitView, TotitOptions]):
    game_id = TOTIT.id
    colour = discord.Colour.dark_teal()

    # ---- the table -------------------------------------------------------------------------

    def public_embed(self, table: Table, view: TotitView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Totit · hand {hand} of {deals}", hand=view.hand, deals=view.deals),
            colour=self.colour,
        )
        embed.description = "\n".join(
            seat_line(view, seat, name) for seat, name in enumerate(names)
        )
        embed.add_field(
            name=_("Table ({count})", count=len(view.table)),
            value=cards_text(view.table)
            if view.phase == "play"
            else n_("{count} discarded", "{count} discarded", len(view.table)),
            inline=False,
        )
        footer = _("A pair of identical cards captured scores 1. A, J, Q, K count as one rank.")
        if view.set_aside:
            aside = n_("{count} card set aside.", "{count} cards set aside.", view.set_aside)
            footer = f"{footer} {aside}"
        embed.set_footer(text=footer)
        return embed

    def private_embed(self, table: Table, view: TotitView, names: list[str]) -> discord.Embed:
        hand = view.my_cards or []
        embed = discord.Embed(
            title=_("Your Totit hand · table {table}", table=str(table.id)), colour=self.colour
        )
        cards = n_("{count} card", "{count} cards", len(hand))
        embed.description = f"{cards_text(hand)}  ({cards})"
        if view.phase == "play":
            embed.add_field(name=_("Table"), value=cards_text(view.table), inline=False)
        assert view.seat is not None  # a private view is its seat's
        mine = view.captured[view.seat]
        if mine:
            embed.add_field(
                name=n_(
                    "Your captures ({count} pair)",
                    "Your captures ({count} pairs)",
                    view.pairs[view.seat],
                ),
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
                Zone(_("your hand"), view.my_cards or [], low=1, high=1),
                Zone(_("the table"), view.table, low=0, high=1),
            ),
            groups=(Group(_("Selected"), low=1, high=2),),
            kinds=frozenset({"capture", "trail"}),
            verb=_("Play selected"),
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
                return _(
                    "Take {target} with {card}", target=action.target.label, card=action.card.label
                )
            case Trail():
                return _("Trail {card}", card=action.card.label)
        return super().action_label(view, action)

    def options_text(self, options: TotitOptions) -> str:
        if options.trail_when_able:
            return _("trail when able: yes")
        return _("trail when able: no")

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                params = {
                    "hand": event.hand,
                    "deals": event.deals,
                    "dealer": names[event.dealer],
                    "table": TABLE_CARDS,
                    "each": event.hand_size,
                    "aside": event.set_aside,
                    "first": names[event.first],
                }
                if event.set_aside:
                    return _(
                        "Hand {hand} of {deals}: {dealer} deals {table} cards face up and "
                        "{each} to each player ({aside} set aside); {first} plays first.",
                        **params,
                    )
                return _(
                    "Hand {hand} of {deals}: {dealer} deals {table} cards face up and "
                    "{each} to each player; {first} plays first.",
                    **params,
                )
            case Captured():
                line = _(
                    "{name} takes {target} with {card}.",
                    name=names[event.seat],
                    target=event.target.label,
                    card=event.card.label,
                )
                if event.pairs:
                    pairs = n_(
                        "{count} pair of identical cards!",
                        "{count} pairs of identical cards!",
                        event.pairs,
                    )
                    line = f"{line} {pairs}"
                return line
            case Trailed():
                return _("{name} trails {card}.", name=names[event.seat], card=event.card.label)
            case HandScored():
                pairs = ", ".join(f"{names[s]} {n}" for s, n in enumerate(event.pairs))
                totals = ", ".join(f"{names[s]} {n}" for s, n in enumerate(event.totals))
                return n_(
                    "Hand over: {count} card left on the table are discarded. "
                    "Pairs: {pairs}. Totals: {totals}.",
                    "Hand over: {count} cards left on the table are discarded. "
                    "Pairs: {pairs}. Totals: {totals}.",
                    event.discarded,
                    pairs=pairs,
                    totals=totals,
                )
        return None
