"""The conformance test every game engine passes (docs/architecture.md).

`check_game(spec)` plays random legal playouts over many seeds and seat counts and fails
(AssertionError, naming the game, seed and step) on the first broken property:

- playouts terminate within `max_steps`;
- every card stays in the game: the multiset of `all_cards()` equals the deck for the table's
  number of seats (`spec.deck_for(seats)`), every step;
- `chip_total()` never changes (chips only leave with a leaving player or at the cash-out, and
  come in with a player taking a seat left empty);
  a house game (`house_cover`) starts with an empty `house_bank()`, brings to its bank what
  the hands' `house_chips` (the house's report) don't account for (the chips enter the
  game's total), holds nothing between hands, and the cash-out pays the players everything
  but the bank, which the runtime gives back to the house;
- the same seed gives the same trajectory;
- refused actions raise IllegalAction and leave the state byte-for-byte unchanged, and what
  `verify` accepts is what `legal_actions` lists (up to the game's `canonical` form): at
  every step, seats not to act try a pending seat's legal action and an action seen earlier,
  and each pending seat tries actions seen earlier that are not legal for it now;
- games that can't list their actions (`listable = False`) can't be held to that, so: every
  suggestion (`legal_actions`, `suggestions`), a fresh `sample` and a required seat's default
  pass `verify`, the playout moves by `sample`, and each pending seat tries offered or seen
  actions with one card swapped for a card hidden from that seat, which it cannot hold
  (unless the game itself offers actions naming cards the seat can't see: asking for one);
- a free-text decision (`text_question`): `text_action` turns a few odd answers (empty,
  spaces, long, digits, words) into an action `verify` accepts or refuses them with
  IllegalAction and a reason, changing nothing; the playout sometimes answers in words;
- no view shows a card hidden from its viewer, and a seat is never shown less than the public;
- `hidden_from(None)` covers every card the public has not been shown: a card in no public
  view, and in no public view or public event since it was last hidden, must be hidden (a
  face-down pile the views leave out, say);
- no event (the first deal's from `open_match` too) names a card hidden from those it is told
  to (the whole table, or a private event's `audience`, which must name seats of the table)
  once the step is over: an event that reveals a card makes it public, so the game stops
  hiding it, and keeps it public until its next step (show the cards, then reshuffle them in
  the next step, as the table's channel shows the event in between);
- a secret choice made while others are still choosing changes nothing anyone else can see
  (other seats' views, the public view, the events), whichever choice it is: checked for
  every secret choice the playout makes;
- every pending seat has legal actions, and a required seat's default action is one of them
  (optional decisions never time out, so they have no default);
- every decision's kind is a member of the game's `DecisionKind`, and a game that uses a
  capability (a pause between hands, a house, windows, unlisted actions, answers in words)
  opts into it: its state derives from the capability's class (bot/engine/protocol.py);
- optional decisions: the playout takes them now and then, and leaves them as often. Who
  holds one must not show: the state is dealt again with the cards hidden from a viewer
  (the public, and a seat) permuted among their places; where that changes who (other than
  the viewer) holds an optional decision, the viewer's view, and the window's length, must
  stay byte for byte the same. A sound view depends only on what its viewer knows, which the
  permutation keeps; what holds optional decisions is then the only thing told apart. (Not
  caught: public events naming the holders, or a game that keeps the holders in a field of
  its own rather than deriving them from the cards.)
- windows: when nobody is required to act, the game is over, between hands (the table deals
  the next one), or has a window (`window_seconds()`, a positive number) that the playout
  closes by `close_window()` unless an optional holder acts first, as the runtime does at
  the deadline; anything else is a game that stalls;
- results: a `MatchEnded` (told, or `final_standings()`) places every seat; with sides
  (`spec.sides_for`, seat i on side i % sides) partners share their placing and score, and a
  hand's winners are whole sides; playouts use only seat counts the sides divide;
- any snapshot restores to an equal state that continues exactly like the original;
- for games played hand after hand: players leave between hands taking their stacks, new
  players take seats left empty where the game allows it (`can_take_seat`) bringing chips,
  and cashing out at the end hands back every chip.

Each step is audited from facts computed once (the pending seats, every seat's legal actions,
the snapshot), so a game's `legal_actions` runs about twice per step (the audit, the replay).

test_conformance.py runs it for every registered game; a new game needs no extra line there.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
import string
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.engine import (
    Action,
    Decision,
    DecisionKind,
    Event,
    GameSpec,
    GameState,
    HandByHand,
    HandEnded,
    HouseBanked,
    IllegalAction,
    MatchEnded,
    Policy,
    TextAnswers,
    UnlistedActions,
    Viewer,
    Windows,
)

BOGUS = Action(kind="no-such-action")
# What the table (not a seat) does, recorded in trajectories like seat actions.
NEXT_HAND = Action(kind="table:next-hand")
LEAVE = Action(kind="table:leave")
CLOSE_WINDOW = Action(kind="table:close-window")  # a window's time ran out
TAKE_SEAT = Action(kind="table:take-seat")  # a new player sits in a seat left empty
SEAT_CHIPS = 40  # what they bring
TAKE_SEAT_RATE = 0.2  # how often a seat left empty is taken, at a step where one may be
SEATS_TAKEN = 2  # at most, a playout: chips brought in keep a match from ending
REFUSALS_PER_SEAT = 3  # actions seen earlier, not legal now, that each pending seat tries
DEFAULT_RATE = 0.1  # how often a required seat times out (plays its default)
# How often an optional holder acts: when nobody else must (a window: else it closes), and
# before the seats play waits for.
OPTIONAL_ALONE = 0.5
OPTIONAL_BESIDE = 0.2
TEXT_RATE = 0.5  # how often a free-text decision is answered in words (else a listed action)
SUGGESTIONS = 5  # how many suggestions a game that can't list its actions is asked for
# Odd answers to a free-text question, each either turned into an action verify accepts or
# refused with a reason.
ODD_TEXTS = ("", " ", "a", "Pass", "two words", "  padded  ", "x" * 300, "123", "naïve", "?!")


@dataclass(frozen=True)
class Step:
    seat: int
    action: Action
    snapshot: str  # the state after the action


@dataclass(frozen=True)
class Move:
    """What the playout does next: a seat's action (`how` it was chosen), or the table's."""

    seat: int
    action: Action
    how: str  # "legal", "sampled", "default", "text" (an answer in words) or "table"


@dataclass
class Audit:
    """What the audit of one playout carries from step to step."""

    spec: GameSpec
    deck: Counter
    chips: int  # chip_total(), less what left with leaving players
    chooser: random.Random  # its own stream, so auditing cannot steer play
    house: int = 0  # the chips the house brought, plus every hand's house_chips since
    sides: int = 0
    seen: list[Action] = field(default_factory=lambda: [BOGUS])  # every distinct action so far
    seen_keys: set[str] = field(default_factory=lambda: {BOGUS.model_dump_json()})
    from_text: set[str] = field(default_factory=set)  # seen actions that were answers in words
    optional_seen: bool = False  # an optional decision was pending at some step
    names_unseen: bool = False  # the game offers actions naming cards the seat can't see
    public: set[Hashable] = field(default_factory=set)  # shown to all, not hidden again since
    # The deck's cards, and the same by code (their JSON form). Sets, not dict views: set
    # operations between sets reuse the hashes they hold, and a card's hash is Python code.
    cards: frozenset[Hashable] = frozenset()
    by_code: dict[str, Hashable] = field(default_factory=dict)
    codes: frozenset[str] = frozenset()
    card_types: tuple[type, ...] = ()
    # Each card alone in a set, by code: a union of these takes the hashes they hold, where a
    # set built of the cards would call each card's hash (Python code) again.
    alone: dict[str, frozenset[Hashable]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.cards = frozenset(self.deck)
        self.by_code = {str(card): card for card in self.cards}
        self.codes = frozenset(self.by_code)
        self.card_types = tuple({type(card) for card in self.cards})
        self.alone = {code: frozenset((card,)) for code, card in self.by_code.items()}

    def cards_in(self, strings: set[str]) -> set[Hashable]:
        """The deck's cards whose codes are among `strings`."""
        return set().union(*map(self.alone.__getitem__, strings & self.codes))

    def named(self, cards: set[Hashable], strings: set[str]) -> list[str]:
        """The codes of those of `cards` that are among `strings`, sorted."""
        found = cards & self.cards_in(strings)
        found |= {card for card in cards - self.cards if str(card) in strings}
        return sorted(str(card) for card in found)

    def saw(self, move: Move) -> None:
        key = move.action.model_dump_json()
        if move.how == "text":
            self.from_text.add(key)
        if key not in self.seen_keys:
            self.seen_keys.add(key)
            self.seen.append(move.action)


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


