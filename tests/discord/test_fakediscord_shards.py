"""The fake Discord shards as Discord does, seen through the real discord.py client: a
connection identified for a shard hears of the guilds that shard owns and of no other, DMs are
shard 0's, and an event whose shard has no connection is undelivered."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
import yarl
from discord import app_commands

from tests.e2e import ErrorRecords, eventually
from tests.fakediscord import (
    Channel,
    FakeDiscord,
    Guild,
    NotAnswered,
    Shard,
    Tester,
    User,
    shard_of,
)
from tests.fakediscord.server import INVALID_SHARD

INTENTS = discord.Intents(guilds=True, guild_messages=True)
SHARDS = 4


@app_commands.command(description="which client answers")
async def where(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(interaction.client.name)


def event_and_guild(frame: str) -> list[tuple[str, int | None]]:
    """A gateway frame as (event, guild id) if it is an event (None: about no guild)."""
    message = json.loads(frame)
    if message["op"] != 0:
        return []
    name, data = message["t"], message["d"]
    guild_id = data.get("guild_id") or (data.get("id") if name.startswith("GUILD_") else None)
    return [(name, int(guild_id) if guild_id else None)]


class Listening:
    """A probe client: answers /where with its name, and keeps every event it receives, as it
    comes off the socket (before discord.py drops one about a guild it does not know)."""

    def __init__(self, name: str, **options: Any) -> None:
        super().__init__(
            intents=INTENTS, enable_debug_events=True, guild_ready_timeout=0.05, **options
        )
        self.name = name
        self.heard: list[tuple[str, int | None]] = []
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(where)

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        if event == "socket_raw_receive":
            self.heard += event_and_guild(args[0])
        super().dispatch(event, *args, **kwargs)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Identify every shard at once: discord.py waits 5 s between shards for Discord's
        identify rate, which the fake does not limit."""


class ShardedProbe(Listening, discord.AutoShardedClient):
    pass


class PlainProbe(Listening, discord.Client):
    pass


Probe = ShardedProbe | PlainProbe


@dataclass
class Sharded:
    """A fake Discord with a guild on each of four shards, a channel and a member in each."""

    fake: FakeDiscord
    tester: Tester
    guilds: list[Guild] = field(default_factory=list)  # guilds[n] is shard n's
    channels: list[Channel] = field(default_factory=list)
    members: list[User] = field(default_factory=list)
    clients: list[tuple[Probe, asyncio.Task]] = field(default_factory=list)

    async def start(self, client: Probe) -> Probe:
        await client.login(self.fake.token)
        task = asyncio.create_task(client.connect(reconnect=False))
        self.clients.append((client, task))
        await asyncio.wait_for(client.wait_until_ready(), 5)
        await eventually(
            lambda: all(not guild.unavailable for guild in client.guilds),
            what="every guild of the READY created",
        )
        client.heard.clear()  # what it hears from now on is what the tests look at
        return client

    async def ask(self, shard: int | None) -> str:
        """/where from shard `shard`'s guild (None: from a DM); the answering client's name."""
        if shard is None:
            member = self.members[0]
            channel = self.fake._open_dm(member.id)
        else:
            member, channel = self.members[shard], self.channels[shard]
        return (await self.tester.slash(member, channel, "where")).text

    async def settle(self) -> None:
        """Wait until every client has received all the fake sent it: announcements done, then
        a GUILD_UPDATE through every shard, heard by its holder after all before it."""
        await eventually(lambda: not self.fake._announcing, what="the announcements")
        for guild in self.guilds:
            await self.fake.dispatch("GUILD_UPDATE", self.fake.guild_payload(guild))
        for client, _ in self.clients:
            if not client.is_closed():
                await self._heard_every_update(client)

    @staticmethod
    async def _heard_every_update(client: Probe) -> None:
        owned = {guild.id for guild in client.guilds}
        await eventually(
            lambda: owned <= {guild for name, guild in client.heard if name == "GUILD_UPDATE"},
            what=f"{client.name} hearing every update",
        )

    def held_shards(self) -> set[Shard]:
        return set(self.fake.shards.values())


