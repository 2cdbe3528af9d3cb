"""The catalogs (README, Languages): the template holds every message the code marks, every
rules line and every slash-command word; every language's catalog holds exactly those, each
translation with its message's placeholders and every plural form its language needs."""

import re
import string
import tokenize
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message

import bot.games  # noqa: F401  # every game's actions defined
from bot.discord.format import KIND_CONTEXT, kind_title
from bot.engine import Action
from bot.i18n import ENGLISH, OFFERED
from bot.i18n.__main__ import TEMPLATE, read, template
from bot.i18n.catalogs import po_path

TRANSLATED = [lang.code for lang in OFFERED if lang.code != ENGLISH]


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_template_holds_what_the_code_marks_now():
    """Fails when a message was added or changed without `python -m bot.i18n extract`."""
    assert keys(read(TEMPLATE)) == keys(template())


def test_the_template_has_the_games_rules_and_the_commands():
    found = keys(read(TEMPLATE))
    assert ("command name", "language") in found
    assert any("**Porrazo**" in message for _, message in found)
    assert (None, "This button is no longer valid.") in found
    assert len(found) > 500


def kinds_declared(action_type: type[Action]) -> set[str]:
    """The `kind` of every action model of the bot's below `action_type` (not the tests' own
    games'), from its field's default."""
    found = set()
    for model in action_type.__subclasses__():
        kind = model.model_fields.get("kind")
        if model.__module__.startswith("bot.") and kind and isinstance(kind.default, str):
            found.add(kind.default)
        found |= kinds_declared(model)
    return found


def test_the_template_has_every_games_kinds_of_action():
    """Each kind's name is shown (a secret choice made, a button): read off the games' action
    models here, whatever fields they hold (cards, once, hid theirs from the extraction)."""
    found = keys(read(TEMPLATE))
    declared = kinds_declared(Action)
    assert len(declared) > 40
    assert {kind for kind in declared if (KIND_CONTEXT, kind_title(kind)) not in found} == set()


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_has_a_catalog_of_exactly_the_templates_messages(code):
    catalog = read(po_path(code))
    assert keys(catalog) == keys(read(TEMPLATE)), "run python -m bot.i18n update"
    assert catalog.locale == Locale.parse(code)


def forms(message: Message) -> list[tuple[str, str]]:
    """(English, translation) for each form of a message."""
    if isinstance(message.id, str):
        return [(message.id, message.string)]
    singular, plural = message.id
    return [(singular if i == 0 else plural, text) for i, text in enumerate(message.string)]


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_translation_keeps_its_messages_placeholders_and_plural_forms(code):
    catalog = read(po_path(code))
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        if not isinstance(message.id, str):
            assert len(message.string) == catalog.num_plurals, message.id
        for english, said in forms(message):
            if said:
                assert placeholders(said) == placeholders(english), (english, said)


def test_a_placeholder_left_out_is_found():
    assert placeholders("{name} takes {count} cards") == {"name", "count"}
    assert placeholders("{name} nimmt Karten") != placeholders("{name} takes {count} cards")


def test_markup_and_names_left_in_a_message_are_not_taken_for_placeholders():
    assert placeholders("**Porrazo** · 2-5 players, <t:1700000000:R>") == set()


ROOT = Path(__file__).resolve().parents[2]
MARKED_IN_AN_F_STRING = re.compile(r"\{[^{}]*\b(?:_|n_|p_)\(\s*[\"']")


def f_strings(path: Path) -> list[str]:
    with path.open("rb") as file:
        tokens = tokenize.tokenize(file.readline)
        return [
            token.string
            for token in tokens
            if token.type == tokenize.STRING and token.string.lower().lstrip("rb").startswith("f")
        ]


def test_no_message_is_marked_inside_an_f_string():
    """Babel reads no call inside an f-string on Python 3.11: such a message would never reach
    the catalogs."""
    found = [
        (str(path), text)
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for text in f_strings(path)
        if MARKED_IN_AN_F_STRING.search(text)
    ]
    assert found == []


def test_a_message_marked_inside_an_f_string_is_found():
    assert MARKED_IN_AN_F_STRING.search("""f"{name} · {_('left the game')}\"""")
    assert not MARKED_IN_AN_F_STRING.search("""f"{name} · {_(LEFT)}\"""")


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_in_every_language(code):
    untranslated = [
        message.id
        for message in read(po_path(code))
        if message.id and (message.fuzzy or not all(_forms_said(message.string)))
    ]
    assert untranslated == []


def _forms_said(string: str | tuple[str, ...]) -> list[str]:
    return [string] if isinstance(string, str) else list(string)
