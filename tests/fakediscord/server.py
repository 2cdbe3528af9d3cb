"""A small fake Discord (REST + Gateway) on 127.0.0.1 for end-to-end tests.

The real, unmodified discord.py client connects to it (docs/discord-testing.md).
It keeps users, guilds, channels, DMs and messages; serves the gateway handshake and command
sync; turns test actions (a slash command, a click, a select, a modal) into interactions; and
records every REST call. It answers 400 (code 50035) where Discord would refuse a payload.

It shards as Discord does: a connection that IDENTIFYs with `"shard": [id, count]` is that
shard's and hears only about the guilds it owns (`shard_of`); one without is shard 0 of 1 and
hears about every guild. See `dispatch` for where an event goes.

Threads and guild scheduled events are in threads.py (`ThreadsAndEvents`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

import orjson
from aiohttp import WSMsgType, web

from tests.fakediscord.limits import DiscordRefusal, check_commands, check_message, check_modal
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.threads import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILDS,
    THREAD_PERMISSIONS,
    Refused,
    ThreadInfo,
    ThreadsAndEvents,
    live,
    thread_payload,
)

DISCORD_EPOCH_MS = 1420070400000
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 14, 1 << 15
EVERYDAY_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | (1 << 16)
    | (1 << 31)
    | THREAD_PERMISSIONS
)
EPHEMERAL = 1 << 6
# Gateway intents that bring a channel's message events (made, edited, deleted).
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
# Discord refuses an interaction's first answer (10062 "Unknown interaction") once this long has
# passed since it was created, as its id tells; a token never answered in time is dead after.
ANSWER_WITHIN = 3.0
# Close code for an IDENTIFY naming a shard that cannot be (discord.py does not reconnect).
INVALID_SHARD = 4010


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that owns a guild: Discord's rule, on the id's timestamp bits."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shard:
    """A gateway shard: `id` of `count`. A connection that names none is shard 0 of 1."""

    id: int = 0
    count: int = 1

    def owns(self, guild_id: int | None) -> bool:
        """Whether events about the guild are this shard's; shard 0 hears those of none (DMs)."""
        if guild_id is None:
            return self.id == 0
        return shard_of(guild_id, self.count) == self.id


@dataclass
class Undelivered:
    """An event whose shard had no connection when it happened."""

    name: str
    guild_id: int | None
    data: dict


# The fake reads and writes JSON with orjson, as discord.py does: the standard library's took
# a fifth of the fake's time in a test (a command sync's payload alone, 2 ms each way).
def to_json(data: Any) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py compares the header to exactly "application/json" (no charset).
    headers = {"Content-Type": "application/json"}
    return web.Response(body=to_json(data), status=status, headers=headers)


async def send(socket: web.WebSocketResponse, data: dict) -> None:
    """A gateway message, in a text frame as Discord sends it."""
    await socket.send_str(to_json(data).decode())


def asked(request: web.Request, flag: str) -> bool:
    """A boolean query parameter as Discord reads it ("1", "true", "True")."""
    return request.query.get(flag, "").lower() in ("1", "true")


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status)


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    accepts_dms: bool = True
    locale: str = "en-US"  # the Discord client's language, sent with each interaction

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
        }


