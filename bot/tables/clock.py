"""A table's time: the deadline of each step (a timer that applies the game's default action,
closes a window or deals the next hand) and the AI seats' turns."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.engine import Action, Decision, Event, GameState
from bot.errors import UserError
from bot.games.ai import ai_move
from bot.store import TableStatus
from bot.tables.events import TimedOut
from bot.tables.play import Play
from bot.tables.table import Table

log = logging.getLogger(__name__)

AWAY_AFTER_TIMEOUTS = 2


class Clock(Play):
    """Deadlines and AI turns, built on play: each takes a step of play for a seat."""

    # ---- deadlines ------------------------------------------------------------------------------

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
        if deadline is None or table.record.status != TableStatus.PLAYING:
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

    async def fire_deadline(self, table_id: int, version: int | None = None) -> None:
        """The deadline passed: defaults for every pending seat, or the next hand after a break."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.record.status != TableStatus.PLAYING or (
                version is not None and version != table.record.version
            ):
                return
            state = table.game_state
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
        action = table.game_state.default_action(seat)
        secret = any(d.secret for d in table.pending() if d.seat == seat)
        return [
            TimedOut(seat=seat, action=action.kind, taken=None if secret else action),
            *await self._step(table, seat, action, timed_out=True),
        ]

    # ---- AI seats ------------------------------------------------------------------------------

    def _wake_ai(self, table: Table) -> None:
        """An AI seat with a decision acts after its wait (`_ai_delay`); its deadline still
        stands: an AI that fails gets the default like anyone."""
        if table.record.status != TableStatus.PLAYING or table.state is None:
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
        window = table.game_state.window_seconds()
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
                if table.record.version != version or table.record.status != TableStatus.PLAYING:
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
        policy = table.game.ai
        decisions = [
            decision
            for decision in table.pending()
            if table.seats[decision.seat].ai
            and (waited is None or self._ai_delay(table, decision) <= waited)
        ]
        decisions.sort(key=lambda d: (not d.until_next_move, not d.optional))
        for decision in decisions:
            rng = random.Random(f"{table.id}:{table.record.version}:{decision.seat}")
            state = table.game_state
            if policy is not None:
                action = ai_move(state, decision.seat, policy, rng)
            else:
                action = None if decision.optional else state.default_action(decision.seat)
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
            default = table.game_state.default_action(decision.seat)
            if decision.optional or default == action:
                raise
            return await self._step(table, decision.seat, default)
