"""A table in play: a seat's action, the steps that save each change, timeouts, players away
or leaving, windows, the next hand, and winding a game up for everyone when the table is closed.

`Play` holds the shared core (core.py) and a `Scheduler`, the clock (clock.py), which it asks
for each step's deadline and to arm the table's timer once a step is kept. It takes the steps
the clock asks of it (clock.Steps); the lobby and resume use its public methods.

Every change happens under the table's lock: apply to a copy of the engine state, then write
snapshot + action + chip movements in one transaction (`_commit`, `_close`), and only then keep
the new state."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from bot.engine import Action, Decision, Event, GameState
from bot.errors import UserError
from bot.i18n import ENGLISH, N_, _, n_, speaking
from bot.store import (
    Account,
    ActionRecord,
    ChipOperation,
    InsufficientChips,
    Move,
    ResultRow,
    SeatRecord,
    StaleTable,
    TableStatus,
)
from bot.tables import settlement
from bot.tables.actions import (
    CLOSE,
    EMPTY_TABLE_CLOSE,
    HOUSE_CANNOT_COVER,
    HOUSE_CLOSING,
    LEAVE,
    NEXT_HAND,
    WINDOW_CLOSED,
    TakeSeat,
    action_token,
    take_table_step,
)
from bot.tables.core import RuntimeCore
from bot.tables.events import SeatLeft, TimedOut
from bot.tables.table import Table

AWAY_STEPS_AT_ONCE = 500  # played for away seats in one go; any more at the next deadline
AWAY_AFTER_TIMEOUTS = 2


log = logging.getLogger(__name__)
MOVED_ON = N_("This table had moved on meanwhile: it is shown as it is now. Try again.")


class Scheduler(Protocol):
    """What play asks of the clock: when a step's deadline falls, and setting the table's
    timer (and waking its AI seats) once a step is kept."""

    def deadline(
        self, table: Table, state: GameState, pending: Sequence[Decision]
    ) -> datetime | None: ...

    def arm(self, table: Table) -> None: ...


class Play:
    """Playing a started table: every change is a step, saved before it is kept."""

    def __init__(self, core: RuntimeCore, scheduler: Scheduler) -> None:
        self.core, self.scheduler = core, scheduler

    # ---- a seat's own decisions -------------------------------------------------------------

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
        async with self.core.locked(table_id) as table:
            if table.record.status != TableStatus.PLAYING:
                raise UserError(_("This table is not playing right now."))
            seat = table.seat_of(member_id)
            if seat is None and table.record.solo:
                raise UserError(_("Only {name} can play this board.", name=table.seats[0].name))
            if seat is None:
                raise UserError(_("You are not seated at this table."))
            if seat.seat not in table.pending_seats():
                raise UserError(_("It is not your turn."))
            if prompt != seat.prompt:
                raise UserError(_("This prompt has expired."))
            if action is None:  # one of the listed actions: its step still checks it
                legal = table.legal_actions(seat.seat)
                action = next((a for a in legal if action_token(a) == token), None)
                if action is None:
                    raise UserError(_("That move is not available any more."))
            else:  # the player's own pick: refused here with the rules' reason
                table.game_state.verify(seat.seat, action)
            seat.timeouts, seat.away = 0, False
            events = await self._step(table, seat.seat, action)
            events += await self.play_for_away(table)
        self.core.show(table, events)
        return events

    async def back(self, table_id: int, member_id: int) -> None:
        """A player marked away shows they are here (they opened their hand)."""
        async with self.core.locked(table_id) as table:
            seat = table.seat_of(member_id)
            if seat and seat.away and not seat.leaving:
                seat.away, seat.timeouts = False, 0
                await self.core.store.save_seats(table.record)

    async def set_away(self, table_id: int, member_id: int) -> None:
        """The member's seat is played for from now on (they left the tournament)."""
        async with self.core.locked(table_id) as table:
            seat = table.seat_of(member_id)
            if seat is None or seat.away:
                return
            seat.away = True
            await self.core.store.save_seats(table.record)
            events = await self.play_for_away(table)
        self.core.show(table, events)

    async def leave_game(self, table: Table, seat: SeatRecord) -> tuple[str, list[Event]]:
        """Leave a game in play: now, with the chips, where the game allows it, else at the
        end of the hand being played (turns are played for the seat until then)."""
        if table.game_state.can_leave_now(seat.seat):
            events = await self._leave_now(table, seat)
            return _("You left the table; your chips are back in your balance."), events
        seat.leaving = seat.away = True
        await self.core.store.save_seats(table.record)
        events = await self.play_for_away(table)
        return (
            _("You will leave when this hand ends; until then your turns are played for you."),
            events,
        )

    # ---- players away or leaving --------------------------------------------------------------

    async def play_for_away(self, table: Table) -> list[Event]:
        """Away (and leaving) players get their default at once, until they act again, while
        someone present waits for them (else each turn waits its deadline). When every
        player still seated is leaving (the table is being closed), nobody is left to wait
        for: the hand in play is finished at once (or dropped, where it would settle nothing:
        `can_close_mid_hand`), then the match ends for everyone. A hand that goes on and on
        is played on at the next deadline, not all under the lock."""
        events: list[Event] = []
        turns: list[int] = []
        for _attempt in range(AWAY_STEPS_AT_ONCE):
            if table.record.status != TableStatus.PLAYING:
                break
            closing = table.everyone_leaving()
            if closing and table.game_state.can_close_mid_hand():
                break  # the hand would settle nothing: the match ends here
            if not closing and not table.anyone_present():
                break  # nobody to play on for: each turn waits its time (no endless redeals)
            if not closing and table.round_of_away_turns(turns):
                break
            step = await (self._closing_step(table) if closing else self._away_step(table))
            if step is None:
                break
            events += step
        state = table.game_state
        ended_here = state.awaiting_next_hand() or state.can_close_mid_hand()
        playing = table.record.status == TableStatus.PLAYING
        if playing and table.everyone_leaving() and ended_here:
            events += await self._end_match(table)
        return events

    async def _away_step(self, table: Table) -> list[Event] | None:
        """The default for the first away seat play waits for (None: there is none, or it
        waits for its deadline: a seat present holds a choice its move would take away, as
        a "Last one!" to call, and gets the time a present player would give it)."""
        away = next((s for s in table.required_seats() if table.seats[s].away), None)
        if away is None or any(
            d.until_next_move and not table.seats[d.seat].away for d in table.pending()
        ):
            return None
        return await self._step(table, away, table.game_state.default_action(away), timed_out=True)

    async def _closing_step(self, table: Table) -> list[Event] | None:
        """One step of a hand finished for a closing table, where nobody can act any more: a
        choice the game says a seat is owed comes first (Last One's call, which the next
        turn would cost it), then the turns, and a window closes without waiting."""
        for seat in table.pending_seats():
            owed = table.game_state.closing_choice(seat)
            if owed is not None:
                return await self._step(table, seat, owed, timed_out=True)
        played = await self._away_step(table)
        if played is None and table.game_state.window_seconds() is not None:
            return await self.close_window(table)
        return played

    async def _leave_now(self, table: Table, seat: SeatRecord) -> list[Event]:
        state = table.working_copy()
        (left,) = take_table_step(state, LEAVE, seat.seat)
        assert isinstance(left, SeatLeft)
        operation = settlement.seat_cash_out(table, seat, left.chips, await self._nets(table))
        record = ActionRecord(seat.seat, LEAVE)
        if state.is_over():  # in some games leaving ends the match (Liar's: the last one in)
            seat.left, seat.leaving, seat.away = True, False, False
            return [left, *await self._close(table, state, record, [operation])]
        await self._commit(table, state, record, [operation], leaving=seat)
        alone = all(other.ai or other.left for other in table.seats)
        if alone and table.record.has_ai and not table.closing:
            table.closing = "closed"  # AI players don't play on among themselves
            return [left, *await self.wind_up(table)]
        return [left]

    async def seat_ai(
        self, table: Table, seat: SeatRecord, member_id: int, name: str, level: str
    ) -> list[Event]:
        """An AI player of `level` takes a chip game's seat its player has left, bought in
        from the house with the table's buy-in as in the lobby: a logged step, so replays and
        verification take it again. Raises InsufficientChips when the house can't pay."""
        state = table.working_copy()
        chips = table.record.buy_in
        events = take_table_step(state, TakeSeat(chips=chips), seat.seat)
        buy_in = Move(Account.house(), Account.table(table.id), chips, "buy-in")
        key = f"seat:{table.id}:{table.record.version + 1}"
        operation = ChipOperation(key, "buy_in", [buy_in])
        taken = dataclasses.replace(
            seat,
            member_id=member_id,
            name=name,
            ai=True,
            ai_level=level,
            left=False,
            leaving=False,
            away=False,
            timeouts=0,
            dm_failed=False,
        )
        record = ActionRecord(seat.seat, TakeSeat(chips=chips))
        await self._commit(table, state, record, [operation], occupant=taken)
        return events

    async def wind_up(self, table: Table) -> list[Event]:
        """End a game in play for everyone. Closing is not leaving: nobody forfeits, the game
        ranks everyone by its own rules. Every seat is flagged as leaving (saved, so a
        restart carries on), which finishes the hand in play at once (see `play_for_away`)
        and then ends the match."""
        if table.record.solo:  # its one player: closing is leaving (the board is abandoned)
            return await self._leave_now(table, table.seats[0])
        if table.everyone_left() and table.game_state.awaiting_next_hand():
            return await self._close_empty(table)  # nobody to flag: it would wait its pause
        for seat in table.seats:
            if not seat.left:
                seat.leaving = seat.away = True
        await self.core.store.save_seats(table.record)
        return await self.play_for_away(table)

    async def _end_match(self, table: Table) -> list[Event]:
        """Between hands (or in a hand that settles nothing yet), the match ends for everyone
        at once: the game ranks them all."""
        return await self._close(table, table.working_copy(), ActionRecord(None, CLOSE), [])

    async def _close_empty(self, table: Table) -> list[Event]:
        """Every player has left a game that plays on without them: it closes, between hands."""
        record = ActionRecord(None, EMPTY_TABLE_CLOSE)
        return await self._close(table, table.working_copy(), record, [])

    # ---- the steps the clock asks for (clock.Steps) -------------------------------------------

    async def close_window(self, table: Table) -> list[Event]:
        """A window for optional choices ran its time: the game moves on."""
        if table.game_state.window_seconds() is None:
            return []
        record = ActionRecord(None, WINDOW_CLOSED)
        return await self._change(
            table, record, lambda state: take_table_step(state, WINDOW_CLOSED)
        )

    async def next_hand(self, table: Table) -> list[Event]:
        """The pause after a hand ran its time: seats leaving go, then the next hand is dealt
        (or the table closes, every player having left)."""
        events: list[Event] = []
        for seat in table.seats:
            if seat.leaving and not seat.left and table.record.status == TableStatus.PLAYING:
                events += await self._leave_now(table, seat)
        if table.record.status != TableStatus.PLAYING:
            return events
        if table.everyone_left():  # a game that doesn't end by itself
            return events + await self._close_empty(table)
        record = ActionRecord(None, NEXT_HAND)
        return events + await self._change(
            table, record, lambda state: take_table_step(state, NEXT_HAND)
        )

    async def time_out(self, table: Table, seat: int) -> list[Event]:
        """The seat's time ran out: its default is played for it (and after a few timeouts
        in a row, it is away: played for at once from then on)."""
        if seat not in table.required_seats():
            return []
        record = table.seats[seat]
        record.timeouts += 1
        record.away = record.away or record.timeouts >= AWAY_AFTER_TIMEOUTS
        action = table.game_state.default_action(seat)
        secret = any(d.secret for d in table.pending() if d.seat == seat)
        events = await self._step(table, seat, action, timed_out=True)
        shown = not (secret or table.game_state.names_hidden_card(action))
        return [TimedOut(seat=seat, action=action.kind, taken=action if shown else None), *events]

    async def move_for_ai(self, table: Table, decision: Decision, action: Action) -> list[Event]:
        """An AI seat's move, or its safe default where the move is refused (a bet the house
        can't cover): a refused default waits for the deadline, as anyone's would."""
        try:
            return await self._step(table, decision.seat, action)
        except UserError:
            default = table.game_state.default_action(decision.seat)
            if decision.optional or default == action:
                raise
            return await self._step(table, decision.seat, default)

    # ---- steps the table takes itself ---------------------------------------------------------

    async def _house_short(
        self, table: Table, record: ActionRecord, short: InsufficientChips
    ) -> list[Event]:
        """The house can't cover a step: a player's own bet is refused, changing nothing; a
        bet made for a player (a timeout's) can't be, so the house closes the table."""
        if not record.timed_out:
            raise UserError(
                n_(
                    "The house can't cover this bet: it needs {count} chip and has {available}. "
                    "Bet less, or wait: a server manager can add chips with /chips bankroll.",
                    "The house can't cover this bet: it needs {count} chips and has {available}. "
                    "Bet less, or wait: a server manager can add chips with /chips bankroll.",
                    short.needed,
                    available=short.available,
                )
            )
        with speaking(ENGLISH):  # kept in the game's state (its match's end) in no language
            reason = n_(*HOUSE_CLOSING, short.needed, available=short.available)
        closing = ActionRecord(None, HOUSE_CANNOT_COVER)
        return await self._change(
            table, closing, lambda state: take_table_step(state, HOUSE_CANNOT_COVER, None, reason)
        )

    # ---- saving a step ------------------------------------------------------------------------

    async def _step(
        self, table: Table, seat: int, action: Action, *, timed_out: bool = False
    ) -> list[Event]:
        record = ActionRecord(seat, action, timed_out)
        return await self._change(table, record, lambda state: state.apply(seat, action), seat)

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
        chips = [
            *settlement.hand_results(table, events),
            *settlement.house_cover(table, state, events),
        ]
        try:
            if state.is_over():
                return events + await self._close(table, state, record, chips, events)
            await self._commit(table, state, record, chips, before, acted=acted)
        except InsufficientChips as short:
            if short.account != Account.house():
                raise
            return await self._house_short(table, record, short)
        return events

    async def _commit(
        self,
        table: Table,
        state: GameState,
        record: ActionRecord,
        chips: Sequence[ChipOperation] = (),
        before: Sequence[Decision] = (),
        *,
        acted: int | None = None,
        leaving: SeatRecord | None = None,
        occupant: SeatRecord | None = None,
    ) -> None:
        """Write a step (snapshot, action, seat flags, chips; `occupant`: a seat that changed
        hands) in one transaction, then keep the new state and re-arm the deadline. If the
        write fails, nothing in memory changes."""
        saved = [dataclasses.replace(s) for s in table.seats]
        if occupant is not None:
            table.record.seats[occupant.seat] = occupant
        if leaving is not None:
            leaving.left, leaving.leaving, leaving.away = True, False, False
        pending = state.pending()
        self.open_prompts(table, before, pending, table.record.version + 1, acted)
        if state.awaiting_next_hand():
            for seat in table.seats:
                seat.timeouts = 0
        try:
            await self.core.store.commit(
                table.record,
                state=state.snapshot(),
                deadline=self.scheduler.deadline(table, state, pending),
                action=record,
                chips=chips,
                occupant=occupant,
            )
        except StaleTable:
            await self._reload(table)
            raise UserError(_(MOVED_ON)) from None
        except BaseException:
            table.record.seats = saved
            raise
        table.keep(state, pending)
        self.scheduler.arm(table)

    async def _reload(self, table: Table) -> None:
        """The table as the store holds it, in place (its lock and its waiters stay): only one
        process acts on a table, so the store is ahead of it only where a step's commit failed
        in a way that left its outcome unknown (the connection lost during COMMIT) and it was
        saved after all."""
        log.warning("table %s was saved further than it had seen: reloading it", table.id)
        table.stop_timer()
        table.record = await self.core.store.load(table.id)
        table.forget_answers()
        if table.record.state:
            table.keep(table.game.restore(table.record.state))
        if table.record.status == TableStatus.CLOSED:
            self.core.tables.pop(table.id, None)  # its close is drawn at the next start
            return
        self.scheduler.arm(table)
        self.core.show(table, [])

    async def _close(
        self,
        table: Table,
        state: GameState,
        record: ActionRecord,
        chips: Sequence[ChipOperation],
        events: Sequence[Event] = (),
    ) -> list[Event]:
        """The match is over: pay everyone out, and record the chips no hand accounted for
        (a carried pot shared out) and each player's final standing, in the same step."""
        nets = await self._nets(table, [row for op in chips for row in op.results])
        closed, cash_out = settlement.close_out(table, state, events, nets)
        try:
            await self.core.store.commit(
                table.record,
                state=state.snapshot(),
                deadline=None,
                action=record,
                chips=[*chips, cash_out],
                status=TableStatus.CLOSED,
            )
        except StaleTable:
            await self._reload(table)
            raise UserError(_(MOVED_ON)) from None
        table.keep(state)
        self.core.tables.pop(table.id, None)
        table.stop_timer()
        return [closed]

    async def _nets(self, table: Table, unsaved: Sequence[ResultRow] = ()) -> dict[int, int]:
        """Per seat, the chips its results at this table add up to, with `unsaved` rows."""
        nets = await self.core.store.net_results(table.id)
        for row in unsaved:
            nets[row.seat] = nets.get(row.seat, 0) + row.chip_net
        return nets

    @staticmethod
    def open_prompts(
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
