"""The runtime's listener: every change to a table, shown on Discord.

It coordinates three parts, each in its own module: the lines that say what happened
(lines.py), the table message in the channel (message.py) and each player's private view by
DM or "My hand" (dms.py). A game's cog registers its `GameUI` here; the click handlers
(controls.py) reach it through the narrow `Answers` port (port.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord.dms import PrivateHands
from bot.discord.game_ui import GameUI
from bot.discord.lines import TableLines
from bot.discord.message import TableMessages, standings_embed
from bot.discord.port import PresenterHost
from bot.engine import Event, HandEnded, HandStarted
from bot.store import SeatRecord
from bot.tables import Table, TableStatus
from bot.tables.events import TableClosed, TableStarted


class TablePresenter:
    def __init__(self, host: PresenterHost, *, edit_seconds: float) -> None:
        self.host = host
        self.games: dict[str, GameUI] = {}
        self.lines = TableLines(self.games)
        self.messages = TableMessages(host, self.games, self.lines, edit_seconds)
        self.hands = PrivateHands(host, self.games, self.lines, self.messages)

    def register(self, ui: GameUI) -> None:
        self.games[ui.game_id] = ui

    # ---- the runtime's listener --------------------------------------------------------

    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        ui = self.games[table.game.id]
        names = table.names()
        self.lines.remember(table, events, names)
        dealt = any(isinstance(e, (TableStarted, HandStarted)) for e in events)
        if dealt:  # a new deal
            self.hands.new_deal(table.id)
        closed = next((e for e in events if isinstance(e, TableClosed)), None)
        channel_gone = closed is not None and closed.why == "channel_deleted"
        if closed is not None:
            self.messages.closings[table.id] = closed
        # A failed channel write (a deleted channel, lost permissions) must never stop the
        # private prompts below: players still get their turns.
        if not channel_gone:
            shown = self._show_in_channel(table, ui, closed, events, names)
            await self.messages.in_channel(table, shown)
        if table.record.status == TableStatus.PLAYING and not ui.controls_on_table:
            told = self.hands.told(table, events)
            await self.hands.send(table, everyone=dealt, told=told)
        await self.hands.expire_controls(table)
        if closed is not None and channel_gone:
            await self.host.runtime.store.close_drawn(table.id)  # there is nothing to draw on
            await self.hands.tell_channel_deleted(table, events, closed)
        if table.record.status == TableStatus.CLOSED:
            self._forget(table.id)

    def _forget(self, table_id: int) -> None:
        """A closed table's traces (its DM controls were expired above)."""
        self.lines.forget(table_id)
        self.messages.forget(table_id)
        self.hands.forget(table_id)

    async def _show_in_channel(
        self,
        table: Table,
        ui: GameUI,
        closed: TableClosed | None,
        events: Sequence[Event],
        names: list[str],
    ) -> None:
        messages = self.messages
        if not await messages.still_drawn(table, events):
            messages.update(table)
        if closed is not None:
            await messages.draw_close(table)
        if any(isinstance(e, HandEnded) for e in events) and table.state is not None:
            summary = ui.hand_summary(table, table.view(None), names)
            if summary:
                await messages.channel(table).send(embed=summary)
        if closed and closed.placings and not table.record.solo:
            embed = standings_embed(table, closed, names, ui.score_noun(table.options))
            await messages.channel(table).send(embed=embed)

    # ---- what a click's handler asks (port.Answers) --------------------------------------

    def plays_on_table(self, table: Table) -> bool:
        return self.games[table.game.id].controls_on_table

    def options_text(self, table: Table) -> str:
        return self.games[table.game.id].options_text(table.options)

    def private_message(
        self, table: Table, seat: int, news: Sequence[str] = ()
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        return self.hands.private_message(table, seat, news)

    def private_embed(self, table: Table, seat: int, news: Sequence[str] = ()) -> discord.Embed:
        return self.hands.private_embed(table, seat, news)

    def news_in_answer(self, table: Table, seat: int, events: Sequence[Event]) -> list[str]:
        return self.hands.news_in_answer(table, seat, events)

    async def answer_on_table(self, interaction: discord.Interaction, table: Table) -> None:
        await self.messages.answer_on_table(interaction, table)

    def answered_in(
        self, interaction: discord.Interaction, table_id: int, seat: int, prompt: int | None
    ) -> None:
        self.hands.answered_in(interaction, table_id, seat, prompt)

    async def answer_refused(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: SeatRecord,
        embed: discord.Embed,
        view: discord.ui.View | None,
    ) -> None:
        await self.hands.answer_refused(interaction, table, seat, embed, view)

    def answer_landed(self, interaction: discord.Interaction, table_id: int, seat: int) -> None:
        self.hands.answer_landed(interaction, table_id, seat)

    async def in_own_dms(self, interaction: discord.Interaction) -> bool:
        return await self.hands.in_own_dms(interaction)

    def clicked_in_dms(self, interaction: discord.Interaction, *, refused: bool) -> None:
        self.hands.clicked_in_dms(interaction, refused=refused)

    # ---- what the table commands ask (cogs/table.py) -----------------------------------------

    async def repost(self, table: Table) -> None:
        await self.messages.repost(table)

    def message_deleted(self, message_id: int) -> None:
        self.messages.message_deleted(message_id)
