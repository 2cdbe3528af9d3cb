"""A seat's picker at one moment (the `Desk`): laid out once per state from what the game
offers (`PickerUI`), then drawn, described and acted on for every click."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import discord
from discord import ButtonStyle
from pydantic import BaseModel

from bot.discord.controls import (
    MAX_SELECT_OPTIONS,
    ROW_WIDTH,
    ActionButton,
    ActionSelect,
    Controls,
)
from bot.discord.game_ui import GameUI, OptionsT, ViewT
from bot.discord.picker.codec import COMPACT, PAGED, Form
from bot.discord.picker.layout import Page, layout, page_rows
from bot.discord.picker.model import Choice, Picked, Picker, cards_text, said
from bot.engine import Action
from bot.errors import InvalidComponent, UserError
from bot.i18n import _, current
from bot.tables import Table, action_token

Key = tuple[int, int, str]  # what a control is drawn for: the table, the prompt and the cards


class PickerUI(GameUI[ViewT, OptionsT]):
    """A game whose players pick cards. It implements `picker` and `pick_action`, and
    `pick_reason` for a verdict before the player presses Play; the other hooks have
    defaults that suit a plain pick."""

    def picker(self, view: ViewT) -> Picker | None:
        """The zones and groups the viewing seat picks from now; None: it picks nothing now."""
        return None

    def pick_action(self, view: ViewT, picked: Picked) -> Action:
        """The action a pick stands for (IllegalAction if it stands for none)."""
        raise NotImplementedError

    def pick_reason(self, view: ViewT, picked: Picked) -> str | None:
        """Why the rules would refuse this pick, as far as the view shows; None: they
        wouldn't. Only a preview: the runtime judges the action when it is played."""
        return None

    def pick_text(self, view: ViewT, picked: Picked) -> str | None:
        """What a pick the rules accept does, in a few words, where the cards alone don't say
        it; None: "ready to play" is enough."""
        return None

    def pick_verdict(self, view: ViewT, picked: Picked) -> str | None:
        """The whole verdict line on a pick, in the game's words; None: the picker's own (the
        counts, then `pick_reason` and `pick_text`)."""
        return None

    def pick_of(self, view: ViewT, action: Action) -> list[list[Any]] | None:
        """A suggested action's cards, per group (by default its `cards`, in one group)."""
        cards = getattr(action, "cards", None)
        return None if cards is None else [list(cards)]

    def pick_tool(self, view: ViewT, picked: Picked) -> Sequence[Sequence[Any]]:
        """The cards per group after the game's own button (`Picker.tool`) is pressed on this
        pick; UserError when it can do nothing."""
        raise NotImplementedError

    def group_text(self, view: ViewT, cards: Sequence[Any]) -> str:
        """How a group's cards read under its name when several groups are shown."""
        return cards_text(cards)

    def waiting_reason(self, view: ViewT) -> str:
        """Why a seat with no decision now can't pick (a secret choice made, say)."""
        return _("It is not your turn.")

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        desk = Desk.open(table, seat, self)
        if desk is None:
            return super().private_controls(table, seat)
        return desk.controls(Choice())


