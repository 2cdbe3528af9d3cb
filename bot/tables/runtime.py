"""The table runtime, shared by every game: lobby -> playing -> closed.

`TableRuntime` is what the Discord layer (bot/discord/port.py's `Runtime`), the cogs and the
tests hold: a facade that builds the stages of a table, wires them, and hands each call to the
stage that does it. The stages are objects, each holding what it asks of the others:

    table.py       a table: its record, kept state, locks, and the answers of its state
    core.py        RuntimeCore, which every stage holds: the open tables, finding one under
                   its lock, the store and ledger, the clock and settings, telling the listener
    play.py        Play: a seat's action and the steps that save each change; holds a
                   `Scheduler` (the clock) for each step's deadline and arming its timer
    clock.py       Clock: deadlines and AI turns; is play's `Scheduler`, and holds play as
                   `Steps` (a timeout, the next hand, a window's end, an AI's move, away seats)
    lobby.py       Lobby: open, seats, sides, Start, Cancel and Close; holds play and the
                   clock (Start deals and arms, Close winds play up)
    resume.py      Resume: loading tables after a restart, a deleted channel, shutdown; holds
                   play, the clock and the lobby
    settlement.py  the results and chip movements of a step, as pure functions
    actions.py     action tokens, and the records of the steps the table takes itself

A click goes down once and comes back up once: `act` here -> Play.act -> its step and commit
-> the store, the clock asked for the deadline and to arm the timer as a collaborator.

Every change to a table happens under its lock: check who may act, apply to a copy of the
engine state, then write snapshot + action + chip movements in one transaction, and only then
keep the new state. Deadlines are timers that apply the game's default action. After each
change the listener (the Discord layer) is told, in order, on a per-table queue.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from pydantic import BaseModel

from bot.engine import Action, Event, GameSpec
from bot.engine.deals import SEED_BYTES
from bot.games.ai import STANDARD
from bot.shards import EVERY_SHARD, Shards
from bot.store import GuildSettings, Ledger, TableStore
from bot.tables.clock import Clock
from bot.tables.core import RuntimeCore, TableListener
from bot.tables.lobby import Lobby
from bot.tables.play import Play
from bot.tables.resume import Resume
from bot.tables.table import Table


class TableRuntime:
    """Every open table and everything that can happen to one (see the module's docstring
    for which stage does what)."""

    def __init__(
        self,
        store: TableStore,
        ledger: Ledger,
        listener: TableListener,
        *,
        clock: Callable[[], datetime],
        between_hands: timedelta = timedelta(seconds=8),
        table_seed: Callable[[], bytes] = lambda: secrets.token_bytes(SEED_BYTES),
        new_seed: Callable[[], int] | None = None,
        shards: Shards = EVERY_SHARD,
    ) -> None:
        self.core = RuntimeCore(
            store,
            ledger,
            listener,
            clock=clock,
            between_hands=between_hands,
            table_seed=table_seed,
            new_seed=new_seed,
            shards=shards,
        )
        self.scheduler = Clock(self.core)
        self.play = Play(self.core, self.scheduler)
        self.scheduler.steps = self.play
        self.lobby = Lobby(self.core, self.play, self.scheduler)
        self.resumption = Resume(self.core, self.play, self.scheduler, self.lobby)

    # ---- the lobby ------------------------------------------------------------------------------

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
    ) -> Table:
        return await self.lobby.open(
            game,
            options,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator_id,
            creator_name=creator_name,
            buy_in=buy_in,
            turn_seconds=turn_seconds,
            key=key,
            once=once,
            ai_delay=ai_delay,
        )

    async def join(self, table_id: int, member_id: int, name: str, key: str) -> Table:
        return await self.lobby.join(table_id, member_id, name, key)

    async def leave(
        self, table_id: int, member_id: int, key: str, *, confirmed: bool = True
    ) -> str | None:
        return await self.lobby.leave(table_id, member_id, key, confirmed=confirmed)

    async def add_ai(
        self, table_id: int, member_id: int, *, can_manage: bool, key: str, level: str = STANDARD
    ) -> str:
        return await self.lobby.add_ai(
            table_id, member_id, can_manage=can_manage, key=key, level=level
        )

    async def check_add_ai(self, table_id: int, member_id: int, *, can_manage: bool) -> None:
        await self.lobby.check_add_ai(table_id, member_id, can_manage=can_manage)

    async def remove_ai(self, table_id: int, member_id: int, *, can_manage: bool, key: str) -> str:
        return await self.lobby.remove_ai(table_id, member_id, can_manage=can_manage, key=key)

    async def switch_side(self, table_id: int, member_id: int) -> int:
        return await self.lobby.switch_side(table_id, member_id)

    async def shuffle_sides(self, table_id: int, member_id: int, *, can_manage: bool) -> None:
        await self.lobby.shuffle_sides(table_id, member_id, can_manage=can_manage)

    async def start(
        self, table_id: int, member_id: int, *, can_manage: bool, click: int = 0
    ) -> Table:
        return await self.lobby.start(table_id, member_id, can_manage=can_manage, click=click)

    async def cancel(self, table_id: int, member_id: int, *, can_manage: bool, key: str) -> Table:
        return await self.lobby.cancel(table_id, member_id, can_manage=can_manage, key=key)

    async def close(
        self, table_id: int, member_id: int | None, *, can_manage: bool, key: str, why: str
    ) -> Table:
        return await self.lobby.close(table_id, member_id, can_manage=can_manage, key=key, why=why)

    async def verify_deal(self, guild_id: int, seed: str, commitment: str) -> str:
        return await self.lobby.verify_deal(guild_id, seed, commitment)

    # ---- play and its clock ---------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        member_id: int,
        prompt: int,
        token: str | None = None,
        action: Action | None = None,
    ) -> list[Event]:
        return await self.play.act(table_id, member_id, prompt, token, action)

    async def back(self, table_id: int, member_id: int) -> None:
        await self.play.back(table_id, member_id)

    async def fire_deadline(self, table_id: int, version: int | None = None) -> None:
        await self.scheduler.fire_deadline(table_id, version)

    # ---- a restart, a deleted channel, shutdown -------------------------------------------------

    async def resume(self) -> list[Table]:
        return await self.resumption.resume()

    async def channel_gone(self, channel_id: int) -> None:
        await self.resumption.channel_gone(channel_id)

    async def guild_gone(self, guild_id: int) -> None:
        await self.resumption.guild_gone(guild_id)

    async def shutdown(self) -> None:
        await self.resumption.shutdown()

    # ---- the shared core: the tables, telling the listener, settings ----------------------------

    def get(self, table_id: int) -> Table:
        return self.core.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        return self.core.in_channel(channel_id)

    def show(self, table: Table, events: Sequence[Event]) -> None:
        self.core.show(table, events)

    async def set_message(self, table: Table, message_id: int | None) -> None:
        await self.core.set_message(table, message_id)

    @property
    def tables(self) -> dict[int, Table]:
        return self.core.tables

    @property
    def renders(self) -> set[asyncio.Task]:
        return self.core.renders

    @property
    def ai_turns(self) -> set[asyncio.Task]:
        return self.core.ai_turns

    @property
    def store(self) -> TableStore:
        return self.core.store

    @property
    def ledger(self) -> Ledger:
        return self.core.ledger

    @property
    def guilds(self) -> GuildSettings:
        return self.core.guilds

    @property
    def shards(self) -> Shards:
        return self.core.shards

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.core.clock

    # Set by tests (and read by the stages from the core at each use).

    @property
    def listener(self) -> TableListener:
        return self.core.listener

    @listener.setter
    def listener(self, listener: TableListener) -> None:
        self.core.listener = listener

    @property
    def between_hands(self) -> timedelta:
        return self.core.between_hands

    @between_hands.setter
    def between_hands(self, pause: timedelta) -> None:
        self.core.between_hands = pause

    @property
    def render_grace(self) -> float:
        return self.core.render_grace

    @render_grace.setter
    def render_grace(self, seconds: float) -> None:
        self.core.render_grace = seconds

    @property
    def stacked(self) -> list[list[str]]:
        return self.core.stacked

    @stacked.setter
    def stacked(self, decks: list[list[str]]) -> None:
        self.core.stacked = decks

    @property
    def table_seed(self) -> Callable[[], bytes]:
        return self.core.table_seed

    @table_seed.setter
    def table_seed(self, draw: Callable[[], bytes]) -> None:
        self.core.table_seed = draw

    @property
    def new_seed(self) -> Callable[[], int] | None:
        return self.core.new_seed

    @new_seed.setter
    def new_seed(self, draw: Callable[[], int] | None) -> None:
        self.core.new_seed = draw
