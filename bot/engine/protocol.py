"""The protocol every game engine implements (see shared/ARCHITECTURE.md).

A game state is a pydantic model: JSON snapshots, resume and replay come for free. The base
class does the checks every game shares (game over, whose turn, is the action legal) before
handing over to the game's `_apply`, so a refused action never changes the state as long as
the game's own `verify` does not mutate.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import ClassVar, Generic, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, model_validator

from bot.engine.deals import DealSeed
from bot.engine.errors import IllegalAction
from bot.engine.rng import Rng


class Action(BaseModel):
    """Something a seat does. Games subclass with a `Literal` kind and their parameters."""

    model_config = ConfigDict(frozen=True)
    kind: str


class Event(BaseModel):
    """Something that happened, for rendering and the audit log. An event with an `audience`
    is private: only those seats see it (a card drawn, a card handed over); the presenter
    shows it in their DM / My hand and never in the channel."""

    model_config = ConfigDict(frozen=True)
    kind: str
    audience: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        return self.audience is None


class HandStarted(Event):
    """A new deal. Every game emits it (or a subclass with more fields) when cards are dealt:
    the presenter then sends everyone their new hand and forgets lines about the old one."""

    kind: Literal["hand_started"] = "hand_started"
    hand: int


class HandEnded(Event):
    """A hand is over. `net_chips[i]` is seat i's chip change over the hand (sums to what
    left or entered the pot); `scores` are the game's points for the hand, when it has any."""

    kind: Literal["hand_ended"] = "hand_ended"
    hand: int
    players: list[int]  # the seats dealt into the hand
    net_chips: list[int]
    scores: list[int | None] | None = None  # None for a seat that did not show
    winners: list[int] = []
    variant: str | None = None  # recorded with the results, e.g. "daily:2026-11-22"
    # A house-banked game: the house's net over the hand (negative when it paid), for its
    # report; the house takes its chips back with the step that ends the hand.
    house_chips: int = 0


class MatchEnded(Event):
    """The whole game is over. `placings[i]` is seat i's place, 1 = first; ties share a place."""

    kind: Literal["match_ended"] = "match_ended"
    placings: list[int]
    scores: list[int] | None = None  # final match scores, for a points game


class Decision(BaseModel):
    """A seat that must decide now. Several decisions pending at once with `secret=True` are a
    simultaneous secret choice: collected privately, resolved together."""

    model_config = ConfigDict(frozen=True)
    seat: int
    kind: str
    prompt: str
    secret: bool = False
    # An optional (out-of-turn) choice: the seat may act, but play does not wait for it, it
    # has no deadline and no default, and the public table never shows who holds one.
    optional: bool = False
    # An optional choice that lasts only until another seat moves (Last One's "Last one!"):
    # an AI seat holding one takes it at once.
    until_next_move: bool = False
    # Answered in free text (a modal asks this question); the game's `text_action` reads it.
    text_question: str | None = None
    # At least this long to decide, whatever the table's turn time (writing a secret rule
    # takes longer than a yes or a no).
    least_seconds: int = 0


Viewer = int | None  # a seat, or None for the public table


def placings(scores: Sequence[int], *, higher_wins: bool = True) -> list[int]:
    """Place per seat from final scores (1 = first); equal scores share a place."""
    ordered = sorted(scores, reverse=higher_wins)
    return [ordered.index(score) + 1 for score in scores]


