"""Threads and guild scheduled events in the fake Discord, as Discord's API v10 has them.

FakeDiscord (server.py) takes the routes and test helpers here from `ThreadsAndEvents`; what
each rule rests on is in docs/discord-testing.md. A refusal is raised as `Refused`, which the
REST layer answers with its status and body.

- A thread is a `Channel` with `parent_id` and `thread` (a `ThreadInfo`) set; it is kept in
  `fake.channels` (messages go to it as to any channel) and in its guild's `threads`, not in
  `channels` (GUILD_CREATE lists it under "threads" while it is not archived).
- A scheduled event is kept as Discord's object, a dict, in its guild's `scheduled_events`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aiohttp import web

    from tests.fakediscord.server import Channel, Guild, Message, User

# Gateway intents (Discord's docs: GUILDS brings THREAD_*, and CHANNEL_*).
GUILDS = 1 << 0
GUILD_SCHEDULED_EVENTS = 1 << 16
# Permission bits.
MANAGE_CHANNELS = 1 << 4
MANAGE_EVENTS = 1 << 33
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
CREATE_EVENTS = 1 << 44
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS

GUILD_TEXT, PUBLIC_THREAD, PRIVATE_THREAD = 0, 11, 12
ARCHIVE_MINUTES = (60, 1440, 4320, 10080)
ONE_OF_ARCHIVE_MINUTES = f"Value must be one of {ARCHIVE_MINUTES}."
# Scheduled events: status, the changes Discord allows, privacy level and entity type.
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
NEXT_STATUS = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
GUILD_ONLY, EXTERNAL = 2, 3
LIVE_EVENTS = 100  # a guild's most events SCHEDULED or ACTIVE at once


class Refused(Exception):
    """Discord refuses the call: answered with `status` and {message, code[, errors]}."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.errors = status, code, errors

    def body(self) -> dict:
        body: dict[str, Any] = {"message": str(self), "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def live(event: dict) -> bool:
    """Whether a scheduled event is yet to finish (SCHEDULED or ACTIVE)."""
    return event["status"] in NEXT_STATUS


def missing_permissions() -> Refused:
    return Refused(403, 50013, "Missing Permissions")


def invalid(path: str, code: str, message: str) -> Refused:
    """400 Invalid Form Body, with Discord's `errors` object for the field at `path`
    ("entity_metadata.location" nests)."""
    errors: dict = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path.split(".")):
        errors = {key: errors}
    return Refused(400, 50035, "Invalid Form Body", errors)


