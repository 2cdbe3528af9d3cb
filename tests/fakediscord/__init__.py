"""The project's fake Discord for end-to-end tests (see server.py and tester.py)."""

from tests.fakediscord.limits import DiscordRefusal
from tests.fakediscord.server import Call, Channel, FakeDiscord, Guild, Interaction, Message, User
from tests.fakediscord.tester import DiscordClientRefuses, Tester

__all__ = [
    "Call",
    "Channel",
    "DiscordClientRefuses",
    "DiscordRefusal",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "Message",
    "Tester",
    "User",
]
