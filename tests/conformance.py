"""The conformance test every game engine passes (shared/ARCHITECTURE.md).

`check_game(spec)` plays random legal playouts over many seeds and seat counts and fails
(AssertionError) on the first broken property:

- playouts terminate within `max_steps`;
- every card stays in the game: the multiset of `all_cards()` equals the deck, every step;
- `chip_total()` never changes;
- the same seed gives the same trajectory;
- refused actions raise IllegalAction and leave the state byte-for-byte unchanged, and what
  `verify` accepts is what `legal_actions` lists (up to the game's `canonical` form);
- no view shows a card hidden from its viewer, and a seat is never shown less than the public;
- a secret choice made while others are still choosing changes nothing anyone else can see
  (other seats' views, the public view, the events), whichever choice it is;
- every pending seat has legal actions and its default action is one of them;
- any snapshot restores to an equal state that continues exactly like the original;
- for games played hand after hand: players leave between hands taking their stacks, and
  cashing out at the end hands back every chip.

test_conformance.py runs it for every registered game; a new game needs no extra line there.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from bot.engine import Action, GameSpec, GameState, IllegalAction

BOGUS = Action(kind="no-such-action")
# What the table (not a seat) does between hands, recorded in trajectories like seat actions.
NEXT_HAND = Action(kind="table:next-hand")
LEAVE = Action(kind="table:leave")


@dataclass(frozen=True)
class Step:
    seat: int
    action: Action
    snapshot: str  # the state after the action


def seat_counts(spec: GameSpec) -> Iterator[int]:
    while True:
        yield from range(spec.min_players, spec.max_players + 1)


def starting_stacks(spec: GameSpec, seats: int, chooser: random.Random) -> list[int]:
    return [chooser.randint(3, 40) if spec.uses_chips else 0 for _ in range(seats)]


def choose(state: GameState, chooser: random.Random) -> tuple[int, Action]:
    """A random pending seat, and now and then its timeout default instead of a random move."""
    seat = chooser.choice([decision.seat for decision in state.pending()])
    if chooser.random() < 0.1:
        return seat, state.default_action(seat)
    return seat, chooser.choice(state.legal_actions(seat))


def between_hands(state: GameState, chooser: random.Random) -> tuple[int, Action]:
    """Now and then a seat leaves; otherwise the table deals the next hand."""
    if chooser.random() < 0.15:
        return chooser.randrange(state.seat_count), LEAVE
    return -1, NEXT_HAND


def perform(state: GameState, seat: int, action: Action) -> int:
    """Carry out a step; returns the chips that left the game with it."""
    if action == NEXT_HAND:
        state.next_hand()
        return 0
    if action == LEAVE:
        try:
            return state.leave(seat)
        except IllegalAction:  # already gone
            return 0
    state.apply(seat, action)
    return 0


def playout(spec: GameSpec, seats: int, seed: int, max_steps: int, *, audit: bool) -> list[Step]:
    chooser = random.Random(seed)
    auditor = random.Random(f"audit:{seed}")  # its own stream, so auditing cannot steer play
    state = spec.new_match(None, starting_stacks(spec, seats, chooser), seed)
    deck, chips = Counter(spec.deck()), state.chip_total()
    seen: dict[str, Action] = {BOGUS.model_dump_json(): BOGUS}  # every distinct action so far
    steps: list[Step] = []
    while not state.is_over():
        assert len(steps) < max_steps, f"{spec.id} seed {seed}: no end after {max_steps} steps"
        if audit:
            check_state(spec, state, deck, chips)
            check_refusals(state, seen, auditor)
            check_secret_choices(spec, state)
        if state.pending():
            seat, action = choose(state, chooser)
            seen.setdefault(action.model_dump_json(), action)
        else:
            assert state.awaiting_next_hand(), (
                "nobody to act, yet the game is neither over nor between hands"
            )
            seat, action = between_hands(state, chooser)
        chips -= perform(state, seat, action)
        steps.append(Step(seat, action, state.snapshot()))
    if audit:
        check_state(spec, state, deck, chips)
        assert state.pending() == [], "a finished game still asks for decisions"
        check_refusals(state, seen, auditor)
        payouts = state.cash_out()
        assert sum(payouts) == chips and min(payouts, default=0) >= 0, "cash-out lost chips"
        assert state.chip_total() == 0, "chips stayed in the game after cashing out"
    return steps


def check_state(spec: GameSpec, state: GameState, deck: Counter, chips: int) -> None:
    assert Counter(state.all_cards()) == deck, "cards were lost or duplicated"
    assert state.chip_total() == chips, f"chips changed: {chips} -> {state.chip_total()}"
    restored = spec.restore(state.snapshot())
    assert restored == state and restored.snapshot() == state.snapshot(), "snapshot mismatch"
    for decision in state.pending():
        legal = state.legal_actions(decision.seat)
        assert legal, f"seat {decision.seat} is pending with no legal action"
        assert state.default_action(decision.seat) in legal, "default action is not legal"
    check_views(state)


def check_views(state: GameState) -> None:
    public_hidden = state.hidden_from(None)
    for viewer in [None, *range(state.seat_count)]:
        hidden = state.hidden_from(viewer)
        assert hidden <= public_hidden, f"seat {viewer} is shown less than the public"
        shown = set(strings_in(state.view(viewer).model_dump(mode="json")))
        leaked = {str(card) for card in hidden} & shown
        assert not leaked, f"view for {viewer} shows hidden cards {sorted(leaked)}"


def check_secret_choices(spec: GameSpec, state: GameState) -> None:
    """While several seats choose in secret, what one of them picks shows nowhere else."""
    pending = state.pending()
    if len(pending) < 2:
        return
    for decision in pending:
        if not decision.secret:
            continue
        outcomes = set()
        for action in state.legal_actions(decision.seat):
            trial = spec.restore(state.snapshot())
            events = trial.apply(decision.seat, action)
            others = [s for s in [None, *range(state.seat_count)] if s != decision.seat]
            seen = [trial.view(s).model_dump_json() for s in others]
            outcomes.add((tuple(seen), tuple(e.model_dump_json() for e in events)))
        assert len(outcomes) == 1, f"seat {decision.seat}'s secret choice shows to others"


def strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def check_refusals(state: GameState, seen: dict[str, Action], chooser: random.Random) -> None:
    """Actions from the wrong seat, or not legal now, are refused and change nothing."""
    before = state.snapshot()
    pending = {decision.seat for decision in state.pending()}
    attempts: list[tuple[int, Action]] = []
    for seat in range(state.seat_count):
        legal = state.legal_actions(seat)
        if seat not in pending:
            assert legal == [], f"seat {seat} has legal actions while not pending"
            for other in pending:
                attempts += [(seat, action) for action in state.legal_actions(other)[:2]]
        legal_keys = {action.model_dump_json() for action in legal}
        picks = chooser.sample(sorted(seen), min(len(seen), 12))
        wrong = [
            seen[key]
            for key in picks
            if state.canonical(seat, seen[key]).model_dump_json() not in legal_keys
        ]
        attempts += [(seat, action) for action in chooser.sample(wrong, min(3, len(wrong)))]
    for seat, action in attempts:
        try:
            state.apply(seat, action)
        except IllegalAction as refusal:
            assert str(refusal), "a refusal must say why"
        else:
            raise AssertionError(f"seat {seat} was allowed {action!r}")
        assert state.snapshot() == before, f"refused {action!r} changed the state"


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
