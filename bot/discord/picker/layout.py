"""The picker's pages, pure: which cards a page shows on which rows, beside the buttons and
selects of the rest of the message."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.discord.controls import ROW_WIDTH, ROWS
from bot.discord.picker.model import Picker


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
