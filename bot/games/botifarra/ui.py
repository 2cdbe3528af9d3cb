"""Botifarra on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/botifarra rules` shows, read from rules.md beside this module. Its slash commands are
cogs/botifarra.py."""

from __future__ import annotations

import discord

from bot.discord.format import bold, kind_name, side_letter
from bot.discord.game_ui import rules_beside
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, cards_text
from bot.engine import Action, Event
from bot.games.botifarra import (
    BOTIFARRA,
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
from bot.games.botifarra.rules import DOUBLING_QUESTIONS
from bot.games.tricks import TrickPlay, why_illegal
from bot.i18n import N_, _, n_
from bot.tables import Table

RULES = rules_beside(__name__)

# Per doubling level (double, redouble, re-redouble): a player's answer, the button saying
# it, and (from no doubling up) the contract it makes.
DOUBLES = (N_("{name} doubles"), N_("{name} redoubles"), N_("{name} re-redoubles"))
DECLINES = (
    N_("{name} doesn't double"),
    N_("{name} doesn't redouble"),
    N_("{name} doesn't re-redouble"),
)
DOUBLE_LABELS = (N_("Double"), N_("Redouble"), N_("Re-redouble"))
DECLINE_LABELS = (N_("Don't double"), N_("Don't redouble"), N_("Don't re-redouble"))
CONTRACTS = (
    N_("{trumps}, not doubled"),
    N_("{trumps}, doubled"),
    N_("{trumps}, redoubled"),
    N_("{trumps}, re-redoubled"),
)


def side_names(names: list[str]) -> list[str]:
    return [f"{names[side]} & {names[side + 2]}" for side in range(2)]


def side_label(side: int, names: list[str]) -> str:
    return _("Side {side} ({players})", side=side_letter(side), players=side_names(names)[side])


def call_text(call: DoublingCall, names: list[str]) -> str:
    """ "Bob doubles", "Admin doesn't redouble"."""
    said = DOUBLES if call.doubles else DECLINES
    return _(said[call.level - 1], name=names[call.seat])


def calls_text(calls: list[DoublingCall], names: list[str]) -> str:
    return " · ".join(call_text(call, names) for call in calls)


def trick_text(plays: list[TrickPlay], names: list[str]) -> str:
    return ", ".join(f"{names[play.seat]} {play.card.label}" for play in plays) or _("nothing yet")


class BotifarraUI(PickerUI[BotifarraView, BotifarraOptions]):
    game_id = BOTIFARRA.id
    colour = discord.Colour.dark_red()

    # ---- the table -----------------------------------------------------------------------------

    def contract(self, view: BotifarraView, names: list[str]) -> str:
        if not view.trumps_chosen:
            chooser = names[view.chooser] if view.chooser is not None else "-"
            if view.passed:
                return _("{name} is choosing trumps (passed by the dealer)", name=chooser)
            return _("{name} is choosing trumps", name=chooser)
        contract = _(CONTRACTS[view.doublings], trumps=trump_name(view.trump))
        return f"{contract} · " + _("x{multiplier}", multiplier=view.multiplier)

    def public_embed(self, table: Table, view: BotifarraView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Botifarra · hand {hand}", hand=view.hand), colour=self.colour
        )
        embed.description = "\n".join(
            f"**{side_label(side, names)}** · "
            + n_("{count} point", "{count} points", view.scores[side])
            + " · "
            + n_("{count} trick this hand", "{count} tricks this hand", view.tricks[side])
            for side in range(2)
        )
        embed.add_field(name=_("Dealer"), value=names[view.dealer])
        embed.add_field(name=_("Contract"), value=self.contract(view, names))
        if view.calls:
            embed.add_field(name=_("Doubling"), value=calls_text(view.calls, names), inline=False)
        if view.speaker is not None:
            embed.add_field(
                name=_(DOUBLING_QUESTIONS[view.doublings]),
                value=_("{name} to speak", name=names[view.speaker]),
                inline=False,
            )
        if view.trick is not None:
            embed.add_field(
                name=_("Trick"), value=trick_text(view.trick.plays, names), inline=False
            )
        if view.last_trick:
            embed.add_field(name=_("Last trick"), value=trick_text(view.last_trick, names))
        embed.add_field(
            name=_("Cards"),
            value=" · ".join(f"{n} {view.counts[s]}" for s, n in enumerate(names)),
            inline=False,
        )
        embed.set_footer(
            text=n_(
                "The first side to {count} point wins.",
                "The first side to {count} points wins.",
                view.target,
            )
        )
        return embed

    def private_embed(self, table: Table, view: BotifarraView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Your Botifarra hand · table {table}", table=str(table.id)),
            colour=self.colour,
        )
        hand = view.my_cards or []
        cards = n_("{count} card", "{count} cards", len(hand))
        embed.description = f"{cards_text(hand)}  ({cards})"
        assert view.seat is not None  # a private view is its seat's
        side = view.seat % 2
        points = n_("{count} point", "{count} points", view.scores[side])
        embed.add_field(name=_("Your side"), value=f"{side_label(side, names)} · {points}")
        embed.add_field(name=_("Contract"), value=self.contract(view, names))
        if view.trick is not None and view.phase == "play":
            embed.add_field(
                name=_("Trick"), value=trick_text(view.trick.plays, names), inline=False
            )
        if view.my_legal is not None:
            embed.add_field(name=_("You may play"), value=cards_text(view.my_legal), inline=False)
        if view.calls and view.phase == "double":
            embed.add_field(name=_("Doubling"), value=calls_text(view.calls, names), inline=False)
        return embed

    def hand_summary(
        self, table: Table, view: BotifarraView, names: list[str]
    ) -> discord.Embed | None:
        if view.points is None or view.scored is None:  # both come when the hand ends
            return None
        embed = discord.Embed(
            title=_("Botifarra · hand {hand} over", hand=view.hand), colour=self.colour
        )
        embed.description = "\n".join(
            _(
                "{side}: {points} in tricks ({tricks}) · scores {scored} · total {total}",
                side=bold(side_label(side, names)),
                points=view.points[side],
                tricks=n_("{count} trick", "{count} tricks", view.tricks[side]),
                scored=view.scored[side],
                total=view.scores[side],
            )
            for side in range(2)
        )
        excess = _("the side above 36 scores the excess.")
        embed.set_footer(text=_("x{multiplier}", multiplier=view.multiplier) + f" · {excess}")
        return embed

    # ---- picking a card ------------------------------------------------------------------------

    def picker(self, view: BotifarraView) -> Picker | None:
        if view.phase != "play" or view.my_legal is None or not view.my_cards:
            return None
        return Picker(
            zones=(Zone(_("your hand"), view.my_cards),),
            groups=(Group(_("Selected"), low=1, high=1),),
            verb=_("Play selected"),
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

    def options_text(self, options: BotifarraOptions) -> str:
        return _("target: {target}", target=options.target)

    def action_label(self, view: BotifarraView, action: Action) -> str:
        match action:
            case ChooseTrumps():
                return trump_name(action.suit, capital=True)
            case PassChoice():
                return _("Pass the choice to your partner")
            case Double():
                return _(DOUBLE_LABELS[view.doublings])
            case NoDouble():
                return _(DECLINE_LABELS[view.doublings])
            case PlayCard():
                return action.card.label
        return kind_name(action.kind)

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case Dealt():
                return _("{name} deals and chooses trumps.", name=names[event.dealer])
            case ChoicePassed():
                return _(
                    "{name} passes the choice to {partner}.",
                    name=names[event.seat],
                    partner=names[event.partner],
                )
            case TrumpsChosen():
                return _(
                    "{name} chooses {trumps}: x{multiplier}.",
                    name=names[event.seat],
                    trumps=trump_name(event.suit),
                    multiplier=event.multiplier,
                )
            case DoublingSpoken():
                return _(
                    "{call}: x{multiplier}.",
                    call=call_text(event.call, names),
                    multiplier=event.multiplier,
                )
            case Played():
                return _("{name} plays {card}.", name=names[event.seat], card=event.card.label)
            case TrickTaken():
                return n_(
                    "{name} takes the trick ({count} point).",
                    "{name} takes the trick ({count} points).",
                    event.points,
                    name=names[event.seat],
                )
            case HandScored():
                parts = [
                    _("Side {side} {points}", side=side_letter(side), points=event.points[side])
                    for side in range(2)
                ]
                scorer = next((s for s in range(2) if event.scored[s]), None)
                result = (
                    _(
                        "Side {side} scores {scored} (x{multiplier})",
                        side=side_letter(scorer),
                        scored=event.scored[scorer],
                        multiplier=event.multiplier,
                    )
                    if scorer is not None
                    else _("nobody scores")
                )
                return _("Hand over: {points}; {result}.", points=" · ".join(parts), result=result)
        return None
