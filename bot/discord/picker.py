"""The card picker: how a player picks cards on Discord, in every game that plays cards by
picking them (Big Two and Dou Dizhu; captures from the table and arrangements of a hand alike).

What the player sees, in their DM or My hand:

- **Cards** as buttons, five to a row: up to fifteen a page beside the suggestions, twenty
  without them, fewer when the game lists many other choices (suggestions give way first; a
  game listing so many that no row is left for cards is a mistake, raised when drawn). Tap a
  card to pick it (green), tap it again to let it go. The message says what is picked and
  whether it can be played: "ready to play", what the counts still want ("Pick 3 cards (you
  picked 4).") or "can't be played: <the rules' reason>".
- **Play selected** plays the pick, **Clear** lets every card go. The game's other choices
  (Pass, ...) are buttons (or selects) of their own, and a select offers up to 25 suggested
  plays, played at once when chosen. Every listed choice is offered, none thinned out, and
  every pick can be made with the card buttons however many plays there are.
- **Zones**: the cards come from one or more zones (your hand, the cards on the table). Each
  zone starts on a row of its own, and a page shows as many zones as fit, so a capture's hand
  card and table cards are usually tapped on one page; **More cards** turns to the next page,
  or names the zone it opens with ("Show the table"). The message says which rows hold which
  zone when a page shows several, and which of a zone's cards are shown when it spans pages;
  the pick lists its cards by zone. Each zone has a least and a most number of cards to pick
  from it.
- **Groups**: an arrangement (Crash's four hands of three) has groups, each with its own least
  and most. One group is being filled at a time (marked ▶): a tapped card goes into it (green),
  tapping it again takes it out; cards in other groups are blue, and tapping one moves it into
  the group being filled. A picked card carries its group's tag ("7♠ ·2"), so colour is never
  the only sign. **Fill <group>** turns to the next group.

The game says what to offer through its UI (`PickerUI`), from the seat's view only:
`picker(view)` gives the zones (the view's own card lists) and groups, or None when the seat
picks nothing now (an auction); `pick_action(view, picked)` turns a pick into the action;
`pick_reason(view, picked)` previews the rules' verdict from the view, and `pick_text(view,
picked)` says what an accepted pick does; `pick_of(view, action)` places a suggested action's
cards. The picker never reads the engine's state: the runtime judges the action when it is
played (`runtime.act(action=...)`) and refuses it with the rules' reason, so a preview kinder
than the rules costs nothing. Suggestions and the other choices are the game's listing
(`legal_actions`), as for every other control.

Stateless, so it survives restarts: all a control needs is in its custom_id. A card is named
by its index in the zones' cards, in order (never by its name); the selection is one number in
which digit i, in base groups + 1, is card i's group (0: not picked, g + 1: group g), written in
hex: a plain pick is a bitmask of the cards.

    pc:<table>:<prompt>:<cards>:<selection>:<page>:<group>:<index>   tap card <index>
    pb:<table>:<prompt>:<cards>:<selection>:<page>:<group>:<verb>    play | clear | page | group
    ps:<table>:<prompt>:<cards>                                      the suggestions (a select;
                                                                     each value is a selection)

<cards> is six hex digits of a checksum of the zones' cards, so a control drawn for other cards
(the table changed while a choice stayed open) is refused as expired, never applied to the wrong
cards. A selection has at most MAX_SELECTION_BITS bits (50 hex digits: 200 cards for a plain
pick, 86 with four groups), which keeps a custom_id within Discord's 100 characters for table
and prompt numbers of up to 12 digits; a picker over more is refused when made. Anything the bot
could not have made for this player now is refused as invalid, with nothing changed: a selection
naming a card or group past the last, a page or group that doesn't exist, a card not on its
page, a form the bot doesn't write (leading zeros), a table that isn't picking now.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.discord.format import plural
from bot.discord.replies import redraw_clicked
from bot.discord.tables import (
    MAX_SELECT_OPTIONS,
    ROW_WIDTH,
    ROWS,
    ActionButton,
    ActionSelect,
    Controls,
    GameUI,
    TableItem,
    play,
    select_item,
)
from bot.engine import Action
from bot.errors import InvalidComponent, UserError
from bot.tables import Table, action_token

if TYPE_CHECKING:
    from bot.app import CardTableBot

MAX_SELECTION_BITS = 200
MAX_GROUPS = 9  # one digit in a custom_id
CHECKSUM_DIGITS = 6
MAX_ID_LENGTH = 100  # Discord's limit for a custom_id
EXPIRED = "This prompt has expired."


# ---- what a game offers -----------------------------------------------------------------------


@dataclass(frozen=True)
class Zone:
    """Cards the player may pick from, in the order shown. `name` reads inside a sentence
    ("your hand", "the table"); `low`..`high` cards may be picked from it (None: any number)."""

    name: str
    cards: Sequence[Any]  # cards with a `label` (shown) and a `code` (the checksum)
    low: int = 0
    high: int | None = None


@dataclass(frozen=True)
class Group:
    """Where picked cards go: `low`..`high` of them (None: any number). With several groups,
    `tag` marks the button of a card in this group ("7♠ ·2")."""

    name: str
    tag: str = ""
    low: int = 1
    high: int | None = None


SELECTED = Group("Selected")


@dataclass(frozen=True)
class Picked:
    """A pick: the picked cards of each zone and of each group, in the zones' order."""

    zones: tuple[tuple[Any, ...], ...]
    groups: tuple[tuple[Any, ...], ...]

    @property
    def cards(self) -> list[Any]:
        return [card for zone in self.zones for card in zone]


