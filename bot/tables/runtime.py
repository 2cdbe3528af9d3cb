"""The table runtime, shared by every game: lobby -> playing -> closed.

Every change to a table happens under its lock: check who may act, apply to a copy of the
engine state, then write snapshot + action + chip movements in one transaction, and only then
keep the new state. Deadlines are timers that apply the game's default action. After each
change the listener (the Discord layer) is told, in order, on a per-table queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Protocol, TypeVar

from pydantic import BaseModel

from bot import text
from bot.engine import (
    Action,
    Decision,
    Event,
    GameSpec,
    GameState,
    HandEnded,
    MatchEnded,
    registry,
)
from bot.engine.protocol import placings
from bot.errors import UserError
from bot.games.ai import ai_move, policy_for
from bot.store import (
    Account,
    ActionRecord,
    ChipOperation,
    GuildSettings,
    InsufficientChips,
    Ledger,
    Move,
    ResultRow,
    SeatRecord,
    TableRecord,
    TableStore,
)
from bot.tables.events import SeatLeft, TableClosed, TableResumed, TableStarted, TimedOut

log = logging.getLogger(__name__)

AWAY_AFTER_TIMEOUTS = 2
AWAY_STEPS_AT_ONCE = 500  # played for away seats in one go; any more at the next deadline
RESUME_GRACE = timedelta(seconds=10)
ANSWERS_KEPT_SECONDS = 2.0  # a click's answer and the drawing of its step come well within
T = TypeVar("T")


class TableListener(Protocol):
    async def table_changed(self, table: Table, events: Sequence[Event]) -> None: ...


@dataclass
class Table:
    record: TableRecord
    game: GameSpec
    options: BaseModel
    state: GameState | None = None
    saved: GameState | None = None  # the state `record.state` is the snapshot of
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    render_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The deadline: a handle while it waits, the task firing it once due.
    timer: asyncio.TimerHandle | asyncio.Task | None = None
    closing: str = ""  # why the table is being closed from outside, once it is
    # What answering a click and drawing the step after it ask of the kept state again and
    # again (its pending decisions, a seat's view and legal actions: some 20 calls of the
    # game's `pending` per click), worked out once per kept state. Dropped a little later
    # (`ANSWERS_KEPT_SECONDS`), so an idle table holds none of it.
    _answers: dict[object, object] = field(default_factory=dict, repr=False)
    _answers_for: GameState | None = field(default=None, repr=False)

    @property
    def id(self) -> int:
        return self.record.id

    def stop_timer(self) -> None:
        """Cancel the deadline, unless it is the task running now: a firing deadline steps
        (and so re-arms) or closes its own table."""
        if self.timer and self.timer is not asyncio.current_task():
            self.timer.cancel()

    def keep(self, state: GameState, pending: list[Decision] | None = None) -> None:
        """`state` is now the table's, its snapshot just saved in `record.state` (and
        `pending` its pending decisions, when the step has worked them out already)."""
        self.state = self.saved = state
        if pending is not None:
            self.worked_out("pending", lambda: pending)

    def worked_out(self, key: object, work: Callable[[], T]) -> T:
        """What `work` gives for the kept state, worked out once per state (shared: not to be
        changed)."""
        if self._answers_for is not self.state:
            if self._answers_for is None:
                asyncio.get_running_loop().call_later(ANSWERS_KEPT_SECONDS, self.forget_answers)
            self._answers_for, self._answers = self.state, {}
        try:
            return self._answers[key]
        except KeyError:
            self._answers[key] = answer = work()
            return answer

    def forget_answers(self) -> None:
        self._answers_for, self._answers = None, {}

    def pending(self) -> list[Decision]:
        """The kept state's pending decisions (shared: not to be changed)."""
        return self.worked_out("pending", self.state.pending)

    def view(self, seat: int | None) -> BaseModel:
        """What `seat` (None: the channel) sees of the kept state (shared: not to be changed)."""
        return self.worked_out(("view", seat), partial(self.state.view, seat))

    def legal_actions(self, seat: int) -> list[Action]:
        """The seat's legal actions in the kept state (shared: not to be changed)."""
        return self.worked_out(("legal", seat), partial(self.state.legal_actions, seat))

    def decision(self, seat: int) -> Decision | None:
        """The seat's pending decision in the kept state, if it has one."""
        return next((d for d in self.pending() if d.seat == seat), None)

    def working_copy(self) -> GameState:
        """A copy of the state for a step to change, read back from its saved snapshot when
        that is current: a step then turns the state into JSON once (to save it), not twice."""
        saved = self.record.state if self.saved is self.state else self.state.snapshot()
        return self.game.restore(saved)

    @property
    def seats(self) -> list[SeatRecord]:
        return self.record.seats

    def seat_of(self, member_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.member_id == member_id and not s.left), None)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def sides(self) -> int:
        """How many partnerships this table plays in (0: everyone alone)."""
        return self.game.sides_for(self.options)

    def smallest_side(self) -> int | None:
        if not self.sides:
            return None
        sizes = [sum(s.side == side for s in self.seats) for side in range(self.sides)]
        return sizes.index(min(sizes))

    def seating_order(self) -> list[SeatRecord]:
        """Join order; by sides, alternating so partners sit across (seat i on side
        i % sides). Refused unless the sides are equal."""
        joined = sorted(self.seats, key=lambda s: s.seat)
        if not self.sides:
            return joined
        by_side = [[s for s in joined if s.side == side] for side in range(self.sides)]
        if len({len(members) for members in by_side}) != 1:
            raise UserError("The sides must have the same number of players: switch sides first.")
        return [members[i] for i in range(len(by_side[0])) for members in by_side]

    def pending_seats(self) -> list[int]:
        """Seats that may act now, optional choices included."""
        return self._seats("pending_seats", optional=True)

    def required_seats(self) -> list[int]:
        """Seats play is waiting for (they time out)."""
        return self._seats("required_seats", optional=False)

    def _seats(self, question: str, optional: bool) -> list[int]:
        """The seats the game's `question` names: read off the kept decisions once they
        are worked out, else asked of the game (which may say without building them)."""
        if self.state is None:
            return []
        known = self._answers.get("pending") if self._answers_for is self.state else None
        if known is None:
            return self.worked_out(question, getattr(self.state, question))
        return self.worked_out(
            question, lambda: [d.seat for d in known if optional or not d.optional]
        )


