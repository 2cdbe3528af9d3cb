"""Two bot processes over one PostgreSQL database, four shards, two guilds (README, Several
processes): each process acts on its own guilds' tables; a click in a DM, which Discord brings
to shard 0's process, reaches the table's owner; a process killed mid-hand is replaced by one
that takes its shards over and resumes its tables, old buttons working; a turn is never edited
into a DM the other process's messages have buried; a process waiting for shards holds none of
them meanwhile, and stops cleanly. The chips are audited after every step."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import DMChannels, PostgresDatabase, open_database
from bot.store.shards import SHARD_KEYS, PostgresShardClaims
from tests.bot_process import bot_processes
from tests.e2e import assert_chips_conserved, eventually, make_world
from tests.fakediscord import Channel, Message, User
from tests.fakediscord.server import EVERYDAY_PERMISSIONS
from tests.tables_e2e import labels

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # bot processes started

# Ends the sessions holding any of the advisory locks $1 (as bot/store/shards.py keys them).
HOLDERS_ENDED = """
SELECT count(pg_terminate_backend(pid)) FROM (SELECT DISTINCT pid FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 1
        AND ((classid::bigint << 32) | objid::bigint) = ANY($1::bigint[])) AS holders
"""

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
        yield world, places, lambda shards, **options: start((COUNT, shards), **options)


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


async def open_delphi(world, channel: Channel, players: list[User]) -> None:
    """The first player opens a Delphi table with the bot as oracle, the others join, and it
    starts: each player is asked about its first card by DM."""
    host, *guests = players
    await world.tester.slash(host, channel, "delphi new", oracle="bot", cards=6)
    await world.tester.idle()
    (table,) = [m for m in world.tester.channel_messages(channel) if m.buttons()]
    for guest in guests:
        await world.tester.click(guest, table, "Join")
    started = await world.tester.click(host, table, "Start")
    assert "started" in started.text, started.text
    await world.tester.idle()


def delphi_prompt(world, player: User) -> Message:
    """The player's latest DM asking about a Delphi card."""
    return [m for m in world.tester.dms(player) if "Yes, correct" in labels(m)][-1]


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
    connection = await asyncpg.connect(postgres_url)  # in this test's schema
    try:
        # The connection holding the locks of shards 2-3 in this schema: not another test's.
        keys = await connection.fetchval(SHARD_KEYS, COUNT, list(SECOND))
        ended = await connection.fetchval(HOLDERS_ENDED, keys)
    finally:
        await connection.close()
    assert ended == 1
    assert await asyncio.to_thread(second.process.wait, 20) == 1
    await eventually(lambda: not second.connected(), what="its gateway connections' end")
    assert "lost the hold on shards 2-3 of 4" in second.log.read_text()
    second.log.write_text("")  # its one ERROR line is the point of the test


async def test_a_dm_that_another_process_sent_since_is_not_edited_under(cluster):
    """Di plays Delphi at a table of the second process, in her DMs, and sits at a Western
    table of the first. She answers a card; the Western table starts, and the first process
    DMs her hand; the next Delphi card comes: the second process must not edit it into the
    DM she answered in, now above the Western hand, where she would not see it (an edit is
    not notified). It comes as a new DM, as it does when one process runs every shard."""
    world, places, start = cluster
    await asyncio.gather(start(FIRST), start(SECOND))
    (near, near_players), (far, far_players) = places["near"], places["far"]
    di = far_players[0]
    world.fake.guild_of(near).members[di.id] = EVERYDAY_PERMISSIONS
    await open_delphi(world, far, far_players)
    answered = await world.tester.click(di, delphi_prompt(world, di), "Yes, correct")
    assert answered.response_type == 7, answered.text  # her answer shows in that DM
    await world.tester.idle()
    await open_western(world, near, [*near_players[:2], di])
    western_hand = world.tester.dms(di)[-1]
    assert "Yes, correct" not in labels(western_hand)  # her Western hand, sent by the first
    for player in far_players[1:]:
        await world.tester.click(player, delphi_prompt(world, player), "Yes, correct")
        await world.tester.idle()
    newest = world.tester.dms(di)[-1]
    assert newest.id != western_hand.id, "the next card was edited into a DM above her hand"
    assert "Card 2 of 5" in newest.text() and "Yes, correct" in labels(newest), newest.text()
    for player in far_players[1:]:  # no other process sent them anything: edited, as ever
        assert len([m for m in world.tester.dms(player) if m.components]) == 1


async def test_a_process_waiting_for_some_of_its_shards_holds_none_of_them(cluster):
    """Processes run shards 0-1 and 2-3; a third, started for 1-2 (as while re-splitting the
    shards), waits. The 2-3 process is killed: the waiter must not take shard 2 while it waits
    for 1, or the 2-3 process started in its place would wait for it, and shards 2 and 3 would
    have no process. Once shard 0's process is gone too, the table's own process still answers
    My hand in its channel, and a play from it (README, Several processes)."""
    world, places, start = cluster
    first, second = await asyncio.gather(start(FIRST), start(SECOND))
    waiter = await start((1, 2), claim_retry_seconds=0.05, ready=False)
    channel, players = places["far"]
    table = await open_western(world, channel, players)
    await waiter.logged("waiting for shards 1-2, which another process holds")
    await second.kill()
    await waiter.logged("waiting for shard 1, which another process holds")  # tried since
    await start(SECOND, ready_within=10)  # takes shards 2-3, resumes the table
    await world.tester.idle()
    await fold(world, players)  # a DM click, forwarded by shard 0's process to the new one

    await first.kill()  # shard 1 is free now, shard 2 still held: the waiter takes neither
    await waiter.logged("waiting for shard 2, which another process holds")
    assert waiter.process.poll() is None  # still waiting, shard 1 not connected
    assert 1 not in {shard.id for shard in world.fake.shards.values()}
    # (the first to act had two prompts: the killed process's, and the new one's at resume)
    (player,) = [p for p in players if "Fold" in labels(world.tester.dms(p)[-1])]
    mine = await world.tester.click(player, table, "My hand")
    assert mine.response is not None and mine.response.ephemeral, mine.text
    taken = await world.tester.click(player, mine.response, "Fold")
    assert taken.response_type in (6, 7), taken.text
    await world.tester.idle()
    await assert_chips_conserved(world.settings)