class GameState(BaseModel, ABC):
    """Base of every game's state. Subclasses add their fields and implement the hooks."""

    rng: Rng
    seat_count: int
    hand: int = 1

    # ---- what a game implements -------------------------------------------------------

    @abstractmethod
    def pending(self) -> list[Decision]:
        """Seats that must decide now (empty once the match is over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now; empty when it has nothing to decide."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Carry out an action that `verify` accepted."""

    @abstractmethod
    def view(self, viewer: Viewer) -> BaseModel:
        """What `viewer` may see; hidden cards are absent."""

    @abstractmethod
    def default_action(self, seat: int) -> Action:
        """The safe action taken for a seat whose time ran out."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the match has ended."""

    @abstractmethod
    def all_cards(self) -> Sequence[Hashable]:
        """Every card the game owns, wherever it lies (conservation checks)."""

    @abstractmethod
    def hidden_from(self, viewer: Viewer) -> AbstractSet[Hashable]:
        """Cards `viewer` must not see now."""

    def chip_total(self) -> int:
        """Chips inside the game (stacks, pots and the house bank): constant over a match but
        for chips leaving with a leaving player (and those a house that covers each hand
        brings and takes back, see `house_bank`); 0 for chipless games."""
        return 0

    def house_bank(self) -> int:
        """A house-banked game: the chips at the table that are the house's, which it covers
        each hand with (`GameSpec.house_cover`): 0 at the start and between hands. A step that
        raises the bank beyond the hand's `house_chips` (a bet, whose win it holds) brings
        those chips from the house's balance, and a step that lowers it (the hand's end)
        gives them back, each in the step's own transaction (see settlement.house_cover). So
        `chip_total` changes by exactly those chips, and no others. They count in
        `chip_total`; what a table closed mid-hand still holds goes back to the house, and
        `cash_out` leaves it in place."""
        return 0

    def house_cannot_cover(self, reason: str) -> list[Event]:
        """A house that covers each hand can't cover a step that must be taken (a timeout's
        bet): end the match for `reason`, the hand in play void; returns the events."""
        raise NotImplementedError(f"{type(self).__name__} has no house that covers each hand")

    # ---- games played hand after hand at a table ------------------------------------------

    def awaiting_next_hand(self) -> bool:
        """True in the pause after a hand, when players may leave before `next_hand()`."""
        return False

    def next_hand(self) -> list[Event]:
        raise IllegalAction("A hand is still being played.")

    def leave(self, seat: int) -> int:
        """Take `seat` out of the game; returns the chips it takes with it."""
        raise IllegalAction("You can't leave this game now.")

    def can_leave_now(self, seat: int) -> bool:
        """Whether `seat` may leave at once (else it leaves when the hand ends)."""
        return self.awaiting_next_hand() or self.is_over()

    def cash_out(self) -> list[int]:
        """End the game for good; returns every seat's chips (pots shared out), leaving none."""
        return [0] * self.seat_count

    def leave_warning(self, seat: int) -> str | None:
        """What `seat` gives up by leaving now (a carried pot), said before they confirm."""
        return None

    def closing_choice(self, seat: int) -> Action | None:
        """A table closed mid-hand finishes the hand at once, every turn played for its seat,
        and nobody can act any more: an optional choice the table makes for `seat` before
        the next turn, one that only spares it a penalty (Last One's "Last one!"). None:
        nothing is owed."""
        return None

    def final_standings(self) -> MatchEnded | None:
        """Placings (and scores) when the match is cut short (a points game closed, or whose
        players left), by the game's own ranking; None lets the table rank its players by the
        chips they won."""
        return None

    # ---- shared behaviour -------------------------------------------------------------

    def canonical(self, seat: int, action: Action) -> Action:
        """The form of `action` that `legal_actions` lists. Games where different cards make
        the same move (Dou Dizhu ignores suits) map a play to the one they list."""
        return action

    def pending_seats(self) -> list[int]:
        """Every seat that may act now, optional choices included."""
        return [decision.seat for decision in self.pending()]

    def required_seats(self) -> list[int]:
        """The seats play is waiting for: they time out and get the default."""
        return [decision.seat for decision in self.pending() if not decision.optional]

    def text_action(self, seat: int, text: str) -> Action:
        """The action a free-text answer stands for; IllegalAction says what's wrong with it."""
        raise IllegalAction("This decision isn't answered in words.")

    # ---- windows: play waits a fixed time for optional choices -----------------------------

    def window_seconds(self) -> int | None:
        """While play waits for optional choices only (a melee anyone holding the next card
        may continue), how long it waits; the window then closes by `close_window`. A window
        lasts its full time whoever holds a choice, so its length reveals nothing."""
        return None

    def close_window(self) -> list[Event]:
        raise IllegalAction("Nothing is waiting to close.")

    # ---- action spaces too large to list --------------------------------------------------------

    # False for games whose actions can't all be listed (Crash's arrangements, Turup's
    # captures): legal_actions then gives suggestions only, and `verify` judges any action.
    listable: ClassVar[bool] = True

    def sample(self, seat: int, chooser: random.Random) -> Action:
        """A random legal action for `seat` (the conformance test's and AI seats' move)."""
        return chooser.choice(self.legal_actions(seat))

    def suggestions(self, seat: int, limit: int) -> list[Action]:
        """A short list of good actions for the UI (at most `limit`)."""
        return self.legal_actions(seat)[:limit]

    def verify(self, seat: int, action: Action) -> None:
        """Raise IllegalAction with a player-facing reason unless `action` is allowed.

        Games with better reasons (say "does not beat 7-7") override and call super last.
        """
        if self.is_over():
            raise IllegalAction("This game is over.")
        if seat not in self.pending_seats():
            raise IllegalAction("It is not your turn to act.")
        if action not in self.legal_actions(seat):
            raise IllegalAction("That move is not allowed right now.")

    def can(self, seat: int, action: Action) -> bool:
        try:
            self.verify(seat, action)
        except IllegalAction:
            return False
        return True

    def apply(self, seat: int, action: Action) -> list[Event]:
        self.verify(seat, action)
        return self._apply(seat, action)

    def snapshot(self) -> str:
        return self.model_dump_json()


