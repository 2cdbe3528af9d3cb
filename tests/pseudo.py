"""A pseudo-language for the tests alone: every message the catalogs hold comes out with each
ASCII letter accented and the whole bracketed, ⟦Ŷǿŭř ŧŭřƞ⟧, so that a word the bot writes
without the catalogs (English hard-coded) stands out as plain ASCII (`english_in`).

It answers Discord's en-GB client locale (while installed, `installed()`), so that the slash
commands' registrations carry it too."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from babel import Locale

from bot.i18n import Language, register, unregister
from bot.i18n.catalogs import Catalog
from bot.i18n.commands import NAME_CONTEXT

CODE = "qps"
PSEUDO = Language(CODE, "Ƥşḗŭḓǿ", ("en-GB",))
ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ",
)
# Left as they are: placeholders, Discord's markup (<@id>, <t:…:R>, <:emoji:id>), links.
KEPT = re.compile(r"\{[^{}]*\}|<[^<>\s]*>|https?://\S+")


def accented(text: str) -> str:
    out, at = [], 0
    for match in KEPT.finditer(text):
        out += [text[at : match.start()].translate(ACCENTED), match.group()]
        at = match.end()
    out.append(text[at:].translate(ACCENTED))
    return "".join(out)


class PseudoTranslations:
    def gettext(self, message: str) -> str:
        return f"⟦{accented(message)}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        if context == NAME_CONTEXT:  # a command's name: letters only, as Discord wants
            return accented(message)
        return self.gettext(message)


@contextmanager
def installed() -> Iterator[str]:
    register(PSEUDO, Catalog(PseudoTranslations(), Locale.parse("en")))
    try:
        yield CODE
    finally:
        unregister(CODE)


ASCII_WORD = re.compile(r"[A-Za-z]+")
# A board's spots and columns ("E6", a header "  E    F    G"): coordinates, in any language.
SPOT = re.compile(r"\b[A-Z][0-9]{1,2}\b|^ *(?:[A-Z] +)+$", re.M)
DIGEST = re.compile(r"\b[0-9a-f]{8,}\b")  # a seed, commitment or seal, in hex: no word


def english_in(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The ASCII words in `text` that no catalog wrote (but markup, links and `allowed`:
    the members' names, say)."""
    left = SPOT.sub(" ", DIGEST.sub(" ", KEPT.sub(" ", text)))
    for word in allowed:
        left = left.replace(word, " ")
    return ASCII_WORD.findall(left)


def shown(message) -> str:
    """Everything a reader sees of a fake Discord message: its text, and its controls'
    labels, placeholders and options."""
    parts = [message.text()]
    for row in message.components:
        for item in row.get("components", []):
            parts += [item.get("label") or "", item.get("placeholder") or ""]
            for option in item.get("options") or []:
                parts += [option.get("label", ""), option.get("description") or ""]
    return "\n".join(parts)