@dataclass
class Channel:
    id: int
    type: int  # 0 guild text, 1 DM, 11 public thread, 12 private thread
    name: str
    guild_id: int | None = None
    recipient: User | None = None
    hidden_from: set[int] = field(default_factory=set)  # members denied View Channel
    parent_id: int | None = None  # a thread's channel
    thread: ThreadInfo | None = None  # set for a thread
    threads_forbidden: bool = False  # the bot may not make threads here (`forbid_threads`)
    bot_denied: int = 0  # permissions a moderator took from the bot here (`deny_bot`)

    def payload(self) -> dict:
        if self.thread is not None:
            return thread_payload(self)
        if self.type == 1:
            return {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    members: dict[int, int] = field(default_factory=dict)  # user id -> permission bits
    channels: list[Channel] = field(default_factory=list)
    threads: list[Channel] = field(default_factory=list)  # archived ones too
    scheduled_events: dict[int, dict] = field(default_factory=dict)  # id -> Discord's object
    events_forbidden: bool = False  # the bot may not make or change events (`forbid_events`)
    bot_removed: bool = False  # the bot was removed from it (`remove_bot`)
    locale: str = "en-US"  # the server's own language (its community settings)


@dataclass
class Message:
    """A message as Discord holds it. `visible_to` is set for ephemeral messages."""

    id: int
    channel_id: int
    author: User
    payload: dict
    visible_to: int | None = None
    deleted: bool = False

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def embeds(self) -> list[dict]:
        return self.payload.get("embeds") or []

    @property
    def components(self) -> list[dict]:
        return self.payload.get("components") or []

    @property
    def attachments(self) -> list[dict]:
        return self.payload.get("attachments") or []

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    def text(self) -> str:
        """Everything a reader sees: content and every embed's text."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
            parts += [
                embed.get("footer", {}).get("text", ""),
                embed.get("author", {}).get("name", ""),
            ]
        return "\n".join(part for part in parts if part)

    def buttons(self) -> list[dict]:
        return [c for row in self.components for c in row.get("components", []) if c["type"] == 2]

    def button(self, label: str) -> dict:
        for button in self.buttons():
            if button.get("label") == label:
                return button
        labels = [b.get("label") for b in self.buttons()]
        raise LookupError(f"no button {label!r} on message {self.id}; buttons: {labels}")


@dataclass
class Call:
    method: str
    path: str
    body: Any
    status: int
    at: float = field(default_factory=time.monotonic)  # when the bot made it
    query: dict[str, str] = field(default_factory=dict)


@dataclass
class Failing:
    """Calls Discord fails on its side: the next `times` that `which` picks."""

    which: Callable[[Call], bool]
    status: int
    times: int


@dataclass
class Interaction:
    """One interaction the fake sent, and everything the bot answered to it."""

    id: int
    token: str
    user: User
    channel: Channel
    kind: int
    source: Message | None = None
    response_type: int | None = None
    response: Message | None = None  # the message created or updated by the callback
    modal: dict | None = None
    followups: list[Message] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    answered_at: float = 0.0  # time.monotonic() when the callback came in
    followed_up: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def messages(self) -> list[Message]:
        return ([self.response] if self.response else []) + self.followups

    @property
    def age(self) -> float:
        """Seconds since Discord created the interaction (its id says when)."""
        return time.time() - ((self.id >> 22) + DISCORD_EPOCH_MS) / 1000

    @property
    def dead(self) -> bool:
        """Not answered in time: Discord takes nothing more for it."""
        return self.response_type is None and self.age > ANSWER_WITHIN

    @property
    def text(self) -> str:
        return "\n".join(message.text() for message in self.messages)

    async def followup(self, timeout: float = 5.0) -> Message:
        await asyncio.wait_for(self.followed_up.wait(), timeout)
        return self.followups[-1]


class FakeDiscord(ThreadsAndEvents):
    # Every start in this process, so the tests' conftest can tell a test that starts one.
    starts: ClassVar[int] = 0

    def __init__(self, token: str = "fake-token") -> None:
        self.token = token
        self._ids = itertools.count(1)
        self.application_id = self.snowflake()
        self.bot_user = User(self.snowflake(), "Card Table", bot=True)
        self.owner = User(self.snowflake(), "Owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: list[Guild] = []
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict]] = {}  # guild id (None: global) -> commands
        self.calls: list[Call] = []
        self.uploads: dict[str, bytes] = {}  # attachment id -> the file's bytes
        self.unknown_routes: list[str] = []
        self.too_late: list[Interaction] = []  # first answers refused: past ANSWER_WITHIN
        self.rate_limits: RateLimits | None = None  # None: no limits (most tests)
        self.failing: list[Failing] = []  # calls Discord will fail on its side (`fail_calls`)
        self.in_flight = 0
        self._sequence = itertools.count(1)
        self._sockets: list[web.WebSocketResponse] = []
        self.intents: dict[web.WebSocketResponse, int] = {}  # as each client identified
        # Each identified connection's shard, oldest IDENTIFY first (the newest holds a shard).
        self.shards: dict[web.WebSocketResponse, Shard] = {}
        self.undelivered: list[Undelivered] = []  # events no connection held the shard of
        self.recommended_shards = 1  # what GET /gateway/bot advises
        # Discord's "now", by which a scheduled event's start is in the past (an aware datetime).
        self.clock = lambda: datetime.now(UTC)
        self._announcing: set[asyncio.Task] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ---- ids and world building -----------------------------------------------------------

    def snowflake(self, age: float = 0.0, *, shard: tuple[int, int] | None = None) -> int:
        """A new id, made `age` seconds ago; with `shard` (id, count), made up to count - 1 ms
        earlier still, so that the shard owns it."""
        since_epoch_ms = int((time.time() - age) * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            shard_id, count = shard
            since_epoch_ms -= (since_epoch_ms - shard_id) % count
        return (since_epoch_ms << 22) | (next(self._ids) & 0x3FFFFF)

    def add_guild(
        self, name: str = "Test Server", *, shard: tuple[int, int] | None = None
    ) -> Guild:
        """A server the bot is in; with `shard` (id, count), one that shard owns."""
        guild = Guild(self.snowflake(shard=shard), name, self.owner.id)
        guild.members[self.bot_user.id] = EVERYDAY_PERMISSIONS
        self.guilds.append(guild)
        return guild

    def add_channel(self, guild: Guild, name: str = "games") -> Channel:
        channel = Channel(self.snowflake(), 0, name, guild.id)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_member(
        self, guild: Guild, name: str, *, bot: bool = False, manage_guild: bool = False
    ) -> User:
        user = User(self.snowflake(), name, bot=bot)
        self.users[user.id] = user
        guild.members[user.id] = EVERYDAY_PERMISSIONS | (MANAGE_GUILD if manage_guild else 0)
        return user

    async def remove_bot(self, guild: Guild) -> None:
        """A moderator removes the bot from the server: it hears GUILD_DELETE (without
        `unavailable`, which an outage has), and its calls there are refused 403 (50001)."""
        guild.bot_removed = True
        await self._tell("GUILD_DELETE", guild.id, {"id": str(guild.id)}, GUILDS)

    def _removed_from(self, parts: list[str]) -> bool:
        """Whether a REST call is about a server the bot was removed from."""
        if parts[0] == "guilds" and len(parts) > 1 and parts[1].isdigit():
            return any(g.id == int(parts[1]) and g.bot_removed for g in self.guilds)
        channel = self._channel_called(parts)
        guild = self.guild_of(channel) if channel is not None else None
        return guild is not None and guild.bot_removed

    def _channel_called(self, parts: list[str]) -> Channel | None:
        """The channel a REST call's path (`channels/{id}/...`, split) is about, if any."""
        if parts[0] != "channels" or len(parts) < 2 or not parts[1].isdigit():
            return None
        return self.channels.get(int(parts[1]))

    def fail_calls(
        self, which: Callable[[Call], bool], *, status: int = 503, times: int = 1
    ) -> None:
        """Discord's own trouble: the next `times` calls `which` picks are answered `status`
        (a 5xx) without being done. discord.py retries a 500, 502 or 504 a few times, seconds
        apart, but raises a 503 from a bot call at once."""
        self.failing.append(Failing(which, status, times))

    def _fails(self, call: Call) -> int | None:
        for failing in self.failing:
            if failing.times and failing.which(call):
                failing.times -= 1
                return failing.status
        return None

    def dm_channel_of(self, call: Call) -> bool:
        """Whether a call is about a DM channel (for `fail_calls`)."""
        channel = self._channel_called(call.path.strip("/").split("/"))
        return channel is not None and channel.type == 1

    def deny_bot(self, channel: Channel, permissions: int) -> None:
        """A moderator takes `permissions` from the bot in `channel`: interactions from there
        say so (`app_permissions`), and without View Channel or Send Messages its posts there
        are refused 403 (50013)."""
        channel.bot_denied |= permissions

    def remove_member(self, guild: Guild, user: User) -> None:
        """The member leaves the server (the bot has no members intent, so no event)."""
        del guild.members[user.id]

    def forbid_channel(self, guild: Guild, user: User, channel: Channel) -> None:
        """Deny `user` View Channel on `channel` (a permission overwrite)."""
        channel.hidden_from.add(user.id)

    async def delete_message(self, message: Message) -> None:
        """A moderator deletes a message: it is gone and the bot hears MESSAGE_DELETE."""
        message.deleted = True
        self._counted(message, -1)
        data = self._deleted(message)
        for socket in self._hearing("MESSAGE_DELETE", message, data):
            await self._send_event(socket, "MESSAGE_DELETE", data)

    def _hearing(self, name: str, message: Message, data: dict) -> list[web.WebSocketResponse]:
        """The clients Discord tells of `message` being made, edited or deleted: of the
        connections holding its guild's shard (`_receivers`), those that asked for their guilds'
        messages (GUILD_MESSAGES), or for DMs (DIRECT_MESSAGES); none for an ephemeral
        message, which only its member sees."""
        if message.ephemeral:
            return []
        guild_id = message.payload.get("guild_id")
        needed = GUILD_MESSAGES if guild_id else DIRECT_MESSAGES
        receivers = self._receivers(name, int(guild_id) if guild_id else None, data)
        return [socket for socket in receivers if self.intents.get(socket, 0) & needed]

    def _deleted(self, message: Message) -> dict:
        data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if "guild_id" in message.payload:
            data["guild_id"] = message.payload["guild_id"]
        return data

    def _announce(self, name: str, message: Message) -> None:
        """MESSAGE_CREATE, MESSAGE_UPDATE or MESSAGE_DELETE for a REST call, sent after it."""
        data = self._deleted(message) if name == "MESSAGE_DELETE" else message.payload
        for socket in self._hearing(name, message, data):
            self._announce_task(self._send_quietly(socket, name, data))

    def _announce_task(self, sending: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(sending)
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _send_quietly(self, socket: web.WebSocketResponse, name: str, data: dict) -> None:
        """As Discord's gateway: a client that has gone misses what it was sent."""
        with contextlib.suppress(ConnectionError):
            await self._send_event(socket, name, data)

    def member_payload(self, guild: Guild, user: User, channel: Channel | None = None) -> dict:
        """The member as an interaction carries it: `permissions` are theirs in `channel`."""
        permissions = guild.members[user.id]
        if channel is not None and user.id in channel.hidden_from:
            permissions &= ~VIEW_CHANNEL
        return {
            "user": user.payload(),
            "roles": [],
            "flags": 0,
            "nick": None,
            "avatar": None,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "permissions": str(permissions),
        }

    def guild_of(self, channel: Channel) -> Guild | None:
        return next((g for g in self.guilds if g.id == channel.guild_id), None)

    def app_permissions(self, channel: Channel) -> int:
        """The bot's permissions where an interaction comes from (`app_permissions`)."""
        guild = self.guild_of(channel)
        permissions = guild.members[self.bot_user.id] if guild else EVERYDAY_PERMISSIONS
        if channel.threads_forbidden:
            permissions &= ~(CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS)
        return permissions & ~channel.bot_denied

    def guild_payload(self, guild: Guild) -> dict:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "roles": [
                {
                    "id": str(guild.id),
                    "name": "@everyone",
                    "permissions": str(EVERYDAY_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [channel.payload() for channel in guild.channels],
            "threads": [t.payload() for t in guild.threads if t.thread and not t.thread.archived],
            "members": [self.member_payload(guild, self.bot_user)],
            "member_count": len(guild.members),
            "features": [],
            "emojis": [],
            "stickers": [],
            "stage_instances": [],
            "guild_scheduled_events": list(filter(live, guild.scheduled_events.values())),
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "preferred_locale": guild.locale,
            "system_channel_flags": 0,
        }

    # ---- server lifecycle -----------------------------------------------------------------

    async def start(self) -> None:
        FakeDiscord.starts += 1
        app = web.Application(client_max_size=32 * 1024 * 1024, middlewares=[self._record])
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for task in self._announcing:
            task.cancel()
        for socket in list(self._sockets):
            await socket.close()
        if self._runner:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ---- gateway --------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        try:
            await send(
                socket, {"op": 10, "d": {"heartbeat_interval": 3_600_000}, "s": None, "t": None}
            )
            async for frame in socket:
                if frame.type != WSMsgType.TEXT:
                    continue
                message = orjson.loads(frame.data)
                if message["op"] == 1:
                    await send(socket, {"op": 11, "d": None, "s": None, "t": None})
                elif message["op"] == 2:
                    await self._identify(socket, message["d"])
        finally:
            self._sockets.remove(socket)
            self.intents.pop(socket, None)
            self.shards.pop(socket, None)
        return socket

    async def _identify(self, socket: web.WebSocketResponse, identify: dict) -> None:
        """READY with the guilds the connection's shard owns, then their GUILD_CREATEs. A
        connection that identifies for a shard another holds takes it over (`dispatch`)."""
        named = identify.get("shard")
        shard = Shard(*named) if named else Shard()
        if not 0 <= shard.id < shard.count:
            await socket.close(code=INVALID_SHARD, message=b"Invalid shard")
            return
        self.intents[socket] = int(identify.get("intents", 0))
        self.shards.pop(socket, None)  # an IDENTIFY again on the socket makes it the newest
        self.shards[socket] = shard
        guilds = [g for g in self.guilds if shard.owns(g.id) and not g.bot_removed]
        ready = {
            "v": 10,
            "user": self.bot_user.payload(),
            "session_id": "fake-session",
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "application": {"id": str(self.application_id), "flags": 0},
        }
        if named:
            ready["shard"] = [shard.id, shard.count]
        await self._send_event(socket, "READY", ready)
        for guild in guilds:
            await self._send_event(socket, "GUILD_CREATE", self.guild_payload(guild))

    async def _send_event(self, socket: web.WebSocketResponse, name: str, data: dict) -> None:
        await send(socket, {"op": 0, "t": name, "s": next(self._sequence), "d": data})

    def _receivers(
        self, name: str, guild_id: int | None, data: dict
    ) -> list[web.WebSocketResponse]:
        """The connections that hear an event about the guild (None: about none, as a DM):
        the connection holding each shard that owns it. Of several connections identified for
        one shard, the newest holds it; an older one stays open, its heartbeats answered, but
        hears nothing until the newer goes. (Closing it instead, with 4009 say, would have
        discord.py resume or identify again and take the shard back: two processes would pass
        it back and forth.) An event no connection holds the shard of is `undelivered`: Discord
        would keep it for the shard's session to resume, but a shard that dies here loses it."""
        holders = {shard: socket for socket, shard in self.shards.items()}  # newest last: wins
        receivers = [socket for shard, socket in holders.items() if shard.owns(guild_id)]
        if not receivers:
            self.undelivered.append(Undelivered(name, guild_id, data))
        return receivers

    async def dispatch(self, name: str, data: dict) -> int:
        """Send an event to the connections that hear about its guild (`_receivers`): the
        one in `data["guild_id"]`, or for a GUILD_* event without one, the guild it is.
        Returns how many connections it went to; raises if no bot is connected at all."""
        if not self._sockets:
            raise RuntimeError("no bot is connected to the fake gateway")
        guild_id = data.get("guild_id") or (data.get("id") if name.startswith("GUILD_") else None)
        receivers = self._receivers(name, int(guild_id) if guild_id else None, data)
        for socket in receivers:
            await self._send_event(socket, name, data)
        return len(receivers)

    # ---- REST -----------------------------------------------------------------------------

    @web.middleware
    async def _record(self, request: web.Request, handler) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        self.in_flight += 1
        try:
            response = await handler(request)
        finally:
            self.in_flight -= 1
        return response

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict]]:
        """The JSON body, and any uploaded files (multipart with payload_json)."""
        if not request.can_read_body:
            return None, []
        if request.content_type.startswith("multipart/"):
            body, files = None, []
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()
                if part.name == "payload_json":
                    body = orjson.loads(data)
                else:
                    files.append(
                        {"field": part.name, "filename": part.filename, "data": bytes(data)}
                    )
            return body, files
        raw = await request.read()
        return (orjson.loads(raw) if raw else None), []

    async def _rest(self, request: web.Request) -> web.Response:
        body, files = await self._read_body(request)
        path = "/" + request.match_info["path"]
        call = Call(request.method, path, body, 0, query=dict(request.query))
        self.calls.append(call)
        webhook = path.startswith(("/webhooks/", "/interactions/"))
        wait, headers = None, {}
        if self.rate_limits is not None and not webhook:
            wait, headers = self.rate_limits.check(request.method, path.strip("/").split("/"))
        if not webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            response = error(401, 0, "401: Unauthorized")
        elif self._removed_from(path.strip("/").split("/")):
            response = error(403, 50001, "Missing Access")
        elif (status := self._fails(call)) is not None:
            response = error(status, 0, "Service Unavailable")
        elif wait is not None:
            self.rate_limits.limited.append((request.method, path))
            response = json_response(
                {
                    "message": "You are being rate limited.",
                    "retry_after": wait,
                    "global": "X-RateLimit-Global" in headers,
                },
                429,
            )
            response.headers["Via"] = "1.1 google"  # discord.py takes a 429 without it for a ban
        else:
            try:
                response = await self._route(
                    request.method, path.strip("/").split("/"), body, files, request
                )
            except DiscordRefusal as refusal:
                response = error(400, 50035, f"Invalid Form Body: {refusal}")
            except Refused as refused:
                response = json_response(refused.body(), refused.status)
        response.headers.update(headers)
        call.status = response.status
        return response

    async def _route(
        self, method: str, parts: list[str], body: Any, files: list[dict], request: web.Request
    ) -> web.Response:
        match method, parts:
            case "GET", ["users", "@me"]:
                return json_response(self.bot_user.payload())
            case "GET", ["gateway", "bot"]:
                return json_response(self._gateway_bot())
            case "GET", ["oauth2", "applications", "@me"]:
                return json_response(self._application())
            case "PUT", ["applications", _, "commands"]:
                return json_response(self._sync_commands(None, body))
            case "PUT", ["applications", _, "guilds", guild_id, "commands"]:
                return json_response(self._sync_commands(int(guild_id), body))
            case "POST", ["interactions", _, token, "callback"]:
                return self._callback(token, body, files, asked(request, "with_response"))
            case "POST", ["webhooks", _, token]:
                return self._followup(token, body, files, asked(request, "wait"))
            case ("GET" | "PATCH" | "DELETE") as verb, [
                "webhooks",
                _,
                token,
                "messages",
                message_id,
            ]:
                return self._webhook_message(verb, token, message_id, body, files)
            case "POST", ["users", "@me", "channels"]:
                return json_response(self._open_dm(int(body["recipient_id"])).payload())
            case "GET", ["channels", channel_id]:
                channel = self.channels.get(int(channel_id))
                return (
                    json_response(channel.payload())
                    if channel
                    else error(404, 10003, "Unknown Channel")
                )
            case "POST", ["channels", channel_id, "messages"]:
                return self._post_message(int(channel_id), body, files)
            case ("GET" | "PATCH" | "DELETE") as verb, [
                "channels",
                channel_id,
                "messages",
                message_id,
            ]:
                return self._channel_message(verb, int(channel_id), int(message_id), body, files)
            case "POST", ["channels", channel_id, "threads"]:
                return json_response(self._start_thread(int(channel_id), body or {}))
            case "PATCH", ["channels", channel_id]:
                return json_response(self._edit_thread(int(channel_id), body or {}))
            case "DELETE", ["channels", channel_id]:
                return json_response(await self._delete_by_bot(int(channel_id)))
            case _, ["guilds", guild_id, "scheduled-events", *rest] if len(rest) < 2:
                answer = await self._scheduled_events(
                    method, int(guild_id), rest, body or {}, asked(request, "with_user_count")
                )
                return web.Response(status=204) if answer is None else json_response(answer)
            case "GET", ["guilds", guild_id, "members", user_id]:
                guild = next((g for g in self.guilds if g.id == int(guild_id)), None)
                if guild is None or int(user_id) not in guild.members:
                    return error(404, 10007, "Unknown Member")
                return json_response(self.member_payload(guild, self.users[int(user_id)]))
        self.unknown_routes.append(f"{method} /{'/'.join(parts)}")
        return error(404, 0, "404: Not Found (the fake does not know this route)")

    def _gateway_bot(self) -> dict:
        """Where to connect and how many shards Discord advises (AutoShardedClient asks when
        it is given no shard_count)."""
        return {
            "url": self.gateway_url,
            "shards": self.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    def _application(self) -> dict:
        return {
            "id": str(self.application_id),
            "name": "Card Table",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "flags": 0,
            "interactions_endpoint_url": None,
        }

    def _sync_commands(self, guild_id: int | None, commands: list[dict]) -> list[dict]:
        check_commands(commands)
        synced = [
            {
                **command,
                "id": str(self.snowflake()),
                "application_id": str(self.application_id),
                "version": str(self.snowflake()),
                **({"guild_id": str(guild_id)} if guild_id else {}),
            }
            for command in commands
        ]
        self.commands[guild_id] = synced
        return synced

    # ---- messages -------------------------------------------------------------------------

    def _new_message(
        self,
        channel: Channel,
        body: dict,
        files: list[dict],
        *,
        author: User | None = None,
        visible_to: int | None = None,
        interaction: Interaction | None = None,
    ) -> Message:
        check_message(body)
        message_id = self.snowflake()
        payload = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "type": 0 if interaction is None else 20,
            "author": (author or self.bot_user).payload(),
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "attachments": self._attachments(body, files),
            "flags": body.get("flags") or 0,
            "timestamp": "2026-11-22T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
        }
        if channel.guild_id:
            payload["guild_id"] = str(channel.guild_id)
        if interaction is not None:
            payload["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.kind,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {},
            }
        message = Message(message_id, channel.id, author or self.bot_user, payload, visible_to)
        self.messages[message_id] = message
        self._counted(message, +1)
        self._announce("MESSAGE_CREATE", message)
        return message

    def _attachments(self, body: dict, files: list[dict]) -> list[dict]:
        described = {str(a.get("id")): a for a in body.get("attachments") or []}
        attachments = []
        for index, upload in enumerate(files):
            meta = described.get(str(index), {})
            attachment_id = str(self.snowflake())
            self.uploads[attachment_id] = upload["data"]  # what a CDN would serve
            attachments.append(
                {
                    "id": attachment_id,
                    "filename": meta.get("filename", upload["filename"]),
                    "size": len(upload["data"]),
                    "url": f"https://cdn.invalid/{upload['filename']}",
                    "proxy_url": f"https://cdn.invalid/{upload['filename']}",
                }
            )
        return attachments

    def _edit(self, message: Message, body: dict, files: list[dict]) -> Message:
        merged = {**message.payload, **{k: v for k, v in body.items() if k != "attachments"}}
        check_message(merged)
        if files or "attachments" in body:
            kept = {str(a.get("id")) for a in body.get("attachments") or []}
            merged["attachments"] = [a for a in message.attachments if a["id"] in kept]
            merged["attachments"] += self._attachments(body, files)
        merged["edited_timestamp"] = "2026-11-22T00:00:01+00:00"
        message.payload = merged
        self._announce("MESSAGE_UPDATE", message)
        return message

    def _post_message(self, channel_id: int, body: dict, files: list[dict]) -> web.Response:
        channel = self.channels.get(channel_id)
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        if channel.type == 1 and not channel.recipient.accepts_dms:
            return error(403, 50007, "Cannot send messages to this user")
        if channel.bot_denied & (VIEW_CHANNEL | SEND_MESSAGES):
            return error(403, 50013, "Missing Permissions")
        self._thread_write(channel, "POST")
        return json_response(self._new_message(channel, body, files).payload)

    def _channel_message(
        self, verb: str, channel_id: int, message_id: int, body: Any, files: list[dict]
    ) -> web.Response:
        if channel_id not in self.channels:
            return error(404, 10003, "Unknown Channel")
        self._thread_write(self.channels[channel_id], verb)
        message = self.messages.get(message_id)
        if (
            message is None
            or message.deleted
            or message.channel_id != channel_id
            or message.ephemeral
        ):
            return error(404, 10008, "Unknown Message")
        return self._message_verb(verb, message, body, files)

    def _message_verb(
        self, verb: str, message: Message, body: Any, files: list[dict]
    ) -> web.Response:
        """GET, PATCH (edit) or DELETE one message."""
        if verb == "DELETE":
            message.deleted = True
            self._counted(message, -1)
            self._announce("MESSAGE_DELETE", message)
            return web.Response(status=204)
        if verb == "PATCH":
            self._edit(message, body, files)
        return json_response(message.payload)

    def _open_dm(self, user_id: int) -> Channel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient.id == user_id:
                return channel
        channel = Channel(self.snowflake(), 1, "dm", recipient=self.users[user_id])
        self.channels[channel.id] = channel
        return channel

    # ---- interaction responses ------------------------------------------------------------

    def _callback(
        self, token: str, body: dict, files: list[dict], with_response: bool
    ) -> web.Response:
        """Discord answers 204 unless asked `with_response` for the callback and its message."""
        interaction = self.interactions.get(token)
        if interaction is None or interaction.dead:
            if interaction is not None:
                self.too_late.append(interaction)
            return error(404, 10062, "Unknown interaction")
        if interaction.response_type is not None:
            return error(400, 40060, "Interaction has already been acknowledged.")
        kind, data = body["type"], body.get("data") or {}
        visible_to = interaction.user.id if (data.get("flags") or 0) & EPHEMERAL else None
        if kind == 4:  # a new message
            interaction.response = self._new_message(
                interaction.channel, data, files, visible_to=visible_to, interaction=interaction
            )
        elif kind == 5:  # deferred: "thinking", the followup edits @original later
            interaction.response = self._new_message(
                interaction.channel,
                {"content": ""},
                [],
                visible_to=visible_to,
                interaction=interaction,
            )
        elif kind == 7:  # edit the message the component is on
            interaction.response = self._edit(self._clicked(interaction), data, files)
        elif kind == 9:
            check_modal(data)
            interaction.modal = data
        elif kind != 6:  # 6: deferred update, nothing to show yet
            return error(400, 50035, f"Invalid Form Body: unknown callback type {kind}")
        interaction.response_type = kind
        interaction.answered_at = time.monotonic()
        interaction.answered.set()
        message = interaction.response
        if not with_response:
            return web.Response(status=204)
        return json_response(
            {
                "interaction": {
                    "id": str(interaction.id),
                    "type": interaction.kind,
                    "response_message_id": str(message.id) if message else None,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(message and message.ephemeral),
                },
                "resource": {"type": kind, **({"message": message.payload} if message else {})},
            }
        )

    def _clicked(self, interaction: Interaction) -> Message:
        """The message the component is on: the one Discord holds (a forged click carries a
        copy of it)."""
        return self.messages.get(interaction.source.id, interaction.source)

    def _followup(self, token: str, body: dict, files: list[dict], wait: bool) -> web.Response:
        """Discord answers 204 unless asked to `wait` for the message and return it."""
        interaction = self.interactions.get(token)
        if interaction is None or interaction.dead:
            return error(404, 10015, "Unknown Webhook")
        visible_to = interaction.user.id if (body.get("flags") or 0) & EPHEMERAL else None
        message = self._new_message(
            interaction.channel, body, files, visible_to=visible_to, interaction=interaction
        )
        interaction.followups.append(message)
        interaction.followed_up.set()
        return json_response(message.payload) if wait else web.Response(status=204)

    def _webhook_message(
        self, verb: str, token: str, message_id: str, body: Any, files: list[dict]
    ) -> web.Response:
        interaction = self.interactions.get(token)
        if interaction is None or interaction.dead:
            return error(404, 10015, "Unknown Webhook")
        if message_id == "@original":
            # After a deferred update (6), the original is the message the component is on.
            message = interaction.response
            if message is None and interaction.response_type == 6:
                message = self._clicked(interaction)
        else:
            message = next((m for m in interaction.messages if m.id == int(message_id)), None)
        if message is None or message.deleted:
            return error(404, 10008, "Unknown Message")
        if verb == "PATCH":
            interaction.followed_up.set()
        return self._message_verb(verb, message, body, files)
