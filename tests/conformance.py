"""The conformance test every game engine passes (shared/ARCHITECTURE.md).

`check_game(spec)` plays random legal playouts over many seeds and seat counts and fails
(AssertionError, naming the game, seed and step) on the first broken property:

- playouts terminate within `max_steps`;
- every card stays in the game: the multiset of `all_cards()` equals the deck, every step;
- `chip_total()` never changes;
- the same seed gives the same trajectory;
- refused actions raise IllegalAction and leave the state byte-for-byte unchanged, and what
  `verify` accepts is what `legal_actions` lists (up to the game's `canonical` form): at
  every step, seats not to act try a pending seat's legal action and an action seen earlier,
  and each pending seat tries actions seen earlier that are not legal for it now;
- no view shows a card hidden from its viewer, and a seat is never shown less than the public;
- `hidden_from(None)` covers every card the public has not been shown: a card in no public
  view, and in no public view or public event since it was last hidden, must be hidden (a
  face-down pile the views leave out, say);
- no event names a card hidden from those it is told to (the whole table, or a private
  event's `audience`) once the step is over: an event that reveals a card makes it public,
  so the game stops hiding it, and keeps it public until its next step (show the cards,
  then reshuffle them in the next step, as the table's channel shows the event in between);
- a secret choice made while others are still choosing changes nothing anyone else can see
  (other seats' views, the public view, the events), whichever choice it is: checked for
  every secret choice the playout makes;
- every pending seat has legal actions and its default action is one of them;
- any snapshot restores to an equal state that continues exactly like the original;
- for games played hand after hand: players leave between hands taking their stacks, and
  cashing out at the end hands back every chip.

Each step is audited from facts computed once (the pending seats, every seat's legal actions,
the snapshot), so a game's `legal_actions` runs about twice per step (the audit, the replay).

test_conformance.py runs it for every registered game; a new game needs no extra line there.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from pydantic import BaseModel

from bot.engine import Action, Decision, Event, GameSpec, GameState, IllegalAction, Viewer

BOGUS = Action(kind="no-such-action")
# What the table (not a seat) does between hands, recorded in trajectories like seat actions.
NEXT_HAND = Action(kind="table:next-hand")
LEAVE = Action(kind="table:leave")
REFUSALS_PER_SEAT = 3  # actions seen earlier, not legal now, that each pending seat tries


@dataclass(frozen=True)
class Step:
    seat: int
    action: Action
    snapshot: str  # the state after the action


@dataclass
class Audit:
    """What the audit of one playout carries from step to step."""

    spec: GameSpec
    deck: Counter
    chips: int
    chooser: random.Random  # its own stream, so auditing cannot steer play
    seen: list[Action] = field(default_factory=lambda: [BOGUS])  # every distinct action so far
    seen_keys: set[str] = field(default_factory=lambda: {BOGUS.model_dump_json()})
    public: set[Hashable] = field(default_factory=set)  # shown to all, not hidden again since
    # The deck's cards, and the same by code (their JSON form). Sets, not dict views: set
    # operations between sets reuse the hashes they hold, and a card's hash is Python code.
    cards: frozenset[Hashable] = frozenset()
    by_code: dict[str, Hashable] = field(default_factory=dict)
    codes: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        self.cards = frozenset(self.deck)
        self.by_code = {str(card): card for card in self.cards}
        self.codes = frozenset(self.by_code)

    def cards_in(self, strings: set[str]) -> set[Hashable]:
        """The deck's cards whose codes are among `strings`."""
        return {self.by_code[code] for code in strings & self.codes}

    def named(self, cards: set[Hashable], strings: set[str]) -> list[str]:
        """The codes of those of `cards` that are among `strings`, sorted."""
        found = cards & self.cards_in(strings)
        found |= {card for card in cards - self.cards if str(card) in strings}
        return sorted(str(card) for card in found)

    def saw(self, action: Action) -> None:
        key = action.model_dump_json()
        if key not in self.seen_keys:
            self.seen_keys.add(key)
            self.seen.append(action)