def sides_of(spec: GameSpec) -> int:
    """How many sides the game's default table plays in (0: everyone alone)."""
    return spec.sides_for(spec.options_model())


def table_sizes(spec: GameSpec) -> list[int]:
    """Every table size the game takes (with sides, sizes they divide: the lobby starts a
    partnership game only with equal sides)."""
    sides = sides_of(spec)
    sizes = [
        seats
        for seats in range(spec.min_players, spec.max_players + 1)
        if not sides or seats % sides == 0
    ]
    assert sizes, (
        f"{spec.id}: no table of {spec.min_players}-{spec.max_players} seats "
        f"splits into {sides} equal sides"
    )
    return sizes


def seat_counts(spec: GameSpec) -> Iterator[int]:
    """Every table size the game takes, round and round: seed n's playout has the n-th."""
    return itertools.cycle(table_sizes(spec))


def seats_for(spec: GameSpec, seed: int) -> int:
    """The table size seed `seed`'s playout has (as `seat_counts` gives them in turn)."""
    sizes = table_sizes(spec)
    return sizes[seed % len(sizes)]


def starting_stacks(spec: GameSpec, seats: int, chooser: random.Random) -> list[int]:
    chips = spec.chips_for(spec.options_model())
    return [chooser.randint(3, 40) if chips else 0 for _ in range(seats)]


def uses_sample(state: GameState) -> bool:
    """Whether the playout moves by the game's `sample` (it can't list its actions, or draws
    its own way) rather than by a choice among `legal_actions`."""
    return not state.listable or type(state).sample is not GameState.sample


def word(chooser: random.Random) -> str:
    """An answer in words that names no card (lower-case letters)."""
    return "".join(chooser.choice(string.ascii_lowercase) for _ in range(chooser.randint(3, 10)))


