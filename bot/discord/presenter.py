"""The runtime's listener: every change to a table, shown on Discord. And a click's answer.

It coordinates three parts, each in its own module: the lines that say what happened
(lines.py), the table message in the channel (message.py) and each player's private view by
DM or "My hand" (dms.py). A game's cog registers its `GameUI` here.

The click handlers (controls.py, picker/) reach it through the narrow `Answers` port
(port.py), one call per answer. `click` frames every click: acknowledged if late, refused if
forged, its error answered, its DM's webhook kept. `move_made` decides together how a move is
shown to its clicker: the table message redrawn as the answer (a game played there), else the
clicked DM or My hand redrawn with the move's news, its bookkeeping inside `PrivateHands`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.dms import PrivateHands
from bot.discord.errors import handle_error
from bot.discord.game_ui import GameUI
from bot.discord.internals import forget_response
from bot.discord.lines import TableLines
from bot.discord.message import TableMessages, standings_embed
from bot.discord.port import Control, PresenterHost, host
from bot.discord.replies import (
    acknowledge_if_late,
    on_public_message,
    redraw_clicked,
    send_answer,
)
from bot.engine import Event, HandEnded, HandStarted
from bot.errors import InvalidComponent
from bot.i18n import _, speaking
from bot.tables import Table, TableStatus
from bot.tables.events import BOT_REMOVED, CHANNEL_DELETED, TableClosed, TableStarted


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
        """Shown in the server's language; each player's DM in their own (PrivateHands)."""
        with speaking(self.host.speakers.server(table.record.guild_id)):
            await self._table_changed(table, events)

    async def _table_changed(self, table: Table, events: Sequence[Event]) -> None:
        ui = self.games[table.game.id]
        names = table.names()
        self.lines.remember(table, events, names)
        dealt = any(isinstance(e, (TableStarted, HandStarted)) for e in events)
        if dealt:  # a new deal
            self.hands.new_deal(table.id)
        closed = next((e for e in events if isinstance(e, TableClosed)), None)
        channel_gone = closed is not None and closed.why in (CHANNEL_DELETED, BOT_REMOVED)
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
            await self.hands.tell_closed_out_of_sight(table, events, closed)
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

    # ---- answering a click (port.Answers) ---------------------------------------------------

    async def click(self, interaction: discord.Interaction, control: Control) -> None:
        """Answer a click on a table control (or a form's submit): acknowledged first if it
        came late, refused if placed in another member's DMs, else done by `control.run`; an
        error is answered as such. A click in its member's own DMs leaves its followup
        webhook, for their next prompts (`PrivateHands.clicked_in_dms`)."""
        own_dms, refused = False, False
        try:
            if control.late:
                await acknowledge_if_late(interaction, privately=control.late == "private")
            own_dms = await self.hands.in_own_dms(interaction)
            if control.seats_own and not own_dms:
                self._check_seen_privately(interaction, control.table_id)
            await control.run(interaction, host(interaction))
        except Exception as error:
            refused = True
            await handle_error(interaction, error, f"table control {control.custom_id!r}")
        if own_dms:
            self.hands.clicked_in_dms(interaction, refused=refused)
        forget_response(interaction)

    def _check_seen_privately(self, interaction: discord.Interaction, table_id: int) -> None:
        """A seat's own control is answered by redrawing its message with the seat's hand: one
        on a message the whole channel sees (the table message) was forged, and answered would
        show that hand there. Only a game played on the table message has controls there."""
        if not on_public_message(interaction):
            return
        if not self.games[self.host.runtime.get(table_id).game.id].controls_on_table:
            raise InvalidComponent()

    async def move_made(
        self, interaction: discord.Interaction, table: Table, events: Sequence[Event]
    ) -> None:
        """Answer a click whose move made `events` on `table` (as it was clicked: a step that
        closes it takes it from the runtime). A game played on the table message redraws that
        message; any other, the clicker's private view clicked (`PrivateHands.answer_move`)."""
        if self.games[table.game.id].controls_on_table:
            await self.messages.answer_on_table(interaction, table)
            return
        still_open = self.host.runtime.tables.get(table.id)
        seat = still_open.seat_of(interaction.user.id) if still_open else None
        if still_open is None or seat is None or still_open.state is None:
            await redraw_clicked(
                interaction, content=_("The table has closed."), embed=None, view=None
            )
            return
        await self.hands.answer_move(interaction, still_open, seat, events)

    async def show_hand(self, interaction: discord.Interaction, table: Table, seat: int) -> None:
        """Answer My hand: the seat's hand and controls, shown to its player alone."""
        embed, view = self.hands.private_message(table, seat)
        shown: dict[str, Any] = {"view": view} if view is not None else {}
        await send_answer(interaction, embed=embed, ephemeral=True, **shown)

    # ---- what the table commands ask (cogs/table.py) -----------------------------------------

    async def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of the channel (the old one goes)."""
        old, runtime = table.record.message_id, self.host.runtime
        await runtime.set_message(table, None)
        runtime.show(table, [])
        if old:
            with contextlib.suppress(discord.HTTPException):
                await self.messages.channel(table).get_partial_message(old).delete()

    async def thread_archived(self, thread_id: int) -> None:
        """A thread holding tables was archived (by a moderator, or by Discord after its quiet
        time): it left the channel list and its messages take no edit, yet its tables are
        open. Each table message is posted anew, which unarchives the thread."""
        for table in list(self.host.runtime.tables.values()):
            if table.record.channel_id == thread_id:
                await self.repost(table)

    def stop_retries(self) -> None:
        """At shutdown: no DM or table message is tried again (see retries.py)."""
        self.hands.retries.stop()
        self.messages.retries.stop()

    def message_deleted(self, message_id: int) -> None:
        """A table message was deleted (a moderator): post it again at once."""
        for table in list(self.host.runtime.tables.values()):
            if table.record.message_id == message_id:
                self.host.runtime.show(table, [])
