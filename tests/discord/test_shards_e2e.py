"""Two bot processes over one PostgreSQL database, four shards, two guilds (README, Several
processes): each process acts on its own guilds' tables; a click in a DM, which Discord brings
to shard 0's process, reaches the table's owner; a process killed mid-hand is replaced by one
that takes its shards over and resumes its tables, old buttons working. The chips are audited
after every step."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import DMChannels, open_database
from tests.bot_process import bot_processes
from tests.e2e import assert_chips_conserved, eventually, make_world
from tests.fakediscord import Channel, Message, User

pytestmark = pytest.mark.e2e

COUNT = 4
FIRST, SECOND = (0, 1), (2, 3)  # the two processes' shards: DMs come to the first


@pytest.fixture
async def cluster(tmp_path, monkeypatch, postgres_url):
    world = await make_world(tmp_path, monkeypatch, postgres_url)
    fake = world.fake
    places = {}
    for name, shard, players in (("near", 1, "Ann Bo Cy"), ("far", 3, "Di Ed Flo")):
        guild = fake.add_guild(name.title(), shard=(shard, COUNT))
        places[name] = (
            fake.add_channel(guild),
            [fake.add_member(guild, player) for player in players.split()],
        )
    async with bot_processes(world, tmp_path) as start:
        yield world, places, lambda shards: start((COUNT, shards))


async def open_western(world, channel: Channel, players: list[User]) -> Message:
    """The first player opens a Western table, the others join, and it starts."""
    host, *guests = players
    await world.tester.slash(host, channel, "western new")
    await world.tester.idle()
    (table,) = [m for m in world.tester.channel_messages(channel) if m.buttons()]
    for guest in guests:
        await world.tester.click(guest, table, "Join")
    started = await world.tester.click(host, table, "Start")
    assert "started" in started.text, started.text
    await world.tester.idle()
    return world.fake.messages[table.id]


def to_act(world, players: list[User]) -> tuple[User, Message]:
    """The player whose latest DM holds a Fold button: the one to act."""
    waiting = [
        (player, dms[-1])
        for player in players
        if (dms := [m for m in world.tester.dms(player) if m.components])
        and any(button.get("label") == "Fold" for button in dms[-1].buttons())
    ]
    assert len(waiting) == 1, [player.name for player, _ in waiting]
    return waiting[0]


async def fold(world, players: list[User]) -> None:
    player, prompt = to_act(world, players)
    reply = await world.tester.click(player, prompt, "Fold")
    assert reply.response_type in (6, 7), reply.text  # taken: the prompt moves on
    await world.tester.idle()


async def test_each_process_plays_its_own_guilds_tables_and_dm_clicks_reach_them(cluster):
    world, places, start = cluster
    await start(FIRST)
    await start(SECOND)
    for name in ("near", "far"):
        channel, players = places[name]
        table = await open_western(world, channel, players)
        await assert_chips_conserved(world.settings)
        await fold(world, players)  # for "far", from the first process to the second
        await assert_chips_conserved(world.settings)
        await fold(world, players)
        await assert_chips_conserved(world.settings)
        shown = world.fake.messages[table.id].text()
        assert shown.count(" folds.") == 2 and "· 102 chips" in shown, shown  # the pot of 3
        mine = await world.tester.click(players[0], table, "My hand")
        assert mine.response is not None and mine.response.ephemeral, mine.text
        closed = await world.tester.slash(players[0], channel, "table close")
        assert "The table is closed" in closed.text, closed.text
        await world.tester.idle()
        await assert_chips_conserved(world.settings)


async def test_a_killed_process_is_replaced_and_its_table_resumes_with_old_buttons(cluster):
    world, places, start = cluster
    await start(FIRST)
    second = await start(SECOND)
    channel, players = places["far"]
    await open_western(world, channel, players)
    await fold(world, players)
    player, old_prompt = to_act(world, players)
    await second.kill()
    await assert_chips_conserved(world.settings)

    # Nobody holds the table's shard: the click is answered, and changes nothing.
    refused = await world.tester.click(player, old_prompt, "Fold")
    assert "try again in a few seconds" in refused.text, refused.text
    await assert_chips_conserved(world.settings)

    await start(SECOND)  # takes the shards over and resumes the table
    await world.tester.idle()
    taken = await world.tester.click(player, old_prompt, "Fold")
    assert taken.response_type in (6, 7), taken.text
    await world.tester.idle()
    await assert_chips_conserved(world.settings)
    closed = await world.tester.slash(players[0], channel, "table close")
    assert "The table is closed" in closed.text, closed.text
    await world.tester.idle()
    await assert_chips_conserved(world.settings)


async def test_a_process_stopped_by_sigterm_saves_what_it_shows_and_its_successor_goes_on(cluster):
    """A supervisor's stop: the process closes as on Ctrl-C (exit 0), keeping the reply token
    of the click it was forwarded, and the next process resumes without sending anyone's
    prompt again."""
    world, places, start = cluster
    await start(FIRST)
    second = await start(SECOND)
    channel, players = places["far"]
    await open_western(world, channel, players)
    await fold(world, players)  # forwarded to the second process, which answers it
    player, prompt = to_act(world, players)
    assert await second.stop() == 0
    database = await open_database(world.settings)
    try:
        kept = await DMChannels(database).reply_tokens(now=0.0)
    finally:
        await database.close()
    assert len(kept) == 1  # the folding player's click, answered by the stopped process
    sent = len(world.fake.messages)
    await start(SECOND)
    await world.tester.idle()
    assert len(world.fake.messages) == sent  # no prompt sent again
    taken = await world.tester.click(player, prompt, "Fold")
    assert taken.response_type in (6, 7), taken.text
    await world.tester.idle()
    await assert_chips_conserved(world.settings)


async def test_a_process_that_loses_its_hold_on_its_shards_stops(cluster, postgres_url):
    """The server ends the connection holding the second process's shards (as a restart of
    the server or a network cut would): another process may take them now, so it stops at
    once, exit status 1, for its supervisor to start it again."""
    _, _, start = cluster
    await start(FIRST)
    second = await start(SECOND)
    connection = await asyncpg.connect(postgres_url)
    try:
        ended = await connection.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = 'cardtable-shards' AND pid <> pg_backend_pid()"
            " AND query NOT LIKE '%pg_terminate_backend%'"
            " AND backend_start = (SELECT max(backend_start) FROM pg_stat_activity"
            "  WHERE application_name = 'cardtable-shards')"
        )
    finally:
        await connection.close()
    assert ended == 1
    assert await asyncio.to_thread(second.process.wait, 20) == 1
    await eventually(lambda: not second.connected(), what="its gateway connections' end")
    assert "lost the hold on shards 2-3 of 4" in second.log.read_text()
    second.log.write_text("")  # its one ERROR line is the point of the test
