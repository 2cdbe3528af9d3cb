"""The conformance harness catches each kind of broken game: one sabotaged High Card per
property, each of which must fail `check_game` with the matching message."""

import random

import pytest
from pydantic import PrivateAttr

from bot.engine import Action, Event, IllegalAction
from tests.conformance import check_game
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
    ],
    ids=lambda value: value.__name__ if isinstance(value, type) else "",
)
def test_harness_catches(broken, message):
    with pytest.raises(AssertionError, match=message):
        check_game(tiny_spec(broken, game_id=broken.__name__), seeds=8, max_steps=400)
