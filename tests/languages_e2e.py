"""Playing a table game through the fake Discord in a language, with its buttons pressed by
the words that language shows (tests/discord/test_pseudo_language_e2e.py, and the real
languages in test_languages_games_e2e.py), and every text the bot sent read back."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import registry
from tests.e2e import World
from tests.tables_e2e import TableDriver

# Options set to their least, so that a points game ends soon.
SHORTEST = ("target", "rounds", "hand_limit")
MOST_TIMEOUTS = 30
TABLE_GAMES = sorted(spec.id for spec in registry.games() if not spec.solo)


def new_options(world: World, command_line: str) -> dict[str, int]:
    group, subcommand = command_line.split()
    command = next(c for c in world.fake.commands[None] if c["name"] == group)
    new = next(o for o in command["options"] if o["name"] == subcommand)
    return {
        option["name"]: option["min_value"]
        for option in new.get("options") or []
        if option["name"] in SHORTEST and "min_value" in option
    }


async def play_on(world: World, driver: TableDriver) -> None:
    """Timeouts until the table closes or, in a chip game, its first hand is over; or until
    so many (Dou Dizhu's timeouts never bid: the cards are dealt again and again)."""
    for _ in range(MOST_TIMEOUTS):
        table = world.bot.runtime.tables.get(driver.table_id) if driver.table_id else None
        if table is None or table.awaiting_next_hand():
            return
        await world.bot.runtime.fire_deadline(table.id)
        await driver.settle()


async def play_a_table(world: World, game: str, said: Callable[[str], str]) -> None:
    """The game's table opened, joined and started with the buttons as `said` words them
    (the English label in, the shown label out), one player's My hand, play by timeouts (the
    default action) to the end (at most MOST_TIMEOUTS of them), a moderator's close, and the
    game's rules, the table's history and the verification of its deals. The driver checks
    after every step that no channel message names a hidden card, and the chips."""
    tester, spec = world.tester, registry.get(game)
    players = [world.alice, world.bob, world.carol, world.admin][: spec.min_players]
    await world.bot.ledger.fund_house(world.guild.id, 10_000, reason="test", key="fund")
    opening = f"{game} new"
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
    if (table_id := driver.table_id) is not None:
        await tester.slash(world.admin, world.channel, "table close")
        await tester.idle()
        assert table_id not in world.bot.runtime.tables, "the closed table plays on"
    await tester.slash(world.bob, world.channel, f"{game} rules")
    await tester.slash(world.bob, world.channel, "table history")
    if record.deal_seed:
        seed, commitment = record.deal_seed, record.deal_commitment
        await tester.slash(
            world.bob, world.channel, "table verify", seed=seed, commitment=commitment
        )
    await tester.idle()


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


def sent_texts(world: World) -> list[str]:
    """Every text the bot sent, each message as posted and as every edit left it."""
    return [text for call in world.fake.calls for text in texts_of(call.body)]


def refused_calls(world: World) -> list:
    """The bot's calls the fake refused as Discord would (a limit broken: 400)."""
    return [call for call in world.fake.calls if call.status == 400]
