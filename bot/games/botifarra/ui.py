"""Botifarra on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/botifarra rules` shows, read from rules.md beside this module. Its slash commands are
cogs/botifarra.py."""

from __future__ import annotations

import discord

from bot.discord.format import SIDE_NAMES, plural
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.engine import Action, Event
from bot.games.botifarra import (
    BOTIFARRA,
    DOUBLING_NAMES,
    BotifarraOptions,
    BotifarraView,
    ChoicePassed,
    ChooseTrumps,
    Dealt,
    Double,
    DoublingCall,
    DoublingSpoken,
    HandScored,
    NoDouble,
    PassChoice,
    PlayCard,
    Played,
    TrickTaken,
    TrumpsChosen,
    partner_of,
    trump_name,
)
from bot.games.botifarra import RULES as TRICK_RULES
from bot.games.tricks import TrickPlay, why_illegal
from bot.tables import Table

RULES = rules_beside(__name__)


def side_names(names: list[str]) -> list[str]:
    return [f"{names[side]} & {names[side + 2]}" for side in range(2)]


def side_label(side: int, names: list[str]) -> str:
    return f"Side {SIDE_NAMES[side]} ({side_names(names)[side]})"


def call_text(call: DoublingCall, names: list[str]) -> str:
    """ "Bob doubles", "Admin doesn't redouble"."""
    question = DOUBLING_NAMES[call.level - 1]
    said = f"{question}s" if call.doubles else f"doesn't {question}"
    return f"{names[call.seat]} {said}"


def calls_text(calls: list[DoublingCall], names: list[str]) -> str:
    return " · ".join(call_text(call, names) for call in calls)


def trick_text(plays: list[TrickPlay], names: list[str]) -> str:
    return ", ".join(f"{names[play.seat]} {play.card.label}" for play in plays) or "nothing yet"


