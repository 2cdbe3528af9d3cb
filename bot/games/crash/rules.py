"""Crash, or Thirteen-Card Brag (bot/games/crash/rules.md).

Two to four players, the 52-card pack, thirteen cards each (the rest set aside unseen). Every
player secretly, and at the same time, sets up to four three-card Brag hands, each a pair or
better; the other cards are discarded face down. The bot ranks each player's hands, so a foul
can't happen. At the reveal the strongest hands compete for position 1, the second strongest
for position 2, and so on: the best hand at a position scores a point (a player alone there
wins it), a tie for best is a stick-up and nobody scores. One player taking all four
positions is a crash and wins the game at once. The highest four of a kind used in full in
the set hands scores one more (4s highest, then aces, kings ... 5s, 3s, 2s). A player with six
pairs may declare them instead of setting: the hand is void and the same dealer deals again.
A thirteen-card straight (A to 2) is revealed and wins the game at once. Points are scored
position by position, then the bonus; the first to reach the target (7) wins at once.

The space of arrangements is too large to list: `legal_actions` gives a few strong
arrangements (`suggestions`), `verify` judges any arrangement, `sample` draws a random one,
and `fill_hands` completes the hands a player has started (their "Fill the rest").
"""

from __future__ import annotations

import random
from typing import Literal

from bot.cards import FrenchCard, french_deck
from bot.engine import (
    Action,
    Decision,
    Event,
    HandEnded,
    IllegalAction,
    MatchEnded,
    Rng,
    UnlistedActions,
    Viewer,
)
from bot.games.crash.planner import random_arrangement, strong_arrangements
from bot.games.crash.ranking import (
    DEALT,
    HAND_CARDS,
    MAX_HANDS,
    SIX_PAIRS,
    SUGGESTED,
    arrangement_problem,
    brag_key,
    display_order,
    is_thirteen_card_straight,
    pair_count,
    quad_power,
    quads_in_full,
    ranked,
)
from bot.games.crash.records import (
    Arrange,
    Bonus,
    CrashKind,
    CrashOptions,
    CrashView,
    DeclareSixPairs,
    HandResult,
    HandStarted,
    HandVoid,
    PositionResult,
    Ready,
    RevealStraight,
    SeatView,
    Showdown,
    StraightRevealed,
)
from bot.games.hands import PointsMatchHands
from bot.games.matches import Match
from bot.i18n import _

# ---- the game ---------------------------------------------------------------------------------