@dataclass
class Facts:
    """One step's state as the audit sees it, each computed once."""

    state: GameState
    snapshot: str
    pending: list[Decision]
    legal: list[list[Action]]  # per seat

    @classmethod
    def of(cls, state: GameState, snapshot: str) -> Facts:
        return cls(
            state,
            snapshot,
            state.pending(),
            [state.legal_actions(seat) for seat in range(state.seat_count)],
        )

    @property
    def pending_seats(self) -> list[int]:
        return [decision.seat for decision in self.pending]


def seat_counts(spec: GameSpec) -> Iterator[int]:
    while True:
        yield from range(spec.min_players, spec.max_players + 1)


def starting_stacks(spec: GameSpec, seats: int, chooser: random.Random) -> list[int]:
    return [chooser.randint(3, 40) if spec.uses_chips else 0 for _ in range(seats)]


def choose(
    state: GameState,
    chooser: random.Random,
    pending: Sequence[Decision],
    legal: Sequence[list[Action]] | None = None,
) -> tuple[int, Action]:
    """A random pending seat, and now and then its timeout default instead of a random move."""
    seat = chooser.choice([decision.seat for decision in pending])
    if chooser.random() < 0.1:
        return seat, state.default_action(seat)
    return seat, chooser.choice(legal[seat] if legal is not None else state.legal_actions(seat))


def between_hands(state: GameState, chooser: random.Random) -> tuple[int, Action]:
    """Now and then a seat leaves; otherwise the table deals the next hand."""
    if chooser.random() < 0.15:
        return chooser.randrange(state.seat_count), LEAVE
    return -1, NEXT_HAND


def perform(state: GameState, seat: int, action: Action) -> tuple[int, list[Event]]:
    """Carry out a step; returns the chips that left the game with it, and its events."""
    if action == NEXT_HAND:
        return 0, state.next_hand()
    if action == LEAVE:
        try:
            return state.leave(seat), []
        except IllegalAction:  # already gone
            return 0, []
    return 0, state.apply(seat, action)


def playout(spec: GameSpec, seats: int, seed: int, max_steps: int, *, audit: bool) -> list[Step]:
    chooser = random.Random(seed)
    state = spec.new_match(None, starting_stacks(spec, seats, chooser), seed)
    auditor = Audit(spec, Counter(spec.deck()), state.chip_total(), random.Random(f"audit:{seed}"))
    snapshot = state.snapshot() if audit else ""
    events: list[Event] = []  # what the last step told the table
    steps: list[Step] = []
    while not state.is_over():
        where = f"{spec.id} seed {seed} ({seats} seats) step {len(steps)}"
        assert len(steps) < max_steps, f"{spec.id} seed {seed}: no end after {max_steps} steps"
        if audit:
            facts = Facts.of(state, snapshot)
            pending = facts.pending
            with context(where):
                check_step(auditor, facts, events)
        else:
            pending = state.pending()
        if pending:
            seat, action = choose(state, chooser, pending, facts.legal if audit else None)
            if audit:
                with context(where):
                    check_secret_choice(spec, facts, seat)
                auditor.saw(action)
        else:
            assert state.awaiting_next_hand(), (
                "nobody to act, yet the game is neither over nor between hands"
            )
            seat, action = between_hands(state, chooser)
        left, events = perform(state, seat, action)
        auditor.chips -= left
        snapshot = state.snapshot()
        steps.append(Step(seat, action, snapshot))
    if audit:
        with context(f"{spec.id} seed {seed} ({seats} seats) at the end"):
            facts = Facts.of(state, snapshot)
            check_step(auditor, facts, events)
            assert facts.pending == [], "a finished game still asks for decisions"
            payouts = state.cash_out()
            chips = auditor.chips
            assert sum(payouts) == chips and min(payouts, default=0) >= 0, "cash-out lost chips"
            assert state.chip_total() == 0, "chips stayed in the game after cashing out"
    return steps


