"""What every card type shares: a compact text code that is also its JSON form."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

from pydantic_core import core_schema

KNOWN_CODES = 4096


class CardParseError(ValueError):
    """A card text could not be read; `token` is the piece that was wrong."""

    def __init__(self, token: str, expected: str) -> None:
        self.token = token
        super().__init__(f"{token!r} is not a card ({expected})")


class CodedCard:
    """Mixin for frozen card dataclasses that serialise as their `code` string.

    Snapshots and views hold cards as short codes ("Kd", "Author"), which keeps them small
    and lets the leak check find a hidden card in any rendered text by its code.
    """

    _expected: ClassVar[str] = "a card"
    _code_attribute: ClassVar[str] = "code"  # where an instance keeps its code

    @property
    def code(self) -> str:
        raise NotImplementedError

    @classmethod
    def from_code(cls, text: str) -> CodedCard:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.code

    @classmethod
    def __get_pydantic_core_schema__(cls, _source: Any, _handler: Any) -> core_schema.CoreSchema:
        # Cards are immutable: a state restored at every step shares one card per code rather
        # than parsing each again. Bounded, since codes may come from anywhere. Cards are read
        # and written by C callables (a dict's lookup, an attribute getter) rather than Python
        # functions: a snapshot or a view holds dozens of cards, written at every step.
        known = _KnownCodes(cls)
        from_code = core_schema.chain_schema(
            [
                core_schema.str_schema(),
                core_schema.no_info_plain_validator_function(known.__getitem__),
            ]
        )
        return core_schema.json_or_python_schema(
            json_schema=from_code,
            python_schema=core_schema.union_schema(
                [core_schema.is_instance_schema(cls), from_code], mode="left_to_right"
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(
                attrgetter(cls._code_attribute), return_schema=core_schema.str_schema()
            ),
        )


class _KnownCodes(dict[str, CodedCard]):
    """Each code's card, parsed at its first lookup."""

    def __init__(self, card_type: type[CodedCard]) -> None:
        super().__init__()
        self.card_type = card_type

    def __missing__(self, code: str) -> CodedCard:
        card = self.card_type.from_code(code)
        if len(self) < KNOWN_CODES:
            self[code] = card
        return card