@dataclass(frozen=True)
class Picker:
    """What the seat picks from now. `kinds` are the action kinds a pick makes: the game's
    other listed actions (Pass) get controls of their own."""

    zones: Sequence[Zone]
    groups: Sequence[Group] = (SELECTED,)
    kinds: frozenset[str] = frozenset({"play"})
    verb: str = "Play selected"

    def __post_init__(self) -> None:
        if not 1 <= len(self.groups) <= MAX_GROUPS:
            raise ValueError(f"a picker has 1 to {MAX_GROUPS} groups, not {len(self.groups)}")
        if self.limit > 2**MAX_SELECTION_BITS:
            raise ValueError(f"too many cards to pick from ({self.size}) for a custom_id")

    @cached_property
    def cards(self) -> tuple[Any, ...]:
        return tuple(card for zone in self.zones for card in zone.cards)

    @property
    def size(self) -> int:
        return len(self.cards)

    @cached_property
    def _places(self) -> dict[Any, tuple[int, ...]]:
        """Each card's indexes among `cards` (a card may be there twice: two packs)."""
        places: dict[Any, tuple[int, ...]] = {}
        for index, card in enumerate(self.cards):
            places[card] = (*places.get(card, ()), index)
        return places

    @property
    def base(self) -> int:
        return len(self.groups) + 1

    @property
    def limit(self) -> int:
        """Every selection is below this."""
        return self.base**self.size

    def offset(self, zone: int) -> int:
        return sum(len(z.cards) for z in self.zones[:zone])

    def checksum(self) -> str:
        text = "|".join(
            ",".join(str(getattr(card, "code", card)) for card in zone.cards) for zone in self.zones
        )
        return f"{zlib.crc32(text.encode()) % 16**CHECKSUM_DIGITS:0{CHECKSUM_DIGITS}x}"

    def digits(self, selection: int) -> list[int]:
        """Each card's group + 1 (0: not picked). `selection` must be below `limit`."""
        out = []
        for _ in range(self.size):
            selection, digit = divmod(selection, self.base)
            out.append(digit)
        return out

    def selection(self, digits: Sequence[int]) -> int:
        selection = 0
        for digit in reversed(digits):
            selection = selection * self.base + digit
        return selection

    def picked(self, selection: int) -> Picked:
        digits = self.digits(selection)
        zones, groups = [], [[] for _ in self.groups]
        index = 0
        for zone in self.zones:
            chosen = []
            for card in zone.cards:
                if digits[index]:
                    chosen.append(card)
                    groups[digits[index] - 1].append(card)
                index += 1
            zones.append(tuple(chosen))
        return Picked(tuple(zones), tuple(tuple(group) for group in groups))

    def selection_of(self, groups: Sequence[Sequence[Any]]) -> int | None:
        """The selection putting these cards in these groups, or None if one isn't offered."""
        digits = [0] * self.size
        for number, group in enumerate(groups, start=1):
            for card in group:
                places = self._places.get(card, ())
                index = next((i for i in places if not digits[i]), None)
                if index is None or number > len(self.groups):
                    return None
                digits[index] = number
        return self.selection(digits)

    def problem(self, picked: Picked) -> str | None:
        """What the pick lacks (or has too much of) by the counts alone."""
        for group, cards in zip(self.groups, picked.groups, strict=True):
            if fits(len(cards), group.low, group.high):
                continue
            wanted = amount(group.low, group.high)
            if len(self.groups) > 1:
                return f"{group.name} takes {wanted} (it has {len(cards)})."
            if not cards:
                return f"Pick {wanted} first (tap them)."
            return f"Pick {wanted} (you picked {len(cards)})."
        for zone, cards in zip(self.zones, picked.zones, strict=True):
            if not fits(len(cards), zone.low, zone.high):
                wanted = amount(zone.low, zone.high)
                return f"Pick {wanted} from {zone.name} (you picked {len(cards)})."
        return None