class CrashState(UnlistedActions, PointsMatchHands):
    """Unlisted: an arrangement is any split of the hand, which verify judges."""

    options: CrashOptions
    phase: Literal["setting", "between", "over"] = "setting"
    hands: list[list[FrenchCard]] = []  # each seat's thirteen cards
    undealt: list[FrenchCard] = []
    sets: list[list[list[FrenchCard]] | None] = []  # per seat once set, strongest first
    declared: list[bool] = []  # secret until everyone is ready
    result: HandResult | None = None
    void_by: list[int] = []  # who declared six pairs, once the hand is void
    straights: list[int] = []  # seats whose thirteen-card straights won the game

    def start_hand(self) -> list[Event]:
        redeal = bool(self.void_by)
        deck = self.rng.shuffled(french_deck())
        seats = self.seat_count
        self.hands = [[] for _ in range(seats)]
        for index in range(seats):  # blocks of thirteen, from the dealer's left
            seat = (self.dealer + 1 + index) % seats
            self.hands[seat] = display_order(deck[index * DEALT : (index + 1) * DEALT])
        self.undealt = deck[seats * DEALT :]
        self.sets, self.declared = [None] * seats, [False] * seats
        self.phase, self.result, self.void_by = "setting", None, []
        return [HandStarted(hand=self.hand, dealer=self.dealer, redeal=redeal)]

    def next_dealer(self) -> int:
        """The deal passes left, except after a void hand: the same dealer deals again."""
        return self.dealer if self.void_by else super().next_dealer()

    # ---- who decides ----------------------------------------------------------------------

    def ready(self, seat: int) -> bool:
        return self.sets[seat] is not None or self.declared[seat]

    def holds_straight(self, seat: int) -> bool:
        return is_thirteen_card_straight(self.hands[seat])

    def holds_six_pairs(self, seat: int) -> bool:
        return pair_count(self.hands[seat]) == SIX_PAIRS

    def pending(self) -> list[Decision]:
        if self.phase != "setting":
            return []
        return [self.decision(seat) for seat in range(self.seat_count) if not self.ready(seat)]

    def decision(self, seat: int) -> Decision:
        if self.holds_straight(seat):
            prompt = _("You hold a thirteen-card straight: reveal it to win the game.")
            return Decision(seat=seat, kind=CrashKind.STRAIGHT, prompt=prompt, secret=True)
        if self.holds_six_pairs(seat):
            prompt = _(
                "Set up to four Brag hands of three cards, each a pair or better; the bot ranks "
                "them, and the other cards are discarded. Everyone sets in secret. You hold six "
                "pairs: you may declare them instead, and the hand is void."
            )
        else:
            prompt = _(
                "Set up to four Brag hands of three cards, each a pair or better; the bot ranks "
                "them, and the other cards are discarded. Everyone sets in secret."
            )
        return Decision(seat=seat, kind=CrashKind.ARRANGE, prompt=prompt, secret=True)

    def legal_actions(self, seat: int) -> list[Action]:
        """Suggestions only (the arrangements are too many to list), and the declarations."""
        if seat not in self.pending_seats():
            return []
        actions = self.suggestions(seat, SUGGESTED)
        if self.holds_six_pairs(seat):
            actions.append(DeclareSixPairs())
        return actions

    def suggestions(self, seat: int, limit: int) -> list[Action]:
        if self.holds_straight(seat):
            return [RevealStraight()]
        plans = strong_arrangements(self.hands[seat], limit, self.seat_count - 1)
        return [Arrange(hands=plan) for plan in plans]

    def sample(self, seat: int, chooser: random.Random) -> Action:
        if self.holds_straight(seat):
            return RevealStraight()
        if self.holds_six_pairs(seat) and chooser.random() < 0.3:
            return DeclareSixPairs()
        return Arrange(hands=random_arrangement(self.hands[seat], chooser))

    def default_action(self, seat: int) -> Action:
        """The first suggestion: the most hands, then the strongest (never a declaration of
        six pairs; a thirteen-card straight is revealed)."""
        return self.suggestions(seat, 1)[0]

    def verify(self, seat: int, action: Action) -> None:
        if self.is_over():
            raise IllegalAction(_("This game is over."))
        if self.phase != "setting":
            raise IllegalAction(_("The hands are not being set now."))
        if self.ready(seat):
            raise IllegalAction(_("You have already set your hands for this deal."))
        if self.holds_straight(seat):
            if not isinstance(action, RevealStraight):
                raise IllegalAction(_("You hold a thirteen-card straight: reveal it, it wins."))
            return
        if isinstance(action, Arrange):
            problem = arrangement_problem(action.hands, self.hands[seat])
            if problem:
                raise IllegalAction(problem)
        elif isinstance(action, DeclareSixPairs):
            if not self.holds_six_pairs(seat):
                raise IllegalAction(_("You don't hold six pairs."))
        elif isinstance(action, RevealStraight):
            raise IllegalAction(_("You don't hold a thirteen-card straight."))
        else:
            raise IllegalAction(_("That move is not allowed right now."))

    # ---- acting ---------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, RevealStraight):
            return self.straight_wins()
        if isinstance(action, DeclareSixPairs):
            self.declared[seat] = True
        else:
            assert isinstance(action, Arrange)  # verify lets no other action through
            self.sets[seat] = ranked(action.hands)
        events: list[Event] = [Ready(seat=seat)]
        if all(self.ready(s) for s in range(self.seat_count)):
            events += self.reveal()
        return events

    def straight_wins(self) -> list[Event]:
        """Every player holding a thirteen-card straight shows it and wins (shared, if two)."""
        self.straights = [s for s in range(self.seat_count) if self.holds_straight(s)]
        revealed = StraightRevealed(
            seats=self.straights, cards=[self.hands[s] for s in self.straights]
        )
        self.phase = "over"
        hand_ended = self.hand_ended([0] * self.seat_count, self.straights)
        return [revealed, hand_ended, self.standings()]

    def reveal(self) -> list[Event]:
        declared = [s for s in range(self.seat_count) if self.declared[s]]
        if declared:
            self.void_by, self.phase = declared, "between"
            void = HandVoid(declared=declared, dealer=self.dealer)
            return [void, self.hand_ended([0] * self.seat_count, [])]
        return self.showdown()

    def showdown(self) -> list[Event]:
        """Positions 1 to 4 in order, then a crash, then the four-of-a-kind bonus; the hand
        stops as soon as someone reaches the target."""
        seats = range(self.seat_count)
        sets = [self.sets[s] or [] for s in seats]
        points = [0] * self.seat_count
        positions = []
        for index in range(MAX_HANDS):
            if self.match.is_over():
                break
            position = score_position(index, sets)
            positions.append(position)
            if position.winner is not None:
                points[position.winner] += 1
                self.match.add(position.winner, 1)
        crash = next((s for s in seats if points[s] == MAX_HANDS), None)
        if crash is not None and not self.match.is_over():
            self.match.win(crash)
        bonus = None if self.match.is_over() else best_quad(sets)
        if bonus is not None:
            points[bonus.seat] += 1
            self.match.add(bonus.seat, 1)
        self.result = HandResult(
            sets=sets,
            discards=[DEALT - HAND_CARDS * len(hands) for hands in sets],
            positions=positions,
            bonus=bonus,
            crash=crash,
            points=points,
            totals=list(self.match.scores),
            target_reached=any(score >= self.options.target for score in self.match.scores),
        )
        over = self.match.is_over()
        self.phase = "over" if over else "between"
        most = max(points)
        winners = [crash] if crash is not None else [s for s in seats if most and points[s] == most]
        events: list[Event] = [Showdown(result=self.result), self.hand_ended(points, winners)]
        return [*events, self.standings()] if over else events

    def hand_ended(self, points: list[int], winners: list[int]) -> HandEnded:
        seats = list(range(self.seat_count))
        return HandEnded(
            hand=self.hand,
            players=seats,
            net_chips=[0] * self.seat_count,
            scores=list(points),
            winners=winners,
        )

    def standings(self) -> MatchEnded:
        scores = self.match.seat_scores()
        if not self.straights:
            return MatchEnded(placings=self.match.seat_placings(), scores=scores)
        keys = [(seat not in self.straights, -scores[seat]) for seat in range(self.seat_count)]
        order = sorted(keys)
        return MatchEnded(placings=[order.index(key) + 1 for key in keys], scores=scores)

    def leave(self, seat: int) -> int:
        """Leaving between hands ends the game for everyone; the leaver forfeits."""
        if self.can_leave_now(seat) and not self.is_over():
            self.match.drop(seat)
        return super().leave(seat)

    # ---- what each seat sees --------------------------------------------------------------

    def shown_result(self) -> HandResult | None:
        """The last hand's result, while it is shown (between hands and at the end)."""
        return self.result if self.phase in ("between", "over") else None

    def view(self, viewer: Viewer) -> CrashView:
        shown = self.shown_result()
        seats = [
            SeatView(
                seat=seat,
                score=self.match.scores[seat],
                ready=self.phase == "setting" and self.ready(seat),
                hands=shown.sets[seat] if shown is not None else None,
                discards=shown.discards[seat] if shown is not None else None,
                declared=seat in self.void_by,
                straight=self.hands[seat] if seat in self.straights else None,
            )
            for seat in range(self.seat_count)
        ]
        view = CrashView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            target=self.options.target,
            seats=seats,
            result=shown,
            void=bool(self.void_by),
            straight_winners=self.straights,
        )
        if viewer is not None:
            setting = self.phase == "setting"
            view.seat = viewer
            view.my_cards = self.hands[viewer]
            view.my_set = self.sets[viewer]
            view.my_declared = self.declared[viewer]
            view.my_six_pairs = setting and not self.ready(viewer) and self.holds_six_pairs(viewer)
            view.my_straight = self.holds_straight(viewer)
        return view

    def all_cards(self) -> list[FrenchCard]:
        return [card for hand in self.hands for card in hand] + self.undealt

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        """The undealt cards and other players' cards, but for set hands once revealed and
        a winning straight; discards are never shown."""
        shown = set()
        if (result := self.shown_result()) is not None:
            shown = {card for hands in result.sets for hand in hands for card in hand}
        for seat in self.straights:
            shown |= set(self.hands[seat])
        others = {card for seat, hand in enumerate(self.hands) if seat != viewer for card in hand}
        return set(self.undealt) | (others - shown)


