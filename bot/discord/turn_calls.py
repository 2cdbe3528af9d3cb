"""Turn calls: a player whose DMs are closed hears of each decision of theirs in the channel.

Their prompts can't come by DM, and an edit of the table message notifies nobody, so a player
on a phone away from the channel would only learn of their turn when its time ran out. Each
decision that opens for such a seat is called in the channel with a mention and the **My hand**
button, and that seat's previous call is deleted: at most one call per seat stands there."""

from __future__ import annotations

import contextlib

import discord

from bot.discord.controls import buttons
from bot.discord.dm_records import Key
from bot.discord.message import TableMessages
from bot.discord.port import PresenterHost
from bot.i18n import N_, _, speaking
from bot.tables import Table

YOUR_MOVE = N_("{member}, your move at the table: press **My hand** to see your cards and play.")


class TurnCalls:
    def __init__(self, host: PresenterHost, messages: TableMessages) -> None:
        self.host, self.messages = host, messages
        self.standing: dict[Key, int] = {}  # (table, seat) -> its call's message

    async def call(self, table: Table, seat: int, member_id: int) -> None:
        await self.messages.in_channel(table, self._call(table, seat, member_id))

    async def _call(self, table: Table, seat: int, member_id: int) -> None:
        channel, mention = self.messages.channel(table), f"<@{member_id}>"
        with speaking(self.host.speakers.server(table.record.guild_id)):
            view, text = buttons(table.id, "hand"), _(YOUR_MOVE, member=mention)
        sent = await channel.send(
            text, view=view, allowed_mentions=discord.AllowedMentions(users=True)
        )
        before = self.standing.get((table.id, seat))
        self.standing[(table.id, seat)] = sent.id
        if before is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(before).delete()

    def forget(self, table_id: int) -> None:
        """A closed table's calls stay in the channel (its My hand says the table closed)."""
        for key in [key for key in self.standing if key[0] == table_id]:
            del self.standing[key]
