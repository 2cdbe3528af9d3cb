"""Hand histories: a table's hands replayed from its first state and its logged actions (no
write per step, nothing kept but what the table saves anyway), and what a member may see of
each step.

A hand opens with a deal (the match's first state, or a step whose events hold a
`HandStarted`) and ends with the step whose events hold its `HandEnded`; a step that ends one
hand and deals the next (games that deal on at once) is the last step of the one and the
deal of the other. Steps between hands (a player leaving, the table closing) trail the hand
before them.

A member sees a step as they saw it at the table: the public view, their own seat's view, the
public events and those told to their seat. Another seat's hidden cards never show: the game's
own views decide at every step, so a folded hand stays hidden after the hand too. A seat's
action shows only through its events, never as logged (a throw names the cards thrown); who
acted stays unsaid for secret and optional choices.

Each step also says which of the match's draws (bot/engine/rng.py) it used, in order: a hand's
deal names the draw number its deck was shuffled by, which a player needs to re-deal it from
the revealed table seed (README, "Verifiable deals"). How many draws a step made is public
(every shuffle and random draw is one, and each is announced or visible), the seed is not."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import orjson
from pydantic import BaseModel, TypeAdapter, ValidationError

from bot.engine import Action, Event, GameSpec, GameState, HandEnded, HandMove, HandStarted
from bot.i18n import _
from bot.store.history import LoggedStep, TableLog
from bot.tables.actions import EmptyTableClose, TableAction, TableStep, TakeSeat, take_table_step


class ReplayUnavailable(Exception):
    """A table's hands can't be replayed: one sentence for the member who asked."""


@dataclass(frozen=True)
class ReplayStep:
    """A step of a hand: the deal (`seat` and `action` None, `version` the table's version
    after it) or what a seat or the table did, with its events and the state after it."""

    version: int
    seat: int | None
    action: BaseModel | None
    timed_out: bool
    events: tuple[Event, ...]
    snapshot: str
    # Who acted answered a secret or optional choice: neither who nor what is said.
    secret: bool = False
    draws: range = range(0)  # the draw numbers of the shuffles and random draws it made


@dataclass(frozen=True)
class SeenStep:
    """A step as one member (or the public) may see it."""

    number: int
    seat: int | None  # who acted, when that was public
    action: str | None  # the kind of what they did, when that was public
    timed_out: bool
    events: tuple[Event, ...]
    public: BaseModel
    own: BaseModel | None  # the member's seat's view, when they were seated
    # The draw numbers the step's shuffles and random draws used, in order, for a match dealt
    # from a table seed (empty for one dealt the old way, whose draws no one can re-deal).
    draws: tuple[int, ...] = ()


@dataclass
class HandReplay:
    number: int  # the game's hand number
    steps: list[ReplayStep]
    ended: bool = False

    def state_at(self, spec: GameSpec, step: int) -> GameState:
        return spec.restore(self.steps[step].snapshot)

    def seen(self, spec: GameSpec, step: int, seat: int | None) -> SeenStep:
        """Step `step` as the member at `seat` saw it (None: a member not seated, the public)."""
        record = self.steps[step]
        state = self.state_at(spec, step)
        told = tuple(event for event in record.events if _told_to(event, seat))
        public_move = not record.secret or record.seat == seat
        return SeenStep(
            number=step,
            seat=record.seat if public_move else None,
            action=_kind(record.action) if public_move else None,
            timed_out=record.timed_out and public_move,
            events=told,
            public=state.view(None),
            own=state.view(seat) if seat is not None else None,
            draws=tuple(record.draws) if state.rng.key else (),
        )

    def hand_history(self, spec: GameSpec, names: Sequence[str], seat: int | None) -> str | None:
        """The hand in the game's own hand-history format (`spec.hand_history`: Lowball's
        PHH) as the member at `seat` saw it; None for a game without one."""
        if spec.hand_history is None:
            return None
        states = [self.state_at(spec, number) for number in range(len(self.steps))]
        moves = [
            HandMove(
                before,
                step.seat,
                step.action if isinstance(step.action, Action) else None,
                step.events,
            )
            for before, step in zip(states, self.steps[1:], strict=False)
        ]
        return spec.hand_history.write(states[0], moves, names, seat, self.number)

    def jsonl(self, spec: GameSpec, table_id: int) -> str:
        """The hand's public record as JSON Lines: a line per step with who did what (when
        that was public), the draw numbers it used (a deal's is the one to re-deal it with),
        the public events and the public view."""
        lines = []
        for number in range(len(self.steps)):
            seen = self.seen(spec, number, None)
            line = {
                "table": table_id,
                "hand": self.number,
                "step": number,
                "seat": seen.seat,
                "action": seen.action,
                "timed_out": seen.timed_out,
                "draws": list(seen.draws),
                "events": [event.model_dump(mode="json") for event in seen.events],
                "view": seen.public.model_dump(mode="json"),
            }
            lines.append(orjson.dumps(line).decode())
        return "\n".join(lines) + "\n"


def _told_to(event: Event, seat: int | None) -> bool:
    """Whether `seat` (None: the public) was told `event`: a public one, or one for its seat."""
    audience = event.audience
    return audience is None or (seat is not None and seat in audience)


def _kind(action: BaseModel | None) -> str | None:
    if action is None:
        return None
    if isinstance(action, EmptyTableClose):
        return "close"
    return str(getattr(action, "kind", None))


# ---- replaying the log ------------------------------------------------------------------------

TABLE_STEPS: TypeAdapter[TableStep] = TypeAdapter(TableStep)


def read_action(spec: GameSpec, step: LoggedStep) -> BaseModel:
    """A logged action: the game's (a seat's), else one of the table's own steps."""
    if step.seat is not None:
        try:
            return spec.actions.validate_json(step.action)
        except ValidationError:
            pass  # a seat's leave, the table's own step
    if orjson.loads(step.action) == "close":
        return EmptyTableClose()
    return TABLE_STEPS.validate_json(step.action)


