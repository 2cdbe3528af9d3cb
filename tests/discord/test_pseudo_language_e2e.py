"""Every game played through the fake Discord in the tests' pseudo-language (tests/pseudo.py):
the server's language and every member's. Each table is opened, joined and started with the
pseudo-language's buttons, one player looks at My hand, play goes on by timeouts (the default
action) to the game's end or, in a chip game, to the end of its first hand (at most 30 of
them), a moderator closes it, and its rules, history and verification are asked for. Then
every word the bot sent (each message as posted and as every edit left it, DMs, ephemeral
answers, forms) must have come from the catalogs: no plain ASCII word is left but the
members' names."""

import re

import pytest

import bot.games  # noqa: F401  (registers every game)
from tests.languages_e2e import TABLE_GAMES, play_a_table, refused_calls, sent_texts
from tests.pseudo import PseudoTranslations, english_in, installed
from tests.tables_e2e import TableDriver

SAID = PseudoTranslations()


def said(english: str) -> str:
    return SAID.gettext(english)


@pytest.fixture
def pseudo():
    """Installed before the bot starts (it is asked first), so its commands are in it too."""
    with installed() as code:
        yield code


@pytest.fixture
async def pseudo_world(pseudo, world):
    """The server's language and every member's Discord app in the pseudo-language."""
    await world.bot.speakers.store.set_server(world.guild.id, pseudo)
    for member in world.members.values():
        member.locale = "en-GB"  # the pseudo-language's
    return world


# Delphi's seal is on the rule's English words, which its result shows as sealed (to check
# the seal with) when the reader's language words the rule otherwise.
SEALED = re.compile(re.escape(said("**Sealed as:** {rule}").split("{rule}")[0]) + ".*")


def english_sent(world) -> list[tuple[str, list[str]]]:
    names = [member.name for member in world.members.values()]
    found = []
    for text in sent_texts(world):
        if left := english_in(SEALED.sub("", text), names):
            found.append((text, left))
    return found


@pytest.mark.slow  # a game played to its end, for each game
@pytest.mark.parametrize("game", TABLE_GAMES)
async def test_every_word_of_a_game_comes_from_the_catalogs(pseudo_world, game):
    world = pseudo_world
    await play_a_table(world, game, said)
    assert refused_calls(world) == []
    left = english_sent(world)
    assert left == [], "\n".join(f"{words}: {text!r}" for text, words in left)


@pytest.mark.slow  # a whole board
async def test_every_word_of_soliterrapin_comes_from_the_catalogs(pseudo_world):
    world = pseudo_world
    await world.tester.slash(world.alice, world.channel, "soliterrapin play")
    await world.tester.idle()
    (table,) = world.bot.runtime.tables.values()
    board = world.fake.messages[table.record.message_id]
    while board.components:
        await place_first(world, board)
        board = world.fake.messages[board.id]
    for command in ("soliterrapin daily", "soliterrapin scores", "soliterrapin rules"):
        await world.tester.slash(world.alice, world.channel, command)
    await world.tester.idle()
    left = english_sent(world)
    assert left == [], "\n".join(f"{words}: {text!r}" for text, words in left)


async def place_first(world, board) -> None:
    """The card to place goes on the first spot the board offers (a select's, or a lone
    spot's button)."""
    for row in board.components:
        for item in row["components"]:
            if item["type"] == 3:
                value = item["options"][0]["value"]
                await world.tester.choose(world.alice, board, [value], item["custom_id"])
                return await world.tester.idle()
    spot = next(b["label"] for b in board.buttons() if b["label"] != said("Abandon"))
    await world.tester.click(world.alice, board, spot)
    await world.tester.idle()


@pytest.mark.slow  # a bot started for a hand
async def test_a_form_and_its_refusal_come_from_the_catalogs(pseudo_world):
    """Backhand's bet in words: the button, the form (its title and question), a refused
    answer and the bet taken, all in the pseudo-language."""
    world = pseudo_world
    await world.bot.ledger.fund_house(world.guild.id, 10_000, reason="test", key="fund")
    await world.tester.slash(world.alice, world.channel, "backhand new")
    await world.tester.idle()
    driver = TableDriver(world)
    driver.total_chips = (await world.bot.ledger.totals(world.guild.id)).held
    await world.tester.click(world.alice, driver.message(), said("Start"))
    await driver.settle()
    controls = await driver.controls(world.alice)
    opened = await driver.press(world.alice, controls, said("Other amount"))
    assert opened.modal is not None and english_in(opened.modal["title"]) == []
    refused = await world.tester.submit_modal(world.alice, opened, {"answer": "lots"})
    assert refused.response.ephemeral and english_in(refused.text) == []
    opened = await driver.press(world.alice, controls, said("Other amount"))
    before = driver.table.record.version
    taken = await world.tester.submit_modal(world.alice, opened, {"answer": "7"})
    await driver.settle()
    assert driver.table.record.version > before, taken.text  # the bet was taken
    left = english_sent(world)
    assert left == [], "\n".join(f"{words}: {text!r}" for text, words in left)


@pytest.mark.slow  # a game played, then the server's commands
async def test_every_word_of_the_servers_commands_comes_from_the_catalogs(pseudo_world):
    """Chips, boards, /stats and a tournament from its registration to a match in its thread
    and its cancelling, and the refusals of each, after a Big Two game rated its players."""
    world = pseudo_world
    tester, alice, bob, admin, channel = (
        world.tester,
        world.alice,
        world.bob,
        world.admin,
        world.channel,
    )
    await play_a_table(world, "bigtwo", said)
    for member, command, options in [
        (alice, "balance", {}),
        (alice, "daily", {}),
        (alice, "daily", {}),  # refused: once a day
        (alice, "give", {"member": bob, "amount": 5}),
        (alice, "give", {"member": alice, "amount": 5}),  # refused: to oneself
        (alice, "leaderboard", {}),
        (alice, "leaderboard", {"game": "bigtwo"}),
        (alice, "leaderboard", {"game": "bigtwo", "view": "skill"}),
        (alice, "stats", {}),
        (alice, "chips grant", {"member": bob, "amount": 5}),  # refused: a manager's
        (admin, "chips house", {}),
        (admin, "table ai", {"allowed": False}),
        (alice, "table close", {}),  # refused: no table here
        (admin, "tournament new", {"game": "totit", "format": "swiss", "buy_in": 10}),
    ]:
        await tester.slash(member, channel, command, **options)
    await tester.idle()
    (message_id,) = world.bot.tournament_presenter.messages  # the tournament's
    message = world.fake.messages[message_id]
    for member in (alice, bob, alice):  # the second time: refused, registered already
        await tester.click(member, message, said("Register"))
    await tester.click(bob, message, said("Unregister"))
    for member, command in [(alice, "tournament list"), (alice, "tournament show")]:
        await tester.slash(member, channel, command)
    await tester.idle()
    record = await world.bot.tournament_store.load(1)  # posted again by /tournament show
    await tester.click(bob, world.fake.messages[record.message_id], said("Register"))
    await tester.click(admin, world.fake.messages[record.message_id], said("Start"))
    await tester.idle()
    assert any(c.type == 11 for c in world.fake.channels.values())  # its match's thread
    await tester.slash(admin, channel, "tournament cancel")
    await tester.idle()
    assert refused_calls(world) == []
    left = english_sent(world)
    assert left == [], "\n".join(f"{words}: {text!r}" for text, words in left)