def pick(
    state: GameState,
    chooser: random.Random,
    decision: Decision,
    legal: Sequence[list[Action]] | None,
    policy: Policy | None = None,
) -> Move:
    """A random action for the decision: now and then an answer in words to a free-text
    question; else the game's sample, or one of its legal actions. With an AI `policy`, its
    own answer (which must be legal: it is played as is); a random one when it lets an
    optional choice go."""
    seat = decision.seat
    if policy is not None:
        actions = list(legal[seat] if legal is not None else state.legal_actions(seat))
        action = policy.choose(seat, state.view(seat), decision, actions, chooser)
        if action is not None:  # an answer to a question in words counts as words
            return Move(seat, action, "text" if decision.text_question else "ai")
    if decision.text_question is not None and chooser.random() < TEXT_RATE:
        with suppress(IllegalAction):  # refused: move as for any other decision
            return Move(seat, state.text_action(seat, word(chooser)), "text")
    if uses_sample(state):
        return Move(seat, state.sample(seat, chooser), "sampled")
    actions = legal[seat] if legal is not None else state.legal_actions(seat)
    return Move(seat, chooser.choice(actions), "legal")


def choose(
    state: GameState,
    chooser: random.Random,
    pending: Sequence[Decision],
    legal: Sequence[list[Action]] | None = None,
    policy: Policy | None = None,
    seat_taking: bool = False,
) -> Move:
    """The next step, as a table would take it. Now and then an optional holder acts; else a
    seat play waits for acts (now and then timing out: its default); with nobody to wait for
    the table deals the next hand (or a seat leaves), or a window's time runs out; and now
    and then, at any step, a seat left empty is taken by a new player (`seat_taking`)."""
    required = [decision.seat for decision in pending if not decision.optional]
    optional = [decision for decision in pending if decision.optional]
    waiting = not required and not state.awaiting_next_hand()
    assert not waiting or state.window_seconds() is not None, (
        "nobody is required to act, yet the game is not over, not between hands and has no "
        "window to close: it stalls"
    )
    free = [s for s in range(state.seat_count) if seat_taking and state.can_take_seat(s)]
    if free and chooser.random() < TAKE_SEAT_RATE:
        return Move(chooser.choice(free), TAKE_SEAT, "table")
    if optional and chooser.random() < (OPTIONAL_BESIDE if required else OPTIONAL_ALONE):
        return pick(state, chooser, chooser.choice(optional), legal, policy)
    if required:
        seat = chooser.choice(required)
        if chooser.random() < DEFAULT_RATE:
            return Move(seat, state.default_action(seat), "default")
        decision = next(d for d in pending if d.seat == seat and not d.optional)
        return pick(state, chooser, decision, legal, policy)
    if waiting:
        return Move(-1, CLOSE_WINDOW, "table")
    return between_hands(state, chooser)


def between_hands(state: GameState, chooser: random.Random) -> Move:
    """Now and then a seat leaves; otherwise the table deals the next hand."""
    if chooser.random() < 0.15:
        return Move(chooser.randrange(state.seat_count), LEAVE, "table")
    return Move(-1, NEXT_HAND, "table")


def perform(state: GameState, seat: int, action: Action) -> tuple[int, list[Event]]:
    """Carry out a step; returns the chips that left the game with it (brought into it: less
    than none), and its events."""
    if action == NEXT_HAND:
        return 0, state.next_hand()
    if action == CLOSE_WINDOW:
        return 0, state.close_window()
    if action == TAKE_SEAT:
        state.take_seat(seat, SEAT_CHIPS)
        return -SEAT_CHIPS, []
    if action == LEAVE:
        try:
            return state.leave(seat), []
        except IllegalAction:  # already gone
            return 0, []
    return 0, state.apply(seat, action)


def perform_checked(state: GameState, move: Move) -> tuple[int, list[Event]]:
    """`perform`, failing with a sentence when the game refuses what it offered itself."""
    try:
        return perform(state, move.seat, move.action)
    except IllegalAction as refusal:
        what = {
            "legal": "legal action",
            "sampled": "sampled action",
            "default": "default action",
            "text": "answer in words",
            "table": "table step",
            "ai": "AI policy's answer",
        }[move.how]
        raise AssertionError(
            f"seat {move.seat}'s {what} {move.action!r} was refused: {refusal}"
        ) from refusal


