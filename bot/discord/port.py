"""What bot/discord needs of the bot it runs in, and no more: a few calls to Discord, the table
runtime, the stores it keeps DM channels and house figures in, and (for the handlers of clicks
and commands) the presenter, which answers a click, and a move or My hand, each in one call
(`Answers`). `CardTableBot` (bot/app.py) satisfies these; nothing below bot/app.py imports it,
so the Discord layer can be read, and tested, without the whole bot.
tests/discord/test_discord_port.py checks that the bot, the runtime and the presenter have every
member named here."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Literal, Protocol, cast

import discord
from pydantic import BaseModel

from bot.discord.languages import Speakers
from bot.engine import Action, Event, GameSpec
from bot.settings import Settings
from bot.store import DMChannels, Ledger, TableStore
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
    async def add_ai(
        self, table_id: int, member_id: int, *, can_manage: bool, key: str, level: str
    ) -> str: ...
    async def check_add_ai(self, table_id: int, member_id: int, *, can_manage: bool) -> None: ...
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
    @property
    def speakers(self) -> Speakers: ...

    def dm_sent(self, member_id: int, message_id: int) -> None:
        """Tell the bot's other processes, if any, of a new message in a member's DMs (or that
        one at least as new as `message_id` is there)."""
        ...


class Control(Protocol):
    """A table control as the presenter answers its click (controls.py's `TableItem`)."""

    @property
    def late(self) -> Literal["update", "private"] | None:
        """How a late click is acknowledged before anything is done (see `TableItem`)."""
        ...

    @property
    def custom_id(self) -> str: ...
    @property
    def table_id(self) -> int: ...
    @property
    def seats_own(self) -> bool:
        """Whether it is a seat's own control, drawn in its DMs or its My hand."""
        ...

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        """What the click does."""
        ...


class GameLook(Protocol):
    """What the handlers read of a game's presentation (its GameUI, game_ui.py)."""

    controls_on_table: bool  # played on the table message, not in each seat's private view

    def options_text(self, options: BaseModel) -> str: ...


class PrivateViews(Protocol):
    """What the card picker asks of the players' private views (dms.py's `PrivateHands`): a
    seat's hand, to redraw with its choice so far."""

    def private_embed(self, table: Table, seat: int, news: Sequence[str] = ()) -> discord.Embed: ...


class Answers(Protocol):
    """What the handlers ask of the presenter (bot/discord/presenter.py): it answers every
    table click (`click`), a move one made and My hand, each by one call."""

    @property
    def games(self) -> Mapping[str, GameLook]:
        """Each game's presentation, by game id: /<game> rules shows a table's options, the
        card picker's controls check that a table's game picks cards."""
        ...

    @property
    def hands(self) -> PrivateViews: ...

    async def click(self, interaction: discord.Interaction, control: Control) -> None: ...
    async def move_made(
        self, interaction: discord.Interaction, table: Table, events: Sequence[Event]
    ) -> None: ...
    async def show_hand(
        self, interaction: discord.Interaction, table: Table, seat: int
    ) -> None: ...


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