@dataclass
class Desk:
    """A seat's picker at one moment: the picker, the game's other choices, the pages."""

    table: Table
    seat: int
    ui: PickerUI
    view: BaseModel
    picker: Picker
    others: list[Action]  # listed actions of other kinds, each a button
    other_lists: list[tuple[str, int, list[Action]]]  # (kind, part, up to 25): selects
    suggestions: list[tuple[int, str]]  # (selection, label)
    card_rows: int
    pages: list[Page]  # each the parts of zones it shows
    form: Form  # how its controls' custom_ids are written

    @classmethod
    def open(cls, table: Table, seat: int, ui: PickerUI) -> Desk | None:
        """The seat's picker, or None when it picks nothing now: worked out once per state
        (and language: its words are the reader's), since every card a player taps redraws
        the picker from it."""
        if table.state is None or seat not in table.pending_seats():
            return None
        key = ("desk", seat, current())
        return table.worked_out(key, lambda: cls._lay_out(table, seat, ui))

    @classmethod
    def _lay_out(cls, table: Table, seat: int, ui: PickerUI) -> Desk | None:
        view = table.view(seat)
        picker = ui.picker(view)
        if picker is None or picker.size == 0:
            return None
        picks, others, other_lists = sorted_out(table.legal_actions(seat), picker.kinds)
        suggestions = suggested(ui, view, picker, picks)
        # Buttons take rows of five, selects a row each, cards what is left. Suggestions give
        # way when nothing else fits: every play can still be picked card by card.
        buttons = 2 + len(others) + (picker.filled_groups > 1) + (picker.tool is not None)
        for offered in (suggestions, []):
            selects = len(other_lists) + bool(offered)
            rows, pages = layout(picker, buttons, selects)
            if rows and len(pages) > 1:  # a page button too
                rows, pages = layout(picker, buttons + 1, selects)
            if rows:
                form = COMPACT if picker.first_with_room and len(pages) == 1 else PAGED
                listed = (others, other_lists, offered)
                return cls(table, seat, ui, view, picker, *listed, rows, pages, form)
        raise ValueError(f"{table.game.name} lists too many other choices to show any card")

    @property
    def prompt(self) -> int:
        return self.table.seats[self.seat].prompt

    @property
    def key(self) -> Key:
        """What every control is drawn for: the table, the prompt and the cards."""
        return self.table.id, self.prompt, self.picker.checksum()

    def check(self, choice: Choice) -> None:
        """Refuse a choice the bot can't have drawn for this picker."""
        if not (
            choice.selection < self.picker.limit
            and choice.page < len(self.pages)
            and choice.group < self.picker.filled_groups
        ):
            raise InvalidComponent()

    # ---- acting -------------------------------------------------------------------------

    def tap(self, choice: Choice, index: int) -> Choice:
        """The choice once card `index` is tapped."""
        if not any(index in part for part in self.pages[choice.page]):
            raise InvalidComponent()  # not a card shown on its page
        selection = self.picker.tapped(choice.selection, index, choice.group)
        return Choice(selection, choice.page, choice.group)

    def press(self, choice: Choice, verb: str) -> Choice:
        """The choice once a button other than the verb is pressed: Clear, More cards (the
        next page), Fill (the next group), the game's own tool."""
        selection, page, group = choice.selection, choice.page, choice.group
        if verb == "clear":
            selection = 0
        elif verb == "page" and len(self.pages) > 1:
            page = (page + 1) % len(self.pages)
        elif verb == "group" and self.picker.filled_groups > 1:
            group = (group + 1) % len(self.picker.groups)
        elif verb == "tool" and self.picker.tool is not None:
            selection = self.tooled(selection)
        else:
            raise InvalidComponent()  # a button the bot doesn't draw for this picker
        return Choice(selection, page, group)

    def tooled(self, selection: int) -> int:
        groups = self.ui.pick_tool(self.view, self.picker.picked(selection))
        made = self.picker.selection_of(groups)
        if made is None:
            raise ValueError(f"{self.table.game.name}'s tool placed cards the picker hasn't")
        return made

    def action(self, selection: int) -> Action:
        """The action a selection stands for, or why it isn't ready (the counts)."""
        picked = self.picker.picked(selection)
        or_suggested = not picked.cards and bool(self.suggestions)
        problem = self.picker.problem(picked, or_suggested=or_suggested)
        if problem:
            raise UserError(problem)
        return self.ui.pick_action(self.view, picked)

    # ---- drawing ------------------------------------------------------------------------

    def controls(self, choice: Choice) -> discord.ui.View:
        """The page's cards, the buttons right under them, then the selects."""
        out = Controls()
        key = self.key
        card_ids = self.form.card_ids(*key, choice)
        digits = self.picker.digits(choice.selection)
        for index, row in self.card_places[choice.page]:
            label, style = self.card_face(choice, digits[index] - 1, index)
            out.button(custom_id=card_ids + str(index), label=label, style=style, row=row)
        row = page_rows(self.pages[choice.page])
        for number, button in enumerate(self.buttons(key, choice)):
            out.button(**button, row=row + number // ROW_WIDTH)
        for kind, number, options in self.other_options:
            out.select(**ActionSelect.look(self.table.id, self.prompt, kind, options, number))
        if self.suggestions:
            look = self.form.suggestions_look(*key, self.suggestions, said(self.picker.suggested))
            out.select(**look)
        return out

    def card_face(self, choice: Choice, group: int, index: int) -> tuple[str, ButtonStyle]:
        """Card `index`'s label and style, in `group` (-1: none): green in the group being
        filled (in any, when cards find their own group), blue in another, tagged with its
        group when several."""
        if group < 0:
            return self.labels[index], ButtonStyle.secondary
        groups, label = self.picker.groups, self.picker.cards[index].label
        if len(groups) > 1 and groups[group].tag:
            label = f"{label} ·{groups[group].tag}"
        if group == choice.group or self.picker.first_with_room:
            return label[:80] or "?", ButtonStyle.success
        return label[:80] or "?", ButtonStyle.primary

    @cached_property
    def card_places(self) -> list[list[tuple[int, int]]]:
        """Each page's cards (their indexes), each with its row."""
        return [
            [
                (index, part.row + (index - part.first) // ROW_WIDTH)
                for part in page
                for index in range(part.first, part.stop)
            ]
            for page in self.pages
        ]

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Each card's button label, unpicked: said once per desk, which is the reader's."""
        return tuple(card.label[:80] or "?" for card in self.picker.cards)

    def buttons(self, key: Key, choice: Choice) -> list[dict[str, Any]]:
        look, picker = self.form.button_look, self.picker
        own = [look(*key, choice, "play", said(picker.verb))]
        if picker.tool is not None:
            own.append(look(*key, choice, "tool", picker.tool[:80]))
        others = [
            ActionButton.look(self.table.id, self.prompt, token, label, warn=warn)
            for token, label, warn in self.other_buttons
        ]
        clear = look(*key, choice, "clear", _("Clear"))
        # Under review the picker's own buttons stay together: the other choices follow.
        out = [*own, clear, *others] if picker.review else [*own, *others, clear]
        if len(self.pages) > 1:
            out.append(look(*key, choice, "page", self.page_label(choice.page)))
        if picker.filled_groups > 1:
            following = picker.groups[(choice.group + 1) % len(picker.groups)].said
            out.append(look(*key, choice, "group", _("Fill {group}", group=following)[:80]))
        return out

    # The game's other choices, named once per desk (their tokens and labels): every drawing
    # shows them.

    @cached_property
    def other_buttons(self) -> list[tuple[str, str, bool]]:
        """Each choice with a button of its own: (token, label, red where the game warns)."""
        warning = self.ui.warning_kinds
        return [(action_token(a), self.label(a), a.kind in warning) for a in self.others]

    @cached_property
    def other_options(self) -> list[tuple[str, int, list[tuple[str, str]]]]:
        """Each select of choices: (kind, part, its (token, label) options)."""
        return [
            (kind, part, [(action_token(a), self.label(a)) for a in actions])
            for kind, part, actions in self.other_lists
        ]

    def label(self, action: Action) -> str:
        return self.ui.action_label(self.view, action)[:80]

    def page_label(self, page: int) -> str:
        """More cards (the zone goes on), or Show <the zone the next page opens with>."""
        following = self.pages[(page + 1) % len(self.pages)][0].zone
        if following == self.pages[page][-1].zone:
            return _("More cards")
        return _("Show {zone}", zone=self.picker.zones[following].name)[:80]

    def showing(self, page: Page) -> str | None:
        """Which rows hold which zone, when a page shows several; which of a zone's cards,
        when it spans pages ("The table: cards 1-15 of 22"). None: the page says it all."""
        if len(self.pages) == 1 and len(page) == 1:
            return None
        shown = []
        for part in page:
            zone = self.picker.zones[part.zone]
            offset = self.picker.offset(part.zone)
            cards = None  # which of its cards, when it spans pages: (first, last, of)
            if len(self.pages) > 1 and part.stop - part.first < len(zone.cards):
                cards = (part.first - offset + 1, part.stop - offset, len(zone.cards))
            rows = (part.row + 1, part.row + part.rows) if len(page) > 1 else None
            shown.append(zone_shown(zone.name, cards, rows))
        text = " · ".join(shown)
        return f"{text[:1].upper()}{text[1:]}"

    # ---- describing ---------------------------------------------------------------------

    def describe(self, embed: discord.Embed, choice: Choice) -> None:
        """Add the page shown and the pick, with its verdict, to the player's hand."""
        showing = self.showing(self.pages[choice.page])
        if showing:
            embed.add_field(name=_("Showing"), value=showing[:1024], inline=False)
        picked = self.picker.picked(choice.selection)
        if len(self.picker.groups) > 1:
            lines = "\n".join(self.arrangement(picked, choice))
            embed.add_field(name=said(self.picker.title), value=lines[:1024], inline=False)
        elif picked.cards:
            text = f"{self.picked_text(picked)} · {self.verdict(picked, choice)}"
            embed.add_field(name=_("Selected"), value=text[:1024], inline=False)

    def arrangement(self, picked: Picked, choice: Choice) -> list[str]:
        """Each group's cards (the one being filled marked ▶), the cards left out where the
        game names them, and the verdict."""
        picker = self.picker
        marked = choice.group if picker.filled_groups > 1 else None
        lines = []
        for number, (group, cards) in enumerate(zip(picker.groups, picked.groups, strict=True)):
            name, shown = "**" + group.said + "**", self.ui.group_text(self.view, cards)
            line = _("{name}: {cards}", name=name, cards=shown)
            lines.append(f"▶ {line}" if number == marked else line)
        if picker.left_out is not None:
            left = cards_text(picker.unpicked(choice.selection))
            lines.append(_("{name}: {cards}", name=picker.left_out, cards=left))
        lines.append(self.verdict(picked, choice))
        return lines

    def picked_text(self, picked: Picked) -> str:
        if len(self.picker.zones) == 1:
            return cards_text(picked.cards)
        return "; ".join(
            _("{name}: {cards}", name=zone.name, cards=cards_text(cards))
            for zone, cards in zip(self.picker.zones, picked.zones, strict=True)
            if cards
        )

    def verdict(self, picked: Picked, choice: Choice) -> str:
        said = self.ui.pick_verdict(self.view, picked)
        if said:
            return said
        if not picked.cards:
            group = self.picker.groups[choice.group].said
            return _("Tap cards to put them in {group}.", group=group)
        problem = self.picker.problem(picked)
        if problem:
            return problem  # "Pick 3 cards (you picked 4)."
        reason = self.ui.pick_reason(self.view, picked)
        if reason:
            return _("can't be played: {reason}", reason=reason)
        does = self.ui.pick_text(self.view, picked)
        return _("ready to play: {does}", does=does) if does else _("ready to play")


def zone_shown(name: str, cards: tuple[int, int, int] | None, rows: tuple[int, int] | None) -> str:
    """A zone on the page: which of its cards (first, last, of how many) when it spans pages,
    on which rows (top, bottom) when the page shows several zones."""
    if rows is None:
        if cards is None:
            return name
        first, last, count = cards
        return _(
            "{zone}: cards {first}-{last} of {count}",
            zone=name,
            first=first,
            last=last,
            count=count,
        )
    top, bottom = rows
    if cards is None:
        if top == bottom:
            return _("{zone} (row {row})", zone=name, row=bottom)
        return _("{zone} (rows {top}-{bottom})", zone=name, top=top, bottom=bottom)
    first, last, count = cards
    if top == bottom:
        return _(
            "{zone}: cards {first}-{last} of {count} (row {row})",
            zone=name,
            first=first,
            last=last,
            count=count,
            row=bottom,
        )
    return _(
        "{zone}: cards {first}-{last} of {count} (rows {top}-{bottom})",
        zone=name,
        first=first,
        last=last,
        count=count,
        top=top,
        bottom=bottom,
    )


def sorted_out(
    actions: list[Action], kinds: frozenset[str]
) -> tuple[list[Action], list[Action], list[tuple[str, int, list[Action]]]]:
    """The listed actions sorted out: the picks (of `kinds`), then the other choices, a button
    for a kind listed once and selects of up to 25 (kind, part, actions) for the others."""
    picks: list[Action] = []
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        if action.kind in kinds:
            picks.append(action)
        else:
            by_kind.setdefault(action.kind, []).append(action)
    others = [group[0] for group in by_kind.values() if len(group) == 1]
    other_lists = [
        (kind, part, group[first : first + MAX_SELECT_OPTIONS])
        for kind, group in by_kind.items()
        if len(group) > 1
        for part, first in enumerate(range(0, len(group), MAX_SELECT_OPTIONS))
    ]
    return picks, others, other_lists


def suggested(
    ui: PickerUI, view: BaseModel, picker: Picker, picks: list[Action]
) -> list[tuple[int, str]]:
    """Up to 25 of the listed picks, each as the selection that makes it."""
    out: list[tuple[int, str]] = []
    seen: set[int] = set()
    for action in picks:
        groups = ui.pick_of(view, action)
        selection = None if groups is None else picker.selection_of(groups)
        if selection and selection not in seen:
            seen.add(selection)
            out.append((selection, ui.action_label(view, action)[:100]))
        if len(out) == MAX_SELECT_OPTIONS:
            break
    return out