def playout(
    spec: GameSpec,
    seats: int,
    seed: int,
    max_steps: int,
    *,
    audit: bool,
    policy: Policy | None = None,
    met: set[tuple] | None = None,
) -> list[Step]:
    """One match of random play (the same for a seed), audited at every step or not; `met`
    gathers what it meets (`meets`)."""
    chooser = random.Random(seed)
    state, dealt = spec.open_match(None, starting_stacks(spec, seats, chooser), seed)
    if met is not None:
        met |= events_met(dealt)
    check_capabilities(spec, state)
    auditor = Audit(
        spec,
        Counter(spec.deck_for(seats)),
        state.chip_total(),
        random.Random(f"audit:{seed}"),
        house=state.house_bank(),
        sides=sides_of(spec),
    )
    assert state.house_bank() == 0, f"{spec.id}: the house bank starts at {state.house_bank()}"
    snapshot = state.snapshot() if audit else ""
    events: list[Event] = dealt  # what the last step (at first, the deal) told the table
    steps: list[Step] = []
    seats_taken = 0
    closed_with_a_hold = False  # a table closed while the house holds chips, tried once
    closed_mid_hand = False  # a table closed in a hand that settles nothing, tried once
    while not state.is_over():
        where = f"{spec.id} seed {seed} ({seats} seats) step {len(steps)}"
        assert len(steps) < max_steps, f"{spec.id} seed {seed}: no end after {max_steps} steps"
        if audit:
            facts = Facts.of(state, snapshot)
            pending = facts.pending
            with context(where):
                check_step(auditor, facts, events)
                if state.house_bank() and not closed_with_a_hold:
                    check_cash_out(spec.restore(snapshot), auditor.chips)
                    closed_with_a_hold = True
                if state.can_close_mid_hand() and not closed_mid_hand:
                    check_cash_out(spec.restore(snapshot), auditor.chips)
                    closed_mid_hand = True
        else:
            pending = state.pending()
        with context(where):
            legal = facts.legal if audit else None
            move = choose(state, chooser, pending, legal, policy, seats_taken < SEATS_TAKEN)
        seats_taken += move.action == TAKE_SEAT
        if met is not None:
            met |= meets(state, pending, move)
        if audit and move.how != "table":
            with context(where):
                check_secret_choice(spec, facts, move.seat)
            auditor.saw(move)
        if audit:
            with context(where):
                left, events = perform_checked(state, move)
        else:
            left, events = perform(state, move.seat, move.action)
        if met is not None:
            met |= events_met(events) | ({("a player leaves with chips",)} if left > 0 else set())
        auditor.chips -= left
        snapshot = state.snapshot()
        steps.append(Step(move.seat, move.action, snapshot))
    if audit:
        with context(f"{spec.id} seed {seed} ({seats} seats) at the end"):
            facts = Facts.of(state, snapshot)
            assert facts.pending == [], "a finished game still asks for decisions"
            check_step(auditor, facts, events)
            check_cash_out(state, auditor.chips)
    return steps


def meets(state: GameState, pending: Sequence[Decision], move: Move) -> set[tuple]:
    """What a step shows the audit, told apart as the audit tells it apart: each pending
    decision by its kind and whether it is optional, secret or asked in words; the move by how
    it was chosen (a legal action, a sample, a default, words, the table's: the next hand, a
    player leaving, a window closing) and its action's kind; the pause between hands; the
    house holding chips."""
    found = {
        ("decision", str(d.kind), d.optional, d.secret, d.text_question is not None)
        for d in pending
    }
    found.add(("move", move.how, move.action.kind))
    if state.awaiting_next_hand():
        found.add(("between hands",))
    if state.house_bank():
        found.add(("the house holds chips",))
    return found


def events_met(events: list[Event]) -> set[tuple]:
    """Each event by its type, told to the table or to some seats."""
    return {("event", type(event).__name__, audience(event) is not None) for event in events}


@dataclass(frozen=True)
class Met:
    """What one seed's playout meets (`meets`, and its table size), and its length."""

    things: frozenset[tuple]
    steps: int
    seats: int


def met_by_seed(
    spec: GameSpec, seeds: Iterable[int], options: dict | None = None
) -> dict[int, Met]:
    """What check_game's playout of each of `seeds` meets, played without the audit: a few
    percent of check_game's time."""
    spec = with_options(spec, options)
    found = {}
    for seed in seeds:
        seats = seats_for(spec, seed)
        met: set[tuple] = {("seats", seats)}
        steps = playout(spec, seats, seed, 5000, audit=False, met=met)
        found[seed] = Met(frozenset(met), len(steps), seats)
    return found


def times_needed(thing: tuple) -> int:
    """How often the audited seeds must meet something the reference seeds meet (as often as
    these meet it, if less): each table size once, everything else twice."""
    return 1 if thing[0] == "seats" else 2


def cheap_cover(candidates: dict[int, Met], needed: dict[tuple, int]) -> list[int]:
    """Seeds among `candidates` that meet each thing in `needed` as many times as it says, at
    little cost (a playout's audit costs about its steps times the views it checks): a
    greedy pick, then the costliest seed dropped wherever the rest still cover."""

    def cost(seed: int) -> int:
        return (candidates[seed].steps + 20) * (candidates[seed].seats + 2)

    def short(chosen: list[int]) -> Counter:
        met = Counter(thing for seed in chosen for thing in candidates[seed].things)
        return Counter({thing: times - met[thing] for thing, times in needed.items()}) + Counter()

    chosen: list[int] = []
    while missing := short(chosen):
        gains = {
            seed: sum(thing in missing for thing in met.things) / cost(seed)
            for seed, met in candidates.items()
            if seed not in chosen
        }
        chosen.append(max(gains, key=gains.__getitem__))
    for seed in sorted(chosen, key=cost, reverse=True):
        if not short([other for other in chosen if other != seed]):
            chosen.remove(seed)
    return sorted(chosen)


def check_cash_out(state: GameState, chips: int) -> None:
    """Closing the table (`chips` in the game) pays the players everything but the house's
    bank, which stays for the runtime to give back to the house."""
    bank = state.house_bank()
    payouts = state.cash_out()
    owed = chips - bank
    assert min(payouts, default=0) >= 0, f"a negative payout: {payouts}"
    assert sum(payouts) == owed, (
        f"the cash-out paid {sum(payouts)} chips, not the players' {owed} "
        "(the house's bank stays for the house)"
    )
    assert state.house_bank() == bank, "cashing out moved the house's chips"
    assert state.chip_total() == bank, "chips stayed in the game after cashing out"


