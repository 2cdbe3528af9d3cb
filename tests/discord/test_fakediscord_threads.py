"""Threads and guild scheduled events in the fake Discord, seen through the real discord.py
client: a thread made, written in, clicked in, listed again after a reconnect, refused,
archived and deleted; a scheduled event made, read, edited, started, ended, cancelled and
refused where Discord refuses it, its gateway events sent only to a client that asked."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl

from tests.e2e import ErrorRecords, eventually
from tests.fakediscord import Channel, FakeDiscord, Guild, Tester, User
from tests.fakediscord.threads import CREATE_PUBLIC_THREADS

pytestmark = pytest.mark.e2e

PUBLIC = discord.ChannelType.public_thread
Status = discord.EventStatus


class Probe(discord.Client):
    """A bare client that keeps the name of every gateway event it receives."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents, enable_debug_events=True, guild_ready_timeout=0.01)
        self.heard: list[str] = []

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        if event == "socket_raw_receive":
            frame = json.loads(args[0])
            if frame["op"] == 0:
                self.heard.append(frame["t"])
        super().dispatch(event, *args, **kwargs)


class Table(discord.ui.View):
    """A table message's one button; it keeps each click's interaction."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.clicks: list[discord.Interaction] = []

    @discord.ui.button(label="Play", custom_id="play")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.clicks.append(interaction)
        await interaction.response.edit_message(content=f"played by {interaction.user.name}")


@dataclass
class Stage:
    fake: FakeDiscord
    tester: Tester
    guild: Guild
    channel: Channel
    alice: User
    clients: list[tuple[Probe, asyncio.Task]] = field(default_factory=list)

    async def connect(self, **intents: bool) -> Probe:
        """A client with the guilds and guild messages intents and `intents`, ready."""
        client = Probe(discord.Intents(guilds=True, guild_messages=True, **intents))
        await client.login(self.fake.token)
        self.clients.append((client, asyncio.create_task(client.connect(reconnect=False))))
        await asyncio.wait_for(client.wait_until_ready(), 5)
        return client

    async def disconnect(self, client: Probe) -> None:
        task = next(task for each, task in self.clients if each is client)
        await client.close()
        await asyncio.wait_for(task, 5)

    async def settle(self, client: Probe) -> None:
        """Until the client has received all the fake sent it: the events due after REST
        calls sent, then a GUILD_UPDATE heard after them."""
        await eventually(lambda: not self.fake._announcing, what="the announcements")
        before = client.heard.count("GUILD_UPDATE")
        await self.fake.dispatch("GUILD_UPDATE", self.fake.guild_payload(self.guild))
        await eventually(lambda: client.heard.count("GUILD_UPDATE") > before, what="the update")


@pytest.fixture
async def stage(monkeypatch) -> AsyncIterator[Stage]:
    errors = ErrorRecords()
    logging.getLogger("discord").addHandler(errors)
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )
    guild = fake.add_guild()
    world = Stage(
        fake, Tester(fake), guild, fake.add_channel(guild), fake.add_member(guild, "Alice")
    )
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


async def open_thread(stage: Stage, client: Probe, name: str = "Match 1") -> discord.Thread:
    """The client makes a public thread in the stage's channel, and hears of it."""
    channel = client.get_channel(stage.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name=name, type=PUBLIC, auto_archive_duration=1440)
    guild = client.get_guild(stage.guild.id)
    await eventually(lambda: guild.get_thread(thread.id) is not None, what="THREAD_CREATE")
    return thread


# ---- threads --------------------------------------------------------------------------------


async def test_a_thread_is_made_and_a_table_posted_and_edited_in_it(stage):
    client = await stage.connect()
    made = await open_thread(stage, client)
    assert (made.type, made.parent_id, made.owner_id, made.name) == (
        PUBLIC,
        stage.channel.id,
        client.user.id,
        "Match 1",
    )
    assert (made.archived, made.locked, made.auto_archive_duration) == (False, False, 1440)
    [thread] = stage.fake.threads_of(stage.channel)
    assert thread.id == made.id and thread.type == 11
    [call] = [c for c in stage.fake.calls if c.path.endswith("/threads")]
    assert (call.body["type"], call.body["auto_archive_duration"]) == (11, 1440)
    assert "THREAD_CREATE" in client.heard

    sent = await client.get_partial_messageable(made.id).send("the table", view=Table())
    await sent.edit(content="the table, redrawn")
    posted = stage.tester.channel_messages(thread)
    assert [(m.id, m.content) for m in posted] == [(sent.id, "the table, redrawn")]
    assert posted[0].button("Play")["custom_id"] == "play"
    assert stage.tester.channel_messages(stage.channel) == []  # not in the thread's channel
    payload = thread.payload()
    assert (payload["message_count"], payload["last_message_id"]) == (1, str(sent.id))


