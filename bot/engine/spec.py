"""What the registry knows about a game (`GameSpec`), and a game's own hand-history file format.
The protocol a game's state implements is bot/engine/protocol.py."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, model_validator

from bot.engine.deals import DealSeed
from bot.engine.protocol import Action, Event, GameState, Policy, Viewer
from bot.engine.rng import Rng


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
    # A house game covers each hand from the house's balance as its bets are made (its state is
    # `HouseBanked`): (options) -> the most it covers for one player (0 when the table
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
    # Plays AI seats (a `Policy` of the game's view); a game without one has none.
    ai: Policy[Any] | None = None
    # The Expert AI searches sampled worlds (bot/games/expert.py): only where everything
    # hidden from a seat is cards, which a world deals again. Else Expert plays as Standard.
    searches: bool = False
    # (options) -> where the deal comes from when it isn't the table's seed, in a sentence
    # (Soliterrapin's daily deck: the date); None, or no function: from the seed.
    deal_from: Callable[[OptionsT], str | None] | None = None
    hand_history: HandHistoryFormat | None = None  # a file format of its own for a hand

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