def fits(count: int, low: int, high: int | None) -> bool:
    return low <= count and (high is None or count <= high)


def amount(low: int, high: int | None) -> str:
    """ "one or more cards", "3 cards", "up to 2 cards", "1 to 5 cards"."""
    if high is None:
        return "one or more cards" if low <= 1 else f"at least {low} cards"
    if low == high:
        return plural(low, "card")
    return f"up to {plural(high, 'card')}" if low == 0 else f"{low} to {high} cards"


def cards_text(cards: Sequence[Any]) -> str:
    return " ".join(card.label for card in cards) or "none"


class PickerUI(GameUI):
    """A game whose players pick cards. It implements `picker` and `pick_action`, and
    `pick_reason` for a verdict before the player presses Play."""

    def picker(self, view: BaseModel) -> Picker | None:
        """The zones and groups the viewing seat picks from now; None: it picks nothing now."""
        return None

    def pick_action(self, view: BaseModel, picked: Picked) -> Action:
        """The action a pick stands for (IllegalAction if it stands for none)."""
        raise NotImplementedError

    def pick_reason(self, view: BaseModel, picked: Picked) -> str | None:
        """Why the rules would refuse this pick, as far as the view shows; None: they
        wouldn't. Only a preview: the runtime judges the action when it is played."""
        return None

    def pick_text(self, view: BaseModel, picked: Picked) -> str | None:
        """What a pick the rules accept does, in a few words, where the cards alone don't say
        it; None: "ready to play" is enough."""
        return None

    def pick_of(self, view: BaseModel, action: Action) -> list[list[Any]] | None:
        """A suggested action's cards, per group (by default its `cards`, in one group)."""
        cards = getattr(action, "cards", None)
        return None if cards is None else [list(cards)]

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        desk = Desk.open(table, seat, self)
        if desk is None:
            return super().private_controls(table, seat)
        return desk.controls(Choice())


# ---- one player's picker, drawn ------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """The cards of one zone on a page: indexes `first` to `stop` (excluded) into all the
    cards, from the page's row `row` on."""

    zone: int
    first: int
    stop: int
    row: int

    @property
    def rows(self) -> int:
        return math.ceil((self.stop - self.first) / ROW_WIDTH)

    def __contains__(self, index: int) -> bool:
        return self.first <= index < self.stop


Page = tuple[Part, ...]


def page_rows(page: Sequence[Part]) -> int:
    return sum(part.rows for part in page)


