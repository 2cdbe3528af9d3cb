"""Every word the bot writes, in its reader's language (README, Languages).

The words live in gettext catalogs, one per language (bot/locales/<code>/LC_MESSAGES/
messages.po, compiled by `make` into .mo files), whose plural rules and number formats are
Babel's. Code marks what it writes and says it in the language of the moment:

    _("Your turn, {name}.", name=name)          a sentence, its placeholders filled in
    n_("{count} chip", "{count} chips", count)  a count, by the language's plural rules
    p_("card rank", "Jack")                      a word whose meaning its context gives
    N_("a limpia")                               marked for the catalogs, said later with _()
    Nn_("{count} point", "{count} points")       a count's forms marked, said with n_(*forms, n)
    Np_("card rank", "K")                        a word and its context marked, said with p_()

The language of the moment is a context variable: a click's task speaks the clicker's, a
table's public message is drawn `speaking(the server's)`, a DM `speaking(the member's)`
(bot/discord/languages.py decides whose). Outside any of those, English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from babel.numbers import format_decimal

from bot.i18n.catalogs import Catalog, load_catalog

ENGLISH = "en"


@dataclass(frozen=True)
class Language:
    code: str  # its catalog's folder under bot/locales, and what the database keeps
    name: str  # in itself, as /language offers it
    discord_locales: tuple[str, ...]  # the Discord client locales it answers (none: Catalan)


# The languages the bot offers (/language); a test's pseudo-language is registered beside them.
OFFERED = (
    Language(ENGLISH, "English", ("en-US", "en-GB")),
    Language("es", "Español", ("es-ES", "es-419")),
    Language("ca", "Català", ()),
    Language("it", "Italiano", ("it",)),
    Language("fr", "Français", ("fr",)),
    Language("de", "Deutsch", ("de",)),
    Language("pt_BR", "Português do Brasil", ("pt-BR",)),
    Language("zh_Hans", "简体中文", ("zh-CN",)),
    Language("zh_Hant", "繁體中文", ("zh-TW",)),
)
LANGUAGES: dict[str, Language] = {language.code: language for language in OFFERED}
_catalogs: dict[str, Catalog] = {}
_current: ContextVar[str] = ContextVar("language", default=ENGLISH)


def language_of_locale(locale: str | None) -> str | None:
    """The language a Discord locale ("es-ES", "zh-TW") is answered in, if one of ours."""
    return _by_locale.get(locale) if locale else None


def _locales() -> dict[str, str]:
    """Each Discord locale's language (a test's pseudo-language, registered last, wins)."""
    return {locale: lang.code for lang in LANGUAGES.values() for locale in lang.discord_locales}


_by_locale = _locales()


# The language of the moment (a code). The context variable's own method: asked tens of times
# for every message drawn, a function around it cost a call each time.
current: Callable[[], str] = _current.get


def speak(code: str) -> None:
    """Speak `code` from now on in this task (a click's own task: its whole answer)."""
    _current.set(code if code in LANGUAGES else ENGLISH)


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak `code` within the block (a message drawn for a server or a member)."""
    token = _current.set(code if code in LANGUAGES else ENGLISH)
    try:
        yield
    finally:
        _current.reset(token)


def catalog(code: str | None = None) -> Catalog:
    code = code or _current.get()
    found = _catalogs.get(code)
    if found is None:
        found = _catalogs[code] = load_catalog(code)
    return found


def _(message: str, /, **params: Any) -> str:
    code = _current.get()
    text = message if code == ENGLISH else _translated(code, message)  # English: the code's
    return _filled(text, params) if params else text


# Per language, each message as its catalog says it: asked of the catalog (three calls deep)
# once, not for every message drawn. Bounded, though every message is one the code writes.
_said: dict[str, dict[str, str]] = {}
MOST_SAID = 50_000


def _translated(code: str, message: str) -> str:
    said = _said.get(code)
    if said is None:
        said = _said[code] = {}
    text = said.get(message)
    if text is None:
        text = catalog(code).gettext(message)
        if len(said) < MOST_SAID:
            said[message] = text
    return text


def n_(singular: str, plural: str, count: int, /, **params: Any) -> str:
    """`count` is also the placeholder {count}, written as the language writes numbers."""
    code = _current.get()
    if code == ENGLISH:
        text = singular if count == 1 else plural
    else:
        text = catalog(code).ngettext(singular, plural, count)
    return _filled(text, {"count": count, **params})


def p_(context: str, message: str, /, **params: Any) -> str:
    code = _current.get()
    text = message if code == ENGLISH else catalog(code).pgettext(context, message)
    return _filled(text, params) if params else text


def N_(message: str, /) -> str:
    """Marks `message` for the catalogs without saying it (a table of words said later)."""
    return message


def Np_(context: str, message: str, /) -> str:
    """Marks a word with its context for the catalogs, said later with p_(context, word)."""
    return message


def Nn_(singular: str, plural: str, /) -> tuple[str, str]:
    """Marks a count's two forms for the catalogs, said later with n_(*forms, count)."""
    return singular, plural


def number(value: int) -> str:
    if 0 <= value < 1000:  # no separator to write, and every language here has Latin digits
        return str(value)
    return format_decimal(value, locale=catalog().locale)


def decimal(value: float, *, signed: bool = False) -> str:
    """`value` to one decimal, as the language writes it ("2.5", "2,5"; "+0.3" if `signed`),
    rounded as Python rounds it."""
    rounded = Decimal(f"{value:+.1f}" if signed else f"{value:.1f}")
    pattern = "+#,##0.0;-#,##0.0" if signed else "#,##0.0"
    return format_decimal(rounded, format=pattern, locale=catalog().locale)


def _filled(text: str, params: Mapping[str, Any]) -> str:
    """`text` with its placeholders filled, whole numbers as the language writes them (those
    below 1,000 as they are in every language here: the engines say thousands of refusals)."""
    for value in params.values():  # a loop: all() over a generator cost twice as much
        if type(value) is int and not 0 <= value < 1000:
            break
    else:
        return text.format_map(params)
    return text.format_map(
        {
            key: number(value) if type(value) is int else value  # not a bool
            for key, value in params.items()
        }
    )


# How many times languages were added or removed (the tests' pseudo-language): words said
# before may read otherwise now.
_edition = 0


def edition() -> tuple[int, dict[str, str]]:
    """What the words said in each Discord locale depend on: the catalogs' edition and the
    locales' languages."""
    return _edition, _by_locale


def register(language: Language, found: Catalog) -> None:
    """Adds a language with its catalog (the tests' pseudo-language, tests/pseudo.py)."""
    global _edition
    _edition += 1
    LANGUAGES[language.code] = language
    _catalogs[language.code] = found
    _said.pop(language.code, None)
    _by_locale.update(_locales())


def unregister(code: str) -> None:
    global _edition
    _edition += 1
    LANGUAGES.pop(code, None)
    _catalogs.pop(code, None)
    _said.pop(code, None)
    _by_locale.clear()
    _by_locale.update(_locales())
