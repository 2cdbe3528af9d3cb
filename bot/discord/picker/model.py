"""The picker's model, pure: what a game offers (zones, groups, the picker's options), a pick,
and the selection code every control carries (see the package's docstring)."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.errors import UserError
from bot.i18n import N_, _, n_

MAX_SELECTION_BITS = 200
MAX_GROUPS = 9  # one digit in a custom_id
CHECKSUM_DIGITS = 6


@dataclass(frozen=True)
class Zone:
    """Cards the player may pick from, in the order shown. `name` reads inside a sentence
    ("your hand", "the table"), in the reader's language (the game says it when it makes the
    picker); `low`..`high` cards may be picked from it (None: any number)."""

    name: str
    cards: Sequence[Any]  # cards with a `label` (shown) and a `code` (the checksum)
    low: int = 0
    high: int | None = None


@dataclass(frozen=True)
class Group:
    """Where picked cards go: `low`..`high` of them (None: any number). With several groups,
    `tag` marks the button of a card in this group ("7♠ ·2"). `name` is in the reader's
    language (the game says it when it makes the picker), but for the picker's own SELECTED.
    """

    name: str
    tag: str = ""
    low: int = 1
    high: int | None = None

    def has_room(self, count: int) -> bool:
        return self.high is None or count < self.high

    @property
    def said(self) -> str:
        """Its name as the reader reads it."""
        return _(self.name) if self is SELECTED else self.name


SELECTED = Group(N_("Selected"))  # the picker's own group: said when shown (`Group.said`)


@dataclass(frozen=True)
class Picked:
    """A pick: the picked cards of each zone and of each group, in the zones' order."""

    zones: tuple[tuple[Any, ...], ...]
    groups: tuple[tuple[Any, ...], ...]

    @property
    def cards(self) -> list[Any]:
        return [card for zone in self.zones for card in zone]


@dataclass(frozen=True)
class Choice:
    """Where a player is in the picker: what is picked, the page shown, the group filled."""

    selection: int = 0
    page: int = 0
    group: int = 0


# The picker's own words, the defaults of a Picker's (see `said`).
PLAY_SELECTED = N_("Play selected")
EVERY_GROUP_FULL = N_("Every group is full: tap a card in one to take it out.")
ARRANGEMENT = N_("Arrangement")
SUGGESTED_PLAYS = N_("Suggested plays…")


def said(text: str) -> str:
    """One of a Picker's words as the reader reads it: the game's, said already, or one of
    the picker's own defaults, said now."""
    own = text in (PLAY_SELECTED, EVERY_GROUP_FULL, ARRANGEMENT, SUGGESTED_PLAYS)
    return _(text) if own else text


