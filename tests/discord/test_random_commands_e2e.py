"""Random slash commands, as a modified client could send them: any command from any member,
in the channel, a tournament's match thread or their DMs, with values of any type and size or
required ones left out (or, one time in two, values the command takes), some late; between
them, random clicks on whatever the members see, a day passing with every deadline, and a
moderator deleting one of the bot's messages. Each command must be answered, the ledger
balance after each, and nothing be logged as an error (the world fixture). Longer runs of it
(more seeds and steps, on PostgreSQL, with restarts) found a late /table close of a table in
play and a late /table history answering twice (tests/discord/test_late_clicks_e2e.py); this
seed meets the second."""

import random
from datetime import timedelta

import pytest

from bot.discord.replies import LATE_AFTER
from tests.discord.test_random_clicks_e2e import bots_messages, click_anything, controls, in_sight
from tests.e2e import World
from tests.fakediscord import Channel, Message, User
from tests.fakediscord.tester import DiscordClientRefuses

STEPS = 150
STRINGS = ["", "x", "a" * 3000, "🃏♠", "\x00", "<@1>", "@everyone", "-1", "{name}", "西部", "  "]
# Discord's integers are JSON numbers within ±2^53; a modified client may send other types.
NUMBERS = [0, -1, 1, 2, 10**6, 2**53 - 1, -(2**53 - 1), 1.5, -0.0, 1e308, "12", "abc", True]


def taken_value(option: dict, world: World, chooser: random.Random) -> object:
    """A value the command takes: one of its choices, a number within its bounds (often its
    smallest: a tournament's id, a table's size), a member of the server."""
    choices = [choice["value"] for choice in option.get("choices") or []]
    if choices:
        return chooser.choice(choices)
    if option["type"] in (4, 10):
        low = int(option.get("min_value", 1))
        spread = 2 if chooser.random() < 0.5 else 400
        return chooser.randint(low, int(min(option.get("max_value", low + 50), low + spread)))
    if option["type"] == 5:
        return chooser.random() < 0.5
    if option["type"] == 6:
        return chooser.choice([world.alice, world.bob, world.carol, world.admin])
    return chooser.choice(["x", "1"])


def any_value(option: dict, world: World, chooser: random.Random, stranger: User) -> object:
    """What a modified client could send for the option, whatever its type."""
    if option["type"] == 6:
        return chooser.choice([*world.members.values(), stranger])
    return chooser.choice([*STRINGS, *NUMBERS, None])


def command_options(
    holder: dict, world: World, chooser: random.Random, stranger: User
) -> dict[str, object]:
    taken = chooser.random() < 0.5
    options = {}
    for option in holder.get("options", []):
        if (option.get("required") and (taken or chooser.random() < 0.9)) or chooser.random() < 0.5:
            options[option["name"]] = (
                taken_value(option, world, chooser)
                if taken
                else any_value(option, world, chooser, stranger)
            )
    return options


def threads(world: World) -> list[Channel]:
    return [c for c in world.fake.channels.values() if c.parent_id == world.channel.id]


def where_to_run(world: World, user: User, chooser: random.Random) -> Channel:
    """The channel mostly; else a match thread or the member's DMs."""
    roll = chooser.random()
    if roll < 0.7:
        return world.channel
    if roll < 0.85 and threads(world):
        return chooser.choice(threads(world))
    return world.fake._open_dm(user.id)


def shown_to(world: World, user: User, answers: list[Message]) -> list[Message]:
    shown = in_sight(world, user, world.channel, answers)
    for thread in threads(world):
        shown += [
            m for m in world.tester.channel_messages(thread) if controls(m) and not m.ephemeral
        ]
    return shown


async def run_any_command(world: World, user: User, chooser: random.Random, stranger: User):
    commands = world.tester.commands(world.guild.id)
    path = chooser.choice(sorted(commands))
    options = command_options(commands[path], world, chooser, stranger)
    channel = where_to_run(world, user, chooser)
    if channel.guild_id is None:  # a member is resolved in a server only
        options = {name: v for name, v in options.items() if not isinstance(v, User)}
    age = LATE_AFTER + chooser.uniform(0.1, 1.2) if chooser.random() < 0.1 else 0.0
    return await world.tester.slash(user, channel, path, checked=False, age=age, **options)


@pytest.mark.slow  # 150 random commands and clicks
async def test_random_commands_are_answered_and_keep_the_ledger(world):
    chooser, tester, fake = random.Random(15), world.tester, world.fake
    stranger = User(fake.snowflake(), "Stranger")  # never a member of the server
    fake.users[stranger.id] = stranger
    members = [world.alice, world.bob, world.carol, world.admin]
    await world.bot.ledger.fund_house(world.guild.id, 10_000, reason="test", key="fund")
    answers: dict[int, list[Message]] = {member.id: [] for member in members}
    for _ in range(STEPS):
        user = chooser.choice(members)
        shown = shown_to(world, user, answers[user.id])
        roll = chooser.random()
        try:
            if roll < 0.03 and bots_messages(world):
                await fake.delete_message(chooser.choice(bots_messages(world)))
            elif roll < 0.06:
                world.clock.now += timedelta(days=1)
                for table_id in list(world.bot.runtime.tables):
                    await world.bot.runtime.fire_deadline(table_id)
            elif roll < 0.4 and shown:
                reply = await click_anything(world, user, chooser.choice(shown), chooser)
            else:
                reply = await run_any_command(world, user, chooser, stranger)
        except DiscordClientRefuses:  # what even a modified client can't send
            continue
        if roll >= 0.06:
            ephemeral = [m for m in reply.messages if m.ephemeral]
            answers[user.id] = [*answers[user.id], *ephemeral][-6:]
        await tester.idle()
        assert (await world.bot.ledger.totals()).consistent
