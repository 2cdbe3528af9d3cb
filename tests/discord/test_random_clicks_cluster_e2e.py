"""Random clicks on two bot processes over one PostgreSQL database (README, Several processes):
two guilds, one per process, each with a table of a game drawn at random; their members press
any control they can see, while now and then a moderator deletes one of the bot's messages, a
process is killed or stopped and started again, or is killed in the middle of a click. Clicks
go unanswered only while a process is down; at the end both tables close, their escrows are
empty and every chip is where the ledger says (bot_processes: no process logged an error).
This seed found a Lowball table both its players had left between hands, which /table close
said it had closed while it stayed open until its pause ran out (tests/tables/test_runtime.py
has that case for every game); longer runs since, 94 seeds of 200 to 400 steps (42 of them
with a Backhand table, its house funded), found nothing else."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.engine import registry
from bot.store import open_database
from bot.store.ledger import Ledger
from tests.bot_process import BotProcess, bot_processes
from tests.discord.test_random_clicks_e2e import bots_messages, click_anything, in_sight
from tests.e2e import World, make_world
from tests.fakediscord import Channel, Message, User
from tests.fakediscord.tester import DiscordClientRefuses, NotAnswered
from tests.languages_e2e import TABLE_GAMES, new_options

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # bot processes started

COUNT = 4
SHARDS = {"near": (0, 1), "far": (2, 3)}  # DMs come to the first process, as to shard 0
STEPS = 80
SEED = 4  # Last One and Lowball (points and chips), with kills mid-click and between


async def open_table(world: World, channel: Channel, members: list[User], game: str) -> None:
    """The first member opens a table of `game`, enough others join, and it starts."""
    for member in members:  # each member's first chips, before any count
        await world.tester.slash(member, channel, "balance")
    opening = f"{game} new"
    await world.tester.slash(members[0], channel, opening, **new_options(world, opening))
    await world.tester.idle()
    (table,) = [m for m in world.tester.channel_messages(channel) if m.buttons()]
    for guest in members[1 : registry.get(game).min_players]:
        await world.tester.click(guest, table, "Join")
    await world.tester.click(members[0], table, "Start")
    await world.tester.idle()


async def test_random_clicks_on_two_processes_keep_every_chip(tmp_path, monkeypatch, postgres_url):
    chooser = random.Random(SEED)
    world = await make_world(tmp_path, monkeypatch, postgres_url)
    places: dict[str, tuple[Channel, list[User]]] = {}
    for name, (_, shard) in SHARDS.items():
        guild = world.fake.add_guild(name.title(), shard=(shard, COUNT))
        members = [world.fake.add_member(guild, f"{name} {i}") for i in range(4)]
        members[-1].accepts_dms = False  # their hand comes by My hand only
        places[name] = (world.fake.add_channel(guild), members)
    async with bot_processes(world, tmp_path) as start:
        processes: dict[str, BotProcess] = {}
        for name, shards in SHARDS.items():
            processes[name] = await start((COUNT, shards))
        for channel, members in places.values():
            await open_table(world, channel, members, chooser.choice(TABLE_GAMES))
        down: set[str] = set()
        answers: dict[int, list[Message]] = {}
        for _ in range(STEPS):
            roll = chooser.random()
            if roll < 0.05 and not down:  # a crash, or a supervisor's stop
                name = chooser.choice(list(SHARDS))
                await (processes[name].kill() if chooser.random() < 0.6 else processes[name].stop())
                down.add(name)
            elif roll < 0.2 and down:
                name = down.pop()
                processes[name] = await start((COUNT, SHARDS[name]))
            elif roll < 0.23 and bots_messages(world):
                await world.fake.delete_message(chooser.choice(bots_messages(world)))
            else:
                name = chooser.choice(list(places))
                channel, members = places[name]
                user = chooser.choice(members)
                shown = in_sight(world, user, channel, answers.get(user.id, []))
                if not shown:
                    continue
                click = click_anything(world, user, chooser.choice(shown), chooser)
                if not down and chooser.random() < 0.05:  # killed in the middle of a click
                    victim = chooser.choice(list(SHARDS))
                    clicking = asyncio.create_task(click)
                    await asyncio.sleep(chooser.random() * 0.05)
                    await processes[victim].kill()
                    down.add(victim)
                    await asyncio.gather(clicking, return_exceptions=True)
                    continue
                try:
                    reply = await click
                except DiscordClientRefuses:  # a select's bounds its client keeps
                    continue
                except NotAnswered:
                    assert down, "a click went unanswered with both processes up"
                    continue
                mine = [*answers.get(user.id, []), *(m for m in reply.messages if m.ephemeral)]
                answers[user.id] = mine[-6:]
            await world.tester.idle()
        for name in down:
            processes[name] = await start((COUNT, SHARDS[name]))
        await world.tester.idle()
        for channel, members in places.values():
            await world.tester.slash(members[0], channel, "table close")
            await world.tester.idle()
        database = await open_database(world.settings)
        try:
            totals = await Ledger(database, starting_chips=0).totals()
            (open_tables,) = await database.fetch_one(
                "SELECT COUNT(*) FROM game_tables WHERE status != 'closed'"
            )
        finally:
            await database.close()
    assert totals.consistent, totals
    assert totals.escrows == 0 and open_tables == 0, (totals, open_tables)
