"""The protocol every game engine implements (docs/architecture.md, "The rules of the house").

A game state is a pydantic model: JSON snapshots, resume and replay come for free. Read on in
this order:

- what a game tells and is told: `Action`, `Event` (with the events every game emits) and
  `Decision`, whose `kind` is a member of the game's own `DecisionKind`;
- `GameState`, the core: the eight methods every game writes, what the base does with them
  (it checks an action before the game's `_apply`, so a refused action never changes the state
  as long as the game's own `verify` does not mutate), the hooks a game may refine, and each
  capability's answer for a game without it (the runtime asks every state);
- the capabilities some games opt into, each a class naming what such a game writes:
  `HandByHand`, `HouseBanked`, `Windows`, `UnlistedActions`, `TextAnswers`;
- `Policy`, a game's AI, generic over the game's view.

What the registry knows about a game (`GameSpec`) is in bot/engine/spec.py.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from collections.abc import Set as AbstractSet
from enum import StrEnum
from typing import ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, SkipValidation

from bot.engine.errors import IllegalAction
from bot.engine.rng import Rng
from bot.i18n import _


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


class DecisionKind(StrEnum):
    """What a decision asks. A game declares its kinds as a subclass, `class LowballKind(
    DecisionKind): DRAW = "draw"`, builds its decisions with them and compares `Decision.kind`
    with them; a member equals its string ("draw"), which the UI and the logs see."""


class Decision(BaseModel):
    """A seat that must decide now. Several decisions pending at once with `secret=True` are a
    simultaneous secret choice: collected privately, resolved together."""

    model_config = ConfigDict(frozen=True)
    seat: int
    # A member of the game's DecisionKind. Made by the game's own code and never read from
    # outside, so not validated: `pending` runs for every view and click.
    kind: SkipValidation[DecisionKind]
    prompt: str
    secret: bool = False
    # An optional (out-of-turn) choice: the seat may act, but play does not wait for it, it
    # has no deadline and no default, and the public table never shows who holds one.
    optional: bool = False
    # An optional choice that lasts only until another seat moves (Last One's "Last one!"):
    # an AI seat holding one takes it at once.
    until_next_move: bool = False
    # Answered in free text (a modal asks this question): the game is `TextAnswers`.
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
    """Base of every game's state: the core every game writes, then what the base does with
    it, the hooks a game may refine, and the answers of a game without each capability."""

    rng: Rng
    seat_count: int
    hand: int = 1

    # ==== the core: what every game writes ====================================================

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

    # ==== what the base does with the core ====================================================

    def verify(self, seat: int, action: Action) -> None:
        """Raise IllegalAction with a player-facing reason unless `action` is allowed.

        Games with better reasons (say "does not beat 7-7") override and call super last.
        """
        if self.is_over():
            raise IllegalAction(_("This game is over."))
        if seat not in self.pending_seats():
            raise IllegalAction(_("It is not your turn to act."))
        if action not in self.legal_actions(seat):
            raise IllegalAction(_("That move is not allowed right now."))

    def can(self, seat: int, action: Action) -> bool:
        try:
            self.verify(seat, action)
        except IllegalAction:
            return False
        return True

    def apply(self, seat: int, action: Action) -> list[Event]:
        self.verify(seat, action)
        return self._apply(seat, action)

    def pending_seats(self) -> list[int]:
        """Every seat that may act now, optional choices included."""
        return [decision.seat for decision in self.pending()]

    def required_seats(self) -> list[int]:
        """The seats play is waiting for: they time out and get the default."""
        return [decision.seat for decision in self.pending() if not decision.optional]

    def snapshot(self) -> str:
        return self.model_dump_json()

    # ==== hooks with a default that fits most games ===========================================

    def canonical(self, seat: int, action: Action) -> Action:
        """The form of `action` that `legal_actions` lists. Games where different cards make
        the same move (Dou Dizhu ignores suits) map a play to the one they list."""
        return action

    def sample(self, seat: int, chooser: random.Random) -> Action:
        """A random legal action for `seat` (the conformance test's and AI seats' move)."""
        return chooser.choice(self.legal_actions(seat))

    def chip_total(self) -> int:
        """Chips inside the game (stacks, pots and a house's bank, see `HouseBanked`):
        constant over a match but for chips leaving with a leaving player; 0 for chipless
        games."""
        return 0

    def leave(self, seat: int) -> int:
        """Take `seat` out of the game; returns the chips it takes with it."""
        raise IllegalAction(_("You can't leave this game now."))

    def can_leave_now(self, seat: int) -> bool:
        """Whether `seat` may leave at once (else it leaves when the hand ends)."""
        return self.awaiting_next_hand() or self.is_over()

    def can_take_seat(self, seat: int) -> bool:
        """Whether a new player may sit in `seat`, which its player has left, with chips of
        their own: in a chip game that plays on without the seat, they are dealt in from the
        next hand. False where the game has no such seat (a points match, one pot a match)."""
        return False

    def take_seat(self, seat: int, chips: int) -> None:
        """A new player sits in the seat left empty (`can_take_seat`) with `chips`."""
        raise IllegalAction(_("Nobody can sit in this seat now."))

    def leave_warning(self, seat: int) -> str | None:
        """What `seat` gives up by leaving now (a carried pot), said before they confirm."""
        return None

    def cash_out(self) -> list[int]:
        """End the game for good; returns every seat's chips (pots shared out), leaving none."""
        return [0] * self.seat_count

    def closing_choice(self, seat: int) -> Action | None:
        """A table closed mid-hand finishes the hand at once, every turn played for its seat,
        and nobody can act any more: an optional choice the table makes for `seat` before
        the next turn, one that only spares it a penalty (Last One's "Last one!"). None:
        nothing is owed."""
        return None

    def names_hidden_card(self, action: Action) -> bool:
        """Whether `action` names a card the public table must not see now (a card given back
        in private, discards face down): a table telling of it says its kind only."""
        hidden, values = self.hidden_from(None), list(vars(action).values())
        while values:
            value = values.pop()
            if isinstance(value, list | tuple):
                values += value
            elif isinstance(value, Hashable) and value in hidden:
                return True
        return False

    def can_close_mid_hand(self) -> bool:
        """Whether a table closed mid-hand may end the match here, the hand unfinished, as
        if closed between hands: nothing the hand would settle is owed yet, and its timeout
        defaults alone would never end it (an auction nobody has bid in deals again and
        again; Liar's claims climb until someone challenges)."""
        return False

    def final_standings(self) -> MatchEnded | None:
        """Placings (and scores) when the match is cut short (a points game closed, or whose
        players left), by the game's own ranking; None lets the table rank its players by the
        chips they won."""
        return None

    # ==== each capability's answer for a game without it (the capabilities are below) =========

    def awaiting_next_hand(self) -> bool:  # HandByHand
        return False

    def next_hand(self) -> list[Event]:  # HandByHand
        raise IllegalAction(_("A hand is still being played."))

    def house_bank(self) -> int:  # HouseBanked
        return 0

    def house_cannot_cover(self, reason: str) -> list[Event]:  # HouseBanked
        raise NotImplementedError(f"{type(self).__name__} has no house that covers each hand")

    def window_seconds(self) -> int | None:  # Windows
        return None

    def close_window(self) -> list[Event]:  # Windows
        raise IllegalAction(_("Nothing is waiting to close."))

    listable: ClassVar[bool] = True  # UnlistedActions: False

    def text_action(self, seat: int, text: str) -> Action:  # TextAnswers
        raise IllegalAction(_("This decision isn't answered in words."))


# ==== capabilities: what some games add =======================================================
# A game opts into a capability by deriving from its class (listed before the base that brings
# the rest of its state) and writes what the class declares abstract.


class HandByHand(GameState):
    """Played hand after hand at a table. After each hand the match pauses: players may leave
    then (`can_leave_now`), and the table deals the next hand by `next_hand()` when the pause
    is over. Such a game emits `HandStarted` at every deal and `HandEnded` at every hand's end.
    bot/games/hands.py's `HandAfterHand` writes it for a game with a `phase`."""

    @abstractmethod
    def awaiting_next_hand(self) -> bool:
        """True in the pause after a hand, when players may leave before `next_hand()`."""

    @abstractmethod
    def next_hand(self) -> list[Event]:
        """Deal the next hand in the pause; returns its events. Outside the pause, the
        game's `super().next_hand()` refuses (IllegalAction)."""
        return super().next_hand()

    @abstractmethod
    def leave(self, seat: int) -> int:
        """Take `seat` out of the game between hands; returns the chips it takes with it."""


class HouseBanked(GameState):
    """Players play against the guild's house (`GameSpec.house`), which covers each hand as its
    bets are made (`GameSpec.house_cover`)."""

    @abstractmethod
    def house_bank(self) -> int:
        """The chips at the table that are the house's, which it covers each hand with: 0 at
        the start and between hands. A step that raises the bank beyond the hand's
        `house_chips` (a bet, whose win it holds) brings those chips from the house's balance,
        and a step that lowers it (the hand's end) gives them back, each in the step's own
        transaction (see settlement.house_cover). So `chip_total` changes by exactly those
        chips, and no others. They count in `chip_total`; what a table closed mid-hand still
        holds goes back to the house, and `cash_out` leaves it in place."""

    @abstractmethod
    def house_cannot_cover(self, reason: str) -> list[Event]:
        """The house can't cover a step that must be taken (a timeout's bet): end the match
        for `reason`, the hand in play void; returns the events."""


class Windows(GameState):
    """Play waits a fixed time for optional choices only (a melee anyone holding the next card
    may continue); the runtime then closes the window."""

    @abstractmethod
    def window_seconds(self) -> int | None:
        """While only optional choices wait, how long play waits for them (else None). A
        window lasts its full time whoever holds a choice, so its length reveals nothing."""

    @abstractmethod
    def close_window(self) -> list[Event]:
        """The window's time ran out: play goes on without the choices; returns the events.
        With no window open, the game's `super().close_window()` refuses (IllegalAction)."""
        return super().close_window()


class UnlistedActions(GameState):
    """Actions too many to list (Crash's arrangements, Turup's captures, a bet of any amount):
    `legal_actions` gives suggestions only, so the game's own `verify` judges any action (the
    base's is "is it listed"), and its `sample` (by default one of the suggestions) may draw
    from all of them."""

    listable: ClassVar[bool] = False

    def suggestions(self, seat: int, limit: int) -> list[Action]:
        """A short list of good actions for the UI (at most `limit`)."""
        return self.legal_actions(seat)[:limit]


class TextAnswers(GameState):
    """Some decisions are answered in free text: a `Decision(text_question=...)`, which a modal
    asks."""

    @abstractmethod
    def text_action(self, seat: int, text: str) -> Action:
        """The action a free-text answer stands for; IllegalAction says what's wrong with it
        (and `text_action` changes nothing)."""


# ==== the AI ==================================================================================

ViewT = TypeVar("ViewT", bound=BaseModel, contravariant=True)


class Policy(ABC, Generic[ViewT]):
    """A game's AI player, typed by the game's view (`Policy[LowballView]`): pure and seeded,
    it sees only what its seat sees (bot/games/ai.py asks it with `state.view(seat)` and checks
    its answer)."""

    game_id: ClassVar[str]
    # Whether `shape_world` deals hidden cards as the others' play implies (the rules say so),
    # rather than only choosing again a secret that is no card.
    deals_as_play_shows: ClassVar[bool] = True
    # How often a Beginner plays a random plausible move instead of this policy's (a game
    # where luck weighs most needs it more often, for a new player to beat it).
    beginner_slips: ClassVar[float] = 0.6
    # Whether its own Expert (`expert_choose`) weighs each bet by its share of the pot against
    # the hands the others' play implies, rather than playing moves out (the rules say so).
    expert_weighs_bets: ClassVar[bool] = False
    # Whether its own Expert plays this policy's rules of thumb with weights of its own, where
    # no search did better (the rules say so).
    expert_reweighs: ClassVar[bool] = False

    @abstractmethod
    def choose(
        self,
        seat: int,
        view: ViewT,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        """The seat's move (None: let an optional choice go)."""

    def ranked(
        self,
        seat: int,
        view: ViewT,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """The seat's moves, the policy's likeliest best first (None: it ranks none). The
        Expert search compares the first few (bot/games/expert.py `candidates_for`)."""
        return None

    def expert_choose(
        self,
        seat: int,
        view: ViewT,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
        seconds: float | None,
    ) -> Action | None:
        """The Expert's move where the policy searches its own way, for a secret that is no
        card (Delphi's rule), within `seconds` (None: its worlds alone bound it). The Expert
        search calls it only where a policy overrides it (bot/games/expert.py `own_expert`)."""
        return self.choose(seat, view, decision, legal, rng)

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """Deal again, within `world` (a state the Expert search imagines: the cards hidden from
        `seat` dealt at random), the hands that the others' play so far makes unlikely (their
        draws, their bets), so that the search plays against the hands that play implies. The
        cards moved stay hidden from `seat`. A policy that has no model of it changes nothing
        (the search then skips it)."""

    def playout_margin(self, world: GameState, seat: int) -> float:
        """What a hand just ended in an Expert's playout (`world`) is worth to `seat` beyond
        its generic value (bot/games/expert.py `hand_value`): where that is only won or lost,
        a little for the margin, well under a win, so that moves tying on wins part by it."""
        return 0.0
