"""The picker's model, pure: what a game offers (zones, groups, the picker's options), a pick,
and the selection code every control carries (see the package's docstring)."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from bot.discord.format import plural
from bot.errors import UserError

MAX_SELECTION_BITS = 200
MAX_GROUPS = 9  # one digit in a custom_id
CHECKSUM_DIGITS = 6


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

    def has_room(self, count: int) -> bool:
        return self.high is None or count < self.high


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
class Choice:
    """Where a player is in the picker: what is picked, the page shown, the group filled."""

    selection: int = 0
    page: int = 0
    group: int = 0


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
    line listing the cards in none of them, `suggested` the suggestions' select."""

    zones: Sequence[Zone]
    groups: Sequence[Group] = (SELECTED,)
    kinds: frozenset[str] = frozenset({"play"})
    verb: str = "Play selected"
    first_with_room: bool = False
    full: str = "Every group is full: tap a card in one to take it out."
    review: bool = False
    tool: str | None = None
    title: str = "Arrangement"
    left_out: str | None = None
    suggested: str = "Suggested plays…"

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

    @property
    def filled_groups(self) -> int:
        """How many groups a player can choose to fill: one when cards find their own."""
        return 1 if self.first_with_room else len(self.groups)

    def offset(self, zone: int) -> int:
        return sum(len(z.cards) for z in self.zones[:zone])

    def checksum(self) -> str:
        text = "|".join(
            ",".join(str(getattr(card, "code", card)) for card in zone.cards) for zone in self.zones
        )
        return f"{zlib.crc32(text.encode()) % 16**CHECKSUM_DIGITS:0{CHECKSUM_DIGITS}x}"

    # ---- selections -----------------------------------------------------------------------

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
        digits = [0] * self.size
        for number, group in enumerate(groups, start=1):
            for card in group:
                places = self._places.get(card, ())
                index = next((i for i in places if not digits[i]), None)
                if index is None or number > len(self.groups):
                    return None
                digits[index] = number
        return self.selection(digits)

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
        raise UserError(self.full)

    # ---- counts ---------------------------------------------------------------------------

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
