"""The bot process: opens the store, loads every cog, syncs commands, runs until stopped.

The cogs are found, not named: every module of the `cogs` package (but those whose names start
with `_`) is an extension, a module whose `setup(bot)` adds its cogs, and all are set up, in
name order. They are imported as any module is, once a process, not through discord.py's
`load_extension`, which runs a module afresh at each load to allow reloading it (the bot never
does): that halved the CPU of a bot's start (the tests start some 700). Two are the house's
(cogs/economy.py, cogs/table.py); each other is one game's: a thin module whose `setup`
registers the game's GameUI (bot/games/<game>/ui.py) with the presenter and adds its slash
commands (`table_game_cog`, with the game's rules.md as `/<game> rules`). So a game is added by
its package under bot/games (listed in bot.games.GAMES) and its module under cogs/; a game
left without either is caught by tests/discord/test_game_packages.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import re
import signal
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import discord
from aiohttp import web
from discord.ext import commands

import bot.games  # noqa: F401  (registers every game)
import cogs
from bot import i18n
from bot.collector import CollectorPace
from bot.discord.controls import ActionButton, ActionSelect, TableButton, TableItem
from bot.discord.errors import CommandTree, handle_error
from bot.discord.internals import (
    compiled_template,
    ignore_gateway_events,
    interaction_from,
    pace_requests,
    route_gateway_event,
    sync_global_commands,
)
from bot.discord.languages import Speakers, speak_to
from bot.discord.pacing import RequestPacer
from bot.discord.presenter import TablePresenter
from bot.discord.routing import InteractionRouter, Payload
from bot.discord.text_answers import TextAnswer, TextButton
from bot.discord.tournament import TournamentPresenter
from bot.errors import InvalidComponent
from bot.i18n.commands import CatalogTranslator
from bot.settings import Settings
from bot.shards import Shards
from bot.store import (
    Database,
    DMChannels,
    Languages,
    Leaderboards,
    Ledger,
    TableStore,
    open_database,
)
from bot.store.shards import ShardClaims, StoppedWaiting, open_shard_claims
from bot.store.tournaments import TournamentStore
from bot.tables import TableRuntime
from bot.tables.tournaments import Tournaments
from bot.web import links_of
from bot.web.server import WebPages, serve

log = logging.getLogger(__name__)

TABLE_ITEMS = (TableButton, ActionButton, ActionSelect, TextButton)  # the tables' controls
TABLE_FORMS = (TextAnswer,)  # and their forms


def cog_modules() -> list[str]:
    """Every extension to load: each module of the `cogs` package (cogs.extensions)."""
    return cogs.extensions()


def gateway_intents() -> discord.Intents:
    """What the bot asks Discord's gateway for: its guilds and channels (GUILDS), and its
    guilds' message events (GUILD_MESSAGES) for MESSAGE_DELETE, so that a moderator's deleting
    a table message brings it back. Interactions come whatever the intents. discord.py's
    default intents would add DMs' messages, typing, reactions, voice states and more: at a
    busy table every prompt and redraw in a player's DMs would come back as an event to parse."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    return intents


# Events that GUILD_MESSAGES brings but the bot never reads: every message made or edited in
# its guilds' channels, the bot's own table messages included. discord.py would build a whole
# Message from each and look in it for a prefix command; the bot has none.
IGNORED_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE")


# Discord takes one IDENTIFY per 5 seconds from a bot (a larger bot's max_concurrency aside):
# discord.py waits this long before each of a process's shards after the first.
IDENTIFY_PAUSE_SECONDS = 5.0


class ShardsLost(Exception):
    """This process lost its hold on its shards in the database: another may act on its
    tables now, so it stopped (a supervisor starts it again)."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def on_its_message(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether the clicked component is one the message it came from shows."""
    assert interaction.data is not None  # a click always carries its data
    kind, message = interaction.data.get("component_type"), interaction.message
    return message is not None and any(
        getattr(child, "custom_id", None) == custom_id and child.type.value == kind
        for row in message.components
        for child in getattr(row, "children", [row])
    )