class Policy(ABC):
    """A game's AI player: pure and seeded, it sees only what its seat sees (bot/games/ai.py
    asks it and checks its answer)."""

    game_id: ClassVar[str]

    @abstractmethod
    def choose(
        self,
        seat: int,
        view: BaseModel,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        """The seat's move (None: let an optional choice go)."""


@dataclass(frozen=True)
class HandMove:
    """A step of a replayed hand, as a game's hand-history writer reads it: the state before
    it, who acted (None: the table), what, and the events it told."""

    before: GameState
    seat: int | None
    action: Action | None
    events: Sequence[Event]


@dataclass(frozen=True)
class HandHistoryFormat:
    """A game's own hand-history file (Lowball's Poker Hand History), for a member to export."""

    name: str  # what the file is, as a member is told: "Poker Hand History"
    suffix: str  # the file's extension
    # (the state just after the deal, the moves, the names by seat, the viewer, the hand's
    # number) -> the file's text, with only what `viewer` saw.
    write: Callable[[GameState, Sequence[HandMove], Sequence[str], Viewer, int], str]


OptionsT = TypeVar("OptionsT", bound=BaseModel)
Cards = Sequence[Hashable]


class GameSpec(BaseModel, Generic[OptionsT]):
    """What the registry knows about a game: its rules, its AI and where it is presented.
    Typed by the game's options model, which the spec's functions of the options take."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    id: str
    name: str
    min_players: int
    max_players: int
    options_model: type[OptionsT]
    state_model: type[GameState]
    actions: TypeAdapter[Action]  # reads a stored action back (the union of the game's actions)
    # Every card a table uses: `deck()`, or `deck_by_seats(seats)` for a game dealt a pack
    # per so many players. A spec has one of the two.
    deck: Callable[[], Cards] | None = None
    deck_by_seats: Callable[[int], Cards] | None = None
    # (options, stacks, rng) -> the state, or (the state, the first deal's events).
    create: Callable[[OptionsT, list[int], Rng], GameState | tuple[GameState, list[Event]]]
    # Plays for chips (buy-in, stacks): True, or (options) -> bool for a game with a mode
    # that doesn't (Backhand's wins-only mode).
    uses_chips: bool | Callable[[OptionsT], bool] = False
    solo: bool = False  # a personal game: no lobby, several may run in one channel
    house: bool = False  # players play against the guild's house, which pays and collects
    # A house game covers each hand from the house's balance as its bets are made (see
    # GameState.house_bank): (options) -> the most it covers for one player (0 when the table
    # plays no chips). A table opens only if the house has that.
    house_cover: Callable[[OptionsT], int] | None = None
    # (options) -> the smallest buy-in that can play at all (Backhand: the minimum bet).
    least_buy_in: Callable[[OptionsT], int] | None = None
    # The game's own default time per decision (Delphi's quick yes/no), else the bot's.
    turn_seconds: int | None = None
    # Partnerships: how many sides (0: everyone plays alone), or (options) -> how many. Seats
    # alternate sides, so partners sit across: seat i plays on side i % sides.
    sides: int | Callable[[OptionsT], int] = 0
    # Every hand is one player against the others together (a landlord, a declarer): the
    # seats sharing a hand's result are one team when it is rated.
    one_against_the_others: bool = False
    ai: Policy | None = None  # plays AI seats; a game without one has none
    # (options) -> where the deal comes from when it isn't the table's seed, in a sentence
    # (Soliterrapin's daily deck: the date); None, or no function: from the seed.
    deal_from: Callable[[OptionsT], str | None] | None = None
    hand_history: HandHistoryFormat | None = None  # a file format of its own for a hand
    # The extension that presents the game on Discord (a module under cogs/, whose setup
    # registers its UI with the presenter): the bot loads it for every registered game.
    cog: str | None = None

    @model_validator(mode="after")
    def one_deck(self) -> Self:
        if (self.deck is None) == (self.deck_by_seats is None):
            raise ValueError(f"{self.id}: give either deck or deck_by_seats")
        return self

    def chips_for(self, options: OptionsT) -> bool:
        return self.uses_chips(options) if callable(self.uses_chips) else self.uses_chips

    def cover_for(self, options: OptionsT) -> int:
        """The most a house that covers each hand covers for one player (else 0)."""
        return self.house_cover(options) if self.house_cover else 0

    def unseeded_deal(self, options: OptionsT) -> str | None:
        """Where the deal comes from when not from the table's seed (see `deal_from`)."""
        return self.deal_from(options) if self.deal_from else None

    def sides_for(self, options: OptionsT) -> int:
        return self.sides(options) if callable(self.sides) else self.sides

    def deck_for(self, seats: int) -> Cards:
        """Every card a table of `seats` players uses."""
        if self.deck_by_seats is not None:
            return self.deck_by_seats(seats)
        assert self.deck is not None  # one_deck: a spec has one of the two
        return self.deck()

    def new_match(
        self,
        options: OptionsT | None,
        stacks: Sequence[int],
        seed: int | DealSeed,
        stacked: list[list[str]] | None = None,
    ) -> GameState:
        """Start a match for len(stacks) seats with those table stacks. `stacked` decks (card
        codes, tests only) come first out of the next shuffles that hold them (see Rng)."""
        return self.open_match(options, stacks, seed, stacked)[0]

    def open_match(
        self,
        options: OptionsT | None,
        stacks: Sequence[int],
        seed: int | DealSeed,
        stacked: list[list[str]] | None = None,
    ) -> tuple[GameState, list[Event]]:
        """`new_match`, with the events of the first deal for the table to show. A game's
        `create` returns its state, or (state, the first deal's events)."""
        if not self.min_players <= len(stacks) <= self.max_players:
            raise ValueError(
                f"{self.name} needs {self.min_players}-{self.max_players} players, "
                f"not {len(stacks)}"
            )
        rng = Rng.starting(seed, stacked)  # a DealSeed: keyed deals (bot/engine/deals.py)
        made = self.create(options or self.options_model(), list(stacks), rng)
        return made if isinstance(made, tuple) else (made, [])

    def restore(self, snapshot: str) -> GameState:
        return self.state_model.model_validate_json(snapshot)
