"""The catalogs' tooling (README, Languages):

python -m bot.i18n extract   the template bot/locales/messages.pot, from the code, the web
                             pages' templates and the slash commands
python -m bot.i18n update    every language's messages.po brought up to the template
python -m bot.i18n compile   every messages.po compiled to messages.mo (`make` runs it)
python -m bot.i18n add CODE  a new language's catalog, from the template
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

import bot.games
import cogs
from bot.cards import decktet, french
from bot.discord.format import KIND_CONTEXT as KIND
from bot.discord.format import SIDE_CONTEXT, SIDE_NAMES, kind_title
from bot.engine import GameSpec
from bot.i18n.catalogs import DOMAIN, LOCALES, compile_all, po_path
from bot.i18n.commands import command_words

ROOT = LOCALES.parent.parent  # the checkout: bot/ and cogs/ are read from here
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
KEYWORDS = {
    "_": None,
    "n_": (1, 2),
    "p_": ((1, "c"), 2),
    "N_": None,
    "Nn_": (1, 2),
    "Np_": ((1, "c"), 2),
    "in_picture": None,  # bot/i18n/pictures.py
}
PROJECT = "cardtable-bot"


def template() -> Catalog:
    """Every message the code marks, and every word the slash commands register."""
    found = Catalog(project=PROJECT, fuzzy=False)
    for folder in ("bot", "cogs"):
        for path, line, message, comments, context in extract_from_dir(
            ROOT / folder,
            # The web pages' templates call `_` as the code does (bot/web/server.py).
            method_map=[("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")],
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
        ):
            location = (f"{folder}/{path}", line)
            found.add(message, locations=[location], auto_comments=comments, context=context)
    for rules in sorted((ROOT / "bot" / "games").glob("**/rules.md")):
        where = str(rules.relative_to(ROOT))
        for number, text in enumerate(rules.read_text(encoding="utf-8").split("\n"), start=1):
            if text.strip():
                found.add(text, locations=[(where, number)])
    for context, word in card_words():
        found.add(word, locations=[("bot/cards", 0)], context=context)
    for spec in bot.games.GAMES:  # the product's games, not a test's own registered beside them
        for kind in action_kinds(spec):
            found.add(kind_title(kind), locations=[(spec.id, 0)], context=KIND)
    for context, word in command_words(cogs.extensions()):
        if word and word != "…":
            found.add(word, locations=[("slash_commands", 0)], context=context)
    return found


def card_words() -> list[tuple[str, str]]:
    """The cards' names and letters as players read them (bot/cards), and the sides'."""
    return [
        *((french.RANK_CONTEXT, code) for code in french.RANK_CODES.values()),
        *((french.RANK_CONTEXT, joker.value) for joker in french.Joker),
        *((decktet.TITLE_CONTEXT, card.title) for card in decktet.DECK),
        *((decktet.RANK_CONTEXT, word) for word in decktet.RANK_WORDS.values()),
        *((SIDE_CONTEXT, letter) for letter in SIDE_NAMES),
    ]


def action_kinds(spec: GameSpec) -> set[str]:
    """The kinds of a game's actions, read off their models' `kind` literals."""
    found: set[str] = set()

    def walk(schema: object) -> None:
        if isinstance(schema, dict):
            kind = schema.get("properties", {}).get("kind", {})
            found.update([kind["const"]] if "const" in kind else kind.get("enum", []))
            for value in schema.values():
                walk(value)
        elif isinstance(schema, list):
            for value in schema:
                walk(value)

    walk(spec.actions.json_schema())
    return found


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def write(path: Path, catalog: Catalog) -> None:
    """Writes the catalog, unless all that changed is the date it was made (no churn). A
    message the code no longer says is dropped, not kept commented out (git keeps it)."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)
    if path.exists() and _undated(path.read_bytes()) == _undated(out.getvalue()):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def _undated(po: bytes) -> bytes:
    return re.sub(rb'"POT-Creation-Date: [^"]*"\n', b"", po)


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
