"""A table's time: the deadline of each step (a timer that applies the game's default action,
closes a window or deals the next hand) and the AI seats' turns.

`Clock` holds the shared core (core.py) and `Steps`, play (play.py), which it asks to take each
step that time brings: a seat's timeout, the next hand, a window's end, an AI's move, and play
for seats away. It is play's `Scheduler`: play asks it for each step's deadline and to arm the
table's timer (and wake its AI seats) once the step is kept; the lobby and resume ask the same."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.engine import Action, Decision, Event, GameState
from bot.errors import UserError
from bot.games.ai import BEGINNER, EXPERT, ai_move, beginner_move
from bot.store import TableStatus
from bot.tables import search_pool
from bot.tables.core import RuntimeCore
from bot.tables.table import Table

log = logging.getLogger(__name__)


class Steps(Protocol):
    """The steps of play the clock takes, each under the table's lock."""

    async def time_out(self, table: Table, seat: int) -> list[Event]: ...
    async def next_hand(self, table: Table) -> list[Event]: ...
    async def close_window(self, table: Table) -> list[Event]: ...
    async def move_for_ai(
        self, table: Table, decision: Decision, action: Action
    ) -> list[Event]: ...
    async def play_for_away(self, table: Table) -> list[Event]: ...


class Clock:
    """Deadlines and AI turns: each takes a step of play for a seat."""

    # Play, set by the runtime once both are built (each needs the other).
    steps: Steps

    def __init__(self, core: RuntimeCore) -> None:
        self.core = core

    # ---- deadlines ------------------------------------------------------------------------------

    def deadline(
        self, table: Table, state: GameState, pending: Sequence[Decision]
    ) -> datetime | None:
        """When the step that leaves `state` (and its `pending` decisions) times out."""
        clock = self.core.clock
        if state.awaiting_next_hand():
            return clock() + self.core.between_hands
        required = [d for d in pending if not d.optional]
        if required:
            longest = max(d.least_seconds for d in required)
            seconds = max(table.record.turn_seconds, longest)
            return clock() + timedelta(seconds=seconds)
        window = state.window_seconds()
        return None if window is None else clock() + timedelta(seconds=window)

    def arm(self, table: Table) -> None:
        """Set the table's timer to its saved deadline, and wake its AI seats with a decision."""
        table.stop_timer()
        self._wake_ai(table)
        deadline = table.record.deadline
        if deadline is None or table.record.status != TableStatus.PLAYING:
            table.timer = None
            return
        delay = max(0.0, (deadline - self.core.clock()).total_seconds())
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
        table = self.core.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.record.status != TableStatus.PLAYING or (
                version is not None and version != table.record.version
            ):
                return
            state = table.game_state
            if state.awaiting_next_hand():
                events = await self.steps.next_hand(table)
            elif table.required_seats():
                events = []
                for seat in table.required_seats():
                    events += await self.steps.time_out(table, seat)
            else:
                events = await self.steps.close_window(table)
            events += await self.steps.play_for_away(table)
        self.core.show(table, events)

    # ---- AI seats ------------------------------------------------------------------------------

    def _wake_ai(self, table: Table) -> None:
        """An AI seat with a decision acts after its wait (`_ai_delay`); its deadline still
        stands: an AI that fails gets the default like anyone."""
        if table.record.status != TableStatus.PLAYING or table.state is None:
            return
        if not any(table.seats[seat].ai for seat in table.pending_seats()):
            return
        if table.everyone_leaving():  # a closing table plays every seat itself
            return
        waits = {self._ai_delay(table, d) for d in table.pending() if table.seats[d.seat].ai}
        for wait in sorted(waits):  # a later wake-up acts only if an earlier one didn't
            turn = asyncio.create_task(self._ai_turn(table.id, table.record.version, wait))
            self.core.ai_turns.add(turn)
            turn.add_done_callback(self.core.ai_turns.discard)

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
        table = self.core.tables.get(table_id)
        if table is None:
            return
        await asyncio.sleep(wait)
        searched = await self._search(table, version, wait)
        try:
            async with self.core.locked(table_id) as table:
                if table.record.version != version or table.record.status != TableStatus.PLAYING:
                    return  # the table moved on: a later wake-up decides
                events = await self.ai_step(table, wait, searched)
        except UserError:
            return  # closed meanwhile
        except Exception:
            log.exception("AI turn at table %s failed; its deadline plays the default", table_id)
            return
        self.core.show(table, events)

    def _acting(self, table: Table, waited: float | None) -> list[Decision]:
        """The AI seats' decisions that may be taken now, the first to act first: a choice
        the next move takes away, then other out-of-turn choices, then turns. `waited`: only
        those whose wait (`_ai_delay`) is over."""
        decisions = [
            decision
            for decision in table.pending()
            if table.seats[decision.seat].ai
            and (waited is None or self._ai_delay(table, decision) <= waited)
        ]
        decisions.sort(key=lambda d: (not d.until_next_move, not d.optional))
        return decisions

    async def _search(self, table: Table, version: int, wait: float) -> dict[int, Action | None]:
        """The Expert seats' moves, worked out in a process of their own (search_pool.py) from
        the state as it is now, so the search blocks neither the event loop nor the table: a
        move made meanwhile changes the version, and the move found is dropped (`ai_step`
        checks)."""
        if table.record.version != version or table.record.status != TableStatus.PLAYING:
            return {}
        game = table.game
        experts = [  # an optional choice is taken at once, unsearched (expert.optional)
            d.seat
            for d in self._acting(table, wait)
            if table.seats[d.seat].ai_level == EXPERT and game.searches and not d.optional
        ]
        if not experts:
            return {}
        snapshot = table.game_state.snapshot()  # read here, on the loop: play goes on meanwhile
        seeds = {seat: ai_seed(table, seat) for seat in experts}
        try:
            return await search_pool.searches.moves(game, snapshot, seeds)
        except Exception:
            log.exception("Expert search at table %s failed; Standard plays", table.id)
            return {}

    async def ai_step(
        self,
        table: Table,
        waited: float | None = None,
        searched: dict[int, Action | None] | None = None,
    ) -> list[Event]:
        """The first AI seat that acts now makes its move (one per step, as a player would),
        at its level: an Expert's as searched (`searched`, by seat), if still legal. Under the
        table's lock."""
        policy = table.game.ai
        for decision in self._acting(table, waited):
            seat, state = decision.seat, table.game_state
            rng = random.Random(ai_seed(table, seat))
            if policy is None:
                action = None if decision.optional else state.default_action(seat)
            elif searched and seat in searched and still_legal(state, seat, searched[seat]):
                action = searched[seat]
            elif table.seats[seat].ai_level == BEGINNER:
                action = beginner_move(state, seat, policy, rng)
            else:
                action = ai_move(state, seat, policy, rng)
            if action is not None:
                events = await self.steps.move_for_ai(table, decision, action)
                return events + await self.steps.play_for_away(table)
        return []


def ai_seed(table: Table, seat: int) -> str:
    """An AI's random numbers at a step: the same for the same table, step and seat."""
    return f"{table.id}:{table.record.version}:{seat}"


def still_legal(state: GameState, seat: int, action: Action | None) -> bool:
    return action is None or state.can(seat, action)
