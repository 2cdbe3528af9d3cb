"""Sabotaged variants of the framework's test-only games (tests/framework_games.py), one
broken property each: test_conformance_harness.py makes sure `check_game` fails each of them
with the matching message (and passes the sound variants), proving the conformance test
checks every framework facility: decks by seats, a house, windows, optional decisions, large
action spaces, partnerships, free text and private events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cards import french_deck
from bot.engine import Action, Event, GameSpec, HandEnded, IllegalAction, MatchEnded, Rng, placings
from tests.framework_games import (
    BANKER,
    PARTNERS,
    SIDES,
    SNAP,
    BankerState,
    Drew,
    PartnersState,
    SnapState,
    SnapView,
    Throw,
    Word,
)


def variant(spec: GameSpec, state_model: type, extra: Callable[[list[int]], dict]) -> GameSpec:
    """`spec` playing `state_model` (a subclass of its state), created as the original is:
    `extra(stacks)` gives the fields its create sets besides the common ones."""

    def create(options: Any, stacks: list[int], rng: Rng) -> Any:
        state = state_model(
            rng=rng, seat_count=len(stacks), options=options, phase="", **extra(stacks)
        )
        state.start_hand()
        return state

    return spec.model_copy(
        update={"id": state_model.__name__, "state_model": state_model, "create": create}
    )


def partners(state_model: type[PartnersState]) -> GameSpec:
    return variant(PARTNERS, state_model, lambda stacks: {})


def banker(state_model: type[BankerState]) -> GameSpec:
    return variant(BANKER, state_model, lambda stacks: {"stacks": stacks})


def snap(state_model: type[SnapState]) -> GameSpec:
    return variant(SNAP, state_model, lambda stacks: {"points": [0] * len(stacks)})


# ---- decks by seats, and a house ----------------------------------------------------------


class BankerOnePack(BankerState):
    """Deals from one pack however many play (the spec says a pack per two players)."""

    def start_hand(self) -> list[Event]:
        events = super().start_hand()
        self.deck = self.rng.shuffled(french_deck())
        return events


class BankerMintsChips(BankerState):
    """Pays winners a chip more than the house paid: chips appear from nowhere."""

    def showdown(self) -> list[Event]:
        events = super().showdown()
        ended = next(event for event in events if isinstance(event, HandEnded))
        for seat in ended.winners:
            self.stacks[seat] += 1
        return events


class BankerCashesOutTheBank(BankerState):
    """Pays the house's bank out to the players when the table closes."""

    def cash_out(self) -> list[int]:
        self.stacks[0] += self.bank
        self.bank = 0
        return super().cash_out()


class BankerMisreportsTheHouse(BankerState):
    """Counts the house right but tells the runtime it moved nothing."""

    def showdown(self) -> list[Event]:
        events = super().showdown()
        return [
            event.model_copy(update={"house_chips": 0}) if isinstance(event, HandEnded) else event
            for event in events
        ]


# ---- Snap: windows, optional decisions, a large action space, private events ----------------


class SnapWithoutWindow(SnapState):
    """Waits for snaps with no window to close: once nobody snaps, play never goes on."""

    def window_seconds(self) -> int | None:
        return None


class SnapEmptyWindow(SnapState):
    def window_seconds(self) -> int | None:
        return 0 if self.phase == "window" else None


class SnapWindowTellsSnappers(SnapState):
    """Closes the window sooner when nobody can snap: its length tells the table."""

    def window_seconds(self) -> int | None:
        window = super().window_seconds()
        return window if window is None or self.snappers() else 2


class SnapperView(SnapView):
    can_snap: list[int] = []


class SnapShowsSnappers(SnapState):
    """The public view lists who can snap."""

    def view(self, viewer) -> SnapperView:
        view = SnapperView(**super().view(viewer).model_dump())
        if viewer is None and self.phase == "window":
            view.can_snap = self.snappers()
        return view


class SnapTellsSeatsWhoSnaps(SnapState):
    """Each seat's view says who else can snap (the public view doesn't)."""

    def view(self, viewer) -> SnapperView:
        view = SnapperView(**super().view(viewer).model_dump())
        if viewer is not None and self.phase == "window":
            view.can_snap = [seat for seat in self.snappers() if seat != viewer]
        return view


class CallerView(SnapView):
    last_one: int | None = None


class SnapShowsTheCaller(SnapState):
    """Shows who may call "last one": whoever was left with one card, which everyone knows
    (a sound game: an optional holder the public can tell from what it was shown)."""

    def view(self, viewer) -> CallerView:
        return CallerView(**super().view(viewer).model_dump(), last_one=self.caller)


class SnapLosesSnappedCards(SnapState):
    """A snapped card vanishes (only a playout that takes optional actions finds it)."""

    def snap(self, seat: int, card) -> list[Event]:
        events = super().snap(seat, card)
        self.pile.remove(card)
        return events


class SnapThrowsUnheldCards(SnapState):
    """Lets a player throw away cards it doesn't hold (and loses track of them)."""

    def verify(self, seat: int, action: Action) -> None:
        if isinstance(action, Throw) and seat == self.turn and self.phase == "play":
            if not action.cards:
                raise IllegalAction("Throw away one or more different cards.")
            return
        super().verify(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Throw):
            kept = [card for card in action.cards if card in self.hands[seat]]
            action = Throw(cards=kept or self.hands[seat][:1])
        return super()._apply(seat, action)