class BotifarraUI(PickerUI[BotifarraView, BotifarraOptions]):
    game_id = BOTIFARRA.id
    colour = discord.Colour.dark_red()

    # ---- the table -----------------------------------------------------------------------------

    def contract(self, view: BotifarraView, names: list[str]) -> str:
        if not view.trumps_chosen:
            chooser = names[view.chooser] if view.chooser is not None else "-"
            passed = " (passed by the dealer)" if view.passed else ""
            return f"{chooser} is choosing trumps{passed}"
        doubled = f", {DOUBLING_NAMES[view.doublings - 1]}d" if view.doublings else ", not doubled"
        return f"{trump_name(view.trump)}{doubled} · x{view.multiplier}"

    def public_embed(self, table: Table, view: BotifarraView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Botifarra · hand {view.hand}", colour=self.colour)
        embed.description = "\n".join(
            f"**{side_label(side, names)}** · {plural(view.scores[side], 'point')} · "
            f"{plural(view.tricks[side], 'trick')} this hand"
            for side in range(2)
        )
        embed.add_field(name="Dealer", value=names[view.dealer])
        embed.add_field(name="Contract", value=self.contract(view, names))
        if view.calls:
            embed.add_field(name="Doubling", value=calls_text(view.calls, names), inline=False)
        if view.speaker is not None:
            question = DOUBLING_NAMES[view.doublings]
            embed.add_field(
                name=f"{question.capitalize()}?",
                value=f"{names[view.speaker]} to speak",
                inline=False,
            )
        if view.trick is not None:
            embed.add_field(name="Trick", value=trick_text(view.trick.plays, names), inline=False)
        if view.last_trick:
            embed.add_field(name="Last trick", value=trick_text(view.last_trick, names))
        embed.add_field(
            name="Cards",
            value=" · ".join(f"{n} {view.counts[s]}" for s, n in enumerate(names)),
            inline=False,
        )
        embed.set_footer(text=f"The first side to {view.target} points wins.")
        return embed

    def private_embed(self, table: Table, view: BotifarraView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Your Botifarra hand · table {table.id}", colour=self.colour)
        hand = view.my_cards or []
        embed.description = f"{cards_text(hand)}  ({plural(len(hand), 'card')})"
        assert view.seat is not None  # a private view is its seat's
        side = view.seat % 2
        embed.add_field(
            name="Your side",
            value=f"{side_label(side, names)} · {plural(view.scores[side], 'point')}",
        )
        embed.add_field(name="Contract", value=self.contract(view, names))
        if view.trick is not None and view.phase == "play":
            embed.add_field(name="Trick", value=trick_text(view.trick.plays, names), inline=False)
        if view.my_legal is not None:
            embed.add_field(name="You may play", value=cards_text(view.my_legal), inline=False)
        if view.calls and view.phase == "double":
            embed.add_field(name="Doubling", value=calls_text(view.calls, names), inline=False)
        return embed

    def hand_summary(
        self, table: Table, view: BotifarraView, names: list[str]
    ) -> discord.Embed | None:
        if view.points is None or view.scored is None:  # both come when the hand ends
            return None
        embed = discord.Embed(title=f"Botifarra · hand {view.hand} over", colour=self.colour)
        embed.description = "\n".join(
            f"**{side_label(side, names)}**: {view.points[side]} in tricks "
            f"({plural(view.tricks[side], 'trick')}) · scores {view.scored[side]} "
            f"· total {view.scores[side]}"
            for side in range(2)
        )
        embed.set_footer(text=f"x{view.multiplier} · the side above 36 scores the excess.")
        return embed

    # ---- picking a card ------------------------------------------------------------------------

    def picker(self, view: BotifarraView) -> Picker | None:
        if view.phase != "play" or view.my_legal is None or not view.my_cards:
            return None
        return Picker(
            zones=(Zone("your hand", view.my_cards),),
            groups=(Group("Selected", low=1, high=1),),
            verb="Play selected",
        )

    def pick_action(self, view: BotifarraView, picked: Picked) -> Action:
        return PlayCard(card=picked.cards[0])

    def pick_reason(self, view: BotifarraView, picked: Picked) -> str | None:
        """The heading rules' verdict, from the viewer's own cards and the trick."""
        # Only the seat to play has a picker: it holds cards, and a trick is under way.
        assert view.seat is not None and view.my_cards is not None and view.trick is not None
        return why_illegal(
            picked.cards[0],
            view.my_cards,
            view.trick,
            TRICK_RULES,
            trump=view.trump,
            partners=[partner_of(view.seat)],
        )

    def pick_of(self, view: BotifarraView, action: Action) -> list[list] | None:
        return [[action.card]] if isinstance(action, PlayCard) else None

    # ---- words ---------------------------------------------------------------------------------

    def action_label(self, view: BotifarraView, action: Action) -> str:
        match action:
            case ChooseTrumps():
                return trump_name(action.suit).capitalize()
            case PassChoice():
                return "Pass the choice to your partner"
            case Double():
                return f"{DOUBLING_NAMES[view.doublings].capitalize()}"
            case NoDouble():
                return f"Don't {DOUBLING_NAMES[view.doublings]}"
            case PlayCard():
                return action.card.label
        return action.kind.title()

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                return f"{names[event.dealer]} deals and chooses trumps."
            case ChoicePassed():
                return f"{names[event.seat]} passes the choice to {names[event.partner]}."
            case TrumpsChosen():
                return f"{names[event.seat]} chooses {trump_name(event.suit)}: x{event.multiplier}."
            case DoublingSpoken():
                return f"{call_text(event.call, names)}: x{event.multiplier}."
            case Played():
                return f"{names[event.seat]} plays {event.card.label}."
            case TrickTaken():
                return f"{names[event.seat]} takes the trick ({plural(event.points, 'point')})."
            case HandScored():
                parts = [f"Side {SIDE_NAMES[side]} {event.points[side]}" for side in range(2)]
                scorer = next((s for s in range(2) if event.scored[s]), None)
                result = (
                    f"Side {SIDE_NAMES[scorer]} scores {event.scored[scorer]} (x{event.multiplier})"
                    if scorer is not None
                    else "nobody scores"
                )
                return f"Hand over: {' · '.join(parts)}; {result}."
        return None