def score_position(index: int, sets: list[list[list[FrenchCard]]]) -> PositionResult:
    """Who wins a position: the best hand there (alone there: it wins); a tie is a stick-up."""
    contenders = [seat for seat, hands in enumerate(sets) if len(hands) > index]
    keys = {seat: brag_key(sets[seat][index]) for seat in contenders}
    top = max(keys.values(), default=None)
    best = [seat for seat in contenders if keys[seat] == top]
    winner = best[0] if len(best) == 1 else None
    return PositionResult(position=index + 1, contenders=contenders, best=best, winner=winner)


def best_quad(sets: list[list[list[FrenchCard]]]) -> Bonus | None:
    """The highest four of a kind used in full in the set hands (4s, A, K ... 5, 3, 2)."""
    quads = [
        Bonus(seat=seat, rank=rank)
        for seat, hands in enumerate(sets)
        for rank in quads_in_full(hands)
    ]
    return max(quads, key=lambda bonus: quad_power(bonus.rank), default=None)


def new_crash(options: CrashOptions, stacks: list[int], rng: Rng) -> tuple[CrashState, list[Event]]:
    seats = len(stacks)
    state = CrashState(
        rng=rng,
        seat_count=seats,
        options=options,
        match=Match.to_target(seats, options.target),
    )
    return state, state.start_hand()
