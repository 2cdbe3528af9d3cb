"""What bot/discord needs of the bot it runs in, and no more: a few calls to Discord, the table
runtime, the stores it keeps DM channels and house figures in, and (for a click's handler) the
presenter's answers. `CardTableBot` (bot/app.py) satisfies these; nothing below bot/app.py
imports it, so the Discord layer can be read, and tested, without the whole bot.
tests/discord/test_discord_port.py checks that the bot, the runtime and the presenter have every
member named here."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Protocol, cast

import discord
from pydantic import BaseModel

from bot.engine import Action, Event, GameSpec
from bot.settings import Settings
from bot.store import DMChannels, Ledger, SeatRecord, TableStore
from bot.tables import Table


class DiscordCalls(Protocol):
    """What the presenter asks of Discord beyond answering an interaction."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    def followup_webhook(self, token: str) -> discord.Webhook:
        """The followup webhook of an interaction whose token is `token`."""
        ...


class Runtime(Protocol):
    """What the Discord layer asks of the table runtime (bot/tables)."""

    @property
    def tables(self) -> Mapping[int, Table]: ...
    @property
    def renders(self) -> set[asyncio.Task]: ...
    @property
    def store(self) -> TableStore: ...

    def get(self, table_id: int) -> Table: ...
    def in_channel(self, channel_id: int) -> Table | None: ...
    def show(self, table: Table, events: Sequence[Event]) -> None: ...
    async def set_message(self, table: Table, message_id: int | None) -> None: ...
    async def channel_gone(self, channel_id: int) -> None: ...

    async def open(
        self,
        game: GameSpec,
        options: BaseModel,
        *,
        guild_id: int | None,
        channel_id: int | None,
        creator_id: int,
        creator_name: str,
        buy_in: int,
        turn_seconds: int,
        key: str,
        once: tuple[str, str] | None = None,
        ai_delay: int = 2,
    ) -> Table: ...
    async def join(self, table_id: int, member_id: int, name: str, key: str) -> Table: ...
    async def leave(
        self, table_id: int, member_id: int, key: str, *, confirmed: bool = True
    ) -> str | None: ...
    async def add_ai(self, table_id: int, member_id: int, *, can_manage: bool, key: str) -> str: ...
    async def remove_ai(
        self, table_id: int, member_id: int, *, can_manage: bool, key: str
    ) -> str: ...
    async def switch_side(self, table_id: int, member_id: int) -> int: ...
    async def shuffle_sides(self, table_id: int, member_id: int, *, can_manage: bool) -> None: ...
    async def start(
        self, table_id: int, member_id: int, *, can_manage: bool, click: int = 0
    ) -> Table: ...
    async def cancel(
        self, table_id: int, member_id: int, *, can_manage: bool, key: str
    ) -> Table: ...
    async def act(
        self,
        table_id: int,
        member_id: int,
        prompt: int,
        token: str | None = None,
        action: Action | None = None,
    ) -> list[Event]: ...
    async def back(self, table_id: int, member_id: int) -> None: ...


class PresenterHost(DiscordCalls, Protocol):
    """What the presenter is handed: Discord, the runtime, where DM channels are kept, and the
    bot's other processes (which hear of its DMs)."""

    @property
    def runtime(self) -> Runtime: ...
    @property
    def dm_channels(self) -> DMChannels: ...

    def dm_sent(self, member_id: int, message_id: int) -> None:
        """Tell the bot's other processes, if any, of a new message in a member's DMs (or that
        one at least as new as `message_id` is there)."""
        ...


class Answers(Protocol):
    """What a click's handler asks of the presenter (bot/discord/presenter.py)."""

    @property
    def games(self) -> Mapping[str, object]:
        """Each game's presentation (its GameUI), by game id: the card picker's controls
        check that a table's game picks cards."""
        ...

    def plays_on_table(self, table: Table) -> bool: ...
    def options_text(self, table: Table) -> str: ...
    def private_message(
        self, table: Table, seat: int, news: Sequence[str] = ()
    ) -> tuple[discord.Embed, discord.ui.View | None]: ...
    def private_embed(self, table: Table, seat: int, news: Sequence[str] = ()) -> discord.Embed: ...
    def news_in_answer(self, table: Table, seat: int, events: Sequence[Event]) -> list[str]: ...
    async def answer_on_table(self, interaction: discord.Interaction, table: Table) -> None: ...
    def answered_in(
        self, interaction: discord.Interaction, table_id: int, seat: int, prompt: int | None
    ) -> None: ...
    async def answer_refused(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: SeatRecord,
        embed: discord.Embed,
        view: discord.ui.View | None,
    ) -> None: ...
    def answer_landed(self, interaction: discord.Interaction, table_id: int, seat: int) -> None: ...
    async def in_own_dms(self, interaction: discord.Interaction) -> bool: ...
    def clicked_in_dms(self, interaction: discord.Interaction, *, refused: bool) -> None: ...


class TableHost(PresenterHost, Protocol):
    """The bot as an interaction's handler sees it (`interaction.client`)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def ledger(self) -> Ledger: ...
    @property
    def presenter(self) -> Answers: ...


def host(interaction: discord.Interaction) -> TableHost:
    """The bot an interaction came to, as the Discord layer sees it."""
    return cast("TableHost", interaction.client)
