"""The catalogs' tooling (README, Languages):

    python -m bot.i18n extract   the template bot/locales/messages.pot, from the code and the
                                 slash commands
    python -m bot.i18n update    every language's messages.po brought up to the template
    python -m bot.i18n compile   every messages.po compiled to messages.mo (`make` runs it)
    python -m bot.i18n add CODE  a new language's catalog, from the template
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalogs import DOMAIN, LOCALES, compile_all, po_path
from bot.i18n.commands import command_words

ROOT = LOCALES.parent.parent  # the checkout: bot/ and cogs/ are read from here
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "N_": None}
PROJECT = "cardtable-bot"


def template() -> Catalog:
    """Every message the code marks, and every word the slash commands register."""
    from bot.app import cog_modules

    found = Catalog(project=PROJECT, fuzzy=False)
    for folder in ("bot", "cogs"):
        for path, line, message, comments, context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add(message, locations=[(f"{folder}/{path}", line)], context=context)
    for context, word in command_words(cog_modules()):
        if word and word != "…":
            found.add(word, locations=[("slash_commands", 0)], context=context)
    return found


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=100, sort_output=True, include_lineno=False)


def update() -> None:
    fresh = read(TEMPLATE)
    for po in sorted(LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        catalog = read(po)
        catalog.update(fresh, no_fuzzy_matching=True)
        write(po, catalog)


def add(code: str) -> None:
    catalog = read(TEMPLATE)
    catalog.locale = Locale.parse(code)
    catalog.fuzzy = False
    write(po_path(code), catalog)


def main(argv: list[str]) -> int:
    match argv:
        case ["extract"]:
            write(TEMPLATE, template())
        case ["update"]:
            update()
        case ["compile"]:
            compile_all()
        case ["add", code]:
            add(code)
        case _:
            print(__doc__)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
