"""Every table game under random clicks: each member presses any control they can see (the
table message, their DMs, the private answers they were sent; one member's DMs are closed),
with any values a select allows; deadlines pass now and then, and a moderator deletes one of
the bot's messages. After each click the bot has answered, logged no error (the world
fixture), shown no hidden card in the channel and kept every chip; a close at the end empties
the table's escrow. Longer runs of it (more clicks and seeds) found a Calabrasella timeout
naming, in the channel, the card the declarer gave back in private (tests/tables/
test_runtime.py now has that case)."""

import random

import pytest

from bot.engine import registry
from tests.e2e import World
from tests.fakediscord import Channel, Message, User
from tests.fakediscord.tester import DiscordClientRefuses
from tests.languages_e2e import TABLE_GAMES, new_options
from tests.tables_e2e import TableDriver

CLICKS = 100
DEADLINE_EVERY = 8  # about one click in this many lets a deadline pass instead
DELETE_EVERY = 25  # and one in this many, a moderator deletes one of the bot's messages


def controls(message: Message) -> list[dict]:
    """The buttons and selects a member can use on `message` (links open no interaction)."""
    return [
        item
        for row in message.components
        for item in row["components"]
        if item["type"] in (2, 3) and not item.get("disabled") and item.get("style") != 5
    ]


def in_sight(world: World, user: User, channel: Channel, answers: list[Message]) -> list[Message]:
    """The messages with controls `user` sees: the channel's, their DMs, their answers."""
    shown = world.tester.channel_messages(channel) + world.tester.dms(user) + answers
    return [m for m in shown if not m.deleted and m.visible_to in (None, user.id) and controls(m)]


def bots_messages(world: World) -> list[Message]:
    """The bot's messages a moderator (or a member, in their DMs) could delete."""
    return [
        m for m in world.fake.messages.values() if m.author.bot and not (m.deleted or m.ephemeral)
    ]


async def click_anything(world: World, user: User, message: Message, chooser: random.Random):
    """`user` presses a random control of `message`, as their own client would send it."""
    control = chooser.choice(controls(message))
    if control["type"] == 2:
        return await world.tester.press_id(user, message, control["custom_id"])
    values = [option["value"] for option in control["options"]]
    most = min(control.get("max_values", 1), len(values))
    count = chooser.randint(min(control.get("min_values", 1), most), most)
    chosen = chooser.sample(values, count)
    return await world.tester.choose(user, message, chosen, control["custom_id"])


@pytest.mark.slow  # a game of random clicks, for each game
@pytest.mark.parametrize("game", TABLE_GAMES)
async def test_random_clicks_answer_and_keep_chips_and_secrets(world, game):
    chooser, tester = random.Random(game), world.tester
    members = [world.alice, world.bob, world.carol, world.admin]
    world.carol.accepts_dms = False  # her hand comes by My hand only
    for member in members:  # each member's first chips, before the count
        await tester.slash(member, world.channel, "balance")
    await world.bot.ledger.fund_house(world.guild.id, 10_000, reason="test", key="fund")
    opening = f"{game} new"
    await tester.slash(world.alice, world.channel, opening, **new_options(world, opening))
    await tester.idle()
    driver = TableDriver(world)
    for guest in members[1 : registry.get(game).min_players]:
        await tester.click(guest, driver.message(), "Join")
    driver.total_chips = (await world.bot.ledger.totals(world.guild.id)).held
    answers: dict[int, list[Message]] = {member.id: [] for member in members}
    for _ in range(CLICKS):
        if driver.table_id is None:
            break
        user = chooser.choice(members)
        shown = in_sight(world, user, world.channel, answers[user.id])
        if chooser.randrange(DELETE_EVERY) == 0:
            await world.fake.delete_message(chooser.choice(bots_messages(world)))
        elif chooser.randrange(DEADLINE_EVERY) == 0 or not shown:
            await world.bot.runtime.fire_deadline(driver.table_id)
        else:
            try:
                reply = await click_anything(world, user, chooser.choice(shown), chooser)
            except DiscordClientRefuses:  # a select's bounds its client keeps
                continue
            answers[user.id] = [*answers[user.id], *(m for m in reply.messages if m.ephemeral)][-6:]
        await driver.settle()
    if driver.table_id is not None:
        await tester.slash(world.admin, world.channel, "table close")
        await tester.idle()
    assert driver.table_id is None
    assert (await world.bot.ledger.totals(world.guild.id)).escrows == 0