@pytest.fixture
async def sharded(monkeypatch) -> AsyncIterator[Sharded]:
    errors = ErrorRecords()
    logging.getLogger("discord").addHandler(errors)
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )
    world = Sharded(fake, Tester(fake))
    for shard in range(SHARDS):
        guild = fake.add_guild(f"Server {shard}", shard=(shard, SHARDS))
        world.guilds.append(guild)
        world.channels.append(fake.add_channel(guild))
        world.members.append(fake.add_member(guild, f"Member {shard}"))
    try:
        yield world
    finally:
        for client, task in world.clients:
            await client.close()
            await asyncio.wait_for(task, 5)
        await fake.stop()
        logging.getLogger("discord").removeHandler(errors)
    assert not fake.unknown_routes, fake.unknown_routes
    assert not errors.records, [record.getMessage() for record in errors.records]


def each(name: str, *guilds: int | None) -> list[tuple[str, int | None]]:
    return [(name, guild) for guild in guilds]


def ids(guilds: list[Guild] | list[discord.Guild]) -> set[int]:
    return {guild.id for guild in guilds}


@pytest.mark.e2e
async def test_each_client_hears_only_of_its_shards_guilds(sharded):
    low = await sharded.start(ShardedProbe("low", shard_ids=[0, 1], shard_count=SHARDS))
    high = await sharded.start(ShardedProbe("high", shard_ids=[2, 3], shard_count=SHARDS))
    g = [guild.id for guild in sharded.guilds]
    assert ids(low.guilds) == {g[0], g[1]} and ids(high.guilds) == {g[2], g[3]}
    await low.tree.sync()

    assert [await sharded.ask(shard) for shard in range(SHARDS)] == ["low", "low", "high", "high"]
    assert await sharded.ask(None) == "low"  # a DM is shard 0's
    await sharded.fake.delete_channel(sharded.channels[3])
    await sharded.settle()

    # Each hears its guilds' interactions, its replies there (MESSAGE_CREATE), the updates;
    # the DM's reply reaches no one: neither asked for DM messages.
    assert Counter(low.heard) == Counter(
        [
            *each("INTERACTION_CREATE", g[0], g[1], None),
            *each("MESSAGE_CREATE", g[0], g[1]),
            *each("GUILD_UPDATE", g[0], g[1]),
        ]
    )
    assert Counter(high.heard) == Counter(
        [
            *each("INTERACTION_CREATE", g[2], g[3]),
            *each("MESSAGE_CREATE", g[2], g[3]),
            *each("CHANNEL_DELETE", g[3]),
            *each("GUILD_UPDATE", g[2], g[3]),
        ]
    )
    assert not high.get_guild(g[3]).channels
    assert sharded.fake.undelivered == []


@pytest.mark.e2e
async def test_a_gone_clients_events_are_undelivered_until_another_takes_its_shards(sharded):
    low = await sharded.start(ShardedProbe("low", shard_ids=[0, 1], shard_count=SHARDS))
    await sharded.start(ShardedProbe("high", shard_ids=[2, 3], shard_count=SHARDS))
    await low.tree.sync()
    g = [guild.id for guild in sharded.guilds]

    await low.close()
    await eventually(
        lambda: sharded.held_shards() == {Shard(2, SHARDS), Shard(3, SHARDS)},
        what="low's connections' end",
    )
    with pytest.raises(NotAnswered, match="no connection"):
        await sharded.ask(1)
    with pytest.raises(NotAnswered, match="no connection"):
        await sharded.ask(None)
    await sharded.fake.delete_channel(sharded.channels[0])
    assert [(event.name, event.guild_id) for event in sharded.fake.undelivered] == [
        ("INTERACTION_CREATE", g[1]),
        ("INTERACTION_CREATE", None),
        ("CHANNEL_DELETE", g[0]),
    ]
    assert await sharded.ask(2) == "high"  # the other shards carry on

    successor = await sharded.start(ShardedProbe("successor", shard_ids=[0, 1], shard_count=SHARDS))
    assert ids(successor.guilds) == {g[0], g[1]}
    assert not successor.get_guild(g[0]).channels  # deleted while no one held the shard
    assert [await sharded.ask(shard) for shard in (0, 1, None)] == ["successor"] * 3
    assert len(sharded.fake.undelivered) == 3


