"""A table as the runtime holds it: its saved record, its game, the kept engine state, its
locks and deadline, and what the kept state answers, worked out once per state."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel

from bot.engine import Action, Decision, GameSpec, GameState
from bot.errors import UserError
from bot.i18n import _, current
from bot.store import SeatRecord, TableRecord

ANSWERS_KEPT_SECONDS = 2.0  # a click's answer and the drawing of its step come well within
T = TypeVar("T")


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
    _answers: dict[object, Any] = field(default_factory=dict, repr=False)
    _answers_for: GameState | None = field(default=None, repr=False)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def game_state(self) -> GameState:
        """The kept state, for what only a table at play is asked (the lobby has none)."""
        assert self.state is not None, "the table is not at play"
        return self.state

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
            self.worked_out(("pending", current()), lambda: pending)

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
        """The kept state's pending decisions (shared: not to be changed), their prompts in
        the language of the moment (a DM's may not be the channel's)."""
        return self.worked_out(("pending", current()), self.game_state.pending)

    def view(self, seat: int | None) -> BaseModel:
        """What `seat` (None: the channel) sees of the kept state (shared: not to be changed)."""
        return self.worked_out(("view", seat), partial(self.game_state.view, seat))

    def legal_actions(self, seat: int) -> list[Action]:
        """The seat's legal actions in the kept state (shared: not to be changed)."""
        return self.worked_out(("legal", seat), partial(self.game_state.legal_actions, seat))

    def decision(self, seat: int) -> Decision | None:
        """The seat's pending decision in the kept state, if it has one."""
        return next((d for d in self.pending() if d.seat == seat), None)

    # What the Discord layer asks of the game beyond its views (it never reads the state).

    def house_bank(self) -> int:
        """The chips at the table that are the house's (none before play)."""
        return self.state.house_bank() if self.state is not None else 0

    def awaiting_next_hand(self) -> bool:
        """Whether play is in the pause after a hand."""
        return self.state is not None and self.state.awaiting_next_hand()

    def leave_terms(self, seat: int) -> tuple[bool, str | None]:
        """Whether `seat` would leave at once (else when the hand ends), and what it gives up
        by leaving now."""
        state = self.game_state
        return state.can_leave_now(seat), state.leave_warning(seat)

    def text_action(self, seat: int, text: str) -> Action:
        """The action a seat's answer in words stands for (IllegalAction says what's wrong)."""
        return self.game_state.text_action(seat, text)

    def working_copy(self) -> GameState:
        """A copy of the state for a step to change, read back from its saved snapshot when
        that is current: a step then turns the state into JSON once (to save it), not twice."""
        state = self.game_state
        saved = self.record.state if self.saved is state else state.snapshot()
        assert saved is not None  # `keep` saves the record's snapshot with `saved`
        return self.game.restore(saved)

    @property
    def seats(self) -> list[SeatRecord]:
        return self.record.seats

    def seat_of(self, member_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.member_id == member_id and not s.left), None)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def departing(self) -> SeatRecord | None:
        """A member's seat whose player is leaving the match (an AI player may take it)."""
        return next((s for s in self.seats if s.leaving and not s.left and not s.ai), None)

    def seat_for_ai(self) -> SeatRecord | None:
        """The seat an AI player may take in a game in play: in a chip game, one its player
        has left (it is dealt in from the next hand); in a points match, one whose player is
        leaving (it plays on in their place)."""
        if not self.game.chips_for(self.options):
            return self.departing()
        state = self.game_state
        return next((s for s in self.seats if s.left and state.can_take_seat(s.seat)), None)

    def everyone_leaving(self) -> bool:
        """Every player still seated leaves when the hand ends: the table is being closed."""
        staying = [seat for seat in self.seats if not seat.left]
        return bool(staying) and all(seat.leaving for seat in staying)

    def everyone_left(self) -> bool:
        """Every player has left a game that plays on without them: nobody is left to play."""
        return all(seat.left for seat in self.seats)

    def anyone_present(self) -> bool:
        """Whether a player still seated is here, or leaving (and wants the hand over): else
        away players' turns wait their deadlines, since nobody's game is held up by them."""
        return any(
            not (seat.left or seat.ai) and (seat.leaving or not seat.away) for seat in self.seats
        )

    def round_of_away_turns(self, turns: list[int]) -> bool:
        """In a hand whose defaults never end it (`can_close_mid_hand`: Liar's claims), whether
        the away seats played for (`turns`, which this adds to) have had a round of turns with
        no present player's among them (those in the hand are all away; whoever is present
        is out of it): played on at once it would never end, so each turn waits its deadline."""
        required = self.required_seats()
        if not required or not self.game_state.can_close_mid_hand():
            return False
        seat = required[0]
        if turns and seat == turns[-1]:  # the same seat's next step
            return False
        if seat in turns:
            return True
        turns.append(seat)
        return False

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
            raise UserError(
                _("The sides must have the same number of players: switch sides first.")
            )
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
        kept = self._answers_for is self.state
        known = self._answers.get(("pending", current())) if kept else None
        if known is None:
            return self.worked_out(question, getattr(self.state, question))
        return self.worked_out(
            question, lambda: [d.seat for d in known if optional or not d.optional]
        )
