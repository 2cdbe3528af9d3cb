"""Interactions reach the process that owns their table (README, Several processes).

Discord sends a guild's interactions to the shard that owns the guild, so a click in a table's
channel comes to the process acting on that table. A click in a DM comes to shard 0's process,
whatever guild the table is in: that process forwards it, as Discord sent it, to the owner
(the claims' forwards, bot/store/forwards.py), which handles it as if its own gateway had
brought it and answers through the interaction's token. A forward the owner does not take in
time (it is restarting, its shards are being taken over) is answered here with a sentence; the
player's click changed nothing and can be made again.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import discord

from bot.discord.custom_ids import whole
from bot.discord.errors import reply_privately
from bot.discord.languages import speak_to
from bot.i18n import N_, _
from bot.shards import Shards, shard_of

log = logging.getLogger(__name__)

# How long the owner has to take a forwarded click: Discord wants an answer within 3 s of the
# click, and a forward the owner does not take is answered here, after this.
FORWARD_WAIT_SECONDS = 1.5
NOT_TAKEN = N_(
    "That table is being moved to another of the bot's processes: try again in a few seconds."
)
# Tables whose guild routing keeps, so as not to ask the store at every DM click: a table
# never changes guild. Past this many, it forgets them all and starts again.
GUILDS_KEPT = 100_000
COMPONENT, FORM = 3, 5  # Discord's interaction types whose custom_id may name a table
Payload = dict[str, Any]


class Courier(Protocol):
    async def forward(self, shard_id: int, payload: Payload, wait_seconds: float) -> bool: ...


class Owners(Protocol):
    """What routing asks of the bot: its tables, their guilds, and its templates."""

    def holds_table(self, table_id: int) -> bool: ...

    async def guild_of(self, table_id: int) -> int | None: ...


def table_named(payload: Payload, templates: Iterable[re.Pattern[str]]) -> int | None:
    """The table a click or form's custom_id names (its template's `table_id`), if any."""
    if payload.get("type") not in (COMPONENT, FORM):
        return None
    custom_id = str(payload.get("data", {}).get("custom_id", ""))
    for template in templates:
        match = template.fullmatch(custom_id)
        if match is not None and "table_id" in template.groupindex:
            return whole(match["table_id"])
    return None


class InteractionRouter:
    """Stands in front of discord.py's INTERACTION_CREATE parser (`handle`, which it calls
    for every interaction this process handles itself)."""

    def __init__(
        self,
        shards: Shards,
        owners: Owners,
        courier: Courier,
        templates: Iterable[re.Pattern[str]],
        handle: Callable[[Payload], None],
        answer: Callable[[Payload], discord.Interaction],
    ) -> None:
        self.shards, self.owners, self.courier = shards, owners, courier
        # Those that name a table, once: every control is registered before routing starts.
        self.templates = tuple(t for t in templates if "table_id" in t.groupindex)
        self.handle, self.answer = handle, answer
        self.forwarding: set[asyncio.Task[None]] = set()
        self.guilds: dict[int, int] = {}  # table -> its guild, as found in the store

    def __call__(self, payload: Payload) -> None:
        """A DM's click on a table this process does not hold may be another's; anything
        else is handled here at once, in the order the gateway brought it."""
        table_id = None if "guild_id" in payload else table_named(payload, self.templates)
        if table_id is None or self.owners.holds_table(table_id):
            self.handle(payload)
            return
        task = asyncio.create_task(self._route(payload, table_id))
        self.forwarding.add(task)
        task.add_done_callback(self.forwarding.discard)

    async def _route(self, payload: Payload, table_id: int) -> None:
        guild_id = await self._guild_of(table_id)
        if guild_id is None or self.shards.owns(guild_id):
            self.handle(payload)  # no such table, or one of ours that closed: said as ever
            return
        assert self.shards.count is not None  # a process not running every shard knows them
        shard = shard_of(guild_id, self.shards.count)
        try:
            if await self.courier.forward(shard, payload, FORWARD_WAIT_SECONDS):
                return
        except Exception:
            log.exception("could not forward a click on table %s to shard %s", table_id, shard)
        log.warning("no process took a click on table %s for shard %s", table_id, shard)
        try:
            interaction = self.answer(payload)
            await speak_to(interaction)
            await reply_privately(interaction, _(NOT_TAKEN))
        except discord.HTTPException:
            log.warning("could not tell a player their click on table %s was not taken", table_id)

    async def _guild_of(self, table_id: int) -> int | None:
        guild_id = self.guilds.get(table_id)
        if guild_id is None:
            guild_id = await self.owners.guild_of(table_id)
            if guild_id is not None:  # (no such table yet: asked again next time)
                if len(self.guilds) >= GUILDS_KEPT:
                    self.guilds.clear()
                self.guilds[table_id] = guild_id
        return guild_id
