"""One codec for every control's custom_id: a kind's `CustomId` writes the id a control is
drawn with, gives discord.py the template a click's id is matched against, and reads a click's
fields back, so the three can't disagree."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Field:
    """One part of a custom_id: its name (the control's constructor argument), the pattern it
    matches and how its text is read back."""

    name: str
    pattern: str
    read: Callable[[str], Any] = str


# The largest id the database holds (64 bits: every Discord id and the bot's own fit). A forged
# number past it reads as this one, which names nothing, rather than fail the query it is in.
LARGEST_ID = 2**63 - 1


def whole(text: str) -> int:
    """A number field's value: an id, a prompt's version, a count."""
    return min(int(text), LARGEST_ID)


def number(name: str) -> Field:
    return Field(name, r"\d+", whole)


def count(text: str | None) -> int:
    """A number that may be left out: 0 then."""
    return int(text or 0)


@dataclass(frozen=True)
class CustomId:
    """A kind of control's custom_id: `prefix:field:field...`. An `optional` last field may be
    left out with its colon, as in ids drawn before it existed."""

    prefix: str
    fields: tuple[Field, ...]
    optional: Field | None = None

    @property
    def template(self) -> str:
        """The pattern discord.py matches a click's custom_id against."""
        parts = [self.prefix, *(f"(?P<{f.name}>{f.pattern})" for f in self.fields)]
        last = f"(?::(?P<{self.optional.name}>{self.optional.pattern}))?" if self.optional else ""
        return ":".join(parts) + last

    def format(self, *values: object) -> str:
        """The custom_id of a control, its fields' values in order."""
        return ":".join([self.prefix, *map(str, values)])

    def read(self, match: re.Match[str]) -> dict[str, Any]:
        """A click's fields, by name, from its custom_id matched against `template`."""
        fields = (*self.fields, self.optional) if self.optional else self.fields
        return {f.name: f.read(match[f.name]) for f in fields}