def apply_step(state: GameState, step: LoggedStep, action: BaseModel) -> list[Event]:
    """Do again what the runtime did for `step` (bot/tables/play.py), on `state`."""
    if isinstance(action, EmptyTableClose):
        return []
    if not isinstance(action, TableAction | TakeSeat):
        assert step.seat is not None  # a game action is a seat's
        return state.apply(step.seat, action)  # type: ignore[arg-type]
    return take_table_step(state, action, step.seat)


def play_log(spec: GameSpec, state: GameState, log: Sequence[LoggedStep]) -> None:
    """Every logged step done again on `state`, in order (a step it refuses raises)."""
    for step in log:
        apply_step(state, step, read_action(spec, step))


def _secret(state: GameState, seat: int | None) -> bool:
    decision = next((d for d in state.pending() if d.seat == seat), None)
    return decision is not None and (decision.secret or decision.optional)


def replay_steps(
    spec: GameSpec, first_state: str, log: Sequence[LoggedStep]
) -> Iterator[ReplayStep]:
    """Every step of the match from its first state: first the deal, then each logged one."""
    state = spec.restore(first_state)
    yield ReplayStep(0, None, None, False, (), first_state, draws=range(state.rng.draws))
    for step in log:
        action = read_action(spec, step)
        secret = step.seat is not None and _secret(state, step.seat)
        drawn = state.rng.draws
        events = apply_step(state, step, action)
        yield ReplayStep(
            step.version,
            step.seat,
            action,
            step.timed_out,
            tuple(events),
            state.snapshot(),
            secret,
            range(drawn, state.rng.draws),
        )


def split_hands(steps: Iterator[ReplayStep], first_hand: int) -> list[HandReplay]:
    """The steps grouped into hands (see the module's docstring)."""
    deal = next(steps)
    hands = [HandReplay(first_hand, [deal])]
    for step in steps:
        current = hands[-1]
        started = next((i for i, e in enumerate(step.events) if isinstance(e, HandStarted)), None)
        if started is None:  # in the hand, or between hands (then it trails the hand before)
            current.steps.append(step)
            current.ended = current.ended or any(isinstance(e, HandEnded) for e in step.events)
            continue
        opening = step
        if not current.ended:  # the step ends this hand (or redeals it) and deals the next
            # Its draws are the new deal's (no game reshuffles in a step that deals).
            current.steps.append(_with_events(step, step.events[:started], range(0)))
            current.ended = True
            opening = _with_events(step, step.events[started:], step.draws)
        dealt = step.events[started]
        assert isinstance(dealt, HandStarted)
        hands.append(HandReplay(dealt.hand, [opening]))
    return hands


def _with_events(step: ReplayStep, events: Sequence[Event], draws: range) -> ReplayStep:
    return dataclasses.replace(step, events=tuple(events), draws=draws)


def replay_table(spec: GameSpec, log: TableLog) -> list[HandReplay]:
    """Every hand of a table, replayed. ReplayUnavailable for a table started before first
    states were saved."""
    if log.first_state is None:
        raise ReplayUnavailable(
            _("This table was played before hand histories were kept: its hands can't be replayed.")
        )
    first = spec.restore(log.first_state)
    return split_hands(replay_steps(spec, log.first_state, log.steps), first.hand)


def final_state(spec: GameSpec, log: TableLog) -> GameState:
    """The table's state after its last logged step, as the runtime saved it (a closed table
    has been cashed out)."""
    if log.first_state is None:
        raise ReplayUnavailable(_("This table has no first state."))
    state = spec.restore(log.first_state)
    play_log(spec, state, log.steps)
    if log.closed:
        state.cash_out()
    return state


def find_hand(hands: Sequence[HandReplay], number: int) -> HandReplay | None:
    return next((hand for hand in hands if hand.number == number), None)
