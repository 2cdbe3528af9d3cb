"""Languages through the fake Discord (README, Languages): the slash commands registered in
every language, /language and /table language, and whose language each message is in. The
tests' pseudo-language (tests/pseudo.py) stands for any language: a word left in English
stands out."""

import pytest

from bot.i18n import ENGLISH
from tests.pseudo import CODE, english_in, installed, shown
from tests.tables_e2e import TableDriver


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


async def test_each_player_reads_their_own_language_in_private_and_the_servers_in_public(world):
    """Alice chose the pseudo-language; Bob's app is in English; the server's is English."""
    await world.bot.speakers.store.set_member(world.alice.id, CODE)
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [world.bob], target=10)
    started = await world.tester.click(world.alice, driver.message(), "Start")
    assert english_in(started.text) == []  # her own language: the answer to her click
    await driver.settle()
    names = [world.alice.name, world.bob.name]
    (alice_hand,) = [m for m in world.tester.dms(world.alice) if m.embeds]
    (bob_hand,) = [m for m in world.tester.dms(world.bob) if m.embeds]
    assert english_in(shown(alice_hand), names) == []
    assert "Your Big Two hand" in shown(bob_hand) and english_in(shown(bob_hand), names)
    table_message = driver.message()
    assert "Big Two" in shown(table_message)  # the server's language in the channel
    mine = await world.tester.click(world.alice, table_message, "My hand")
    assert english_in(shown(mine.response), names) == []  # her own language, in private


async def test_a_manager_sets_the_servers_language_and_its_tables_are_drawn_in_it(world):
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [world.bob], target=10)
    refused = await world.tester.slash(world.alice, world.channel, "table language", language="es")
    assert "Manage Server" in refused.text
    assert world.bot.speakers.server(world.guild.id) == ENGLISH
    reply = await world.tester.slash(world.admin, world.channel, "table language", language="ca")
    assert "Català" in reply.text and reply.response.ephemeral  # said in the admin's language
    assert world.bot.speakers.server(world.guild.id) == "ca"
    await world.bot.speakers.store.set_server(world.guild.id, CODE)  # not offered: the tests'
    await world.tester.slash(world.admin, world.channel, "table show")
    await world.tester.idle()
    names = [world.alice.name, world.bob.name]
    assert english_in(shown(driver.message()), names) == []
    await world.tester.slash(world.admin, world.channel, "table language", language="auto")
    assert world.bot.speakers.server(world.guild.id) == ENGLISH  # the server's Discord locale
