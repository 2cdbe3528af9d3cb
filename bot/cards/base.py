"""What every card type shares: a compact text code that is also its JSON form."""

from __future__ import annotations

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
        # than parsing each again. Bounded, since codes may come from anywhere.
        known: dict[str, CodedCard] = {}

        def validate(value: Any) -> CodedCard:
            if isinstance(value, cls):
                return value
            if isinstance(value, str):
                card = known.get(value)
                if card is None:
                    card = cls.from_code(value)
                    if len(known) < KNOWN_CODES:
                        known[value] = card
                return card
            raise ValueError(f"expected a card code, got {type(value).__name__}")

        return core_schema.no_info_plain_validator_function(
            validate,
            serialization=core_schema.plain_serializer_function_ser_schema(lambda c: c.code),
        )