@dataclass(frozen=True)
class Choice:
    """Where a player is in the picker: what is picked, the page shown, the group filled."""

    selection: int = 0
    page: int = 0
    group: int = 0


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

    @classmethod
    def open(cls, table: Table, seat: int, ui: PickerUI) -> Desk | None:
        """The seat's picker, or None when it picks nothing now: worked out once per state,
        since every card a player taps redraws the picker from it."""
        if table.state is None or seat not in table.pending_seats():
            return None
        return table.worked_out(("desk", seat), lambda: cls._lay_out(table, seat, ui))

    @classmethod
    def _lay_out(cls, table: Table, seat: int, ui: PickerUI) -> Desk | None:
        view = table.view(seat)
        picker = ui.picker(view)
        if picker is None or picker.size == 0:
            return None
        picks: list[Action] = []
        by_kind: dict[str, list[Action]] = {}
        for action in table.legal_actions(seat):
            if action.kind in picker.kinds:
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
        suggestions = suggested(ui, view, picker, picks)
        # Buttons take rows of five, selects a row each, cards what is left. Suggestions give
        # way when nothing else fits: every play can still be picked card by card.
        for offered in (suggestions, []):
            buttons = 2 + len(others) + (len(picker.groups) > 1)
            selects = len(other_lists) + bool(offered)
            rows, pages = layout(picker, buttons, selects)
            if rows and len(pages) > 1:  # a page button too
                rows, pages = layout(picker, buttons + 1, selects)
            if rows:
                return cls(table, seat, ui, view, picker, others, other_lists, offered, rows, pages)
        raise ValueError(f"{table.game.name} lists too many other choices to show any card")

    @property
    def prompt(self) -> int:
        return self.table.seats[self.seat].prompt

    def check(self, choice: Choice) -> None:
        """Refuse a choice the bot can't have drawn for this picker."""
        if not (
            choice.selection < self.picker.limit
            and choice.page < len(self.pages)
            and choice.group < len(self.picker.groups)
        ):
            raise InvalidComponent()

    # ---- drawing ------------------------------------------------------------------------

    def controls(self, choice: Choice) -> discord.ui.View:
        out = Controls()
        key = (self.table.id, self.prompt, self.picker.checksum())
        digits = self.picker.digits(choice.selection)
        cards, groups = self.picker.cards, self.picker.groups
        page = self.pages[choice.page]
        for part in page:
            for index in range(part.first, part.stop):
                group = digits[index] - 1
                label = cards[index].label
                if group >= 0 and len(groups) > 1 and groups[group].tag:
                    label = f"{label} ·{groups[group].tag}"
                style = (
                    discord.ButtonStyle.secondary
                    if group < 0
                    else discord.ButtonStyle.success
                    if group == choice.group
                    else discord.ButtonStyle.primary
                )
                row = part.row + (index - part.first) // ROW_WIDTH
                look = PickToggle.look(*key, choice, index, label[:80])
                out.button(**look, style=style, row=row)
        buttons = [PickButton.look(*key, choice, "play", self.picker.verb)]
        buttons += [
            ActionButton.look(self.table.id, self.prompt, action_token(a), self.label(a))
            for a in self.others
        ]
        buttons.append(PickButton.look(*key, choice, "clear", "Clear"))
        if len(self.pages) > 1:
            buttons.append(PickButton.look(*key, choice, "page", self.page_label(choice.page)))
        if len(groups) > 1:
            following = groups[(choice.group + 1) % len(groups)].name
            buttons.append(PickButton.look(*key, choice, "group", f"Fill {following}"[:80]))
        row = page_rows(page)  # right under this page's cards
        for number, button in enumerate(buttons):
            out.button(**button, row=row + number // ROW_WIDTH)
        # Selects take the next empty rows in turn.
        for kind, part, actions in self.other_lists:
            options = [(action_token(a), self.label(a)) for a in actions]
            out.select(**ActionSelect.look(self.table.id, self.prompt, kind, options, part))
        if self.suggestions:
            out.select(**PickSuggestions.look(*key, self.suggestions))
        return out

    def label(self, action: Action) -> str:
        return self.ui.action_label(self.view, action)[:80]

    def page_label(self, page: int) -> str:
        """More cards (the zone goes on), or Show <the zone the next page opens with>."""
        following = self.pages[(page + 1) % len(self.pages)][0].zone
        if following == self.pages[page][-1].zone:
            return "More cards"
        return f"Show {self.picker.zones[following].name}"[:80]

    def showing(self, page: Page) -> str | None:
        """Which rows hold which zone, when a page shows several; which of a zone's cards,
        when it spans pages ("The table: cards 1-15 of 22"). None: the page says it all."""
        if len(self.pages) == 1 and len(page) == 1:
            return None
        shown = []
        for part in page:
            zone = self.picker.zones[part.zone]
            text = zone.name
            offset = self.picker.offset(part.zone)
            if len(self.pages) > 1 and part.stop - part.first < len(zone.cards):
                first, stop = part.first - offset + 1, part.stop - offset
                text += f": cards {first}-{stop} of {len(zone.cards)}"
            if len(page) > 1:
                last = part.row + part.rows
                text += f" (row {last})" if part.rows == 1 else f" (rows {part.row + 1}-{last})"
            shown.append(text)
        text = " · ".join(shown)
        return f"{text[:1].upper()}{text[1:]}"

    def describe(self, embed: discord.Embed, choice: Choice) -> None:
        """Add the page shown and the pick, with its verdict, to the player's hand."""
        groups = self.picker.groups
        showing = self.showing(self.pages[choice.page])
        if showing:
            embed.add_field(name="Showing", value=showing[:1024], inline=False)
        picked = self.picker.picked(choice.selection)
        if len(groups) == 1:
            if picked.cards:
                embed.add_field(
                    name="Selected",
                    value=f"{self.picked_text(picked)} · {self.verdict(picked)}"[:1024],
                    inline=False,
                )
            return
        lines = [
            f"{'▶ ' if number == choice.group else ''}**{group.name}**: {cards_text(cards)}"
            for number, (group, cards) in enumerate(zip(groups, picked.groups, strict=True))
        ]
        if picked.cards:
            lines.append(self.verdict(picked))
        else:
            lines.append(f"Tap cards to put them in {groups[choice.group].name}.")
        embed.add_field(name="Arrangement", value="\n".join(lines)[:1024], inline=False)

    def picked_text(self, picked: Picked) -> str:
        if len(self.picker.zones) == 1:
            return cards_text(picked.cards)
        return "; ".join(
            f"{zone.name}: {cards_text(cards)}"
            for zone, cards in zip(self.picker.zones, picked.zones, strict=True)
            if cards
        )

    def verdict(self, picked: Picked) -> str:
        problem = self.picker.problem(picked)
        if problem:
            return problem  # "Pick 3 cards (you picked 4)."
        reason = self.ui.pick_reason(self.view, picked)
        if reason:
            return f"can't be played: {reason}"
        does = self.ui.pick_text(self.view, picked)
        return f"ready to play: {does}" if does else "ready to play"

    # ---- acting -------------------------------------------------------------------------

    def action(self, selection: int) -> Action:
        """The action a selection stands for, or why it isn't ready (the counts)."""
        picked = self.picker.picked(selection)
        problem = self.picker.problem(picked)
        if problem and not picked.cards and self.suggestions:
            problem = f"{problem.removesuffix('.')}, or choose a suggested play."
        if problem:
            raise UserError(problem)
        return self.ui.pick_action(self.view, picked)


def layout(picker: Picker, buttons: int, selects: int) -> tuple[int, list[Page]]:
    """Rows left for cards beside `buttons` and `selects`, and the pages they make: the zones
    in order, each from a row of its own, filling a page before the next one starts."""
    rows = ROWS - math.ceil(buttons / ROW_WIDTH) - selects
    if rows < 1:
        return 0, []
    pages: list[Page] = []
    page: list[Part] = []
    for number, zone in enumerate(picker.zones):
        first, end = picker.offset(number), picker.offset(number) + len(zone.cards)
        while first < end:
            used = page_rows(page)
            if used == rows:
                pages.append(tuple(page))
                page, used = [], 0
            stop = min(end, first + (rows - used) * ROW_WIDTH)
            page.append(Part(number, first, stop, used))
            first = stop
    return rows, [*pages, tuple(page)] if page else pages


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


async def redraw(interaction: discord.Interaction, desk: Desk, choice: Choice) -> None:
    """Show the player's hand again with this choice, in the message they tapped."""
    bot: CardTableBot = interaction.client
    embed = bot.presenter.private_embed(desk.table, desk.seat)
    desk.describe(embed, choice)
    await redraw_clicked(interaction, embed=embed, view=desk.controls(choice))


# ---- the controls ----------------------------------------------------------------------------


class PickItem(TableItem):
    """What the picker's controls share: the table, prompt and cards they were drawn for,
    checked against the table before anything is done."""

    table_id: int
    prompt: int
    checksum: str

    def desk(self, interaction: discord.Interaction, bot: CardTableBot) -> Desk:
        """The player's picker now, once this control fits it."""
        if interaction.data.get("custom_id") != self.custom_id:
            raise InvalidComponent()  # not the form the bot writes (leading zeros, say)
        table = bot.runtime.get(self.table_id)
        ui = bot.presenter.games.get(table.game.id)
        if not isinstance(ui, PickerUI) or table.state is None:
            raise InvalidComponent()
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        if seat.seat not in table.pending_seats():
            raise UserError("It is not your turn.")
        if seat.prompt != self.prompt:
            raise UserError(EXPIRED)
        desk = Desk.open(table, seat.seat, ui)
        if desk is None:
            raise InvalidComponent()  # nothing to pick now (an auction)
        if desk.picker.checksum() != self.checksum:
            raise UserError(EXPIRED)  # drawn for other cards
        return desk


NUMBER, HEX = r"\d{1,20}", r"[0-9a-f]{1,100}"
DRAWN = rf"(?P<table>{NUMBER}):(?P<prompt>{NUMBER}):(?P<checksum>[0-9a-f]{{{CHECKSUM_DIGITS}}})"
CHOICE = rf"(?P<selection>{HEX}):(?P<page>{NUMBER}):(?P<group>\d)"


def choice_of(match: re.Match[str]) -> Choice:
    return Choice(int(match["selection"], 16), int(match["page"]), int(match["group"]))


def choice_id(choice: Choice) -> str:
    return f"{choice.selection:x}:{choice.page}:{choice.group}"


class PickToggle(
    PickItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"pc:{DRAWN}:{CHOICE}:(?P<index>\d{{1,40}})",
):
    """A card: picks it into the group being filled, or lets it go."""

    def __init__(
        self,
        table_id: int,
        prompt: int,
        checksum: str,
        choice: Choice,
        index: int,
    ) -> None:
        self.table_id, self.prompt, self.checksum = table_id, prompt, checksum
        self.choice, self.index = choice, index
        super().__init__(discord.ui.Button(**self.look(table_id, prompt, checksum, choice, index)))

    @staticmethod
    def look(
        table_id: int, prompt: int, checksum: str, choice: Choice, index: int, label: str = ""
    ) -> dict[str, Any]:
        """Its custom_id and label (its style shows where the card is picked to)."""
        custom_id = f"pc:{table_id}:{prompt}:{checksum}:{choice_id(choice)}:{index}"
        return {"label": label or "?", "custom_id": custom_id}

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> PickToggle:
        return cls(
            int(match["table"]),
            int(match["prompt"]),
            match["checksum"],
            choice_of(match),
            int(match["index"]),
        )

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        desk = self.desk(interaction, bot)
        desk.check(self.choice)
        if not any(self.index in part for part in desk.pages[self.choice.page]):
            raise InvalidComponent()  # not a card shown on its page
        digits = desk.picker.digits(self.choice.selection)
        filling = self.choice.group + 1
        digits[self.index] = 0 if digits[self.index] == filling else filling
        selection = desk.picker.selection(digits)
        choice = Choice(selection, self.choice.page, self.choice.group)
        await redraw(interaction, desk, choice)


class PickButton(
    PickItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"pb:{DRAWN}:{CHOICE}:(?P<verb>play|clear|page|group)",
):
    """Play selected, Clear, More cards (the next page) and Fill (the next group)."""

    STYLES = {"play": discord.ButtonStyle.primary}

    def __init__(
        self,
        table_id: int,
        prompt: int,
        checksum: str,
        choice: Choice,
        verb: str,
    ) -> None:
        self.table_id, self.prompt, self.checksum = table_id, prompt, checksum
        self.choice, self.verb = choice, verb
        super().__init__(discord.ui.Button(**self.look(table_id, prompt, checksum, choice, verb)))

    @classmethod
    def look(
        cls, table_id: int, prompt: int, checksum: str, choice: Choice, verb: str, label: str = ""
    ) -> dict[str, Any]:
        return {
            "label": label or verb,
            "style": cls.STYLES.get(verb, discord.ButtonStyle.secondary),
            "custom_id": f"pb:{table_id}:{prompt}:{checksum}:{choice_id(choice)}:{verb}",
        }

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> PickButton:
        return cls(
            int(match["table"]),
            int(match["prompt"]),
            match["checksum"],
            choice_of(match),
            match["verb"],
        )

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        desk = self.desk(interaction, bot)
        desk.check(self.choice)
        selection, page, group = self.choice.selection, self.choice.page, self.choice.group
        if self.verb == "play":
            action = desk.action(selection)
            await play(interaction, bot, self.table_id, self.prompt, action=action)
            return
        if self.verb == "clear":
            selection = 0
        elif self.verb == "page" and len(desk.pages) > 1:
            page = (page + 1) % len(desk.pages)
        elif self.verb == "group" and len(desk.picker.groups) > 1:
            group = (group + 1) % len(desk.picker.groups)
        else:
            raise InvalidComponent()  # a button the bot doesn't draw for this picker
        await redraw(interaction, desk, Choice(selection, page, group))


class PickSuggestions(
    PickItem,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"ps:{DRAWN}",
):
    """Suggested plays: each option's value is the selection that makes it, played at once."""

    def __init__(
        self,
        table_id: int,
        prompt: int,
        checksum: str,
        options: list[tuple[int, str]] | None = None,
    ) -> None:
        self.table_id, self.prompt, self.checksum = table_id, prompt, checksum
        super().__init__(select_item(self.look(table_id, prompt, checksum, options or [(0, "-")])))

    @staticmethod
    def look(
        table_id: int, prompt: int, checksum: str, options: list[tuple[int, str]]
    ) -> dict[str, Any]:
        """Its custom_id, placeholder and (value, label) options, from (selection, label)."""
        return {
            "custom_id": f"ps:{table_id}:{prompt}:{checksum}",
            "placeholder": "Suggested plays…",
            "options": [(f"{selection:x}", label) for selection, label in options],
        }

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> PickSuggestions:
        return cls(int(match["table"]), int(match["prompt"]), match["checksum"])

    async def run(self, interaction: discord.Interaction, bot: CardTableBot) -> None:
        desk = self.desk(interaction, bot)
        values = self.chosen(interaction)
        if len(values) != 1 or not re.fullmatch(HEX, values[0]):
            raise InvalidComponent()
        selection = int(values[0], 16)
        if f"{selection:x}" != values[0] or not 0 < selection < desk.picker.limit:
            raise InvalidComponent()
        action = desk.action(selection)
        await play(interaction, bot, self.table_id, self.prompt, action=action)


PICKER_ITEMS = (PickToggle, PickButton, PickSuggestions)


def add_picker(bot: CardTableBot) -> None:
    """Register the picker's controls with the bot, once: every picking game's cog calls it."""
    templates = {item.__discord_ui_compiled_template__ for item in PICKER_ITEMS}
    if not templates <= set(bot.component_templates):
        bot.add_dynamic_items(*PICKER_ITEMS)