class SnapSamplesBadThrows(SnapState):
    """Its sample sometimes throws the same card twice, which verify refuses."""

    def sample(self, seat: int, chooser) -> Action:
        action = super().sample(seat, chooser)
        if isinstance(action, Throw):
            return Throw(cards=[action.cards[0], action.cards[0]])
        return action


class SnapSuggestsAnEmptyThrow(SnapState):
    def legal_actions(self, seat: int) -> list[Action]:
        actions = super().legal_actions(seat)
        return [Throw(cards=[]) if isinstance(a, Throw) else a for a in actions]


class SnapNamesTheDrawnCard(SnapState):
    """Tells the whole table which card was drawn."""

    def draw(self, seat: int) -> list[Event]:
        return [event.model_copy(update={"audience": None}) for event in super().draw(seat)]


class SnapTellsTheDrawToTheNextSeat(SnapState):
    def draw(self, seat: int) -> list[Event]:
        told = ((seat + 1) % self.seat_count,)
        return [
            event.model_copy(update={"audience": told}) if event.audience else event
            for event in super().draw(seat)
        ]


class SnapTellsTheDrawToNobody(SnapState):
    """A private event for no seat at all (told to an empty audience)."""

    def draw(self, seat: int) -> list[Event]:
        events = super().draw(seat)
        return [*events, Drew(seat=seat, audience=())] if events else events


# ---- Partners: sides and free text -------------------------------------------------------------


class PartnersSplitsPlacings(PartnersState):
    """Places partners apart (by seat, among equal sides)."""

    def standings(self) -> MatchEnded:
        scores = [self.points[seat % SIDES] for seat in range(self.seat_count)]
        ranked = placings([score * self.seat_count - seat for seat, score in enumerate(scores)])
        return MatchEnded(placings=ranked, scores=scores)


class PartnersLoneWinner(PartnersState):
    """Only the player of the best card wins the hand, not the whole side."""

    def score(self) -> list[Event]:
        best = max(self.played, key=lambda seat: (self.played[seat].rank, -seat))
        events = super().score()
        return [
            event.model_copy(update={"winners": [best]}) if isinstance(event, HandEnded) else event
            for event in events
        ]


class PartnersAnswersVerifyRefuses(PartnersState):
    """Reads any answer as a word, but verify wants letters only."""

    def text_action(self, seat: int, text: str) -> Action:
        return Word(text=text.strip().lower())

    def verify(self, seat: int, action: Action) -> None:
        if isinstance(action, Word) and not action.text.isalpha():
            raise IllegalAction("Write one word of letters only (at most 20).")
        super().verify(seat, action)


class PartnersAnswerChangesState(PartnersState):
    """Writes the word down while reading an answer, even one it refuses."""

    def text_action(self, seat: int, text: str) -> Action:
        self.word = text.strip().lower()
        return super().text_action(seat, text)


class PartnersAnswerCrashes(PartnersState):
    """Looks at an answer's first letter before checking there is one."""

    def text_action(self, seat: int, text: str) -> Action:
        if text.strip()[0] == "?":
            raise IllegalAction("Write a word, not a question.")
        return super().text_action(seat, text)


SOUND = [snap(SnapState), snap(SnapShowsTheCaller)]

BROKEN = [
    (banker(BankerOnePack), "cards were lost or duplicated"),
    (banker(BankerMintsChips), "chips changed"),
    # The house's chips at a step are what its bank changed by beyond the hands' house_chips:
    # a misreported net moves chips the game never had.
    (banker(BankerMisreportsTheHouse), "chips changed"),
    (banker(BankerCashesOutTheBank), "the house's bank stays for the house"),
    (snap(SnapWithoutWindow), "it stalls"),
    (snap(SnapEmptyWindow), "a window must last a positive number of seconds"),
    (snap(SnapWindowTellsSnappers), "the window's length shows who holds optional decisions"),
    (snap(SnapShowsSnappers), "the public view shows who holds optional decisions"),
    (snap(SnapTellsSeatsWhoSnaps), "seat .'s view shows who holds optional decisions"),
    (snap(SnapLosesSnappedCards), "cards were lost or duplicated"),
    (snap(SnapThrowsUnheldCards), r"seat . was allowed Throw\("),
    (snap(SnapSamplesBadThrows), r"seat .'s sampled action Throw\(.* (is|was) refused"),
    (snap(SnapSuggestsAnEmptyThrow), r"seat .'s suggestion Throw\(.* is refused"),
    (snap(SnapNamesTheDrawnCard), "a public event names hidden cards"),
    (snap(SnapTellsTheDrawToTheNextSeat), "a private event for seat . names cards hidden"),
    (snap(SnapTellsTheDrawToNobody), "a private event's audience must name seats"),
    (partners(PartnersSplitsPlacings), "placings .* differ between partners"),
    (partners(PartnersLoneWinner), "winners .* are not whole sides"),
    (partners(PartnersAnswersVerifyRefuses), "which verify refuses"),
    (partners(PartnersAnswerChangesState), "changed the state"),
    (partners(PartnersAnswerCrashes), "answer .* crashed"),
]
