"""The conformance harness catches each kind of broken game: one sabotaged High Card per
property, each of which must fail `check_game` with the matching message; and variants that
bend a rule the right way (a face-down pile that is hidden, a card told privately) pass.
The same for the framework's facilities, with sabotaged framework games
(tests/sabotaged_games.py): decks by seats, a house, windows, optional decisions, large
action spaces, partnerships, free text and private events."""

import random
from typing import Literal

import pytest
from pydantic import PrivateAttr

from bot.cards import FrenchCard
from bot.engine import Action, Event, IllegalAction
from tests.conformance import check_game
from tests.sabotaged_games import BROKEN, SOUND
from tests.tinygame import Stake, Swap, TinyState, TinyView, tiny_spec


class LeaksSeatZeroCard(TinyState):
    def view(self, viewer) -> TinyView:
        view = super().view(viewer)
        if viewer is None:
            view.my_card = self.cards[0]
        return view


class ShowsSecretStakes(TinyState):
    def view(self, viewer) -> TinyView:
        view = super().view(viewer)
        if viewer is None:
            view.my_stake = self.stakes[0] if self.stakes else None
        return view


class MintsAChip(TinyState):
    def showdown(self) -> list[Event]:
        self.pot += 1
        return super().showdown()


class LosesSwappedCards(TinyState):
    def _apply(self, seat: int, action: Action) -> list[Event]:
        events = super()._apply(seat, action)
        if isinstance(action, Swap):
            self.discards.pop()
        return events


class MutatesWhenRefusing(TinyState):
    def verify(self, seat: int, action: Action) -> None:
        self.rng.draws += 1
        super().verify(seat, action)


class UsesGlobalRandom(TinyState):
    def start_hand(self) -> list[Event]:
        events = super().start_hand()
        random.shuffle(self.deck)
        return events


class NeverEnds(TinyState):
    def start_hand(self) -> list[Event]:
        self.hand = 1
        self.stacks = [max(stack, 5) for stack in self.stacks]
        return super().start_hand()

    def chip_total(self) -> int:
        return 0


class KeepsStateOutsideTheSnapshot(TinyState):
    _swaps: int = PrivateAttr(default=0)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Swap):
            self._swaps += 1
        return super()._apply(seat, action)


class IllegalDefault(TinyState):
    def default_action(self, seat: int) -> Action:
        return Stake(chips=2) if self.phase == "stake" else super().default_action(seat)


class ChecksTheMoveButNotTheSeat(TinyState):
    def verify(self, seat: int, action: Action) -> None:
        acting = self.turn if self.phase == "draw" else seat
        if action not in self.legal_actions(acting):
            raise IllegalAction("That move is not allowed right now.")


class BuriesSwappedCards(TinyState):
    """A swapped card goes face down to a pile no view shows, so it is hidden (a sound game)."""

    buried: list[FrenchCard] = []

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events = super()._apply(seat, action)
        if isinstance(action, Swap):
            self.buried.append(self.discards.pop())
        return events

    def start_hand(self) -> list[Event]:
        self.deck, self.buried = self.deck + self.buried, []
        return super().start_hand()

    def all_cards(self) -> list[FrenchCard]:
        return super().all_cards() + self.buried

    def hidden_from(self, viewer) -> set[FrenchCard]:
        return super().hidden_from(viewer) | set(self.buried)


class BuriesSwappedCardsUnhidden(BuriesSwappedCards):
    """...but forgets to say they are hidden: nobody saw them, yet nothing hides them."""

    def hidden_from(self, viewer) -> set[FrenchCard]:
        return TinyState.hidden_from(self, viewer)


class ForgetsTheBottomCard(TinyState):
    def hidden_from(self, viewer) -> set[FrenchCard]:
        return super().hidden_from(viewer) - set(self.deck[:1])


class Swapped(Event):
    kind: Literal["swapped"] = "swapped"
    seat: int
    drew: FrenchCard


class NamesTheDrawnCard(TinyState):
    """Tells the table which card a swap drew, though it goes into a private hand."""

    def told(self, seat: int) -> tuple[int, ...] | None:
        return None  # everyone

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events = super()._apply(seat, action)
        if isinstance(action, Swap):
            events.insert(0, Swapped(seat=seat, drew=self.cards[seat], audience=self.told(seat)))
        return events


class TellsTheDrawPrivately(NamesTheDrawnCard):
    """Tells only the swapper which card they drew (a sound game)."""

    def told(self, seat: int) -> tuple[int, ...] | None:
        return (seat,)


class TellsTheDrawToTheNextSeat(NamesTheDrawnCard):
    def told(self, seat: int) -> tuple[int, ...] | None:
        return ((seat + 1) % self.seat_count,)


class RevealsThenReshuffles(TinyState):
    """Shuffles the cards it has just shown back into the deck as it deals the next hand, so
    they are hidden by the time the table shows the event that names them."""

    def start_hand(self) -> list[Event]:
        self.deck, self.shown = self.deck + self.shown, []
        return super().start_hand()


@pytest.mark.parametrize(
    "sound", [BuriesSwappedCards, TellsTheDrawPrivately], ids=lambda value: value.__name__
)
def test_harness_passes(sound):
    check_game(tiny_spec(sound, game_id=sound.__name__), seeds=8, max_steps=400)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (LeaksSeatZeroCard, "shows hidden cards"),
        (ShowsSecretStakes, "secret choice shows to others"),
        (MintsAChip, "chips changed"),
        (LosesSwappedCards, "cards were lost or duplicated"),
        (MutatesWhenRefusing, "changed the state"),
        (UsesGlobalRandom, "another trajectory|diverged"),
        (NeverEnds, "no end after"),
        (KeepsStateOutsideTheSnapshot, "snapshot mismatch"),
        (IllegalDefault, "default action is not legal"),
        (ChecksTheMoveButNotTheSeat, "was allowed"),
        (BuriesSwappedCardsUnhidden, "in no public view or event, yet not hidden"),
        (ForgetsTheBottomCard, "in no public view or event, yet not hidden"),
        (NamesTheDrawnCard, "a public event names hidden cards"),
        (RevealsThenReshuffles, "a public event names hidden cards"),
        (TellsTheDrawToTheNextSeat, "a private event for seat . names cards hidden from it"),
    ],
    ids=lambda value: value.__name__ if isinstance(value, type) else "",
)
def test_harness_catches(broken, message):
    with pytest.raises(AssertionError, match=message):
        check_game(tiny_spec(broken, game_id=broken.__name__), seeds=8, max_steps=400)


@pytest.mark.parametrize("sound", SOUND, ids=lambda spec: spec.id)
def test_harness_passes_framework_variants(sound):
    check_game(sound, seeds=8, max_steps=400)


@pytest.mark.parametrize(("broken", "message"), BROKEN, ids=lambda value: getattr(value, "id", ""))
def test_harness_catches_framework_sabotage(broken, message):
    with pytest.raises(AssertionError, match=message):
        check_game(broken, seeds=8, max_steps=400)