@contextmanager
def context(where: str) -> Iterator[None]:
    """Prefix a failed check's message with where it failed."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{where}: {error}") from error


def check_step(audit: Audit, facts: Facts, events: list[Event]) -> None:
    """Every check of one state, given the events of the step that led to it."""
    follow_house_cover(audit, facts.state, events)
    twin = check_state(audit, facts)
    hidden, public_strings = check_views(audit, facts.state)
    told = check_events(audit, hidden, events)
    check_public_cards(audit, hidden[None], public_strings | told)
    check_results(audit, facts.state, events)
    check_optional_secrecy(audit, facts, hidden)
    samples = check_offers(audit, facts, twin)
    check_refusals(audit, facts, twin, hidden, samples)


def follow_house_cover(audit: Audit, state: GameState, events: list[Event]) -> None:
    """A house that covers each hand brings chips from its balance to its bank (the win of a
    bet) and takes them back (when the hand ends): what its bank changed by beyond the hands'
    `house_chips` entered or left the game's chips. Between hands it holds nothing."""
    if audit.spec.house_cover is None:
        return
    reported = sum(event.house_chips for event in events if isinstance(event, HandEnded))
    brought = state.house_bank() - audit.house - reported
    audit.chips += brought
    audit.house += brought
    if state.awaiting_next_hand() or state.is_over():
        assert state.house_bank() == 0, f"the house holds {state.house_bank()} between hands"


def check_capabilities(spec: GameSpec, state: GameState) -> None:
    """A game that uses a capability opts into it (protocol.py): its state derives from the
    capability's class, which names what it writes. The rest is checked step by step."""
    assert state.listable or isinstance(state, UnlistedActions), (
        "a game that can't list its actions derives from UnlistedActions"
    )
    assert not spec.house or isinstance(state, HouseBanked), "a house game is HouseBanked"


def check_state(audit: Audit, facts: Facts) -> GameState:
    """Cards and chips kept, sound decisions, and a snapshot that restores to an equal state
    (returned; check_refusals ends the round trip by snapshotting it again)."""
    state = facts.state
    # dict equality: Counter's own == is slow, and neither side holds a zero count
    assert dict.__eq__(Counter(state.all_cards()), audit.deck), "cards were lost or duplicated"
    assert state.chip_total() == audit.chips, (
        f"chips changed: {audit.chips} -> {state.chip_total()}"
    )
    assert state.house_bank() >= 0, f"the house bank is negative: {state.house_bank()}"
    window = state.window_seconds()
    assert window is None or (isinstance(window, int) and window > 0), (
        f"a window must last a positive number of seconds, not {window!r}"
    )
    assert window is None or isinstance(state, Windows), "a game with windows is Windows"
    assert not state.awaiting_next_hand() or isinstance(state, HandByHand), (
        "a game that pauses between hands is HandByHand"
    )
    restored = audit.spec.restore(facts.snapshot)
    assert restored == state, "snapshot mismatch: the restored state differs"
    for decision in facts.pending:
        legal = facts.legal[decision.seat]
        assert legal, f"seat {decision.seat} is pending with no legal action"
        assert isinstance(decision.kind, DecisionKind), (
            f"the decision kind {decision.kind!r} is no member of the game's DecisionKind"
        )
        assert decision.text_question is None or isinstance(state, TextAnswers), (
            "a game whose decisions are answered in words is TextAnswers"
        )
        audit.optional_seen |= decision.optional
        # Optional choices never time out; a game that can't list its actions has its
        # default judged by `verify` (check_offers).
        if not decision.optional and state.listable:
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


def check_events(audit: Audit, hidden: dict[Viewer, set], events: list[Event]) -> set[str]:
    """An event names no card hidden, once the step is over, from anyone it is told to: the
    public, or a private event's seats. (An event that reveals a card makes it public: the
    game must stop hiding it, and keep showing it until its next step.) Returns every string
    the public events hold."""
    told: set[str] = set()
    for event in events:
        strings = strings_of(event)
        seats = audience(event)
        if seats is None:
            named = audit.named(hidden[None], strings)
            assert not named, f"a public event names hidden cards {named}: {event!r}"
            told |= strings
            continue
        assert seats and all(seat in hidden and seat is not None for seat in seats), (
            f"a private event's audience must name seats of the table: {event!r}"
        )
        for seat in seats:
            named = audit.named(hidden[seat], strings)
            assert not named, (
                f"a private event for seat {seat} names cards hidden from it {named}: {event!r}"
            )
    return told


def check_public_cards(audit: Audit, public_hidden: set, shown: set[str]) -> None:
    """Every card the public was never shown is hidden from it: a card in no public view, and
    in no public view or public event since it was last hidden, is in `hidden_from(None)`.
    Views and events hold cards as their codes, so a card is shown where its code is one of
    their strings (`shown`: the public view's and the step's public events'). (check_state
    made sure the cards are the deck's.)"""
    audit.public = (audit.public | audit.cards_in(shown)) - public_hidden
    unseen = audit.cards - audit.public - public_hidden
    assert not unseen, (
        f"cards {sorted(map(str, unseen))} are in no public view or event, "
        "yet not hidden from the public"
    )