@contextmanager
def context(where: str) -> Iterator[None]:
    """Prefix a failed check's message with where it failed."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{where}: {error}") from error


def check_step(audit: Audit, facts: Facts, events: list[Event]) -> None:
    """Every check of one state, given the events of the step that led to it."""
    twin = check_state(audit, facts)
    hidden, public_strings = check_views(audit, facts.state)
    check_events(audit, hidden, events)
    check_public_cards(audit, hidden[None], public_strings, events)
    check_refusals(audit, facts, twin)


def check_state(audit: Audit, facts: Facts) -> GameState:
    """Cards and chips kept, sound decisions, and a snapshot that restores to an equal state
    (returned; check_refusals ends the round trip by snapshotting it again)."""
    state = facts.state
    # dict equality: Counter's own == is slow, and neither side holds a zero count
    assert dict.__eq__(Counter(state.all_cards()), audit.deck), "cards were lost or duplicated"
    assert state.chip_total() == audit.chips, (
        f"chips changed: {audit.chips} -> {state.chip_total()}"
    )
    restored = audit.spec.restore(facts.snapshot)
    assert restored == state, "snapshot mismatch: the restored state differs"
    for decision in facts.pending:
        legal = facts.legal[decision.seat]
        assert legal, f"seat {decision.seat} is pending with no legal action"
        assert state.default_action(decision.seat) in legal, "default action is not legal"
    return restored


def check_views(audit: Audit, state: GameState) -> tuple[dict[Viewer, set], set[str]]:
    """No view shows its viewer a hidden card. Returns the cards hidden from each viewer, and
    every string the public view holds."""
    public_hidden = state.hidden_from(None)
    hidden: dict[Viewer, set] = {None: public_hidden}
    public_strings: set[str] = set()
    for viewer in [None, *range(state.seat_count)]:
        if viewer is not None:
            hidden[viewer] = state.hidden_from(viewer)
        assert hidden[viewer] <= public_hidden, f"seat {viewer} is shown less than the public"
        shown = strings_of(state.view(viewer))
        leaked = audit.named(hidden[viewer], shown)
        assert not leaked, f"view for {viewer} shows hidden cards {leaked}"
        if viewer is None:
            public_strings = shown
    return hidden, public_strings


def audience(event: Event) -> tuple[int, ...] | None:
    """The seats a private event is for; None for an event told to the whole table."""
    return getattr(event, "audience", None)


def check_events(audit: Audit, hidden: dict[Viewer, set], events: list[Event]) -> None:
    """An event names no card hidden, once the step is over, from anyone it is told to: the
    public, or a private event's seats. (An event that reveals a card makes it public: the
    game must stop hiding it, and keep showing it until its next step.)"""
    for event in events:
        strings = strings_of(event)
        seats = audience(event)
        if seats is None:
            named = audit.named(hidden[None], strings)
            assert not named, f"a public event names hidden cards {named}: {event!r}"
        for seat in seats or ():
            named = audit.named(hidden[seat], strings)
            assert not named, (
                f"a private event for seat {seat} names cards hidden from it {named}: {event!r}"
            )


def check_public_cards(
    audit: Audit, public_hidden: set, public_strings: set[str], events: list[Event]
) -> None:
    """Every card the public was never shown is hidden from it: a card in no public view, and
    in no public view or public event since it was last hidden, is in `hidden_from(None)`.
    Views and events hold cards as their codes, so a card is shown where its code is one of
    their strings. (check_state made sure the cards are the deck's.)"""
    told = set().union(*(strings_of(event) for event in events if audience(event) is None))
    audit.public = (audit.public | audit.cards_in(public_strings | told)) - public_hidden
    unseen = audit.cards - audit.public - public_hidden
    assert not unseen, (
        f"cards {sorted(map(str, unseen))} are in no public view or event, "
        "yet not hidden from the public"
    )


def check_secret_choice(spec: GameSpec, facts: Facts, seat: int) -> None:
    """While several seats choose in secret, what the one about to choose picks shows nowhere
    else: each of its choices leaves the same views to the others and the same events.
    (Every secret choice of the playout is checked when it is made.)"""
    state = facts.state
    decision = next(decision for decision in facts.pending if decision.seat == seat)
    if len(facts.pending) < 2 or not decision.secret:
        return
    others = [viewer for viewer in [None, *range(state.seat_count)] if viewer != seat]
    outcomes = set()
    for action in facts.legal[seat]:
        trial = spec.restore(facts.snapshot)
        events = trial.apply(seat, action)
        seen = [trial.view(viewer).model_dump_json() for viewer in others]
        outcomes.add((tuple(seen), tuple(event.model_dump_json() for event in events)))
    assert len(outcomes) == 1, f"seat {seat}'s secret choice shows to others"


JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def strings_of(model: BaseModel) -> set[str]:
    """Every string (keys too) in the model's JSON, as written there: exact for a card code,
    which holds no character JSON escapes."""
    return set(JSON_STRING.findall(model.model_dump_json()))


def check_refusals(audit: Audit, facts: Facts, twin: GameState) -> None:
    """Actions from the wrong seat, or not legal now, are refused and change nothing.

    Each seat not pending tries one of every pending seat's legal actions (a random one) and
    one action seen earlier in the playout; each pending seat tries `REFUSALS_PER_SEAT` seen
    actions that are not legal for it now. (Across a playout's steps that covers far more.)
    They are tried on `twin`, the state restored from the snapshot (equal to the state, so
    deciding alike), whose snapshot must then be the original byte for byte: that both ends
    the snapshot round trip and shows that the refusals changed nothing.
    """
    state, legal = twin, facts.legal
    pending = facts.pending_seats
    attempts: list[tuple[int, Action]] = []
    for seat in range(state.seat_count):
        if seat in pending:
            attempts += [(seat, action) for action in not_legal(audit, state, seat, legal[seat])]
        else:
            assert legal[seat] == [], f"seat {seat} has legal actions while not pending"
            attempts += [(seat, audit.chooser.choice(legal[other])) for other in pending]
            attempts.append((seat, audit.chooser.choice(audit.seen)))
    for tried, (seat, action) in enumerate(attempts):
        try:
            state.apply(seat, action)
        except IllegalAction as refusal:
            assert str(refusal), "a refusal must say why"
        else:
            blame_a_change(audit.spec, facts.snapshot, attempts[:tried])
            raise AssertionError(f"seat {seat} was allowed {action!r}")
    # One snapshot after all the attempts: a change any of them made is still there.
    if state.snapshot() != facts.snapshot:
        again = audit.spec.restore(facts.snapshot).snapshot()
        assert again == facts.snapshot, "snapshot mismatch: the restored state's snapshot differs"
        blame_a_change(audit.spec, facts.snapshot, attempts)
        raise AssertionError("refused actions changed the state")


def blame_a_change(spec: GameSpec, snapshot: str, attempts: list[tuple[int, Action]]) -> None:
    """Fail naming the first of `attempts` that, refused, changes a state fresh from
    `snapshot` (the slow search, run only once something went wrong)."""
    for seat, action in attempts:
        state = spec.restore(snapshot)
        with suppress(IllegalAction):
            state.apply(seat, action)
        assert state.snapshot() == snapshot, f"refused {action!r} changed the state"


def not_legal(audit: Audit, state: GameState, seat: int, legal: list[Action]) -> list[Action]:
    """Up to `REFUSALS_PER_SEAT` random actions seen in the playout that `seat` may not take
    now (compared in the form `legal_actions` lists)."""
    found: list[Action] = []
    for index in audit.chooser.sample(range(len(audit.seen)), min(len(audit.seen), 12)):
        action = audit.seen[index]
        if state.canonical(seat, action) not in legal:
            found.append(action)
            if len(found) == REFUSALS_PER_SEAT:
                break
    return found


def check_resume(spec: GameSpec, steps: list[Step], at: int) -> None:
    """Restore the snapshot after step `at` and replay the rest: identical snapshots."""
    state = spec.restore(steps[at].snapshot)
    for step in steps[at + 1 :]:
        perform(state, step.seat, step.action)
        assert state.snapshot() == step.snapshot, "a resumed game diverged"


def check_game(spec: GameSpec, *, seeds: int = 24, max_steps: int = 5000) -> None:
    counts = seat_counts(spec)
    for seed in range(seeds):
        seats = next(counts)
        steps = playout(spec, seats, seed, max_steps, audit=True)
        assert steps, "a match ended before anyone acted"
        replay = playout(spec, seats, seed, max_steps, audit=False)
        assert replay == steps, f"seed {seed}: the same seed gave another trajectory"
        check_resume(spec, steps, random.Random(seed).randrange(len(steps)))
