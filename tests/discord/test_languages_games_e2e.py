"""Tables played in the real languages through the fake Discord (README, Languages): a
Spanish Porrazo table and a Simplified Chinese Dou Dizhu table read in their language from
the table message to the DMs and the rules, with no English left; and a game in each of the
eight translated languages, where the fake refuses whatever breaks Discord's limits (labels,
options, embeds) and the leak check names the cards as that language does."""

import re

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.discord.game_ui import said_rules
from bot.games.porrazo.ui import RULES as PORRAZO_RULES
from bot.i18n import ENGLISH, LANGUAGES, OFFERED, catalog, speaking
from tests.languages_e2e import play_a_table, refused_calls, sent_texts
from tests.pseudo import english_in

TRANSLATED = [lang.code for lang in OFFERED if lang.code != ENGLISH]
# A game with much to say for each language (the pseudo-language plays them all; all 128 pairs
# were played once by hand, in about 100 s of CPU, and none broke a limit).
WORDY_GAMES = ["backhand", "botifarra", "calabrasella", "delphi", "lastone", "lowball", "western"]
ROTATION = list(zip([*WORDY_GAMES, "totit"], TRANSLATED, strict=True))
# A slash command named in a sentence ("/table verify", "/leaderboard view:skill"): its
# path, as typed, whatever the language.
COMMAND = re.compile(r"/[a-z]+(?: [a-z]+)?(?: [a-z_]+:\S+)*")
# Names of things and technical terms (README: the project's file), the same in every language.
PROPER_NAMES = {"AI", "SHA", "id", "ID", "openskill", "Plackett", "Luce", "README"}
# Words any English sentence of the bot's would hold, and no Spanish one.
ENGLISH_WORDS = re.compile(
    r"\b(the|your|you|table|turn|hand|cards?|plays|wins|waiting|players?|chips|points)\b"
)


async def speak_everywhere(world, code: str) -> None:
    """The server's language and every member's: their Discord app's where Discord has the
    language, else their own choice (Catalan)."""
    await world.bot.speakers.store.set_server(world.guild.id, code)
    locales = LANGUAGES[code].discord_locales
    for member in world.members.values():
        if locales:
            member.locale = locales[0]
        else:
            await world.bot.speakers.store.set_member(member.id, code)


def say(code: str):
    return lambda english: catalog(code).gettext(english)


@pytest.mark.slow  # a game to its end
@pytest.mark.parametrize(("game", "code"), ROTATION)
async def test_a_game_in_each_language_keeps_within_discords_limits(world, game, code):
    await speak_everywhere(world, code)
    await play_a_table(world, game, say(code))
    assert refused_calls(world) == []


def dm_texts(world, user) -> str:
    return "\n".join(message.text() for message in world.tester.dms(user))


@pytest.mark.slow  # a game to its end
async def test_a_spanish_porrazo_table_reads_spanish_everywhere(world):
    await speak_everywhere(world, "es")
    await play_a_table(world, "porrazo", say("es"))
    es = catalog("es")
    channel = "\n".join(m.text() for m in world.tester.channel_messages(world.channel))
    assert es.gettext("Final standings") in channel
    assert es.gettext("Your move") in dm_texts(world, world.alice)
    with speaking("es"):
        rules = said_rules(PORRAZO_RULES)
    assert rules.split("\n")[0] in "\n".join(sent_texts(world))
    assert rules != PORRAZO_RULES
    english = [
        (text, ENGLISH_WORDS.findall(COMMAND.sub("", text).lower())) for text in sent_texts(world)
    ]
    assert [(text, words) for text, words in english if words] == []


@pytest.mark.slow  # a game to its end
async def test_a_chinese_dou_dizhu_table_reads_chinese_everywhere(world):
    await speak_everywhere(world, "zh_Hans")
    await play_a_table(world, "doudizhu", say("zh_Hans"))
    zh = catalog("zh_Hans")
    assert zh.gettext("Your move") in dm_texts(world, world.alice)
    names = [member.name for member in world.members.values()]
    latin = [(text, words) for text in sent_texts(world) if (words := latin_words(text, names))]
    assert latin == [], "\n".join(f"{words}: {text!r}" for text, words in latin)


def latin_words(text: str, names: list[str]) -> list[str]:
    """Latin-letter words but the cards' letters (A, J, Q, K), commands and proper names."""
    found = english_in(COMMAND.sub("", text), names)
    return [word for word in found if len(word) > 1 and word not in PROPER_NAMES]