@pytest.mark.parametrize("known", [True, False], ids=["cached", "unknown to the client"])
async def test_a_click_in_a_thread_reaches_the_client_from_the_thread(stage, known):
    """The interaction carries the thread as its channel; discord.py takes the thread from its
    cache, or (a thread it never heard of) builds it from the interaction's channel object."""
    client = await stage.connect()
    if known:
        thread_id = (await open_thread(stage, client)).id
    else:
        thread_id = stage.fake.add_thread(stage.channel, "Match 1", owner=stage.alice).id
    table = Table()
    sent = await client.get_partial_messageable(thread_id).send("the table", view=table)
    clicked = await stage.tester.click(stage.alice, stage.fake.messages[sent.id], "Play")
    assert clicked.response.id == sent.id and clicked.response.content == "played by Alice"
    [interaction] = table.clicks
    assert interaction.channel_id == thread_id
    assert isinstance(interaction.channel, discord.Thread)
    assert interaction.channel.parent_id == stage.channel.id
    assert interaction.permissions.view_channel and interaction.permissions.send_messages_in_threads
    assert interaction.app_permissions.create_public_threads


async def test_after_a_reconnect_guild_create_lists_the_active_threads(stage):
    client = await stage.connect()
    kept = await open_thread(stage, client, "Match 1")
    archived = await (await open_thread(stage, client, "Match 2")).edit(archived=True)
    assert archived.archived
    await stage.disconnect(client)

    again = await stage.connect()
    guild = again.get_guild(stage.guild.id)
    found = guild.get_thread(kept.id)
    assert found is not None
    assert (found.name, found.parent_id, found.owner_id) == (
        "Match 1",
        stage.channel.id,
        again.user.id,
    )
    assert guild.get_thread(archived.id) is None  # Discord lists only active threads
    assert [t.name for t in stage.fake.threads_of(stage.channel)] == ["Match 1", "Match 2"]


async def test_a_thread_where_the_bot_may_not_make_one_is_refused_with_403(stage):
    stage.fake.forbid_threads(stage.channel)
    client = await stage.connect()
    channel = client.get_channel(stage.channel.id)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.create_thread(name="Match 1", type=PUBLIC)
    assert (refused.value.status, refused.value.code) == (403, 50013)
    assert stage.fake.threads_of(stage.channel) == []
    assert not stage.fake.app_permissions(stage.channel) & CREATE_PUBLIC_THREADS
    await stage.settle(client)
    assert "THREAD_CREATE" not in client.heard


async def test_an_archived_thread_takes_a_new_message_but_no_edit(stage):
    """Discord: a message sent unarchives the thread; an archived one's messages stay as
    they are (50083)."""
    client = await stage.connect()
    made = await open_thread(stage, client)
    where = client.get_partial_messageable(made.id)
    sent = await where.send("the table")
    await made.edit(archived=True)
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(content="redrawn")
    assert (refused.value.status, refused.value.code) == (400, 50083)
    guild = client.get_guild(stage.guild.id)
    await stage.settle(client)
    assert guild.get_thread(made.id) is None  # discord.py drops a thread once archived...
    await where.send("a new table")
    [thread] = stage.fake.threads_of(stage.channel)
    assert not thread.thread.archived
    # ...and takes it back from the THREAD_UPDATE that unarchiving sends.
    await eventually(lambda: guild.get_thread(made.id) is not None, what="THREAD_UPDATE")


async def test_a_deleted_thread_gives_raw_thread_delete_and_takes_its_messages(stage):
    client = await stage.connect()
    made = await open_thread(stage, client)
    await client.get_partial_messageable(made.id).send("the table")
    [thread] = stage.fake.threads_of(stage.channel)
    deleted = asyncio.ensure_future(client.wait_for("raw_thread_delete", timeout=5))
    await asyncio.sleep(0)  # its listener in place
    await stage.fake.delete_channel(thread)
    raw = await deleted
    assert (raw.thread_id, raw.parent_id, raw.guild_id, raw.thread_type) == (
        made.id,
        stage.channel.id,
        stage.guild.id,
        PUBLIC,
    )
    assert raw.thread is not None and raw.thread.name == "Match 1"
    assert stage.fake.threads_of(stage.channel) == []
    assert stage.tester.channel_messages(thread) == []
    assert "THREAD_DELETE" in client.heard and "CHANNEL_DELETE" not in client.heard
    with pytest.raises(discord.NotFound) as gone:
        await client.get_partial_messageable(made.id).send("the table again")
    assert gone.value.code == 10003
    assert client.get_channel(stage.channel.id) is not None  # its channel stays