def check_length(path: str, text: Any, low: int, high: int) -> None:
    if not isinstance(text, str) or not low <= len(text) <= high:
        raise invalid(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def timestamp(path: str, value: Any) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise invalid(path, "DATE_TIME_TYPE_PARSE", f"Could not parse {value}.") from None
    if moment.tzinfo is None:
        raise invalid(path, "DATE_TIME_TYPE_PARSE", f"{value} has no time zone.")
    return moment


@dataclass
class ThreadInfo:
    """What a thread has beyond a channel: Discord's thread_metadata and its counts."""

    owner_id: int
    created_at: str  # ISO 8601, as thread_metadata's create_timestamp
    auto_archive_duration: int = 1440
    archived: bool = False
    locked: bool = False
    archive_timestamp: str = ""  # when `archived` last changed (its creation at first)
    invitable: bool | None = None  # private threads only
    rate_limit_per_user: int = 0
    message_count: int = 0  # Discord leaves out deleted messages...
    total_message_sent: int = 0  # ...and counts them here
    last_message_id: int | None = None
    members: set[int] = field(default_factory=set)  # who joined (its maker, whoever posts)


def thread_payload(channel: Channel) -> dict:
    """A thread's channel object, as Discord's REST answers and THREAD_* events carry it."""
    thread = channel.thread
    assert thread is not None, f"channel {channel.id} is no thread"
    metadata: dict[str, Any] = {
        "archived": thread.archived,
        "auto_archive_duration": thread.auto_archive_duration,
        "archive_timestamp": thread.archive_timestamp,
        "locked": thread.locked,
        "create_timestamp": thread.created_at,
    }
    if thread.invitable is not None:
        metadata["invitable"] = thread.invitable
    return {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "parent_id": str(channel.parent_id),
        "owner_id": str(thread.owner_id),
        "name": channel.name,
        "last_message_id": str(thread.last_message_id) if thread.last_message_id else None,
        "message_count": thread.message_count,
        "total_message_sent": thread.total_message_sent,
        "member_count": min(len(thread.members), 50),  # Discord stops counting at 50
        "rate_limit_per_user": thread.rate_limit_per_user,
        "flags": 0,
        "thread_metadata": metadata,
    }


class ThreadsAndEvents:
    """FakeDiscord's threads and scheduled events: test helpers, routes, gateway events.
    It uses FakeDiscord's snowflake, guild_of, dispatch, _receivers and _send_quietly."""

    channels: dict[int, Channel]
    messages: dict[int, Message]
    guilds: list[Guild]
    bot_user: User
    intents: dict[web.WebSocketResponse, int]
    clock: Callable[[], datetime]  # Discord's "now": an aware datetime

    # ---- test helpers ---------------------------------------------------------------------

    def add_thread(
        self,
        parent: Channel,
        name: str = "thread",
        *,
        owner: User | None = None,
        kind: int = PUBLIC_THREAD,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        """A thread in `parent`, started by `owner` (a member; None: the bot), with no event
        sent: world building, or the REST route's thread before it tells the gateway. It
        shares its parent's `hidden_from`: a thread takes its parent's permissions."""
        now = self.clock().isoformat()
        maker = (owner or self.bot_user).id
        info = ThreadInfo(maker, now, auto_archive_duration, archive_timestamp=now)
        info.members.add(maker)
        thread = dataclasses.replace(
            parent,
            id=self.snowflake(),
            type=kind,
            name=name,
            parent_id=parent.id,
            thread=info,
            threads_forbidden=False,
        )
        self._guild_of_id(parent.guild_id).threads.append(thread)
        self.channels[thread.id] = thread
        return thread

    def threads_of(self, channel: Channel) -> list[Channel]:
        """The threads of a channel that are still there, archived ones too, oldest first."""
        guild = self._guild_of_id(channel.guild_id) if channel.guild_id else None
        return [t for t in guild.threads if t.parent_id == channel.id] if guild else []

    def forbid_threads(self, channel: Channel) -> None:
        """Deny the bot Create Public/Private Threads in `channel` (a permission overwrite):
        POST /channels/{id}/threads answers 403 (50013), interactions from there say so."""
        channel.threads_forbidden = True

    def events_of(self, guild: Guild) -> list[dict]:
        """The guild's scheduled events (Discord's objects), finished ones too, oldest first;
        a deleted one is gone."""
        return list(guild.scheduled_events.values())

    def forbid_events(self, guild: Guild) -> None:
        """The bot has neither Create Events nor Manage Events: creating, editing or deleting
        a scheduled event answers 403 (50013). Reading one needs no permission."""
        guild.events_forbidden = True

    async def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """A moderator archives a thread (locking it too, if `locked`), as Discord also
        archives one by itself after `auto_archive_duration` minutes without a new message:
        THREAD_UPDATE says so."""
        assert thread.thread is not None, "only a thread is archived"
        thread.thread.locked = locked
        self._archive(thread, True)
        await self._tell("THREAD_UPDATE", thread.guild_id, thread.payload(), GUILDS)

    async def delete_channel(self, channel: Channel) -> None:
        """A moderator deletes a channel or a thread: it, its threads and all their messages
        are gone. Discord sends THREAD_DELETE for a thread, for a channel CHANNEL_DELETE and
        nothing for the threads that went with it (docs/discord-testing.md)."""
        for gone in [channel, *self.threads_of(channel)]:
            self._forget(gone)
        if channel.thread is None:
            await self.dispatch("CHANNEL_DELETE", channel.payload())
            return
        data = {
            "id": str(channel.id),
            "guild_id": str(channel.guild_id),
            "parent_id": str(channel.parent_id),
            "type": channel.type,
        }
        await self._tell("THREAD_DELETE", channel.guild_id, data, GUILDS)

    # ---- gateway --------------------------------------------------------------------------

    async def _tell(self, name: str, guild_id: int | None, data: dict, intent: int) -> None:
        """An event for the connection holding the guild's shard, if it asked for `intent`."""
        receivers = self._receivers(name, guild_id, data)
        for socket in receivers:
            if self.intents.get(socket, 0) & intent:
                await self._send_quietly(socket, name, data)

    def _tell_later(self, name: str, guild_id: int | None, data: dict, intent: int) -> None:
        """`_tell` after the REST call that caused it, as MESSAGE_* events go (`_announce`)."""
        self._announce_task(self._tell(name, guild_id, data, intent))

    # ---- channels and threads -------------------------------------------------------------

    def _guild_of_id(self, guild_id: int | None) -> Guild:
        guild = next((g for g in self.guilds if g.id == guild_id), None)
        if guild is None:
            raise Refused(404, 10004, "Unknown Guild")
        return guild

    def _channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise Refused(404, 10003, "Unknown Channel")
        return channel

    def _bot_may(self, channel: Channel, permission: int) -> bool:
        """Whether the bot has `permission` in the channel's guild."""
        guild = self._guild_of_id(channel.guild_id)
        return bool(guild.members.get(self.bot_user.id, 0) & permission)

    def _forget(self, channel: Channel) -> None:
        """A channel or thread is gone, and the messages in it."""
        del self.channels[channel.id]
        guild = self._guild_of_id(channel.guild_id)
        (guild.threads if channel.thread else guild.channels).remove(channel)
        for message in self.messages.values():
            if message.channel_id == channel.id:
                message.deleted = True

    def _start_thread(self, channel_id: int, body: dict) -> dict:
        """POST /channels/{id}/threads: a thread not started from a message."""
        parent = self._channel(channel_id)
        if parent.type != GUILD_TEXT:
            raise Refused(400, 50024, "Cannot execute action on this channel type")
        kind = body.get("type") or PRIVATE_THREAD  # Discord's default in API v10
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise invalid("type", "BASE_TYPE_CHOICES", "Value must be one of (11, 12).")
        if self.bot_user.id in parent.hidden_from:
            raise Refused(403, 50001, "Missing Access")
        if parent.threads_forbidden:
            raise missing_permissions()
        check_length("name", body.get("name"), 1, 100)
        minutes = body.get("auto_archive_duration") or 1440
        if minutes not in ARCHIVE_MINUTES:
            raise invalid("auto_archive_duration", "BASE_TYPE_CHOICES", ONE_OF_ARCHIVE_MINUTES)
        thread = self.add_thread(parent, body["name"], kind=kind, auto_archive_duration=minutes)
        assert thread.thread is not None
        thread.thread.rate_limit_per_user = self._slowmode(body, 0)
        if kind == PRIVATE_THREAD:
            thread.thread.invitable = body.get("invitable", True) is not False
        data = {**thread.payload(), "newly_created": True}
        self._tell_later("THREAD_CREATE", thread.guild_id, data, GUILDS)
        return thread.payload()

    @staticmethod
    def _slowmode(body: dict, current: int) -> int:
        seconds = body.get("rate_limit_per_user")
        if seconds is None:
            return current
        if not isinstance(seconds, int) or not 0 <= seconds <= 21600:
            raise invalid("rate_limit_per_user", "NUMBER_TYPE_MAX", "Must be 0 to 21600.")
        return seconds

    def _edit_thread(self, channel_id: int, body: dict) -> dict:
        """PATCH /channels/{id} on a thread: rename, archive or unarchive, lock, slow mode.
        Its maker or a member with Manage Threads may; locking and slow mode need the latter.
        An archived thread takes no change but being unarchived."""
        channel = self._channel(channel_id)
        thread = channel.thread
        if thread is None:
            raise missing_permissions()  # the fake's bot has no Manage Channels
        manages = self._bot_may(channel, MANAGE_THREADS)
        mine = thread.owner_id == self.bot_user.id
        if {"locked", "rate_limit_per_user"} & body.keys() and not manages:
            raise missing_permissions()
        if not (manages or mine):
            raise missing_permissions()
        if thread.archived and body.get("archived") is not False:
            raise Refused(400, 50083, "Thread is archived")
        name = body.get("name", channel.name)
        check_length("name", name, 1, 100)
        minutes = body.get("auto_archive_duration") or thread.auto_archive_duration
        if minutes not in ARCHIVE_MINUTES:
            raise invalid("auto_archive_duration", "BASE_TYPE_CHOICES", ONE_OF_ARCHIVE_MINUTES)
        thread.rate_limit_per_user = self._slowmode(body, thread.rate_limit_per_user)
        channel.name, thread.locked = name, bool(body.get("locked", thread.locked))
        if minutes != thread.auto_archive_duration:
            thread.auto_archive_duration = minutes
            thread.archive_timestamp = self.clock().isoformat()
        if body.get("archived") is not None:
            self._archive(channel, bool(body["archived"]))
        self._tell_later("THREAD_UPDATE", channel.guild_id, channel.payload(), GUILDS)
        return channel.payload()

    def _archive(self, channel: Channel, archived: bool) -> None:
        assert channel.thread is not None
        if channel.thread.archived != archived:
            channel.thread.archived = archived
            channel.thread.archive_timestamp = self.clock().isoformat()

    async def _delete_by_bot(self, channel_id: int) -> dict:
        """DELETE /channels/{id}: a thread needs Manage Threads, a channel Manage Channels."""
        channel = self._channel(channel_id)
        if channel.type == 1:
            raise Refused(400, 50024, "Cannot execute action on this channel type")
        needed = MANAGE_THREADS if channel.thread else MANAGE_CHANNELS
        if not self._bot_may(channel, needed):
            raise missing_permissions()
        payload = channel.payload()
        await self.delete_channel(channel)
        return payload

    def _thread_write(self, channel: Channel, verb: str) -> None:
        """A message written in an archived thread: a new one unarchives it (unless it is
        locked and the bot may not manage threads), an edit is refused, a delete goes."""
        thread = channel.thread
        if thread is None or not thread.archived or verb in ("GET", "DELETE"):
            return
        if verb == "PATCH":
            raise Refused(400, 50083, "Thread is archived")
        if thread.locked and not self._bot_may(channel, MANAGE_THREADS):
            raise Refused(403, 160005, "Thread is locked")
        self._archive(channel, False)
        self._tell_later("THREAD_UPDATE", channel.guild_id, channel.payload(), GUILDS)

    def _counted(self, message: Message, change: int) -> None:
        """A message made (+1) or deleted (-1): its thread's counts, if it is in one."""
        channel = self.channels.get(message.channel_id)
        if channel is None or channel.thread is None or message.ephemeral:
            return
        thread = channel.thread
        thread.message_count += change
        if change > 0:
            thread.total_message_sent += 1
            thread.last_message_id = message.id
            thread.members.add(message.author.id)

    # ---- scheduled events -----------------------------------------------------------------

    async def _scheduled_events(
        self, method: str, guild_id: int, rest: list[str], body: Any, with_count: bool
    ) -> dict | list | None:
        """/guilds/{id}/scheduled-events[/{event_id}]: list, create, get, edit, delete."""
        guild = self._guild_of_id(guild_id)
        if method not in (("GET", "POST") if not rest else ("GET", "PATCH", "DELETE")):
            raise Refused(405, 0, "405: Method Not Allowed")
        if method != "GET" and guild.events_forbidden:
            raise missing_permissions()
        count = {"user_count": 0} if with_count else {}
        if not rest:
            if method == "POST":
                return self._create_event(guild, body)
            listed = filter(live, guild.scheduled_events.values())
            return [{**event, **count} for event in listed]
        event = guild.scheduled_events.get(int(rest[0]))
        if event is None:
            raise Refused(404, 10070, "Unknown Guild Scheduled Event")
        if method == "PATCH":
            return self._edit_event(guild, event, body)
        if method == "DELETE":
            del guild.scheduled_events[int(event["id"])]
            self._tell_later(
                "GUILD_SCHEDULED_EVENT_DELETE", guild.id, event, GUILD_SCHEDULED_EVENTS
            )
            return None
        return {**event, **count}

    def _create_event(self, guild: Guild, body: dict) -> dict:
        if len(list(filter(live, guild.scheduled_events.values()))) >= LIVE_EVENTS:
            raise Refused(
                400, 30038, "Maximum number of uncompleted guild scheduled events reached"
            )
        for required in ("name", "privacy_level", "scheduled_start_time", "entity_type"):
            if body.get(required) is None:
                raise invalid(required, "BASE_TYPE_REQUIRED", "This field is required")
        event = {
            "id": str(self.snowflake()),
            "guild_id": str(guild.id),
            "channel_id": None,
            "creator_id": str(self.bot_user.id),
            "creator": self.bot_user.payload(),
            "name": None,
            "description": None,
            "scheduled_start_time": None,
            "scheduled_end_time": None,
            "privacy_level": GUILD_ONLY,
            "status": SCHEDULED,
            "entity_type": EXTERNAL,
            "entity_id": None,
            "entity_metadata": None,
            "image": None,
            "recurrence_rule": None,
        }
        self._change_event(event, {k: v for k, v in body.items() if k != "status"})
        guild.scheduled_events[int(event["id"])] = event
        self._tell_later("GUILD_SCHEDULED_EVENT_CREATE", guild.id, event, GUILD_SCHEDULED_EVENTS)
        return event

    def _edit_event(self, guild: Guild, event: dict, body: dict) -> dict:
        """PATCH: any field; `status` only along Discord's transitions, never once finished."""
        status = event["status"]
        if status not in NEXT_STATUS:
            raise Refused(400, 180000, "Cannot update a finished event")
        if body.get("status") is not None and body["status"] not in NEXT_STATUS[status]:
            raise invalid(
                "status",
                "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                f"Cannot change the status from {status} to {body['status']}.",
            )
        if body.get("scheduled_start_time") is not None and status != SCHEDULED:
            raise invalid(
                "scheduled_start_time",
                "GUILD_SCHEDULED_EVENT_INVALID_START_BY_STATUS",
                "Cannot change the start time of an event that has started.",
            )
        changed = {**event}
        self._change_event(changed, body)
        event.update(changed)
        self._tell_later("GUILD_SCHEDULED_EVENT_UPDATE", guild.id, event, GUILD_SCHEDULED_EVENTS)
        return event

    def _change_event(self, event: dict, body: dict) -> None:
        """Apply `body` to `event` (a copy, when editing), checked as Discord checks it."""
        for key in ("name", "description", "status", "privacy_level", "entity_type", "image"):
            if key in body:
                event[key] = body[key]
        if body.get("entity_metadata") is not None:
            event["entity_metadata"] = {"location": body["entity_metadata"].get("location")}
        for key in ("scheduled_start_time", "scheduled_end_time"):
            if body.get(key) is not None:
                event[key] = timestamp(key, body[key]).isoformat()
        check_length("name", event["name"], 1, 100)
        if event["description"] is not None:
            check_length("description", event["description"], 0, 1000)
        if event["privacy_level"] != GUILD_ONLY:
            raise invalid("privacy_level", "BASE_TYPE_CHOICES", "Value must be one of (2,).")
        if event["entity_type"] != EXTERNAL:  # voice and stage events need channels the fake lacks
            raise invalid("channel_id", "BASE_TYPE_REQUIRED", "This field is required")
        self._check_external(event)
        start = timestamp("scheduled_start_time", event["scheduled_start_time"])
        if body.get("scheduled_start_time") is not None and start < self.clock():
            raise invalid(
                "scheduled_start_time",
                "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                "Cannot schedule event in the past.",
            )
        if timestamp("scheduled_end_time", event["scheduled_end_time"]) <= start:
            raise invalid(
                "scheduled_end_time",
                "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                "The end time must be after the start time.",
            )

    @staticmethod
    def _check_external(event: dict) -> None:
        """An EXTERNAL event has an end time and a location (1 to 100 characters)."""
        if event["scheduled_end_time"] is None:
            raise invalid("scheduled_end_time", "BASE_TYPE_REQUIRED", "This field is required")
        if event["entity_metadata"] is None:
            raise invalid("entity_metadata", "BASE_TYPE_REQUIRED", "This field is required")
        location = event["entity_metadata"].get("location")
        if location is None:
            raise invalid(
                "entity_metadata.location", "BASE_TYPE_REQUIRED", "This field is required"
            )
        check_length("entity_metadata.location", location, 1, 100)