def check_results(audit: Audit, state: GameState, events: list[Event]) -> None:
    """Results the runtime records add up: the house's report (`house_chips`) follows its
    bank, standings place every seat, and partners share every result."""
    sides = audit.sides
    for event in events:
        if isinstance(event, HandEnded):
            audit.house += event.house_chips
            players = set(event.players)
            for winner in event.winners if sides else ():
                side = {seat for seat in players if seat % sides == winner % sides}
                assert side <= set(event.winners), (
                    f"hand {event.hand}'s winners {event.winners} are not whole sides: "
                    f"seat {winner}'s partners are {sorted(side - {winner})}"
                )
        elif isinstance(event, MatchEnded):
            check_standings(audit, state.seat_count, event, "the match's")
    standings = state.final_standings()
    if standings is not None:
        check_standings(audit, state.seat_count, standings, "final_standings()")
    bank = state.house_bank()
    assert bank == audit.house, (
        f"the hands' house_chips take the house bank to {audit.house}, but it holds {bank}: "
        "the house's report would not match its chips"
    )


def check_standings(audit: Audit, seats: int, ended: MatchEnded, whose: str) -> None:
    placings, scores = ended.placings, ended.scores
    assert len(placings) == seats and all(1 <= place <= seats for place in placings), (
        f"{whose} placings {placings} do not place each of the {seats} seats"
    )
    assert scores is None or len(scores) == seats, f"{whose} scores {scores} are not per seat"
    if not audit.sides:
        return
    for seat in range(audit.sides, seats):
        partner = seat % audit.sides
        assert placings[seat] == placings[partner], (
            f"{whose} placings {placings} differ between partners {partner} and {seat}"
        )
        assert scores is None or scores[seat] == scores[partner], (
            f"{whose} scores {scores} differ between partners {partner} and {seat}"
        )


def optional_holders(pending: Sequence[Decision], viewer: Viewer) -> set[int]:
    return {d.seat for d in pending if d.optional and d.seat != viewer}


def check_optional_secrecy(audit: Audit, facts: Facts, hidden: dict[Viewer, set]) -> None:
    """Nobody is shown who else holds an optional decision. The cards hidden from a viewer
    (the public, and a random seat) are permuted among their places: what the viewer knows
    is unchanged, so its view must be too (and the window's length) wherever that changes
    who else holds an optional decision. Runs once the playout has seen one."""
    if not audit.optional_seen:
        return
    state = facts.state
    for viewer in (None, audit.chooser.randrange(state.seat_count)):
        other = dealt_again(audit, facts.snapshot, hidden[viewer])
        if other is None:
            continue
        holders = optional_holders(facts.pending, viewer)
        try:
            others = optional_holders(other.pending(), viewer)
            view = other.view(viewer).model_dump_json() if holders != others else ""
        except Exception:  # a deal the game's rules can't reach; nothing to compare
            continue
        if holders == others:
            continue
        who = "the public view" if viewer is None else f"seat {viewer}'s view"
        assert view == state.view(viewer).model_dump_json(), (
            f"{who} shows who holds optional decisions: it changes when their holders change "
            f"from {sorted(holders)} to {sorted(others)} with nothing else it may know"
        )
        if viewer is None:
            assert other.window_seconds() == state.window_seconds(), (
                "the window's length shows who holds optional decisions: "
                f"{state.window_seconds()} with {sorted(holders)}, "
                f"{other.window_seconds()} with {sorted(others)}"
            )


def dealt_again(audit: Audit, snapshot: str, cards: set[Hashable]) -> GameState | None:
    """The state with `cards` permuted among their places (by code, in the snapshot), or None
    when they can't be (fewer than two, or a state the game's model refuses)."""
    ordered = sorted(cards, key=str)
    if len(ordered) < 2:
        return None
    mixed = audit.chooser.sample(ordered, len(ordered))
    mapping = {str(card): str(into) for card, into in zip(ordered, mixed, strict=True)}
    # Every JSON string (the odd parts of the split) mapped, joined back with the quotes the
    # split took away: as a `sub` calling back for each string, in half its time.
    parts = JSON_STRING.split(snapshot)
    parts[1::2] = [mapping.get(string, string) for string in parts[1::2]]
    text = '"'.join(parts)
    try:
        return audit.spec.restore(text)
    except ValueError:  # pydantic's ValidationError: an invariant the permutation broke
        return None


def check_secret_choice(spec: GameSpec, facts: Facts, seat: int) -> None:
    """While several seats choose in secret, what the one about to choose picks shows nowhere
    else: each of its choices leaves the same views to the others and the same events.
    (Every secret choice of the playout is checked when it is made.)"""
    state = facts.state
    decision = next(decision for decision in facts.pending if decision.seat == seat)
    required = [decision for decision in facts.pending if not decision.optional]
    if len(required) < 2 or not decision.secret:
        return
    others = [viewer for viewer in [None, *range(state.seat_count)] if viewer != seat]
    outcomes = set()
    for action in facts.legal[seat]:
        trial = spec.restore(facts.snapshot)
        events = trial.apply(seat, action)
        seen = [trial.view(viewer).model_dump_json() for viewer in others]
        outcomes.add((tuple(seen), tuple(event.model_dump_json() for event in events)))
    assert len(outcomes) == 1, f"seat {seat}'s secret choice shows to others"