async def test_a_deleted_channel_takes_its_threads_with_only_channel_delete(stage):
    """Discord sends no THREAD_DELETE for the threads of a deleted channel; discord.py gives
    raw_thread_delete for those it had, from the CHANNEL_DELETE."""
    client = await stage.connect()
    made = await open_thread(stage, client)
    [thread] = stage.fake.threads_of(stage.channel)
    deleted = asyncio.ensure_future(client.wait_for("raw_thread_delete", timeout=5))
    await asyncio.sleep(0)
    await stage.fake.delete_channel(stage.channel)
    assert (await deleted).thread_id == made.id
    await stage.settle(client)
    assert "CHANNEL_DELETE" in client.heard and "THREAD_DELETE" not in client.heard
    assert thread.id not in stage.fake.channels and stage.guild.threads == []


async def test_the_bot_deletes_a_thread_only_with_manage_threads(stage):
    client = await stage.connect()
    made = await open_thread(stage, client)
    with pytest.raises(discord.Forbidden):
        await made.delete()
    stage.guild.members[client.user.id] |= 1 << 34  # Manage Threads
    await made.delete()
    assert stage.fake.threads_of(stage.channel) == []
    guild = client.get_guild(stage.guild.id)
    await eventually(lambda: guild.get_thread(made.id) is None, what="THREAD_DELETE")


# ---- scheduled events -----------------------------------------------------------------------


async def schedule(guild: discord.Guild, name: str = "Terrapin tournament", **changes: Any):
    start = discord.utils.utcnow().replace(microsecond=0) + timedelta(hours=1)
    options: dict[str, Any] = {
        "start_time": start,
        "end_time": start + timedelta(hours=2),
        "entity_type": discord.EntityType.external,
        "privacy_level": discord.PrivacyLevel.guild_only,
        "location": "#games",
        "description": "Eight players, four tables",
    }
    return await guild.create_scheduled_event(name=name, **(options | changes))


def heard_events(client: Probe) -> list[str]:
    return [name for name in client.heard if name.startswith("GUILD_SCHEDULED_EVENT_")]


async def test_a_scheduled_event_is_made_read_edited_started_and_ended(stage):
    client = await stage.connect(guild_scheduled_events=True)
    guild = client.get_guild(stage.guild.id)
    event = await schedule(guild)
    start = event.start_time
    assert (event.name, event.status, event.entity_type, event.location) == (
        "Terrapin tournament",
        Status.scheduled,
        discord.EntityType.external,
        "#games",
    )
    assert (event.end_time - start, event.creator_id, event.channel_id) == (
        timedelta(hours=2),
        client.user.id,
        None,
    )
    [held] = stage.fake.events_of(stage.guild)
    assert (held["status"], held["entity_type"], held["privacy_level"]) == (1, 3, 2)
    assert held["entity_metadata"] == {"location": "#games"}
    await eventually(lambda: guild.get_scheduled_event(event.id) is not None, what="the event")

    fetched = await guild.fetch_scheduled_event(event.id)
    assert (fetched.name, fetched.description, fetched.user_count) == (
        "Terrapin tournament",
        "Eight players, four tables",
        0,
    )
    later = start + timedelta(minutes=30)
    edited = await fetched.edit(name="Round 2", description="Four players left", start_time=later)
    assert (edited.name, edited.start_time) == ("Round 2", later)
    assert (held["name"], held["description"]) == ("Round 2", "Four players left")

    started = await edited.start()
    assert started.status is Status.active and held["status"] == 2
    ended = await started.end()
    assert ended.status is Status.completed and held["status"] == 3
    with pytest.raises(discord.HTTPException) as refused:
        await ended.edit(name="Round 3")
    assert (refused.value.status, refused.value.code) == (400, 180000)
    await stage.settle(client)
    assert (
        heard_events(client)
        == ["GUILD_SCHEDULED_EVENT_CREATE"] + ["GUILD_SCHEDULED_EVENT_UPDATE"] * 3
    )