def house_short(short: InsufficientChips) -> UserError:
    return UserError(
        f"The house has {text.chips(short.available)} and this table needs {short.needed:,} "
        "to cover every bet it could lose. A server manager can add chips with /chips bankroll."
    )


def action_token(action: Action) -> str:
    """A short, stable name for an action, safe in a custom_id: `bet.3`, `play.3d+3c`,
    `discard.Ace_of_Moons`."""
    values = [
        "+".join(map(str, v)) if isinstance(v, list) else str(v)
        for k, v in action.model_dump(mode="json").items()
        if k != "kind"
    ]
    return re.sub(r"[^\w.+\-]", "_", ".".join([action.kind, *values]))


class TableRuntime:
    def __init__(
        self,
        store: TableStore,
        ledger: Ledger,
        listener: TableListener,
        *,
        clock: Callable[[], datetime],
        between_hands: timedelta = timedelta(seconds=8),
        new_seed: Callable[[], int] = lambda: random.SystemRandom().getrandbits(63),
    ) -> None:
        self.store, self.ledger, self.listener = store, ledger, listener
        self.clock, self.between_hands, self.new_seed = clock, between_hands, new_seed
        self.tables: dict[int, Table] = {}
        self.renders: set[asyncio.Task] = set()
        self.render_grace = 5.0  # seconds renders may still take at shutdown
        self.ai_turns: set[asyncio.Task] = set()
        self.guilds = GuildSettings(store.db)
        # Tests only: decks (card codes) the next match deals first (an exact deal, set before
        # Start rather than by editing a live state).
        self.stacked: list[list[str]] = []

    # ---- finding tables ---------------------------------------------------------------------

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise UserError("This table is closed.")
        return table

    @contextlib.asynccontextmanager
    async def _locked(self, table_id: int) -> AsyncIterator[Table]:
        """The table under its lock, refused once closed (a Cancel may have won the race)."""
        table = self.get(table_id)
        async with table.lock:
            if table.record.status == "closed":
                raise UserError("This table is closed.")
            yield table

    def in_channel(self, channel_id: int) -> Table | None:
        """The channel's table (personal games don't count: several may share a channel)."""
        return next(
            (
                t
                for t in self.tables.values()
                if t.record.channel_id == channel_id and not t.record.solo
            ),
            None,
        )

    # ---- the lobby ----------------------------------------------------------------------------

    async def open(
        self,
        game: GameSpec,
        options: BaseModel,
        *,
        guild_id: int,
        channel_id: int,
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
            raise UserError("Tables are played in a server's channels, not in direct messages.")
        # Whether the channel is taken is asked of the database, in the transaction that
        # opens the table (TableStore.create): a table closing now is closed there as soon as
        # its COMMIT is done, and here only once its step resumes, later under load.
        await self._check_house(game, options, guild_id)
        record = TableRecord(
            0,
            guild_id,
            channel_id,
            game.id,
            "lobby",
            creator_id,
            buy_in,
            options.model_dump_json(),
            turn_seconds,
            solo=game.solo,
            ai_delay=ai_delay,
        )
        side = 0 if game.sides_for(options) else None
        await self.store.create(record, creator_name, key, once, side)
        table = Table(record, game, options)
        self.tables[table.id] = table
        if not game.solo:
            self.show(table, [])
        return table

    async def join(self, table_id: int, member_id: int, name: str, key: str) -> Table:
        async with self._locked(table_id) as table:
            if table.record.status != "lobby":
                raise UserError("This game has already started; join the next table.")
            if table.seat_of(member_id):
                raise UserError("You are already seated at this table.")
            if len(table.seats) >= table.game.max_players:
                raise UserError(f"The table is full ({table.game.max_players} players).")
            side = table.smallest_side()
            await self.store.add_seat(table.record, member_id, name, key, side)
        self.show(table, [])
        return table

    async def add_ai(self, table_id: int, member_id: int, *, can_manage: bool, key: str) -> str:
        """The host seats an AI player (its buy-in from the house); returns its name."""
        async with self._locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "add AI players to")
            await self._check_ai_allowed(table)
            number = next(n for n in range(1, 100) if table.seat_of(-n) is None)
            name = f"🤖 AI {number}"
            try:
                await self.store.add_seat(
                    table.record, -number, name, key, table.smallest_side(), ai=True
                )
            except InsufficientChips as short:
                raise UserError(
                    f"The house has {text.chips(short.available)} and can't buy an AI player in "
                    f"for {short.needed:,}. A server manager can add chips with /chips bankroll."
                ) from None
        self.show(table, [])
        return name

    async def _check_ai_allowed(self, table: Table) -> None:
        if table.record.status != "lobby":
            raise UserError("AI players are seated in the lobby, before the game starts.")
        if policy_for(table.game) is None:
            raise UserError(f"{table.game.name} has no AI player yet.")
        if not await self.guilds.ai_seats(table.record.guild_id):
            raise UserError("AI players are turned off on this server.")
        if len(table.seats) >= table.game.max_players:
            raise UserError(f"The table is full ({table.game.max_players} players).")

    async def remove_ai(self, table_id: int, member_id: int, *, can_manage: bool, key: str) -> str:
        """The host takes the last AI player seated out again (its buy-in back to the house)."""
        async with self._locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "remove AI players from")
            if table.record.status != "lobby":
                raise UserError("AI players leave in the lobby, before the game starts.")
            seated = [seat for seat in table.seats if seat.ai]
            if not seated:
                raise UserError("There is no AI player at this table.")
            await self.store.remove_seat(table.record, seated[-1], key)
        self.show(table, [])
        return seated[-1].name

    async def switch_side(self, table_id: int, member_id: int) -> int:
        """A seated player moves to the next side (in the lobby); returns the new side."""
        async with self._locked(table_id) as table:
            seat = table.seat_of(member_id)
            if table.sides == 0 or table.record.status != "lobby":
                raise UserError("Sides are chosen in the lobby of a partnership game.")
            if seat is None:
                raise UserError("You are not seated at this table.")
            side = (seat.side + 1) % table.sides
            await self.store.set_sides(table.record, {seat.seat: side})
        self.show(table, [])
        return side

    async def shuffle_sides(self, table_id: int, member_id: int, *, can_manage: bool) -> None:
        """The host deals everyone into sides at random, as evenly as possible."""
        async with self._locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "shuffle the sides of")
            if table.sides == 0 or table.record.status != "lobby":
                raise UserError("Sides are chosen in the lobby of a partnership game.")
            order = random.SystemRandom().sample(table.seats, len(table.seats))
            sides = {seat.seat: index % table.sides for index, seat in enumerate(order)}
            await self.store.set_sides(table.record, sides)
        self.show(table, [])

    async def leave(
        self, table_id: int, member_id: int, key: str, *, confirmed: bool = True
    ) -> str | None:
        """Leave the lobby (buy-in back), leave between hands (stack back), or leave at the
        end of the hand being played (turns are played for you until then). A game in play is
        left only once `confirmed`: else nothing changes and None says to ask the member
        first. Decided under the table's lock, so a Leave pressed while Start is being saved
        waits for it, then is asked as in a game in play."""
        async with self._locked(table_id) as table:
            seat = table.seat_of(member_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            if table.record.status == "lobby":
                if member_id == table.record.creator_id:
                    raise UserError("You opened this table: cancel it instead.")
                await self.store.remove_seat(table.record, seat, key)
                reply = "You left the table; your buy-in is back in your balance."
                events: list[Event] = []
            elif not confirmed:
                return None
            elif table.state.can_leave_now(seat.seat):
                events = await self._leave_now(table, seat)
                reply = "You left the table; your chips are back in your balance."
            else:
                seat.leaving = seat.away = True
                await self.store.save_seats(table.record)
                events = await self._play_for_away(table)
                reply = (
                    "You will leave when this hand ends; until then your turns are played for you."
                )
        self.show(table, events)
        return reply

    async def start(self, table_id: int, member_id: int, *, can_manage: bool) -> Table:
        async with self._locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "start")
            if table.record.status != "lobby":
                raise UserError("This game has already started.")
            if len(table.seats) < table.game.min_players:
                raise UserError(
                    f"{table.game.name} needs at least {table.game.min_players} players."
                )
            order = table.seating_order()
            stacks = [table.record.buy_in] * len(table.seats)
            state, dealt = table.game.open_match(
                table.options, stacks, self.new_seed(), self.stacked
            )
            self.stacked = []
            pending = state.pending()
            deadline = self._deadline(table, state, pending)
            stake = self._house_stake(table, len(stacks))
            try:
                await self.store.start(table.record, state.snapshot(), deadline, order, stake)
            except InsufficientChips as short:
                raise house_short(short) from None
            table.keep(state, pending)
            self._open_prompts(table, [], pending, 0)
            await self.store.save_seats(table.record)
            self._arm(table)
            events = await self._play_for_away(table)
        self.show(table, [TableStarted(), *dealt, *events])
        return table

    async def cancel(self, table_id: int, member_id: int, *, can_manage: bool, key: str) -> Table:
        async with self._locked(table_id) as table:
            self._check_host(table, member_id, can_manage, "cancel")
            if table.record.status != "lobby":
                raise UserError("A game in progress can't be cancelled: use /table close.")
            closed = await self._close_lobby(table, key, "cancelled")
        self.show(table, [closed])
        return table

    async def close(
        self, table_id: int, member_id: int | None, *, can_manage: bool, key: str, why: str
    ) -> Table:
        """Close a table now (`member_id` None: the bot does, its channel being gone). A lobby
        gives every buy-in back; a game in play has its hand finished at once, every turn
        played for its seat, then ends for everyone (see `_wind_up`): paid out and ranked by
        the game's own rules, the member who closed it like the rest."""
        async with self._locked(table_id) as table:
            if member_id is not None:
                self._check_host(table, member_id, can_manage, "close")
            if table.record.status == "lobby":
                events: list[Event] = [await self._close_lobby(table, key, why)]
            else:
                table.closing = why
                events = await self._wind_up(table)
        self.show(table, events)
        return table

    # ---- the house: it stakes a table at the start, or covers each hand as bets are made ----

    @staticmethod
    def _house_stake(table: Table, seats: int) -> list[ChipOperation]:
        game = table.game
        stake = game.stake_for(table.options, seats)
        if not stake:
            return []
        move = Move(Account.house(), Account.table(table.id), stake, "house stake")
        return [ChipOperation(f"stake:{table.id}", "house_stake", [move])]

    async def _check_house(self, game: GameSpec, options: BaseModel, guild_id: int) -> None:
        """A house table can't open when the house can't cover even its host's bets."""
        needed = game.stake_for(options, 1) or game.cover_for(options)
        available = await self.ledger.house_balance(guild_id)
        if needed > available:
            raise house_short(InsufficientChips(Account.house(), available, needed))

    @staticmethod
    def _house_cover(
        table: Table, state: GameState, events: Sequence[Event]
    ) -> list[ChipOperation]:
        """A house that covers each hand: what a step added to its bank beyond the hand's
        result comes from the house's balance (a bet, whose win it holds), and what it took
        off goes back (the hand's end), in the step's own transaction."""
        reported = sum(event.house_chips for event in events if isinstance(event, HandEnded))
        brought = state.house_bank() - table.state.house_bank() - reported
        if not brought:
            return []
        house, escrow = Account.house(), Account.table(table.id)
        move = (
            Move(house, escrow, brought, "house covers bets")
            if brought > 0
            else Move(escrow, house, -brought, "house hold back")
        )
        key = f"cover:{table.id}:{table.record.version + 1}"
        return [ChipOperation(key, "house_cover", [move])]

    async def _house_short(
        self, table: Table, record: ActionRecord, short: InsufficientChips
    ) -> list[Event]:
        """The house can't cover a step: a player's own bet is refused, changing nothing; a
        bet made for a player (a timeout's) can't be, so the house closes the table."""
        short_by = (
            f"The house can't cover this bet: it needs {text.chips(short.needed)} and has "
            f"{short.available:,}"
        )
        bankroll = "a server manager can add chips with /chips bankroll."
        if not record.timed_out:
            raise UserError(f"{short_by}. Bet less, or wait: {bankroll}")
        reason = f"{short_by}, so it closes the table; {bankroll}"
        closing = ActionRecord(None, '{"kind":"house_cannot_cover"}')
        return await self._change(table, closing, lambda state: state.house_cannot_cover(reason))

    async def _close_lobby(self, table: Table, key: str, why: str) -> TableClosed:
        await self.store.close_lobby(table.record, key)
        self.tables.pop(table.id, None)
        return TableClosed(payouts=[table.record.buy_in] * len(table.seats), why=why)

    async def _wind_up(self, table: Table) -> list[Event]:
        """End a game in play for everyone. Closing is not leaving: nobody forfeits, the game
        ranks everyone by its own rules. Every seat is flagged as leaving (saved, so a
        restart carries on), which finishes the hand in play at once (see `_play_for_away`)
        and then ends the match."""
        if table.record.solo:  # its one player: closing is leaving (the board is abandoned)
            return await self._leave_now(table, table.seats[0])
        for seat in table.seats:
            if not seat.left:
                seat.leaving = seat.away = True
        await self.store.save_seats(table.record)
        return await self._play_for_away(table)

    @staticmethod
    def _check_host(table: Table, member_id: int, can_manage: bool, verb: str) -> None:
        if member_id != table.record.creator_id and not can_manage:
            raise UserError(
                f"Only the member who opened the table (or a server manager) can {verb} it."
            )

    # ---- play -----------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        member_id: int,
        prompt: int,
        token: str | None = None,
        action: Action | None = None,
    ) -> list[Event]:
        """A seat's decision from a button: `prompt` is the version its prompt was made at.
        Either a `token` naming one of the listed actions, or an `action` built from the
        player's own choice (cards they picked), which the rules judge with their reason."""
        async with self._locked(table_id) as table:
            if table.record.status != "playing":
                raise UserError("This table is not playing right now.")
            seat = table.seat_of(member_id)
            if seat is None and table.record.solo:
                raise UserError(f"Only {table.seats[0].name} can play this board.")
            if seat is None:
                raise UserError("You are not seated at this table.")
            if seat.seat not in table.pending_seats():
                raise UserError("It is not your turn.")
            if prompt != seat.prompt:
                raise UserError("This prompt has expired.")
            if action is None:  # one of the listed actions: its step still checks it
                legal = table.legal_actions(seat.seat)
                action = next((a for a in legal if action_token(a) == token), None)
                if action is None:
                    raise UserError("That move is not available any more.")
            else:  # the player's own pick: refused here with the rules' reason
                table.state.verify(seat.seat, action)
            seat.timeouts, seat.away = 0, False
            events = await self._step(table, seat.seat, action)
            events += await self._play_for_away(table)
        self.show(table, events)
        return events

    async def back(self, table_id: int, member_id: int) -> None:
        """A player marked away shows they are here (they opened their hand)."""
        async with self._locked(table_id) as table:
            seat = table.seat_of(member_id)
            if seat and seat.away and not seat.leaving:
                seat.away, seat.timeouts = False, 0
                await self.store.save_seats(table.record)

    async def fire_deadline(self, table_id: int, version: int | None = None) -> None:
        """The deadline passed: defaults for every pending seat, or the next hand after a break."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.record.status != "playing" or (
                version is not None and version != table.record.version
            ):
                return
            state = table.state
            if state.awaiting_next_hand():
                events = await self._next_hand(table)
            elif table.required_seats():
                events = []
                for seat in table.required_seats():
                    events += await self._time_out(table, seat)
            else:
                events = await self._close_window(table)
            events += await self._play_for_away(table)
        self.show(table, events)

    async def _time_out(self, table: Table, seat: int) -> list[Event]:
        if seat not in table.required_seats():
            return []
        record = table.seats[seat]
        record.timeouts += 1
        record.away = record.away or record.timeouts >= AWAY_AFTER_TIMEOUTS
        action = table.state.default_action(seat)
        secret = any(d.secret for d in table.pending() if d.seat == seat)
        return [
            TimedOut(seat=seat, action=action.kind, taken=None if secret else action),
            *await self._step(table, seat, action, timed_out=True),
        ]

    async def _play_for_away(self, table: Table) -> list[Event]:
        """Away (and leaving) players get their default at once, until they act again, while
        someone present waits for them (else each turn waits its deadline). When
        every player still seated is leaving (the table is being closed), nobody is left to
        wait for: the hand in play is finished at once, then the match ends for everyone.
        A hand that goes on and on is played on at the next deadline, not all under the
        lock."""
        events: list[Event] = []
        for _ in range(AWAY_STEPS_AT_ONCE):
            if table.record.status != "playing":
                break
            closing = self._everyone_leaving(table)
            if not closing and not self._anyone_present(table):
                break  # nobody to play on for: each turn waits its time (no endless redeals)
            step = await (self._closing_step(table) if closing else self._away_step(table))
            if step is None:
                break
            events += step
        playing = table.record.status == "playing"
        if playing and self._everyone_leaving(table) and table.state.awaiting_next_hand():
            events += await self._end_match(table)
        return events

    @staticmethod
    def _everyone_leaving(table: Table) -> bool:
        """Every player still seated leaves when the hand ends: the table is being closed."""
        staying = [seat for seat in table.seats if not seat.left]
        return bool(staying) and all(seat.leaving for seat in staying)

    @staticmethod
    def _anyone_present(table: Table) -> bool:
        """Whether a player still seated is here, or leaving (and wants the hand over): else
        away players' turns wait their deadlines, since nobody's game is held up by them."""
        return any(
            not (seat.left or seat.ai) and (seat.leaving or not seat.away) for seat in table.seats
        )

    async def _away_step(self, table: Table) -> list[Event] | None:
        """The default for the first away seat play waits for (None: there is none, or it
        waits for its deadline: a seat present holds a choice its move would take away, as
        a "Last one!" to call, and gets the time a present player would give it)."""
        away = next((s for s in table.required_seats() if table.seats[s].away), None)
        if away is None or any(
            d.until_next_move and not table.seats[d.seat].away for d in table.pending()
        ):
            return None
        return await self._step(table, away, table.state.default_action(away), timed_out=True)

    async def _closing_step(self, table: Table) -> list[Event] | None:
        """One step of a hand finished for a closing table, where nobody can act any more: a
        choice the game says a seat is owed comes first (Last One's call, which the next
        turn would cost it), then the turns, and a window closes without waiting."""
        for seat in table.pending_seats():
            owed = table.state.closing_choice(seat)
            if owed is not None:
                return await self._step(table, seat, owed, timed_out=True)
        played = await self._away_step(table)
        if played is None and table.state.window_seconds() is not None:
            return await self._close_window(table)
        return played

    async def _end_match(self, table: Table) -> list[Event]:
        """Between hands, the match ends for everyone at once: the game ranks them all."""
        state = table.working_copy()
        return await self._close(table, state, ActionRecord(None, '{"kind":"close"}'), [])

    async def _step(
        self, table: Table, seat: int, action: Action, *, timed_out: bool = False
    ) -> list[Event]:
        record = ActionRecord(seat, action.model_dump_json(), timed_out)
        return await self._change(table, record, lambda state: state.apply(seat, action), seat)

    async def _close_window(self, table: Table) -> list[Event]:
        """A window for optional choices ran its time: the game moves on."""
        if table.state.window_seconds() is None:
            return []
        record = ActionRecord(None, '{"kind":"window_closed"}')
        return await self._change(table, record, lambda state: state.close_window())

    async def _next_hand(self, table: Table) -> list[Event]:
        events: list[Event] = []
        for seat in table.seats:
            if seat.leaving and not seat.left and table.record.status == "playing":
                events += await self._leave_now(table, seat)
        if table.record.status != "playing":
            return events
        if all(seat.left for seat in table.seats):  # a game that doesn't end by itself
            state = table.working_copy()
            return events + await self._close(table, state, ActionRecord(None, '"close"'), [])
        record = ActionRecord(None, '{"kind":"next_hand"}')
        return events + await self._change(table, record, lambda state: state.next_hand())

    async def _change(
        self,
        table: Table,
        record: ActionRecord,
        change: Callable[[GameState], list[Event]],
        acted: int | None = None,
    ) -> list[Event]:
        """Apply `change` to a copy of the state and save it as one step (closing the table
        when the match ends); the copy is kept only once saved."""
        state = table.working_copy()
        before = table.pending()
        events = change(state)
        chips = [*self._hand_results(table, events), *self._house_cover(table, state, events)]
        try:
            if state.is_over():
                return events + await self._close(table, state, record, chips, events)
            await self._commit(table, state, record, chips, before, acted=acted)
        except InsufficientChips as short:
            if short.account != Account.house():
                raise
            return await self._house_short(table, record, short)
        return events

    async def _leave_now(self, table: Table, seat: SeatRecord) -> list[Event]:
        state = table.working_copy()
        chips = state.leave(seat.seat)
        move = Move(Account.table(table.id), seat.account, chips, "leave table")
        settled = self._settle_rows(table, {seat.seat: chips}, await self._nets(table))
        operation = ChipOperation(f"leave:{table.id}:{seat.seat}", "cash_out", [move], settled)
        record = ActionRecord(seat.seat, '{"kind":"leave"}')
        left = SeatLeft(seat=seat.seat, chips=chips)
        if state.is_over():  # in some games leaving ends the match (Liar's: the last one in)
            seat.left, seat.leaving, seat.away = True, False, False
            return [left, *await self._close(table, state, record, [operation])]
        await self._commit(table, state, record, [operation], leaving=seat)
        alone = all(other.ai or other.left for other in table.seats)
        if alone and table.record.has_ai and not table.closing:
            table.closing = "closed"  # AI players don't play on among themselves
            return [left, *await self._wind_up(table)]
        return [left]

    async def _commit(
        self,
        table: Table,
        state: GameState,
        record: ActionRecord,
        chips: list[ChipOperation] = (),
        before: Sequence[Decision] = (),
        *,
        acted: int | None = None,
        leaving: SeatRecord | None = None,
    ) -> None:
        """Write a step (snapshot, action, seat flags, chips) in one transaction, then keep the
        new state and re-arm the deadline. If the write fails, nothing in memory changes."""
        saved = [dataclasses.replace(s) for s in table.seats]
        if leaving is not None:
            leaving.left, leaving.leaving, leaving.away = True, False, False
        pending = state.pending()
        self._open_prompts(table, before, pending, table.record.version + 1, acted)
        if state.awaiting_next_hand():
            for seat in table.seats:
                seat.timeouts = 0
        try:
            await self.store.commit(
                table.record,
                state=state.snapshot(),
                deadline=self._deadline(table, state, pending),
                action=record,
                chips=chips,
            )
        except BaseException:
            table.record.seats = saved
            raise
        table.keep(state, pending)
        self._arm(table)

    async def _close(
        self,
        table: Table,
        state: GameState,
        record: ActionRecord,
        chips: list[ChipOperation],
        events: Sequence[Event] = (),
    ) -> list[Event]:
        """The match is over: pay everyone out, and record the chips no hand accounted for
        (a carried pot shared out) and each player's final standing, in the same step."""
        payouts = state.cash_out()
        moves = [
            Move(Account.table(table.id), seat.account, amount, "table closed")
            for seat, amount in zip(table.seats, payouts, strict=True)
        ]
        if state.house_bank():
            moves.append(
                Move(
                    Account.table(table.id), Account.house(), state.house_bank(), "house bank back"
                )
            )
        staying = {seat.seat: payouts[seat.seat] for seat in table.seats if not seat.left}
        nets = await self._nets(table, [row for op in chips for row in op.results])
        settled = self._settle_rows(table, staying, nets)
        for row in settled:
            nets[row.seat] = nets.get(row.seat, 0) + row.chip_net
        closed = self._standings(table, state, events, nets, payouts)
        # A personal game's result is its hand's score: it has no one to be placed against.
        matches = [] if table.record.solo else self._match_rows(table, closed)
        results = [*settled, *matches]
        chips = [*chips, ChipOperation(f"close:{table.id}", "cash_out", moves, results)]
        await self.store.commit(
            table.record,
            state=state.snapshot(),
            deadline=None,
            action=record,
            chips=chips,
            status="closed",
        )
        table.keep(state)
        self.tables.pop(table.id, None)
        table.stop_timer()
        return [closed]

    async def _nets(self, table: Table, unsaved: Sequence[ResultRow] = ()) -> dict[int, int]:
        """Per seat, the chips its results at this table add up to, with `unsaved` rows."""
        nets = await self.store.net_results(table.id)
        for row in unsaved:
            nets[row.seat] = nets.get(row.seat, 0) + row.chip_net
        return nets

    @classmethod
    def _settle_rows(
        cls, table: Table, chips_out: dict[int, int], nets: dict[int, int]
    ) -> list[ResultRow]:
        """For seats taking `chips_out` away, a 'settle' result for what their results so far
        (`nets`) don't account for (a carried pot), so results add up to the chips won."""
        rows = []
        for seat, chips in chips_out.items():
            unaccounted = chips - table.record.buy_in - nets.get(seat, 0)
            if unaccounted:
                rows.append(cls._result(table, seat, unaccounted, scope="settle"))
        return rows

    def _standings(
        self,
        table: Table,
        state: GameState,
        events: Sequence[Event],
        nets_by_seat: dict[int, int],
        payouts: list[int],
    ) -> TableClosed:
        """The final standings: the game's own when its match ended (or was cut short),
        else everyone ranked by the chips they won at the table."""
        nets = [nets_by_seat.get(seat, 0) for seat in range(len(table.seats))]
        ended = next((e for e in events if isinstance(e, MatchEnded)), None)
        ended = ended or state.final_standings()
        return TableClosed(
            payouts=payouts,
            why=table.closing,
            placings=ended.placings if ended else placings(nets),
            scores=ended.scores if ended else None,
            nets=nets,
        )

    def _match_rows(self, table: Table, closed: TableClosed) -> list[ResultRow]:
        return [
            self._result(
                table,
                seat,
                closed.nets[seat],
                scope="match",
                placing=closed.placings[seat],
                score=closed.scores[seat] if closed.scores else None,
            )
            for seat in range(len(table.seats))
        ]

    @staticmethod
    def _result(table: Table, seat: int, chip_net: int, **fields) -> ResultRow:
        """A result row of `seat` at this table (a 'settle' row has no placing: 0). An AI
        seat's rows (its member id is below zero) keep the table's sums whole; leaderboards
        leave them out, and mark every row of a table that had AI seats."""
        fields.setdefault("placing", 0)
        return ResultRow(
            game_id=table.game.id,
            member_id=table.seats[seat].member_id,
            seat=seat,
            chip_net=chip_net,
            table_id=table.id,
            with_ai=table.record.has_ai,
            **fields,
        )

    def _hand_results(self, table: Table, events: list[Event]) -> list[ChipOperation]:
        """Result rows for a finished hand, written with the step that finished it."""
        operations = []
        for event in events:
            if isinstance(event, HandEnded):
                scores = event.scores or [None] * len(table.seats)
                rows = [
                    self._result(
                        table,
                        seat,
                        event.net_chips[seat],
                        placing=1 if seat in event.winners else 2,
                        score=scores[seat],
                        variant=event.variant,
                    )
                    for seat in event.players
                ]
                if event.house_chips:
                    rows.append(self._house_row(table, event.house_chips))
                operations.append(
                    ChipOperation(f"hand:{table.id}:{event.hand}", "results", (), rows)
                )
        return operations

    @staticmethod
    def _house_row(table: Table, house_chips: int) -> ResultRow:
        return ResultRow(
            game_id=table.game.id,
            member_id=0,
            seat=-1,
            placing=0,
            chip_net=house_chips,
            table_id=table.id,
            scope="house",
        )

    # ---- prompts and deadlines --------------------------------------------------------------

    @staticmethod
    def _open_prompts(
        table: Table,
        before: Sequence[Decision],
        pending: Sequence[Decision],
        version: int,
        acted: int | None = None,
    ) -> None:
        """A seat with a new decision (newly pending, pending again right after acting, or
        facing another choice than before: a melee's holder whose turn has come) gets a fresh
        prompt version, so it is prompted again and older buttons expire; seats still deciding
        the same simultaneous choice keep theirs."""
        earlier = {decision.seat: decision for decision in before}
        for decision in pending:
            if decision.seat == acted or earlier.get(decision.seat) != decision:
                table.seats[decision.seat].prompt = version

    def _deadline(
        self, table: Table, state: GameState, pending: Sequence[Decision]
    ) -> datetime | None:
        if state.awaiting_next_hand():
            return self.clock() + self.between_hands
        required = [d for d in pending if not d.optional]
        if required:
            longest = max(d.least_seconds for d in required)
            seconds = max(table.record.turn_seconds, longest)
            return self.clock() + timedelta(seconds=seconds)
        window = state.window_seconds()
        return None if window is None else self.clock() + timedelta(seconds=window)

    def _arm(self, table: Table) -> None:
        table.stop_timer()
        self._wake_ai(table)
        deadline = table.record.deadline
        if deadline is None or table.record.status != "playing":
            table.timer = None
            return
        delay = max(0.0, (deadline - self.clock()).total_seconds())
        # A handle, not a task asleep: a step re-arms the timer, and a task per step cost
        # about 1.5% of the bot's CPU at 500 busy tables.
        table.timer = asyncio.get_running_loop().call_later(
            delay, self._deadline_due, table, table.record.version
        )

    def _deadline_due(self, table: Table, version: int) -> None:
        table.timer = asyncio.create_task(self._fire(table.id, version))

    async def _fire(self, table_id: int, version: int) -> None:
        try:
            await self.fire_deadline(table_id, version)
        except Exception:
            log.exception("deadline of table %s failed", table_id)

    # ---- AI seats ------------------------------------------------------------------------------

    def _wake_ai(self, table: Table) -> None:
        """An AI seat with a decision acts after its wait (`_ai_delay`); its deadline still
        stands: an AI that fails gets the default like anyone."""
        if table.record.status != "playing" or table.state is None:
            return
        if not any(table.seats[seat].ai for seat in table.pending_seats()):
            return
        if self._everyone_leaving(table):  # a closing table plays every seat itself
            return
        waits = {self._ai_delay(table, d) for d in table.pending() if table.seats[d.seat].ai}
        for wait in sorted(waits):  # a later wake-up acts only if an earlier one didn't
            turn = asyncio.create_task(self._ai_turn(table.id, table.record.version, wait))
            self.ai_turns.add(turn)
            turn.add_done_callback(self.ai_turns.discard)

    @staticmethod
    def _ai_delay(table: Table, decision: Decision) -> float:
        """How long an AI seat waits before taking `decision`: the table's AI delay, but
        nothing for a choice the next move takes away (Last One's call: the next player may
        play at once), and less than the window for a choice only its end takes away."""
        if decision.until_next_move:
            return 0
        window = table.state.window_seconds()
        if decision.optional and window is not None:
            return min(table.record.ai_delay, window / 2)
        return table.record.ai_delay

    async def _ai_turn(self, table_id: int, version: int, wait: float) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        await asyncio.sleep(wait)
        try:
            async with self._locked(table_id) as table:
                if table.record.version != version or table.record.status != "playing":
                    return  # the table moved on: a later wake-up decides
                events = await self._ai_step(table, wait)
        except UserError:
            return  # closed meanwhile
        except Exception:
            log.exception("AI turn at table %s failed; its deadline plays the default", table_id)
            return
        self.show(table, events)

    async def _ai_step(self, table: Table, waited: float | None = None) -> list[Event]:
        """The first AI seat that acts now makes its move (one per step, as a player would):
        a choice the next move takes away first, then other out-of-turn choices, then turns.
        `waited`: only the decisions whose wait (`_ai_delay`) is over."""
        policy = policy_for(table.game)
        decisions = [
            decision
            for decision in table.pending()
            if table.seats[decision.seat].ai
            and (waited is None or self._ai_delay(table, decision) <= waited)
        ]
        decisions.sort(key=lambda d: (not d.until_next_move, not d.optional))
        for decision in decisions:
            rng = random.Random(f"{table.id}:{table.record.version}:{decision.seat}")
            if policy is not None:
                action = ai_move(table.state, decision.seat, policy, rng)
            else:
                action = None if decision.optional else table.state.default_action(decision.seat)
            if action is not None:
                events = await self._ai_move(table, decision, action)
                return events + await self._play_for_away(table)
        return []

    async def _ai_move(self, table: Table, decision: Decision, action: Action) -> list[Event]:
        """The AI's move, or its safe default where the move is refused (a bet the house
        can't cover): a refused default waits for the deadline, as anyone's would."""
        try:
            return await self._step(table, decision.seat, action)
        except UserError:
            default = table.state.default_action(decision.seat)
            if decision.optional or default == action:
                raise
            return await self._step(table, decision.seat, default)

    # ---- telling the Discord layer ------------------------------------------------------------

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the table's message (None: post a new one at the next render), under the
        table's lock like every other write."""
        async with table.lock:
            await self.store.set_message(table.record, message_id)

    def show(self, table: Table, events: Sequence[Event]) -> None:
        """Render after the caller has answered its interaction, in the order changes happened
        (the render lock hands over in FIFO order); a failed render never undoes a change."""
        task = asyncio.create_task(self._render(table, list(events)))
        self.renders.add(task)
        task.add_done_callback(self.renders.discard)

    async def _render(self, table: Table, events: list[Event]) -> None:
        async with table.render_lock:
            try:
                await self.listener.table_changed(table, events)
            except Exception:
                log.exception("could not show table %s", table.id)

    # ---- restart ----------------------------------------------------------------------------

    async def resume(self) -> list[Table]:
        """Load every unfinished table, re-arm its deadline and show it again (its message is
        redrawn where it is behind: see TablePresenter._still_drawn). A table closed just
        before the bot stopped, whose message did not show that yet, is shown closed."""
        resumed = []
        records = await self.store.open_tables()
        await self.store.forget_drawn()
        for record in records:
            table = self._restored(record)
            if record.deadline and not (table.state and table.state.awaiting_next_hand()):
                # Players with a decision get time to see the table again; the next hand
                # waits for no one, so it is dealt as it was due.
                record.deadline = max(record.deadline, self.clock() + RESUME_GRACE)
            self.tables[table.id] = table
            self._arm(table)
            resumed.append(table)
        for table in resumed:
            self.show(table, [TableResumed(), *await self._catch_up(table)])
        for record in await self.store.undrawn_closes():
            closed = self._restored(record)  # shown, never played again
            self.show(closed, [await self._close_of(closed)])
        return resumed

    @staticmethod
    def _restored(record: TableRecord) -> Table:
        """The table its record saved."""
        game = registry.get(record.game_id)
        table = Table(record, game, game.options_model.model_validate_json(record.options))
        if record.state:
            table.keep(game.restore(record.state))
        return table

    async def _close_of(self, table: Table) -> TableClosed:
        """A closed table's close as its step told it, read back from what that step saved:
        the match's results (placings, scores, nets) and, for every seat still seated, its
        buy-in and winnings back to its balance."""
        match = await self.store.match_results(table.id)
        nets = {seat: net for seat, (_, _, net) in match.items()}
        nets = nets or await self.store.net_results(table.id)
        seats = range(len(table.seats))
        scores = [match[seat][1] for seat in seats] if match else []
        return TableClosed(
            payouts=[
                0 if seat.left else table.record.buy_in + nets.get(seat.seat, 0)
                for seat in table.seats
            ],
            placings=[match[seat][0] for seat in seats] if match else [],
            scores=scores if scores and None not in scores else None,
            nets=[nets.get(seat, 0) for seat in seats],
        )

    async def _catch_up(self, table: Table) -> list[Event]:
        """What the live table would have done: play at once for players away or leaving."""
        if table.record.status != "playing":
            return []
        async with table.lock:
            return await self._play_for_away(table)

    async def channel_gone(self, channel_id: int) -> None:
        """The channel (or thread) was deleted: its tables close and pay everyone out."""
        for table in [t for t in self.tables.values() if t.record.channel_id == channel_id]:
            with contextlib.suppress(UserError):  # it closed meanwhile
                await self.close(
                    table.id, None, can_manage=True, key=f"gone:{table.id}", why="channel_deleted"
                )

    async def shutdown(self) -> None:
        for turn in list(self.ai_turns):  # an AI yet to act acts again after the restart
            turn.cancel()
        if self.renders:
            await asyncio.wait(self.renders, timeout=self.render_grace)
        if self.renders:  # Discord's rate limit held them up; the restart shows every table
            log.info("dropping %d renders still waiting at shutdown", len(self.renders))
            for render in list(self.renders):
                render.cancel()
            await asyncio.wait(self.renders, timeout=self.render_grace)
        await self.store.save_shown([table.record for table in self.tables.values()])
        for table in self.tables.values():
            if table.timer:
                table.timer.cancel()
            if isinstance(table.timer, asyncio.Task):
                with contextlib.suppress(asyncio.CancelledError):
                    await table.timer
