"""Words drawn into pictures. Pillow's built-in font, the one every install has, draws ASCII
only ("é" and "冠" come out as empty boxes), so a message drawn into a picture is in the
reader's language where its words are ASCII, else in English. The text beside each picture
(the bracket's embed, Delphi's and Soliterrapin's fields) is always in the reader's own."""

from __future__ import annotations

from typing import Any

from bot.i18n import ENGLISH, _, speaking


def in_picture(message: str, /, **params: Any) -> str:
    if _(message).isascii():
        return _(message, **params)
    with speaking(ENGLISH):
        return _(message, **params)
