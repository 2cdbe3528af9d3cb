"""The bot process: cogs, command sync, refusing a database from a newer bot."""

import asyncio
import functools
import gc
import logging
import sqlite3
import sys

import discord
import discord.utils
import orjson

import bot.__main__ as entry
from bot import eventloop
from bot.app import cog_modules
from bot.collector import FULL_COLLECTION_EVERY, YOUNG_COLLECTION_AFTER


async def test_every_cog_is_loaded_with_one_log_line(world, caplog):
    caplog.set_level(logging.INFO, logger="bot.app")
    await world.stop_bot()
    await world.start_bot()
    loaded = [r.getMessage() for r in caplog.records if r.getMessage().startswith("loaded ")]
    assert loaded == [f"loaded {module}" for module in cog_modules()]
    assert "cogs.economy" in cog_modules()
    assert {"Economy", "Big Two", "Western Terrapin"} <= set(world.bot.cogs)


async def test_commands_sync_to_the_development_guild_when_set(world):
    await world.stop_bot()
    world.settings.dev_guild_id = world.guild.id
    world.fake.commands.clear()
    await world.start_bot()
    assert None not in world.fake.commands
    names = {command["name"] for command in world.fake.commands[world.guild.id]}
    assert {"balance", "daily", "give", "leaderboard", "chips"} <= names
    reply = await world.tester.slash(world.alice, world.channel, "balance")
    assert reply.text == "You have 1,000 chips."


async def test_the_bot_opens_its_database_as_durable_as_set(world):
    synchronous = "PRAGMA synchronous"
    assert (await world.bot.database.fetch_one(synchronous))[0] == 2  # FULL, the default
    await world.stop_bot()
    world.settings.durability = "normal"
    await world.start_bot()
    assert (await world.bot.database.fetch_one(synchronous))[0] == 1  # NORMAL


def test_command_names_do_not_clash(world):
    names = [command["name"] for command in world.fake.commands[None]]
    assert len(names) == len(set(names))


def test_a_database_from_a_newer_bot_stops_start_up_with_one_sentence(
    fake_discord_in_a_thread, restore_logging, monkeypatch, tmp_path, capsys
):
    database = tmp_path / "newer.sqlite3"
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA user_version = 99")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", fake_discord_in_a_thread.token)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    assert entry.main() == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "schema version 99" in lines[0] and "newer version" in lines[0]


async def test_the_bot_as_run_leaves_what_it_started_with_out_of_full_collections(world):
    """`python -m bot` freezes what exists after start-up and resume (gc.freeze), so the
    garbage collector's full collections don't walk it again, and makes those collections
    rarer, young ones too; tests leave all that off."""
    assert gc.get_freeze_count() == 0
    thresholds = gc.get_threshold()
    await world.stop_bot()
    world.bot_options = {"freeze_after_setup": True}
    try:
        await world.start_bot()
        assert gc.get_freeze_count() > 10_000
        assert gc.get_threshold() == (YOUNG_COLLECTION_AFTER, thresholds[1], FULL_COLLECTION_EVERY)
        assert thresholds[0] < YOUNG_COLLECTION_AFTER and thresholds[2] < FULL_COLLECTION_EVERY
        reply = await world.tester.slash(world.alice, world.channel, "balance")
        assert reply.text == "You have 1,000 chips."
        assert world.bot.collector_pace._timer is not None  # pacing the collector by load
        await world.stop_bot()
        assert world.bot.collector_pace._timer is None
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_discord_py_parses_and_writes_json_with_orjson():
    assert discord.utils.HAS_ORJSON
    assert discord.utils._from_json is orjson.loads


async def running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def test_the_bot_runs_on_uvloop_where_it_has_a_build():
    """pyproject.toml installs uvloop on every platform it builds for, all but Windows."""
    loop = eventloop.run(running_loop())
    assert type(loop).__module__.split(".")[0] == (
        "asyncio" if sys.platform == "win32" else "uvloop"
    )


async def test_the_bot_reads_nothing_of_messages_but_their_deletion(world):
    """It asks the gateway for its guilds and their message events alone, and drops unread the
    events of messages made or edited (no Message built, no listener run): a busy server's
    chat and the bot's own table edits would otherwise each be parsed for nothing."""
    (intents,) = world.fake.intents.values()
    assert intents == discord.Intents(guilds=True, guild_messages=True).value
    heard: list[str] = []

    async def spy(event: str, *_: object) -> None:
        heard.append(event)

    for event in ("message", "raw_message_edit", "raw_message_delete"):
        world.bot.add_listener(functools.partial(spy, event), f"on_{event}")
    chat = world.fake._new_message(world.channel, {"content": "gg"}, [], author=world.alice)
    world.fake._edit(chat, {"content": "gg wp"}, [])
    world.fake._message_verb("DELETE", chat, None, [])  # heard after the two before it
    async with asyncio.timeout(5):
        while not heard:
            await asyncio.sleep(0.01)
    assert heard == ["raw_message_delete"]