@pytest.mark.e2e
async def test_a_client_without_shards_hears_of_every_guild(sharded):
    plain = await sharded.start(PlainProbe("plain"))
    assert sharded.held_shards() == {Shard(0, 1)}
    assert ids(plain.guilds) == ids(sharded.guilds)
    await plain.tree.sync()
    assert [await sharded.ask(shard) for shard in (0, 1, 2, 3, None)] == ["plain"] * 5
    await sharded.fake.delete_channel(sharded.channels[2])
    await sharded.settle()
    assert ("CHANNEL_DELETE", sharded.guilds[2].id) in plain.heard
    assert sharded.fake.undelivered == []


@pytest.mark.e2e
async def test_a_client_given_no_shard_count_takes_the_recommended_one(sharded):
    sharded.fake.recommended_shards = 2
    auto = await sharded.start(ShardedProbe("auto"))
    assert auto.shard_count == 2
    assert sharded.held_shards() == {Shard(0, 2), Shard(1, 2)}
    assert {(guild.id, guild.shard_id) for guild in auto.guilds} == {
        (guild.id, shard_of(guild.id, 2)) for guild in sharded.guilds
    }
    await auto.tree.sync()
    assert [await sharded.ask(shard) for shard in (0, 1, 2, 3, None)] == ["auto"] * 5


@pytest.mark.e2e
async def test_the_newest_connection_for_a_shard_holds_it(sharded):
    """The older stays up, hearing nothing for the shard, and has it back when the newer goes."""
    first = await sharded.start(ShardedProbe("first", shard_ids=[0, 1], shard_count=SHARDS))
    await first.tree.sync()
    second = await sharded.start(ShardedProbe("second", shard_ids=[1], shard_count=SHARDS))
    assert [await sharded.ask(shard) for shard in (0, 1)] == ["first", "second"]
    await second.close()
    await eventually(
        lambda: len(sharded.fake.shards) == 2, what="the second client's connection's end"
    )
    assert await sharded.ask(1) == "first"
    assert not first.is_closed()
    assert [guild for name, guild in first.heard if name == "INTERACTION_CREATE"] == [
        sharded.guilds[0].id,
        sharded.guilds[1].id,
    ]


@pytest.mark.e2e
async def test_an_identify_for_a_shard_that_cannot_be_is_closed_with_4010(sharded):
    async with aiohttp.ClientSession() as session:
        socket = await session.ws_connect(sharded.fake.gateway_url)
        await socket.receive_json()  # hello
        await socket.send_json({"op": 2, "d": {"token": "t", "intents": 1, "shard": [4, 4]}})
        closed = await socket.receive(timeout=5)
    assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == INVALID_SHARD
    assert sharded.fake.shards == {}


@pytest.mark.parametrize("shard", [(0, 1), (1, 4), (3, 4), (15, 16)])
def test_a_guild_added_for_a_shard_is_that_shards(shard):
    fake = FakeDiscord()
    guilds = [fake.add_guild(shard=shard) for _ in range(3)]
    assert {shard_of(guild.id, shard[1]) for guild in guilds} == {shard[0]}
    assert all(17 <= len(str(guild.id)) <= 19 for guild in guilds)
    assert len(ids(guilds)) == 3
