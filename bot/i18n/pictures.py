"""Words drawn into pictures. Pillow's built-in font, the one every install has, draws ASCII
only ("é" and "冠" come out as empty boxes), so a message drawn into a picture is in the
reader's language where its words are ASCII, else in English. The text beside each picture
(the bracket's embed, Delphi's and Soliterrapin's fields) is always in the reader's own.

A picture a browser draws (the web pages' SVG bracket, `drawn_by_a_browser`) has every
script's letters: there, everything is in the reader's language, names as written."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from bot.i18n import ENGLISH, _, speaking

_by_a_browser: ContextVar[bool] = ContextVar("drawn_by_a_browser", default=False)


@contextmanager
def drawn_by_a_browser() -> Iterator[None]:
    token = _by_a_browser.set(True)
    try:
        yield
    finally:
        _by_a_browser.reset(token)


def any_script() -> bool:
    """Whether the picture drawn now may hold any letter (a browser draws it)."""
    return _by_a_browser.get()


def in_picture(message: str, /, **params: Any) -> str:
    if any_script() or _(message).isascii():
        return _(message, **params)
    with speaking(ENGLISH):
        return _(message, **params)
