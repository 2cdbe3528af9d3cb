"""A table's lobby: opening it, seats joining and leaving with their buy-ins, AI seats, sides,
and the host's Start, Cancel and Close.

`Lobby` holds the shared core (core.py), play (play.py) and its `Scheduler`, the clock. Start
asks the clock for the first deadline and to arm it, and play to prompt the seats and play for
those away; Leave and Close in a game in play are play's (`leave_game`, `wind_up`)."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Awaitable, Callable

from pydantic import BaseModel

from bot.engine import Decision, Event, GameSpec, GameState, deals, registry
from bot.engine.deals import DealSeed
from bot.errors import UserError
from bot.games.ai import LEVEL_NAMES, LEVELS, STANDARD
from bot.i18n import N_, _, n_
from bot.store import (
    Account,
    InsufficientChips,
    SeatRecord,
    TableRecord,
    TableStatus,
    Transaction,
)
from bot.store.history import HistoryStore
from bot.tables import verification
from bot.tables.core import RuntimeCore
from bot.tables.events import AiTookSeat, TableClosed, TableStarted
from bot.tables.play import Play, Scheduler
from bot.tables.table import Table

# What only the table's host (or a server manager) may do, by what it is.
HOST_ONLY = {
    "add_ai": N_(
        "Only the member who opened the table (or a server manager) can add AI players to it."
    ),
    "remove_ai": N_(
        "Only the member who opened the table (or a server manager) can remove AI players from it."
    ),
    "shuffle_sides": N_(
        "Only the member who opened the table (or a server manager) can shuffle the sides of it."
    ),
    "start": N_("Only the member who opened the table (or a server manager) can start it."),
    "cancel": N_("Only the member who opened the table (or a server manager) can cancel it."),
    "close": N_("Only the member who opened the table (or a server manager) can close it."),
}


def house_short(short: InsufficientChips) -> UserError:
    return UserError(
        n_(
            "The house has {count} chip and this table needs {needed} to cover a player's "
            "largest bet. A server manager can add chips with /chips bankroll.",
            "The house has {count} chips and this table needs {needed} to cover a player's "
            "largest bet. A server manager can add chips with /chips bankroll.",
            short.available,
            needed=short.needed,
        )
    )


class Lobby:
    """The lobby: Start deals and arms the first deadline, Close winds a game in play up."""

    def __init__(self, core: RuntimeCore, play: Play, scheduler: Scheduler) -> None:
        self.core, self.play, self.scheduler = core, play, scheduler

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
        """A lobby with the creator seated, shown in the channel. A personal (solo) game is
        not shown until it starts, which its command does at once."""
        if guild_id is None:
            raise UserError(_("Tables are played in a server's channels, not in direct messages."))
        assert channel_id is not None  # a command given in a server comes from its channel
        if buy_in and not game.chips_for(options):
            raise ValueError("a points game's table takes no buy-in: nothing would pay it out")
        # Whether the channel is taken is asked of the database, in the transaction that
        # opens the table (TableStore.create): a table closing now is closed there as soon as
        # its COMMIT is done, and here only once its step resumes, later under load.
        await self._check_house(game, options, guild_id)
        seed = self.core.table_seed()
        record = TableRecord(
            0,
            guild_id,
            channel_id,
            game.id,
            TableStatus.LOBBY,
            creator_id,
            buy_in,
            options.model_dump_json(),
            turn_seconds,
            solo=game.solo,
            ai_delay=ai_delay,
            deal_seed=seed.hex(),
            deal_commitment=deals.commitment(seed),
        )
        side = 0 if game.sides_for(options) else None
        await self.core.store.create(record, creator_name, key, once, side)
        table = Table(record, game, options)
        self.core.tables[table.id] = table
        if not game.solo:
            self.core.show(table, [])
        return table

    async def _check_house(self, game: GameSpec, options: BaseModel, guild_id: int) -> None:
        """A house table can't open when the house can't cover even its host's bets."""
        needed = game.cover_for(options)
        available = await self.core.ledger.house_balance(guild_id)
        if needed > available:
            raise house_short(InsufficientChips(Account.house(), available, needed))

    # ---- seats --------------------------------------------------------------------------------

    async def join(self, table_id: int, member_id: int, name: str, key: str) -> Table:
        async with self.core.locked(table_id) as table:
            if table.record.status != TableStatus.LOBBY:
                raise UserError(_("This game has already started; join the next table."))
            if table.seat_of(member_id):
                raise UserError(_("You are already seated at this table."))
            if len(table.seats) >= table.game.max_players:
                raise UserError(
                    n_(
                        "The table is full ({count} player).",
                        "The table is full ({count} players).",
                        table.game.max_players,
                    )
                )
            side = table.smallest_side()
            await self.core.store.add_seat(table.record, member_id, name, key, side)
        self.core.show(table, [])
        return table

    async def leave(
        self, table_id: int, member_id: int, key: str, *, confirmed: bool = True
    ) -> str | None:
        """Leave the lobby (buy-in back), leave between hands (stack back), or leave at the
        end of the hand being played (turns are played for you until then). A game in play is
        left only once `confirmed`: else nothing changes and None says to ask the member
        first. Decided under the table's lock, so a Leave pressed while Start is being saved
        waits for it, then is asked as in a game in play."""
        async with self.core.locked(table_id) as table:
            seat = table.seat_of(member_id)
            if seat is None:
                raise UserError(_("You are not seated at this table."))
            events: list[Event] = []
            if table.record.status == TableStatus.LOBBY:
                reply = await self._leave_lobby(table, seat, member_id, key)
            elif not confirmed:
                return None
            else:
                reply, events = await self.play.leave_game(table, seat)
        self.core.show(table, events)
        return reply

    async def _leave_lobby(self, table: Table, seat: SeatRecord, member_id: int, key: str) -> str:
        if member_id == table.record.creator_id:
            raise UserError(_("You opened this table: cancel it instead."))
        await self.core.store.remove_seat(table.record, seat, key)
        return _("You left the table; your buy-in is back in your balance.")

    async def add_ai(
        self, table_id: int, member_id: int, *, can_manage: bool, key: str, level: str = STANDARD
    ) -> str:
        """The host seats an AI player of `level`: in the lobby, its buy-in from the house; in
        a chip game in play, in a seat its player has left, bought in from the house too; in
        a points match, in the seat of a player who is leaving. Its name."""
        if level not in LEVELS:
            raise UserError(_("There is no such AI level."))
        async with self.core.locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "add_ai")
            await self._check_ai_allowed(table)
            number = next(n for n in range(1, 100) if table.seat_of(-n) is None)
            name = _("🤖 AI {number} · {level}", number=number, level=_(LEVEL_NAMES[level]))
            if table.record.status != TableStatus.PLAYING:
                await self._seat_in_lobby(table, -number, name, level, key)
                events = []
            elif table.game.chips_for(table.options):
                events = await self._take_free_seat(table, -number, name, level)
            else:
                events = await self._take_departing_seat(table, -number, name, level)
        self.core.show(table, events)
        return name

    async def _seat_in_lobby(
        self, table: Table, member_id: int, name: str, level: str, key: str
    ) -> None:
        try:
            await self.core.store.add_seat(
                table.record, member_id, name, key, table.smallest_side(), ai_level=level
            )
        except InsufficientChips as short:
            raise house_cannot_buy_in(short) from None

    async def _take_free_seat(
        self, table: Table, member_id: int, name: str, level: str
    ) -> list[Event]:
        """A chip game's seat its player has left goes to the AI, bought in from the house:
        it is dealt in from the next hand, and the table is no longer rated."""
        seat = table.seat_for_ai()
        assert seat is not None  # checked by _check_ai_allowed
        try:
            return await self.play.seat_ai(table, seat, member_id, name, level)
        except InsufficientChips as short:
            raise house_cannot_buy_in(short) from None

    async def _take_departing_seat(
        self, table: Table, member_id: int, name: str, level: str
    ) -> list[Event]:
        """The seat of a player leaving a points match goes to the AI, which plays on in it
        (the match no longer ends when its hand does); the table has AI players from now on,
        so its results are no longer rated."""
        seat = table.departing()
        assert seat is not None  # checked by _check_ai_allowed
        departed = seat.name
        await self.core.store.give_seat_to_ai(table.record, seat, member_id, name, level)
        self.scheduler.arm(table)  # the AI acts at once if the seat has a decision
        return [AiTookSeat(seat=seat.seat, departed=departed)]

    async def check_add_ai(self, table_id: int, member_id: int, *, can_manage: bool) -> None:
        """Whether the member may seat an AI now: asked before its level is (UserError)."""
        table = self.core.get(table_id)
        self._check_host(table, member_id, can_manage, "add_ai")
        await self._check_ai_allowed(table)

    async def _check_ai_allowed(self, table: Table) -> None:
        if table.game.ai is None:
            raise UserError(_("{game} has no AI player yet.", game=_(table.game.name)))
        if not await self.core.guilds.ai_seats(table.record.guild_id):
            raise UserError(_("AI players are turned off on this server."))
        if table.record.status == TableStatus.PLAYING:
            self._check_seat_in_play(table)
            return
        if table.record.status != TableStatus.LOBBY:
            raise UserError(_("AI players are seated in the lobby, before the game starts."))
        if len(table.seats) >= table.game.max_players:
            raise UserError(
                n_(
                    "The table is full ({count} player).",
                    "The table is full ({count} players).",
                    table.game.max_players,
                )
            )

    @staticmethod
    def _check_seat_in_play(table: Table) -> None:
        if table.record.tournament_id is not None:
            raise UserError(_("A tournament's tables play without AI players."))
        if table.seat_for_ai() is None or table.closing or table.everyone_leaving():
            if table.game.chips_for(table.options):
                raise UserError(
                    _("No seat is free for an AI player: one opens when a player has left.")
                )
            raise UserError(
                _("No seat is free for an AI player: one opens when a player presses Leave.")
            )

    async def remove_ai(self, table_id: int, member_id: int, *, can_manage: bool, key: str) -> str:
        """The host takes the last AI player seated out again (its buy-in back to the house)."""
        async with self.core.locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "remove_ai")
            if table.record.status != TableStatus.LOBBY:
                raise UserError(_("AI players leave in the lobby, before the game starts."))
            seated = [seat for seat in table.seats if seat.ai]
            if not seated:
                raise UserError(_("There is no AI player at this table."))
            await self.core.store.remove_seat(table.record, seated[-1], key)
        self.core.show(table, [])
        return seated[-1].name

    # ---- sides --------------------------------------------------------------------------------

    async def switch_side(self, table_id: int, member_id: int) -> int:
        """A seated player moves to the next side (in the lobby); returns the new side."""
        async with self.core.locked(table_id) as table:
            seat = table.seat_of(member_id)
            if table.sides == 0 or table.record.status != TableStatus.LOBBY:
                raise UserError(_("Sides are chosen in the lobby of a partnership game."))
            if seat is None:
                raise UserError(_("You are not seated at this table."))
            assert seat.side is not None  # every seat of a partnership game has its side
            side = (seat.side + 1) % table.sides
            await self.core.store.set_sides(table.record, {seat.seat: side})
        self.core.show(table, [])
        return side

    async def shuffle_sides(self, table_id: int, member_id: int, *, can_manage: bool) -> None:
        """The host deals everyone into sides at random, as evenly as possible."""
        async with self.core.locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "shuffle_sides")
            if table.sides == 0 or table.record.status != TableStatus.LOBBY:
                raise UserError(_("Sides are chosen in the lobby of a partnership game."))
            order = random.SystemRandom().sample(table.seats, len(table.seats))
            sides = {seat.seat: index % table.sides for index, seat in enumerate(order)}
            await self.core.store.set_sides(table.record, sides)
        self.core.show(table, [])

    # ---- the host's Start, Cancel and Close ---------------------------------------------------

    async def start(
        self, table_id: int, member_id: int, *, can_manage: bool, click: int = 0
    ) -> Table:
        """The host's Start deals the match from the table seed and `click`, the id of the
        interaction that started it (player input the bot could not know when it drew the
        seed)."""
        async with self.core.locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "start")
            if table.record.status != TableStatus.LOBBY:
                raise UserError(_("This game has already started."))
            if len(table.seats) < table.game.min_players:
                raise UserError(
                    n_(
                        "{game} needs at least {count} player.",
                        "{game} needs at least {count} players.",
                        table.game.min_players,
                        game=_(table.game.name),
                    )
                )
            order = table.seating_order()
            table.record.deal_input = click
            state, dealt = self._deal(table)
            pending = state.pending()
            deadline = self.scheduler.deadline(table, state, pending)
            await self.core.store.start(table.record, state.snapshot(), deadline, order)
            events = await self._begin_play(table, state, pending)
        self.core.show(table, [TableStarted(), *dealt, *events])
        return table

    async def open_playing(
        self,
        game: GameSpec,
        options: BaseModel,
        record: TableRecord,
        seats: list[SeatRecord],
        link: Callable[[Transaction, int], Awaitable[None]],
    ) -> Table:
        """A tournament's table (`record`, with its guild, channel, tournament and stacks),
        opened in play with `seats` seated, dealt from its own seed; `link` ties it to its
        match in the same transaction."""
        seed = self.core.table_seed()
        record.deal_seed, record.deal_commitment = seed.hex(), deals.commitment(seed)
        record.deal_input, record.seats = 0, seats
        table = Table(record, game, options)
        state, dealt = self._deal(table)
        pending = state.pending()
        deadline = self.scheduler.deadline(table, state, pending)
        await self.core.store.create_playing(record, seats, state.snapshot(), deadline, link)
        self.core.tables[table.id] = table
        async with table.lock:
            events = await self._begin_play(table, state, pending)
        self.core.show(table, [TableStarted(), *dealt, *events])
        return table

    def _deal(self, table: Table) -> tuple[GameState, list[Event]]:
        """The match dealt from the table's seed, each seat with the table's buy-in."""
        stacks = [table.record.buy_in] * len(table.seats)
        dealt = table.game.open_match(
            table.options, stacks, self._match_seed(table.record), self.core.stacked
        )
        self.core.stacked = []
        return dealt

    async def _begin_play(
        self, table: Table, state: GameState, pending: list[Decision]
    ) -> list[Event]:
        """The first state, saved, is the table's: its seats are prompted and its clock runs."""
        table.keep(state, pending)
        self.play.open_prompts(table, [], pending, 0)
        await self.core.store.save_seats(table.record)
        self.scheduler.arm(table)
        return await self.play.play_for_away(table)

    def _match_seed(self, record: TableRecord) -> int | DealSeed:
        if self.core.new_seed is not None:  # tests' fixed old-style deals
            return self.core.new_seed()
        if record.deal_seed is None:  # a lobby opened before deals were keyed: the old way
            return secrets.randbits(63)
        return verification.deal_seed(record)

    async def verify_deal(self, guild_id: int, seed: str, commitment: str) -> str:
        """`/table verify`: whether `seed` is the one `commitment` promised, and whether the
        guild's closed table that showed it re-deals from it exactly; one sentence."""
        key, promised = verification.parse_hex(seed), verification.parse_hex(commitment)
        if key is None or promised is None:
            raise UserError(
                _(
                    "The seed and the commitment are each 64 hexadecimal characters (0-9, a-f), "
                    "as the closed table shows them."
                )
            )
        if deals.commitment(key) != promised.hex():
            return _("Mismatch: the SHA-256 of this seed is not that commitment.")
        record = await self.core.store.closed_with_commitment(guild_id, promised.hex())
        if record is None:
            return _("No closed table of this server showed that commitment.")
        log = await HistoryStore(self.core.store.db).table_log(record.id)
        assert log is not None  # the table just found
        game = registry.get(record.game_id)
        # CPU work on pure states, off the event loop: a long match replays many steps.
        return await asyncio.to_thread(
            verification.verdict, game, record, log.first_state, log.steps
        )

    async def cancel(self, table_id: int, member_id: int, *, can_manage: bool, key: str) -> Table:
        async with self.core.locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "cancel")
            if table.record.status != TableStatus.LOBBY:
                raise UserError(_("A game in progress can't be cancelled: use /table close."))
            closed = await self._close_lobby(table, key, "cancelled")
        self.core.show(table, [closed])
        return table

    async def close(
        self, table_id: int, member_id: int | None, *, can_manage: bool, key: str, why: str
    ) -> Table:
        """Close a table now (`member_id` None: the bot does, its channel being gone). A lobby
        gives every buy-in back; a game in play has its hand finished at once, every turn
        played for its seat, then ends for everyone (see `Play.wind_up`): paid out and ranked by
        the game's own rules, the member who closed it like the rest."""
        async with self.core.locked(table_id) as table:
            if member_id is not None:
                self._check_host(table, member_id, can_manage, "close")
            if table.record.status == TableStatus.LOBBY:
                events: list[Event] = [await self._close_lobby(table, key, why)]
            else:
                table.closing = why
                events = await self.play.wind_up(table)
        self.core.show(table, events)
        return table

    async def _close_lobby(self, table: Table, key: str, why: str) -> TableClosed:
        await self.core.store.close_lobby(table.record, key)
        self.core.tables.pop(table.id, None)
        return TableClosed(payouts=[table.record.buy_in] * len(table.seats), why=why)

    @staticmethod
    def _check_host(table: Table, member_id: int, can_manage: bool, doing: str) -> None:
        """`doing`: what the member would do, a key of HOST_ONLY."""
        if member_id != table.record.creator_id and not can_manage:
            raise UserError(_(HOST_ONLY[doing]))


def house_cannot_buy_in(short: InsufficientChips) -> UserError:
    return UserError(
        n_(
            "The house has {count} chip and can't buy an AI player in for "
            "{needed}. A server manager can add chips with /chips bankroll.",
            "The house has {count} chips and can't buy an AI player in for "
            "{needed}. A server manager can add chips with /chips bankroll.",
            short.available,
            needed=short.needed,
        )
    )
