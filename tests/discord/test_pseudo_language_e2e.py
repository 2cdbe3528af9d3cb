"""Every game played through the fake Discord in the tests' pseudo-language (tests/pseudo.py):
the server's language and every member's. Each table is opened, joined and started with the
pseudo-language's buttons, one player looks at My hand, play goes on by timeouts (the default
action) to the game's end or, in a chip game, to the end of its first hand (at most 60 of
them), a moderator closes it, and its rules, history and verification are asked for. Then
every word the bot sent (each message as posted and as every edit left it, DMs, ephemeral
answers, forms) must have come from the catalogs: no plain ASCII word is left but the
members' names."""

import re

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.engine import registry
from tests.pseudo import PseudoTranslations, english_in, installed
from tests.tables_e2e import TableDriver

SAID = PseudoTranslations()
TABLE_GAMES = sorted(spec.id for spec in registry.games() if not spec.solo)
# Options set to their least, so that a points game ends soon.
SHORTEST = ("target", "rounds", "hand_limit")
MOST_TIMEOUTS = 60


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


def new_options(world, command_line: str) -> dict[str, int]:
    group, subcommand = command_line.split()
    command = next(c for c in world.fake.commands[None] if c["name"] == group)
    new = next(o for o in command["options"] if o["name"] == subcommand)
    return {
        option["name"]: option["min_value"]
        for option in new.get("options") or []
        if option["name"] in SHORTEST and "min_value" in option
    }


def texts_of(body) -> list[str]:
    """Every text a reader sees in a message, an interaction's answer or a form the bot sent,
    or in a thread or event it made."""
    if not isinstance(body, dict):
        return []
    if isinstance(body.get("data"), dict):  # an interaction's answer
        return texts_of(body["data"])
    found = [body.get(key) or "" for key in ("content", "title", "name", "description")]
    for embed in body.get("embeds") or []:
        found += [embed.get("title") or "", embed.get("description") or ""]
        found += [f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []]
        found += [(embed.get(part) or {}).get(key) or "" for part, key in FOOTER_AND_AUTHOR]
    found += component_texts(body.get("components") or [])
    return [text for text in found if text]


FOOTER_AND_AUTHOR = (("footer", "text"), ("author", "name"))


def component_texts(rows: list[dict]) -> list[str]:
    found = []
    for row in rows:
        for item in row.get("components") or [row]:
            found += [item.get("label") or "", item.get("placeholder") or ""]
            for option in item.get("options") or []:
                found += [option.get("label") or "", option.get("description") or ""]
    return found


# Delphi's seal is on the rule's English words, which its result shows as sealed (to check
# the seal with) when the reader's language words the rule otherwise.
SEALED = re.compile(re.escape(said("**Sealed as:** {rule}").split("{rule}")[0]) + ".*")


def english_sent(world) -> list[tuple[str, list[str]]]:
    names = [member.name for member in world.members.values()]
    found = []
    for call in world.fake.calls:
        for text in texts_of(call.body):
            if left := english_in(SEALED.sub("", text), names):
                found.append((text, left))
    return found


async def play_on(world, driver: TableDriver) -> None:
    """Timeouts until the table closes or, in a chip game, its first hand is over; or until
    so many (Dou Dizhu's timeouts never bid: the cards are dealt again and again)."""
    for _ in range(MOST_TIMEOUTS):
        table = world.bot.runtime.tables.get(driver.table_id) if driver.table_id else None
        if table is None or table.awaiting_next_hand():
            return
        await world.bot.runtime.fire_deadline(table.id)
        await driver.settle()


@pytest.mark.slow  # a game played to its end, for each game
@pytest.mark.parametrize("game", TABLE_GAMES)
async def test_every_word_of_a_game_comes_from_the_catalogs(pseudo_world, game):
    world = pseudo_world
    tester, spec = world.tester, registry.get(game)
    players = [world.alice, world.bob, world.carol, world.admin][: max(spec.min_players, 1)]
    await world.bot.ledger.fund_house(world.guild.id, 10_000, reason="test", key="fund")
    opening = f"{game} play" if spec.solo else f"{game} new"
    await tester.slash(world.alice, world.channel, opening, **new_options(world, opening))
    await tester.idle()
    driver = TableDriver(world)
    for guest in players[1:]:
        await tester.click(guest, driver.message(), said("Join"))
    driver.total_chips = (await world.bot.ledger.totals(world.guild.id)).held
    await tester.click(world.alice, driver.message(), said("Start"))
    record = driver.table.record
    await driver.settle()
    if driver.table_id is not None and spec.min_players > 1:
        await tester.click(world.bob, driver.message(), said("My hand"))
    await play_on(world, driver)
    if driver.table_id is not None:
        await tester.slash(world.admin, world.channel, "table close")
        await tester.idle()
    await tester.slash(world.bob, world.channel, f"{game} rules")
    await tester.slash(world.bob, world.channel, "table history")
    if record.deal_seed:
        seed, commitment = record.deal_seed, record.deal_commitment
        await tester.slash(
            world.bob, world.channel, "table verify", seed=seed, commitment=commitment
        )
    await tester.idle()
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
