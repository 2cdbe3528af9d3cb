"""bot/i18n: the language of the moment, plural forms by each language's rules, numbers as
each language writes them, and Discord's locales."""

import asyncio

from bot.i18n import ENGLISH, _, current, decimal, language_of_locale, n_, number, speaking


def chips(count: int) -> str:
    return n_("{count} chip", "{count} chips", count)


def test_english_is_spoken_outside_any_language():
    assert current() == ENGLISH
    assert chips(1) == "1 chip" and chips(2) == "2 chips" and chips(0) == "0 chips"
    assert chips(1500) == "1,500 chips"


def test_counts_follow_each_languages_plural_rules():
    with speaking("fr"):  # 0 and 1 are singular in French; a million takes "de"
        zero, one, two, million = chips(0), chips(1), chips(2), chips(1_000_000)
    assert zero.startswith("0 ") and one.startswith("1 ") and zero.split()[1] == one.split()[1]
    assert two.split()[-1] != one.split()[-1]
    assert " de " in million
    with speaking("de"):
        assert chips(0).split()[-1] == chips(2).split()[-1] != chips(1).split()[-1]
    with speaking("zh_Hans"):
        assert chips(1)[1:] == chips(7)[1:]  # one form for every count


def test_numbers_are_written_as_each_language_writes_them():
    assert number(1234567) == "1,234,567"
    with speaking("de"):
        assert number(1234567) == "1.234.567" and decimal(2.45) == "2,5"
    with speaking("fr"):
        assert number(1234).replace("\u202f", " ") == "1 234"
    assert decimal(-0.04, signed=True) == "-0.0" and decimal(0.25, signed=True) == "+0.2"


def test_a_language_spoken_in_a_block_ends_with_it_and_an_unknown_one_is_english():
    with speaking("es"):
        spanish = _("Your move")
        with speaking("xx"):
            assert _("Your move") == "Your move"
        assert _("Your move") == spanish != "Your move"
    assert _("Your move") == "Your move"


async def test_each_task_speaks_its_own_language():
    async def said(code: str) -> str:
        with speaking(code):
            await asyncio.sleep(0)  # the other task runs meanwhile
            return _("Your move")

    spanish, german = await asyncio.gather(said("es"), said("de"))
    assert spanish != german and "Your move" not in (spanish, german)


def test_discords_locales_find_their_language_and_catalan_has_none():
    assert language_of_locale("es-419") == language_of_locale("es-ES") == "es"
    assert language_of_locale("zh-TW") == "zh_Hant" and language_of_locale("pt-BR") == "pt_BR"
    assert language_of_locale("en-US") == ENGLISH
    assert language_of_locale("ja") is None and language_of_locale(None) is None


def test_a_picture_draws_a_language_it_has_the_letters_for_and_english_otherwise():
    from bot.i18n.pictures import in_picture

    with speaking("zh_Hans"):  # Pillow's own font draws no CJK
        assert in_picture("Round {round}", round=3) == "Round 3"
    with speaking("es"):
        spanish = _("Round {round}", round=3)
        assert spanish.isascii() and in_picture("Round {round}", round=3) == spanish
    assert in_picture("bye: {name}", name="Zoë") == "bye: Zoë"  # a name is drawn as it is


def test_a_small_number_is_written_as_babel_writes_it_in_every_language():
    from babel.numbers import format_decimal

    from bot.i18n import LANGUAGES, catalog

    for code in LANGUAGES:
        with speaking(code):
            for value in (0, 7, 999):
                assert number(value) == format_decimal(value, locale=catalog().locale), code
