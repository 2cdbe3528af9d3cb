"""The DMs a process sends, told to the other processes (bot/store/shards.py), on the claims'
connection (bot/store/claims_connection.py).

A new message a process sends into a member's DMs is told to the other processes: "is the DM a
player answered in still the newest there", which decides whether the player's next decision
may be edited into it (bot/discord/dms.py), must hold whichever process sent what came after
it. Told in batches, one notification for many, without a round trip of the sender's own: a
process hears of another's DM a few milliseconds after it was sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.store.claims_connection import ClaimsConnection, ClaimsLost

# "<member>,<message>[,<member>,<message>...] <schema>": DMs a process sent
DMS_CHANNEL = "cardtable_dm"
DMS_AT_ONCE = 100  # (member, message) pairs in one notification: some 4 kB of its 8
TELL_DMS = f"SELECT pg_notify('{DMS_CHANNEL}', told) FROM unnest($1::text[]) AS told"


class DMNews:
    """This process's DMs told to the others, and theirs heard, on `session`; nothing either
    way unless `shared` (other processes run some of the bot's shards)."""

    def __init__(self, session: ClaimsConnection, shared: bool) -> None:
        self.session = session
        self.shared = shared
        self._dms_sent: list[tuple[int, int]] = []  # (member, message), not yet told
        self._telling = False
        self._heard_dm: Callable[[int, int], None] | None = None

    async def start(self) -> None:
        """From now on, the others' DMs are heard (for `hear_dms`)."""
        if self.shared:
            await self.session.connection.add_listener(DMS_CHANNEL, self._on_dms)

    def dm_sent(self, member_id: int, message_id: int) -> None:
        """ShardClaims.dm_sent's."""
        if not self.shared or not self.session.usable:
            return
        self._dms_sent.append((member_id, message_id))
        if not self._telling:
            self._telling = True
            self.session.spawn(self._tell_dms())

    async def _tell_dms(self) -> None:
        """The DMs sent since the last telling, in one statement; those sent while it is under
        way go in the next."""
        try:
            while self._dms_sent:
                sent, self._dms_sent = self._dms_sent, []
                at_once = range(0, len(sent), DMS_AT_ONCE)
                await self._tell([self._told(sent[at : at + DMS_AT_ONCE]) for at in at_once])
        except ClaimsLost:
            self._dms_sent.clear()  # the process stops
        finally:
            self._telling = False

    def _told(self, sent: list[tuple[int, int]]) -> str:
        """One notification's text."""
        pairs = ",".join(f"{member},{message}" for member, message in sent)
        return f"{pairs} {self.session.schema}"

    async def _tell(self, told: list[str]) -> None:
        await self.session.run(lambda connection: connection.execute(TELL_DMS, told))

    def hear_dms(self, heard: Callable[[int, int], None]) -> None:
        """ShardClaims.hear_dms's."""
        self._heard_dm = heard

    def _on_dms(self, _connection: Any, pid: int, _channel: str, message: str) -> None:
        heard = self._heard_dm
        if pid == self.session.pid or heard is None:
            return  # its own DMs, or no one to tell yet
        numbers, _, schema = message.partition(" ")
        values = numbers.split(",")
        if schema != self.session.schema or len(values) % 2 or not all(map(str.isdigit, values)):
            return
        for member, sent in zip(values[::2], values[1::2], strict=True):
            heard(int(member), int(sent))