async def test_a_scheduled_event_is_cancelled_and_another_deleted(stage):
    client = await stage.connect(guild_scheduled_events=True)
    guild = client.get_guild(stage.guild.id)
    event = await schedule(guild)
    other = await schedule(guild, "Lowball night")
    cancelled = await event.cancel()
    assert cancelled.status is Status.cancelled
    assert (await guild.fetch_scheduled_event(event.id)).status is Status.cancelled
    assert [e.id for e in await guild.fetch_scheduled_events()] == [other.id]  # live ones

    await other.delete()
    assert [e["id"] for e in stage.fake.events_of(stage.guild)] == [str(event.id)]
    with pytest.raises(discord.NotFound) as gone:
        await guild.fetch_scheduled_event(other.id)
    assert gone.value.code == 10070
    await stage.settle(client)
    assert heard_events(client)[-2:] == [
        "GUILD_SCHEDULED_EVENT_UPDATE",
        "GUILD_SCHEDULED_EVENT_DELETE",
    ]


@pytest.mark.parametrize(
    ("started", "to"),
    [(False, Status.completed), (True, Status.cancelled), (True, Status.scheduled)],
    ids=["scheduled to completed", "active to cancelled", "active to scheduled"],
)
async def test_a_status_change_discord_does_not_allow_is_refused(stage, started, to):
    client = await stage.connect()
    event = await schedule(client.get_guild(stage.guild.id))
    if started:
        event = await event.start()
    with pytest.raises(discord.HTTPException) as refused:
        await event.edit(status=to)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "In status:" in refused.value.text
    assert stage.fake.events_of(stage.guild)[0]["status"] == event.status.value


async def test_events_are_refused_with_403_without_manage_events(stage):
    client = await stage.connect()
    guild = client.get_guild(stage.guild.id)
    made = await schedule(guild)
    stage.fake.forbid_events(stage.guild)
    with pytest.raises(discord.Forbidden) as refused:
        await schedule(guild, "Lowball night")
    assert (refused.value.status, refused.value.code) == (403, 50013)
    for change in (lambda: made.edit(name="Round 2"), made.cancel, made.delete):
        with pytest.raises(discord.Forbidden):
            await change()
    assert (await guild.fetch_scheduled_event(made.id)).name == made.name  # reading is free
    assert [e["name"] for e in stage.fake.events_of(stage.guild)] == ["Terrapin tournament"]


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"scheduled_end_time": None}, "In scheduled_end_time: This field is required"),
        ({"entity_metadata": None}, "In entity_metadata: This field is required"),
        ({"entity_metadata": {}}, "In entity_metadata.location: This field is required"),
        (
            {"scheduled_start_time": -60},
            "In scheduled_start_time: Cannot schedule event in the past",
        ),
        ({"scheduled_end_time": 30}, "In scheduled_end_time:"),
        ({"name": ""}, "In name:"),
        ({"privacy_level": 1}, "In privacy_level:"),
    ],
)
async def test_a_new_event_is_refused_as_discord_refuses_it(stage, change, refusal):
    """External events need an end time and a location; a start in the past is refused.
    Times in `change` are seconds from now."""
    client = await stage.connect()
    now = discord.utils.utcnow()
    payload = {
        "name": "Terrapin tournament",
        "privacy_level": 2,
        "entity_type": 3,
        "scheduled_start_time": (now + timedelta(hours=1)).isoformat(),
        "scheduled_end_time": (now + timedelta(hours=3)).isoformat(),
        "entity_metadata": {"location": "#games"},
    }
    await client.http.create_guild_scheduled_event(stage.guild.id, **payload)  # as it is: fine
    for key, value in change.items():
        timed = key.endswith("_time") and value is not None
        payload[key] = (now + timedelta(seconds=value)).isoformat() if timed else value
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.create_guild_scheduled_event(stage.guild.id, **payload)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert refusal in refused.value.text
    assert len(stage.fake.events_of(stage.guild)) == 1


@pytest.mark.parametrize("asked", [True, False], ids=["with the intent", "without"])
async def test_scheduled_event_events_reach_only_a_client_that_asked(stage, asked):
    """GUILD_SCHEDULED_EVENT_* come with the GUILD_SCHEDULED_EVENTS intent, and only then."""
    client = await stage.connect(guild_scheduled_events=asked)
    guild = client.get_guild(stage.guild.id)
    event = await schedule(guild)
    await (await event.start()).end()
    await schedule(guild, "Lowball night")
    await (await guild.fetch_scheduled_event(event.id)).delete()
    await stage.settle(client)
    expected = ["CREATE", "UPDATE", "UPDATE", "CREATE", "DELETE"]
    assert heard_events(client) == [f"GUILD_SCHEDULED_EVENT_{name}" for name in expected] * asked
