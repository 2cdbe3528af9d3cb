"""The project's fake Discord for end-to-end tests (see server.py, threads.py and tester.py)."""

from tests.fakediscord.limits import DiscordRefusal
from tests.fakediscord.server import (
    Call,
    Channel,
    FakeDiscord,
    Guild,
    Interaction,
    Message,
    Shard,
    Undelivered,
    User,
    shard_of,
)
from tests.fakediscord.tester import DiscordClientRefuses, NotAnswered, Tester
from tests.fakediscord.threads import Refused, ThreadInfo

__all__ = [
    "Call",
    "Channel",
    "DiscordClientRefuses",
    "DiscordRefusal",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "Message",
    "NotAnswered",
    "Refused",
    "Shard",
    "Tester",
    "ThreadInfo",
    "Undelivered",
    "User",
    "shard_of",
]