@dataclass(frozen=True)
class Picker:
    """What the seat picks from now. `kinds` are the action kinds a pick makes: the game's
    other listed actions (Pass) get controls of their own.

    The options for an arrangement reviewed before it is made (Crash's hands):
    `first_with_room`: a tapped card goes into the first group with room (tapped again, it
    comes out), not into the group being filled; `full` says why it can't when none has room.
    `review`: a suggestion fills the groups for review; only the verb plays them.
    `tool`: the label of the game's own button, which maps the pick to another
    (`PickerUI.pick_tool`). `title` names the field that shows the groups, `left_out` the
    line listing the cards in none of them, `suggested` the suggestions' select.

    The game gives its words in the reader's language (it says them when it makes the
    picker); the defaults are the picker's own, said when shown (`said`)."""

    zones: Sequence[Zone]
    groups: Sequence[Group] = (SELECTED,)
    kinds: frozenset[str] = frozenset({"play"})
    verb: str = PLAY_SELECTED
    first_with_room: bool = False
    full: str = EVERY_GROUP_FULL
    review: bool = False
    tool: str | None = None
    title: str = ARRANGEMENT
    left_out: str | None = None
    suggested: str = SUGGESTED_PLAYS
    # Worked out when made (every drawing asks for them): all the cards, the selection's base
    # and, when that base is a power of two (a plain pick: 2), the bits of a digit (else 0).
    cards: tuple[Any, ...] = field(init=False, repr=False, compare=False)
    base: int = field(init=False, repr=False, compare=False)
    _shift: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 1 <= len(self.groups) <= MAX_GROUPS:
            raise ValueError(f"a picker has 1 to {MAX_GROUPS} groups, not {len(self.groups)}")
        base = len(self.groups) + 1
        object.__setattr__(self, "cards", tuple(card for z in self.zones for card in z.cards))
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "_shift", base.bit_length() - 1 if base & (base - 1) == 0 else 0)
        if self.limit > 2**MAX_SELECTION_BITS:
            raise ValueError(f"too many cards to pick from ({self.size}) for a custom_id")

    @property
    def size(self) -> int:
        return len(self.cards)

    @cached_property
    def _powers(self) -> tuple[int, ...]:
        """What a digit of each card weighs in a selection."""
        return tuple(self.base**index for index in range(self.size))

    @cached_property
    def _places(self) -> dict[Any, list[int]]:
        """Each card's indexes among `cards` (a card may be there twice: two packs)."""
        places: dict[Any, list[int]] = {}
        for index, card in enumerate(self.cards):
            places.setdefault(card, []).append(index)
        return places

    @property
    def limit(self) -> int:
        """Every selection is below this."""
        return self.base**self.size

    @property
    def filled_groups(self) -> int:
        """How many groups a player can choose to fill: one when cards find their own."""
        return 1 if self.first_with_room else len(self.groups)

    def offset(self, zone: int) -> int:
        return sum(len(z.cards) for z in self.zones[:zone])

    def checksum(self) -> str:
        return self._checksum

    @cached_property
    def _checksum(self) -> str:  # every control drawn carries it
        text = "|".join(
            ",".join(str(getattr(card, "code", card)) for card in zone.cards) for zone in self.zones
        )
        return f"{zlib.crc32(text.encode()) % 16**CHECKSUM_DIGITS:0{CHECKSUM_DIGITS}x}"

    # ---- selections -----------------------------------------------------------------------

    def digits(self, selection: int) -> list[int]:
        """Each card's group + 1 (0: not picked). `selection` must be below `limit`."""
        base, shift = self.base, self._shift
        if shift:  # bits: drawing each page asks for every card's
            mask = base - 1
            return [selection >> place & mask for place in range(0, self.size * shift, shift)]
        out = []
        for _card in range(self.size):
            selection, digit = divmod(selection, base)
            out.append(digit)
        return out

    def selection(self, digits: Sequence[int]) -> int:
        selection = 0
        for digit in reversed(digits):
            selection = selection * self.base + digit
        return selection

    def picked(self, selection: int) -> Picked:
        digits = self.digits(selection)
        zones: list[tuple[Any, ...]] = []
        groups: list[list[Any]] = [[] for _ in self.groups]
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

    def unpicked(self, selection: int) -> list[Any]:
        """The cards in no group, in the zones' order."""
        digits = self.digits(selection)
        return [card for card, digit in zip(self.cards, digits, strict=True) if not digit]

    def selection_of(self, groups: Sequence[Sequence[Any]]) -> int | None:
        """The selection putting these cards in these groups, or None if one isn't offered."""
        if any(groups[len(self.groups) :]):  # a card in a group past the last
            return None
        selection, placed, places, powers = 0, set(), self._places, self._powers
        for number, group in enumerate(groups, start=1):
            for card in group:
                for index in places.get(card, ()):  # its first copy not placed yet
                    if index not in placed:
                        placed.add(index)
                        selection += number * powers[index]
                        break
                else:
                    return None
        return selection

    def tapped(self, selection: int, index: int, group: int) -> int:
        """The selection once card `index` is tapped while group `group` is being filled. The
        card goes into that group (or, with `first_with_room`, into the first with room);
        tapped again, it comes out. A card of another group moves into the one being filled."""
        digits = self.digits(selection)
        if self.first_with_room:
            digits[index] = 0 if digits[index] else self._room(digits)
        else:
            digits[index] = 0 if digits[index] == group + 1 else group + 1
        return self.selection(digits)

    def _room(self, digits: list[int]) -> int:
        """The first group with room for one more card (its digit), or why there's none."""
        for number, group in enumerate(self.groups, start=1):
            if group.has_room(digits.count(number)):
                return number
        raise UserError(said(self.full))

    # ---- counts ---------------------------------------------------------------------------

    def problem(self, picked: Picked, *, or_suggested: bool = False) -> str | None:
        """What the pick lacks (or has too much of) by the counts alone; `or_suggested`:
        saying a suggested play would do too."""
        for group, cards in zip(self.groups, picked.groups, strict=True):
            if fits(len(cards), group.low, group.high):
                continue
            wanted, count = amount(group.low, group.high), len(cards)
            if len(self.groups) > 1 and or_suggested:
                return _(
                    "{group} takes {cards} (it has {count}), or choose a suggested play.",
                    group=group.said,
                    cards=wanted,
                    count=count,
                )
            if len(self.groups) > 1:
                return _(
                    "{group} takes {cards} (it has {count}).",
                    group=group.said,
                    cards=wanted,
                    count=count,
                )
            if not cards and or_suggested:
                return _("Pick {cards} first (tap them), or choose a suggested play.", cards=wanted)
            if not cards:
                return _("Pick {cards} first (tap them).", cards=wanted)
            return _("Pick {cards} (you picked {count}).", cards=wanted, count=count)
        for zone, cards in zip(self.zones, picked.zones, strict=True):
            if fits(len(cards), zone.low, zone.high):
                continue
            wanted, count = amount(zone.low, zone.high), len(cards)
            if or_suggested:
                return _(
                    "Pick {cards} from {zone} (you picked {count}), or choose a suggested play.",
                    cards=wanted,
                    zone=zone.name,
                    count=count,
                )
            return _(
                "Pick {cards} from {zone} (you picked {count}).",
                cards=wanted,
                zone=zone.name,
                count=count,
            )
        return None


def fits(count: int, low: int, high: int | None) -> bool:
    return low <= count and (high is None or count <= high)


def amount(low: int, high: int | None) -> str:
    """ "one or more cards", "3 cards", "up to 2 cards", "1 to 5 cards": what a pick wants,
    the object of the sentences saying so (`Picker.problem`)."""
    if high is None and low <= 1:
        return _("one or more cards")
    if high is None:
        return n_("at least {count} card", "at least {count} cards", low)
    if low == high:
        return n_("{count} card", "{count} cards", low)
    if low == 0:
        return n_("up to {count} card", "up to {count} cards", high)
    return n_("{low} to {count} card", "{low} to {count} cards", high, low=low)


def cards_text(cards: Sequence[Any]) -> str:
    return " ".join([card.label for card in cards]) or _("none")