async def test_a_process_stopped_while_waiting_for_its_shards_ends_cleanly(cluster, postgres_url):
    """SIGTERM to a process still waiting for shards another holds (a standby, under
    systemd): it ends with exit status 0 and one line saying so, as a running process does,
    not with a traceback and status 1 (which systemd would take for a failure)."""
    _, _, start = cluster
    database = await PostgresDatabase.open(postgres_url, pool_size=1, own_loop=False)
    await database.close()  # the bot's tables, claims' among them
    holder = await PostgresShardClaims.open(postgres_url, COUNT, FIRST)
    try:
        await holder.claim()
        waiter = await start(FIRST, claim_retry_seconds=0.05, ready=False)
        await waiter.logged("waiting for shards 0-1, which another process holds")
        assert await waiter.stop() == 0
    finally:
        await holder.close()
    log = waiter.log.read_text()
    assert "stopped while waiting for shards 0-1" in log, log
    assert "Traceback" not in log and " ERROR " not in log, log


async def tournament_in(world, channel: Channel) -> Message:
    (message,) = [
        m
        for m in world.tester.channel_messages(channel)
        if any("tournament #" in embed.get("title", "") for embed in m.embeds)
    ]
    return message


async def tournament_status(world) -> list[str]:
    database = await open_database(world.settings)
    try:
        rows = await database.fetch_all("SELECT status FROM tournaments ORDER BY id")
    finally:
        await database.close()
    return [row[0] for row in rows]


async def test_a_tournament_is_run_by_its_guilds_process_and_resumed_by_its_successor(cluster):
    """A tournament in the far guild is drawn and seated by the second process; with that
    process killed mid-round its match waits (the first process, restarted, resumes only its
    own guild's tournaments and serves the near guild's), and the successor plays it on to the
    payout."""
    world, places, start = cluster
    first = await start(FIRST)
    second = await start(SECOND)
    channel, players = places["far"]
    host = world.fake.add_member(world.fake.guild_of(channel), "Host", manage_guild=True)
    opened = await world.tester.slash(
        host, channel, "tournament new", game="bigtwo", format="elimination", buy_in=10
    )
    assert "is open for registration" in opened.text, opened.text
    await world.tester.idle()
    for player in players:  # three at two-seat tables: the top seed has a bye
        reply = await world.tester.click(player, await tournament_in(world, channel), "Register")
        assert "You are registered" in reply.text, reply.text
    await assert_chips_conserved(world.settings)
    started = await world.tester.click(host, await tournament_in(world, channel), "Start")
    assert "has started" in started.text, started.text
    await world.tester.idle()
    (first_match,) = world.fake.threads_of(channel)
    await second.kill()
    await assert_chips_conserved(world.settings)
    shown = world.fake.messages[(await tournament_in(world, channel)).id]
    shown.payload["edited_timestamp"] = None  # to see whether anyone edits it from here
    assert await first.stop() == 0
    await start(FIRST)  # resumes its own guilds' tournaments only

    near, near_players = places["near"]
    near_host = world.fake.add_member(world.fake.guild_of(near), "Near host", manage_guild=True)
    opened = await world.tester.slash(
        near_host, near, "tournament new", game="totit", format="swiss"
    )
    assert "is open for registration" in opened.text, opened.text  # the first process's
    await world.tester.idle()
    reply = await world.tester.click(near_players[0], await tournament_in(world, near), "Register")
    assert "You are registered" in reply.text, reply.text
    await asyncio.sleep(0.5)
    assert world.fake.threads_of(channel) == [first_match]  # nobody went on without it
    assert shown.payload["edited_timestamp"] is None  # nor redrew its message

    await start(SECOND)
    await world.tester.idle()
    closed = await world.tester.slash(host, first_match, "table close")
    assert closed.text.startswith("The table is closed"), closed.text
    await eventually(lambda: len(world.fake.threads_of(channel)) == 2, what="the final")
    await world.tester.idle()
    final = world.fake.threads_of(channel)[1]
    closed = await world.tester.slash(host, final, "table close")
    assert closed.text.startswith("The table is closed"), closed.text
    await world.tester.idle()

    async def paid() -> bool:
        return await tournament_status(world) == ["finished", "registering"]

    deadline = asyncio.get_running_loop().time() + 10
    while not await paid():
        assert asyncio.get_running_loop().time() < deadline, await tournament_status(world)
        await asyncio.sleep(0.1)
    await assert_chips_conserved(world.settings)
    assert "prize pool **30 chips**" in (await tournament_in(world, channel)).text()