class CardTableBot(commands.AutoShardedBot):
    """The bot, on the shards its settings name (all of them by default): discord.py's
    AutoShardedBot runs each shard's gateway connection in this one process."""

    database: Database
    ledger: Ledger
    runtime: TableRuntime
    tournaments: Tournaments
    tournament_store: TournamentStore
    claims: ShardClaims
    speakers: Speakers

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = utc_now,
        runtime_options: dict[str, Any] | None = None,
        freeze_after_setup: bool = False,
        identify_pause: float = IDENTIFY_PAUSE_SECONDS,
        **options: Any,
    ) -> None:
        # No message cache: the bot reads no message it is sent (a deleted table message comes
        # as a raw event), and discord.py would keep the last thousand in memory.
        options.setdefault("max_messages", None)
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=gateway_intents(),
            tree_cls=CommandTree,
            shard_count=settings.shard_count,
            **options,
        )
        ignore_gateway_events(self, IGNORED_EVENTS)
        self.settings = settings
        self.shard_set = Shards(settings.shard_count, settings.shard_ids)
        self.identify_pause = identify_pause
        self.shards_lost = False
        self.claimed = False  # holds its shards (on SQLite, every shard) from now on
        self.clock = clock
        self.runtime_options = runtime_options or {}
        self.freeze_after_setup = freeze_after_setup
        self.pacer = RequestPacer(self.shard_set.share_of(settings.requests_per_second))
        pace_requests(self.http, self.pacer.slot_for)
        self.presenter = TablePresenter(self, edit_seconds=settings.table_edit_seconds)
        self.collector_pace = CollectorPace()
        self.web_links = links_of(settings)  # None: the web pages are off
        self.web_runner: web.AppRunner | None = None
        self.component_templates: list[re.Pattern[str]] = []
        self.table_items: dict[re.Pattern[str], type[TableItem]] = {}

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        """The table's controls are dispatched by `on_interaction`, not by discord.py, which
        first rebuilds a View of every component on the clicked message (the 25 buttons of
        a picker) and runs the click in a task of its own: some 2% of the bot's CPU at 500
        busy tables, for one item built from its custom_id. discord.py runs the others (the
        leaderboard's pages). Items registered already are skipped: several cogs share some."""
        for item in items:
            template = compiled_template(item)
            if template in self.component_templates:
                continue
            self.component_templates.append(template)
            if issubclass(item, TableItem):
                self.table_items[template] = item
            else:
                super().add_dynamic_items(item)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a table's control runs it. A click that no control's template fits, or
        whose component isn't on its message (a modified client can send any custom_id), is
        answered as not valid: discord.py would drop it silently. A table's form is submitted
        by its custom_id likewise, before or after a restart."""
        if interaction.type is discord.InteractionType.modal_submit:
            await self.on_form(interaction)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        await speak_to(interaction)
        assert interaction.data is not None  # Discord sends a click with its data
        custom_id = str(interaction.data.get("custom_id", ""))
        match = next(filter(None, (t.fullmatch(custom_id) for t in self.component_templates)), None)
        if match is None or not on_its_message(interaction, custom_id):
            await handle_error(interaction, InvalidComponent(), "component")
            return
        factory = self.table_items.get(match.re)
        if factory is None:
            return  # discord.py runs it
        try:
            item = await factory.from_custom_id(interaction, None, match)
        except Exception as error:
            await handle_error(interaction, error, f"component {custom_id!r}")
            return
        await item.callback(interaction)

    async def on_form(self, interaction: discord.Interaction) -> None:
        """A table's form, submitted: handled by its custom_id (discord.py keeps no copy of the
        form, see TextModal). The bot sends no other form: one that fits none was forged, and
        is answered as not valid (else its member would wait for nothing)."""
        assert interaction.data is not None  # Discord sends a form with its data
        await speak_to(interaction)
        custom_id = str(interaction.data.get("custom_id", ""))
        for form in TABLE_FORMS:
            match = form.TEMPLATE.fullmatch(custom_id)
            if match is not None:
                await form.from_match(match).callback(interaction)
                return
        await handle_error(interaction, InvalidComponent(), "form")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            await asyncio.sleep(self.identify_pause)

    async def setup_hook(self) -> None:
        self.database = await open_database(self.settings)
        # Before any table is loaded: the shards are this process's alone from here on.
        self.claims = await open_shard_claims(self.database, self.settings, self.shard_set)
        self.claims.hear_dms(self.presenter.hands.sent_elsewhere)
        await self.claims.claim()
        self.claimed = True
        self.ledger = Ledger(self.database, self.settings.starting_chips)
        self.leaderboards = Leaderboards(self.database)
        self.dm_channels = DMChannels(self.database)
        languages = Languages(self.database)
        await languages.load_servers()
        self.speakers = Speakers(languages, self.guild_locale)
        await self.tree.set_translator(CatalogTranslator())
        await self.presenter.hands.restore_reply_hooks()
        self.runtime = TableRuntime(
            TableStore(self.database, self.ledger),
            self.ledger,
            self.presenter,
            clock=self.clock,
            shards=self.shard_set,
            **self.runtime_options,
        )
        self.tournament_store = TournamentStore(self.database, self.ledger)
        self.tournament_presenter = TournamentPresenter(self)
        runtime = self.runtime
        self.tournaments = Tournaments(
            runtime.core,
            runtime.lobby,
            runtime.play,
            self.tournament_store,
            self.tournament_presenter,
        )
        self.add_dynamic_items(*TABLE_ITEMS)
        for module in cog_modules():
            await importlib.import_module(module).setup(self)
            log.info("loaded %s", module)
        await self.sync_commands()
        resumed = await self.runtime.resume()
        if resumed:
            log.info("resumed %d tables", len(resumed))
        if tournaments := await self.tournaments.resume():
            log.info("resumed %d tournaments", len(tournaments))
        if not self.shard_set.every:
            self._route_interactions()
            await self.claims.listen(self._take_forwarded)
        self._claims_watch = asyncio.create_task(self._stop_when_claims_lost())
        await self._serve_pages()
        if self.freeze_after_setup:
            # What exists now (modules, cogs, schemas, resumed tables) lives as long as the
            # process: the garbage collector need not walk it again at every full collection,
            # which with hundreds of tables paused the loop for half a second. Collections are
            # also made rarer, the more so while the bot is busy (bot.collector).
            gc.collect()
            gc.freeze()
            self.collector_pace.start()

    async def _serve_pages(self) -> None:
        """The web pages, served by the process that runs shard 0 (README, Web pages)."""
        port = self.settings.web_port
        if self.web_links is None or port is None or not self.shard_set.runs_shard_zero:
            return
        try:
            self.web_runner = await serve(
                WebPages(self, self.web_links), self.settings.web_host, port
            )
        except OSError as error:
            log.error("could not serve the web pages on port %d: %s", port, error)

    def _route_interactions(self) -> None:
        """DM clicks on tables another process holds go to it (bot/discord/routing.py)."""
        self._handle_here = route_gateway_event(
            self,
            "INTERACTION_CREATE",
            lambda parser: InteractionRouter(
                self.shard_set,
                self,
                self.claims,
                [*self.component_templates, *(form.TEMPLATE for form in TABLE_FORMS)],
                parser,
                lambda payload: interaction_from(self, payload),
            ),
        )

    async def _take_forwarded(self, payload: Payload) -> None:
        """A click another process received for one of this process's tables."""
        self._handle_here(payload)

    def dm_sent(self, member_id: int, message_id: int) -> None:
        """The bot's other processes hear of a new message in a member's DMs."""
        self.claims.dm_sent(member_id, message_id)

    def guild_locale(self, guild_id: int) -> str | None:
        guild = self.get_guild(guild_id)
        return None if guild is None else guild.preferred_locale.value

    def holds_table(self, table_id: int) -> bool:
        return table_id in self.runtime.tables

    async def guild_of(self, table_id: int) -> int | None:
        return await self.runtime.store.guild_of(table_id)

    async def _stop_when_claims_lost(self) -> None:
        await self.claims.lost.wait()
        log.error("lost the hold on %s in the database: stopping", self.shard_set.describe())
        self.shards_lost = True
        await self.close()

    def followup_webhook(self, token: str) -> discord.Webhook:
        """The followup webhook of one of this bot's interactions, by its token."""
        assert self.application_id is not None  # known from login on, before setup_hook
        return discord.Webhook.partial(self.application_id, token, client=self)

    async def sync_commands(self) -> None:
        if not self.shard_set.runs_shard_zero:
            return  # one process registers the commands: shard 0's
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild.id)
        else:
            synced = await sync_global_commands(self.tree, i18n.edition())
            log.info("synced %d global commands", len(synced))

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Log in, set up, and run until closed. Closed while it still waited for its shards
        (a standby stopped), it ends as quietly as a running bot: its claims said so."""
        try:
            await super().start(token, reconnect=reconnect)
        except StoppedWaiting:
            return

    async def close(self) -> None:
        # discord.py calls close() again from connect() while the first call is running;
        # aiosqlite hangs if two closes overlap, so only the first one closes the database.
        closing_database = not self.is_closed() and hasattr(self, "database")
        if hasattr(self, "claims") and not self.claimed:
            await self.claims.close()  # it stops waiting for its shards, at once
        watch = getattr(self, "_claims_watch", None)
        if watch is not None and watch is not asyncio.current_task():
            watch.cancel()
        self.collector_pace.stop()
        if self.web_runner is not None:
            await self.web_runner.cleanup()
            self.web_runner = None
        if closing_database and hasattr(self, "runtime"):
            await self.runtime.shutdown()
            await self.tournaments.shutdown()
            self.presenter.stop_retries()
            self.tournament_presenter.retries.stop()
            await self.presenter.hands.keep_reply_hooks()
        await super().close()
        if closing_database:
            if hasattr(self, "claims"):
                await self.claims.close()
            await self.database.close()


def close_on_sigterm(client: discord.Client) -> None:
    """SIGTERM (a supervisor's, systemd's or `python -m bot cluster`'s stop) closes the bot as
    Ctrl-C does: what it shows is saved for the next start, and its shards are let go. Where
    the loop takes no signal handlers (Windows), SIGTERM still ends the process at once."""
    closing: list[asyncio.Task[None]] = []  # kept, so the task isn't collected mid-close
    with contextlib.suppress(NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGTERM, lambda: closing.append(asyncio.create_task(client.close()))
        )


async def run_bot(settings: Settings, token: str) -> None:
    async with CardTableBot(settings, freeze_after_setup=True) as client:
        close_on_sigterm(client)
        await client.start(token)
    raise_if_shards_lost(client)


def raise_if_shards_lost(client: CardTableBot) -> None:
    """After the bot stopped: ShardsLost if that is why (its process should end with 1)."""
    if client.shards_lost:
        raise ShardsLost()
