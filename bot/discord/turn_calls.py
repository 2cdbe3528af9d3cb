"""Turn calls: a player whose DMs are closed hears of each decision of theirs in the channel.

Their prompts can't come by DM, and an edit of the table message notifies nobody, so a player
on a phone away from the channel would only learn of their turn when its time ran out. Each
decision that opens for such a seat is called in the channel with a mention and the **My hand**
button; the call is deleted once that decision moves on (answered, timed out, the table
closed), so a call stands only while it is that player's move."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot.discord.controls import buttons
from bot.discord.dm_records import Key
from bot.discord.message import TableMessages
from bot.discord.port import PresenterHost
from bot.discord.retries import DISCORD_TROUBLE
from bot.i18n import N_, _, speaking
from bot.tables import Table, TableStatus

log = logging.getLogger(__name__)
YOUR_MOVE = N_("{member}, your move at the table: press **My hand** to see your cards and play.")


class TurnCalls:
    def __init__(
        self,
        host: PresenterHost,
        messages: TableMessages,
        failed: Callable[[Table, int], None],
    ) -> None:
        """`failed(table, seat)`: Discord failed the seat's call (its own trouble), to be
        made again later."""
        self.host, self.messages, self.failed = host, messages, failed
        self.standing: dict[Key, tuple[int, int]] = {}  # (table, seat) -> (message, prompt)
        self.undeleted: dict[int, set[int]] = {}  # table -> calls Discord failed to delete

    async def call(self, table: Table, seat: int, member_id: int) -> None:
        """Call the seat if play waits for it. An optional choice is never called: whose it
        is can be a secret (who holds the card that continues a Last One melee), and the
        table message never names it either (`Table.required_seats`)."""
        if seat in table.required_seats():
            await self.messages.in_channel(table, self._call(table, seat, member_id))

    async def mention(self, table: Table, member_id: int, message: str) -> discord.Message:
        """Post `message` (a catalog entry with a {member}) in the table's channel in the
        server's language, mentioning the member, with the **My hand** button."""
        mention = f"<@{member_id}>"
        with speaking(self.host.speakers.server(table.record.guild_id)):
            view, text = buttons(table.id, "hand"), _(message, member=mention)
        return await self.messages.channel(table).send(
            text, view=view, allowed_mentions=discord.AllowedMentions(users=True)
        )

    async def _call(self, table: Table, seat: int, member_id: int) -> None:
        try:
            sent = await self.mention(table, member_id, YOUR_MOVE)
        except DISCORD_TROUBLE as error:
            log.warning("table %s seat %s: Discord failed a turn call: %r", table.id, seat, error)
            self.failed(table, seat)
            return
        before = self.standing.get((table.id, seat))
        self.standing[(table.id, seat)] = sent.id, table.seats[seat].prompt
        if before is not None:
            await self._delete(table, before[0])

    async def expire(self, table: Table) -> None:
        """The calls whose decision moved on go (and those Discord failed to delete before)."""
        for message_id in self.undeleted.pop(table.id, set()):
            await self._delete(table, message_id)
        playing = table.record.status == TableStatus.PLAYING
        pending = set(table.required_seats()) if playing else set()
        for (table_id, seat), (message_id, prompt) in list(self.standing.items()):
            if table_id != table.id or (seat in pending and table.seats[seat].prompt == prompt):
                continue
            del self.standing[(table_id, seat)]
            await self._delete(table, message_id)

    async def _delete(self, table: Table, message_id: int) -> None:
        try:
            await self.messages.channel(table).get_partial_message(message_id).delete()
        except DISCORD_TROUBLE:  # tried again at the table's next change
            self.undeleted.setdefault(table.id, set()).add(message_id)
        except discord.HTTPException:  # gone already (a moderator), or out of reach
            pass

    def forget(self, table_id: int) -> None:
        self.undeleted.pop(table_id, None)
        for key in [key for key in self.standing if key[0] == table_id]:
            del self.standing[key]