# A JSON string's contents: runs of plain characters between escapes (the same strings as
# `"((?:[^"\\]|\\.)*)"`, found in half its time).
JSON_STRING = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"')


def strings_of(model: BaseModel) -> set[str]:
    """Every string (keys too) in the model's JSON, as written there: exact for a card code,
    which holds no character JSON escapes."""
    return set(JSON_STRING.findall(model.model_dump_json()))


def check_offers(audit: Audit, facts: Facts, twin: GameState) -> dict[int, Action]:
    """What the game offers a pending seat, it accepts: answers in words (`text_action`)
    become actions `verify` accepts or are refused with a reason; a game that can't list its
    actions (or samples its own way) has its suggestions, a fresh sample and a required
    seat's default accepted by `verify`. Tried on `twin`, which must not change. Returns the
    samples drawn, by seat."""
    state = twin
    samples: dict[int, Action] = {}
    checked = False
    for decision in facts.pending:
        seat = decision.seat
        if decision.text_question is not None:
            check_text_answers(audit, state, seat)
            checked = True
        if not uses_sample(state):
            continue
        checked = True
        offered: list[tuple[str, Action]] = []
        if not state.listable:
            offered += [("suggestion", action) for action in facts.legal[seat]]
            offered += [("suggestion", action) for action in state.suggestions(seat, SUGGESTIONS)]
            if not decision.optional:
                offered.append(("default action", state.default_action(seat)))
        samples[seat] = state.sample(seat, audit.chooser)
        offered.append(("sampled action", samples[seat]))
        for what, action in offered:
            if state.listable:  # a listable game's own sample: one of its legal actions
                assert state.canonical(seat, action) in facts.legal[seat], (
                    f"seat {seat}'s {what} {action!r} is not legal"
                )
                continue
            try:
                state.verify(seat, action)
            except IllegalAction as refusal:
                raise AssertionError(
                    f"seat {seat}'s {what} {action!r} is refused: {refusal}"
                ) from refusal
    if checked and state.snapshot() != facts.snapshot:
        raise AssertionError(
            "sampling, suggesting, reading answers or verifying what they gave changed the state"
        )
    return samples


def check_text_answers(audit: Audit, state: GameState, seat: int) -> None:
    """A few odd answers, and one random one, to `seat`'s free-text question: each becomes an
    action `verify` accepts, or is refused with IllegalAction and a reason."""
    letters = string.ascii_letters + "  "
    scrawl = "".join(audit.chooser.choice(letters) for _ in range(audit.chooser.randint(0, 30)))
    for text in [*audit.chooser.sample(ODD_TEXTS, 3), scrawl]:
        try:
            action = state.text_action(seat, text)
        except IllegalAction as refusal:
            assert str(refusal), f"refusing the answer {text!r} must say why"
            continue
        except Exception as crash:
            raise AssertionError(f"seat {seat}'s answer {text!r} crashed: {crash!r}") from crash
        try:
            state.verify(seat, action)
        except IllegalAction as refusal:
            raise AssertionError(
                f"seat {seat}'s answer {text!r} became {action!r}, which verify refuses: {refusal}"
            ) from refusal


def check_refusals(
    audit: Audit,
    facts: Facts,
    twin: GameState,
    hidden: dict[Viewer, set],
    samples: dict[int, Action],
) -> None:
    """Actions from the wrong seat, or not legal now, are refused and change nothing.

    Each seat not pending tries one of every pending seat's legal actions (a random one) and
    one action seen earlier in the playout; each pending seat tries `REFUSALS_PER_SEAT` seen
    actions that are not legal for it now (other than answers in words, for a seat asked in
    words), or, in a game that can't list its actions, offered or seen actions holding a card
    hidden from it. (Across a playout's steps that covers far more.)
    They are tried on `twin`, the state restored from the snapshot (equal to the state, so
    deciding alike), whose snapshot must then be the original byte for byte: that both ends
    the snapshot round trip and shows that the refusals changed nothing.
    """
    state, legal = twin, facts.legal
    pending = facts.pending_seats
    in_words = {d.seat for d in facts.pending if d.text_question is not None}
    attempts: list[tuple[int, Action]] = []
    for seat in range(state.seat_count):
        if seat in pending and not state.listable:
            offered = [*legal[seat], *([samples[seat]] if seat in samples else [])]
            attempts += unseen_card_actions(audit, seat, offered, hidden[seat])
        elif seat in pending:
            skip = audit.from_text if seat in in_words else set()
            attempts += [
                (seat, action) for action in not_legal(audit, state, seat, legal[seat], skip)
            ]
        else:
            assert legal[seat] == [], f"seat {seat} has legal actions while not pending"
            attempts += [(seat, audit.chooser.choice(legal[other])) for other in pending]
            attempts.append((seat, audit.chooser.choice(audit.seen)))
    for tried, (seat, action) in enumerate(attempts):
        try:
            state.apply(seat, action)
        except IllegalAction as refusal:
            assert str(refusal), "a refusal must say why"
        except Exception as crash:  # verify let it through, and the game broke carrying it out
            blame_a_change(audit.spec, facts.snapshot, attempts[:tried])
            if not audit.spec.restore(facts.snapshot).can(seat, action):
                raise
            raise AssertionError(
                f"seat {seat} was allowed {action!r} (and the game then raised {crash!r})"
            ) from crash
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


