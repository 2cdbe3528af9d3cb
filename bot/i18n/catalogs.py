"""The languages' catalogs on disk: bot/locales/<code>/LC_MESSAGES/messages.po, which `make`
compiles into messages.mo beside it (`python -m bot.i18n compile`). English is the code's own
words and has no catalog."""

from __future__ import annotations

import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Protocol

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

DOMAIN = "messages"
LOCALES = Path(str(resources.files("bot").joinpath("locales")))


class Translating(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> object: ...


@dataclass(frozen=True)
class Catalog:
    translations: Translating
    locale: Locale  # how numbers are written

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self.translations.ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        return str(self.translations.pgettext(context, message))


def po_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_catalog(code: str) -> Catalog:
    locale = Locale.parse(code)
    po = po_path(code)
    if not po.exists():  # English
        return Catalog(NullTranslations(), locale)
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        data = mo.read_bytes()
    else:  # not compiled yet (a checkout that skipped `make`): compiled here, in memory
        data = compiled(po)
    return Catalog(Translations(io.BytesIO(data), domain=DOMAIN), locale)


def compiled(po: Path) -> bytes:
    with po.open("rb") as file:
        messages = read_po(file)
    out = io.BytesIO()
    write_mo(out, messages)
    return out.getvalue()


def compile_all() -> None:
    """Writes every language's messages.mo from its .po (what `make` runs on install)."""
    for po in sorted(LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        po.with_suffix(".mo").write_bytes(compiled(po))
