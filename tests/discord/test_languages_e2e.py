"""Languages through the fake Discord (README, Languages): the slash commands registered in
every language, /language and /table language, and whose language each message is in. The
tests' pseudo-language (tests/pseudo.py) stands for any language: a word left in English
stands out."""

import pytest

from bot.i18n import ENGLISH
from tests.pseudo import CODE, english_in, installed


@pytest.fixture(autouse=True)
def pseudo():
    """Installed before the bot starts, so that its commands are registered in it too."""
    with installed():
        yield


def localized(part: dict, key: str) -> str:
    return (part.get(f"{key}_localizations") or {}).get("en-GB", "")


def words(command: dict, where: str = ""):
    """(where, English, pseudo) for every name, description and choice of a command."""
    where = f"{where} {command['name']}".strip()
    yield where, command["name"], localized(command, "name")
    if command.get("type", 1) == 1:
        yield where, command["description"], localized(command, "description")
    for choice in command.get("choices") or []:
        yield where, choice["name"], localized(choice, "name")
    for option in command.get("options") or []:
        yield from words(option, where)


async def test_every_command_name_description_and_choice_is_registered_translated(world):
    synced = world.fake.commands[None]
    found = [word for command in synced for word in words(command)]
    assert len(found) > 300  # every command, option and choice was walked
    untranslated = [(where, english) for where, english, said in found if not said]
    assert untranslated == []
    left = [(where, said) for where, _, said in found if english_in(said)]
    assert left == []


async def test_a_members_client_language_answers_them(world):
    alice = world.alice
    alice.locale = "en-GB"  # the pseudo-language's
    reply = await world.tester.slash(alice, world.channel, "balance")
    assert english_in(reply.text, [alice.name]) == []
    world.bob.locale = "en-US"
    reply = await world.tester.slash(world.bob, world.channel, "balance")
    assert "chips" in reply.text


async def test_language_chooses_a_members_own_over_their_clients(world):
    alice = world.alice
    reply = await world.tester.slash(alice, world.channel, "language", language="es")
    assert "Español" in reply.text and reply.response.ephemeral
    assert await world.bot.speakers.member(alice.id) == "es"
    await world.bot.speakers.store.set_member(alice.id, CODE)  # not offered: the tests' own
    reply = await world.tester.slash(alice, world.channel, "balance")
    assert english_in(reply.text, [alice.name]) == []
    reply = await world.tester.slash(alice, world.channel, "language", language="auto")
    assert "your Discord app's language" in reply.text  # alice's client is in English
    assert await world.bot.speakers.member(alice.id) == ENGLISH