def not_legal(
    audit: Audit, state: GameState, seat: int, legal: list[Action], skip: set[str]
) -> list[Action]:
    """Up to `REFUSALS_PER_SEAT` random actions seen in the playout that `seat` may not take
    now (compared in the form `legal_actions` lists), other than those in `skip` (answers in
    words: `legal_actions` lists one for them all)."""
    found: list[Action] = []
    for index in audit.chooser.sample(range(len(audit.seen)), min(len(audit.seen), 12)):
        action = audit.seen[index]
        if skip and action.model_dump_json() in skip:
            continue
        if state.canonical(seat, action) not in legal:
            found.append(action)
            if len(found) == REFUSALS_PER_SEAT:
                break
    return found


def unseen_card_actions(
    audit: Audit, seat: int, offered: list[Action], unseen: set[Hashable]
) -> list[tuple[int, Action]]:
    """For a game that can't list its actions: up to `REFUSALS_PER_SEAT` actions `seat`
    certainly may not take, offered ones (suggestions, a sample) or seen ones with one card
    swapped for a card hidden from the seat, which it can't hold. None once the game has
    offered an action naming a card the seat can't see (asking for a card, playing blind)."""
    if audit.names_unseen or not unseen:
        return []
    if any(set(cards_of(audit, action)) & unseen for action in offered):
        audit.names_unseen = True
        return []
    seen = audit.chooser.sample(audit.seen, min(len(audit.seen), REFUSALS_PER_SEAT))
    sources = [action for action in [*offered, *seen] if cards_of(audit, action)]
    choices = sorted(unseen, key=str)
    return [
        (seat, swap_a_card(audit, action, audit.chooser.choice(choices)))
        for action in audit.chooser.sample(sources, min(len(sources), REFUSALS_PER_SEAT))
    ]


def cards_of(audit: Audit, value: Any) -> list[Hashable]:
    """Every card in an action (in its fields, lists, tuples, sets and dicts), in order."""
    if isinstance(value, audit.card_types):
        return [value]
    if isinstance(value, BaseModel):
        return [
            card
            for name in type(value).model_fields
            for card in cards_of(audit, getattr(value, name))
        ]
    if isinstance(value, dict):
        return [card for pair in value.items() for item in pair for card in cards_of(audit, item)]
    if isinstance(value, set | frozenset):
        value = sorted(value, key=str)
    if isinstance(value, list | tuple):
        return [card for item in value for card in cards_of(audit, item)]
    return []


def swap_a_card(audit: Audit, action: Action, card: Hashable) -> Action:
    """`action` with one of its cards (a random one) replaced by `card`."""
    target = audit.chooser.randrange(len(cards_of(audit, action)))
    count = 0

    def rebuild(value: Any) -> Any:
        nonlocal count
        if isinstance(value, audit.card_types):
            count += 1
            return card if count - 1 == target else value
        if isinstance(value, BaseModel):
            fields = {name: rebuild(getattr(value, name)) for name in type(value).model_fields}
            return value.model_copy(update=fields)
        if isinstance(value, dict):
            return {rebuild(key): rebuild(item) for key, item in value.items()}
        if isinstance(value, set | frozenset):
            return type(value)(rebuild(item) for item in sorted(value, key=str))
        if isinstance(value, list | tuple):
            return type(value)(rebuild(item) for item in value)
        return value

    return rebuild(action)


def check_resume(spec: GameSpec, steps: list[Step], at: int) -> None:
    """Restore the snapshot after step `at` and replay the rest: identical snapshots."""
    state = spec.restore(steps[at].snapshot)
    for step in steps[at + 1 :]:
        perform(state, step.seat, step.action)
        assert state.snapshot() == step.snapshot, "a resumed game diverged"


def check_game(
    spec: GameSpec,
    *,
    seeds: int | Sequence[int] = 24,
    max_steps: int = 5000,
    options: dict | None = None,
    policy: Policy | None = None,
) -> None:
    """Audited playouts of `seeds` (the first so many, or those listed), each at the table
    size `seats_for` gives it. `options` replace some of the defaults the game is played with
    (a lower target for a long points game keeps the check quick: every rule is met within
    fewer hands). With an AI `policy`, every seat plays by it, and every one of its answers
    must be legal; only the first seed is replayed then (the policy, most of a replay's cost,
    shows there that it plays the same for the same seed)."""
    spec = with_options(spec, options)
    for index, seed in enumerate(range(seeds) if isinstance(seeds, int) else seeds):
        seats = seats_for(spec, seed)
        steps = playout(spec, seats, seed, max_steps, audit=True, policy=policy)
        assert steps, "a match ended before anyone acted"
        if policy is None or index == 0:
            replay = playout(spec, seats, seed, max_steps, audit=False, policy=policy)
            assert replay == steps, f"seed {seed}: the same seed gave another trajectory"
        check_resume(spec, steps, random.Random(seed).randrange(len(steps)))


def with_options(spec: GameSpec, options: dict | None) -> GameSpec:
    """The game, played with `options` in place of some of its defaults."""
    if not options:
        return spec
    defaults = functools.partial(spec.options_model, **options)
    return spec.model_copy(update={"options_model": defaults})
