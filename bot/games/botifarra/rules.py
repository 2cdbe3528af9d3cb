"""Botifarra (bot/games/botifarra/rules.md).

Four players in two partnerships (partners sit across: seats 0 & 2 against 1 & 3), the Spanish
48-card pack, twelve cards each. Cards rank 9 A K Q J 8 7 6 5 4 3 2 in every suit.

A hand: the dealer chooses trumps, botifarra (no trumps) or passes the choice to their partner
(once: the partner must choose). The dealer's opponents may then double ("contro"); if they do,
the dealer's side may redouble, and then the opponents may re-redouble. Players speak in turn
order from the last player to declare (the trump chooser, then whoever doubled), openly: the
first player of the side asked answers, then, if they declined, their partner, who has heard
them. Botifarra doubles the hand's value, and every double doubles it again (at most x16).

The player to the dealer's left leads; the heading rules are `tricks.legal_cards` with
`RULES` (follow suit, beat the winning card, trump and over-trump when void, unless the
partner is winning: then any card worth points, or the lowest of its suit). Each side counts
1 per trick plus 9 = 5, A = 4, K = 3, Q = 2, J = 1 (72 in all); the side above 36 scores the
excess times the multiplier (36 each: nobody scores). The first side to reach the target
(101) wins the match. The deal passes left.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator

from bot.cards import FrenchCard, Rank, Suit, spanish_deck
from bot.engine import Action, Decision, Event, HandEnded, HandStarted, IllegalAction, Rng, Viewer
from bot.games.botifarra.records import (
    BotifarraKind,
    BotifarraOptions,
    BotifarraView,
    ChoicePassed,
    ChooseTrumps,
    Dealt,
    Double,
    DoublingCall,
    DoublingSpoken,
    HandScored,
    NoDouble,
    PassChoice,
    PlayCard,
    Played,
    TrickTaken,
    TrumpsChosen,
)
from bot.games.hands import PointsMatchHands
from bot.games.matches import Match
from bot.games.tricks import Trick, TrickPlay, TrickRules, WonPiles, legal_cards, why_illegal
from bot.i18n import N_, _

SEATS = 4
SIDES = 2
HAND_SIZE = 12
HALF = 36  # half of the 72 points of a hand
ORDER = (
    Rank.NINE,
    Rank.ACE,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.EIGHT,
    Rank.SEVEN,
    Rank.SIX,
    Rank.FIVE,
    Rank.FOUR,
    Rank.THREE,
    Rank.TWO,
)
# Keyed by a card's `rank` (None only for a joker, which Botifarra doesn't deal).
CARD_POINTS: dict[Rank | None, int] = {
    Rank.NINE: 5,
    Rank.ACE: 4,
    Rank.KING: 3,
    Rank.QUEEN: 2,
    Rank.JACK: 1,
}
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
DOUBLING_NAMES = ("double", "redouble", "re-redouble")  # the levels' own names, never shown
MAX_DOUBLINGS = len(DOUBLING_NAMES)
# The doubling question each level asks, and a player's answer to it, as the table reads them.
DOUBLING_QUESTIONS = (N_("Double?"), N_("Redouble?"), N_("Re-redouble?"))
PARTNER_DECLINED = (
    N_("Your partner doesn't double: it's up to you."),
    N_("Your partner doesn't redouble: it's up to you."),
    N_("Your partner doesn't re-redouble: it's up to you."),
)


def card_points(card: FrenchCard) -> int:
    return CARD_POINTS.get(card.rank, 0)


RULES = TrickRules(
    order=ORDER, head=True, overtrump=True, partner_frees=True, card_points=card_points
)


def power(card: FrenchCard) -> int:
    return RULES.power(card)


def side_of(seat: int) -> int:
    return seat % SIDES


def partner_of(seat: int) -> int:
    return (seat + SIDES) % SEATS


def next_seat(seat: int) -> int:
    """The next seat in turn order (clockwise: the player to the left)."""
    return (seat + 1) % SEATS


def multiplier(botifarra: bool, doublings: int) -> int:
    """Botifarra doubles the hand; each double, redouble and re-redouble doubles it again."""
    return (2 if botifarra else 1) * 2**doublings


def hand_scores(points: list[int], times: int) -> list[int]:
    """What each side scores for a hand from its trick points (72 in all): the side above 36
    scores the excess times the multiplier; a 36-36 tie scores nothing."""
    return [max(0, side_points - HALF) * times for side_points in points]


def sort_hand(cards: list[FrenchCard]) -> list[FrenchCard]:
    """By suit (♠ ♥ ♦ ♣), strongest first."""
    return sorted(cards, key=lambda card: (SUIT_ORDER.index(card.suit), -power(card)))


def trump_name(trump: Suit | None, *, capital: bool = False) -> str:
    """ "♠ trumps", "botifarra (no trumps)"; `capital` to start a sentence or a label."""
    if trump is not None:
        return _("{suit} trumps", suit=trump.symbol)
    return _("Botifarra (no trumps)") if capital else _("botifarra (no trumps)")


# ---- the game ---------------------------------------------------------------------------------


class BotifarraState(PointsMatchHands):
    options: BotifarraOptions
    phase: Literal["choose", "double", "play", "between", "over"] = "choose"
    hands: list[list[FrenchCard]] = []
    chooser: int = 0
    passed: bool = False
    trumps_chosen: bool = False
    trump: Suit | None = None
    doublings: int = 0
    speaker: int | None = None  # who answers the doubling question now
    calls: list[DoublingCall] = []  # the hand's doubling so far, in the order spoken
    trick: Trick | None = None
    last_trick: list[TrickPlay] = []
    played: list[TrickPlay] = []  # every finished trick of the hand, in order (public)
    piles: WonPiles = WonPiles(sides=[[0, 2], [1, 3]])

    @model_validator(mode="before")
    @classmethod
    def _from_older_snapshots(cls, data: Any) -> Any:
        """Tables saved while a side answered in secret (`answers`, no `speaker`): the
        question still open is asked again in turn, from the side's seat after the chooser
        (the chooser's left, or the chooser), its earlier answers unheard."""
        if not isinstance(data, dict) or "answers" not in data:
            return data
        data = {key: value for key, value in data.items() if key != "answers"}
        if data.get("phase") == "double":
            chooser = data.get("chooser", 0)
            data["speaker"] = next_seat(chooser) if data.get("doublings", 0) % 2 == 0 else chooser
        return data

    def start_hand(self) -> list[Event]:
        deck = self.rng.shuffled(spanish_deck())
        self.hands = [[] for _ in range(SEATS)]
        for index in range(SEATS):  # twelve each, starting at the dealer's left
            seat = (self.dealer + 1 + index) % SEATS
            self.hands[seat] = sort_hand(deck[index * HAND_SIZE : (index + 1) * HAND_SIZE])
        self.phase, self.chooser, self.passed = "choose", self.dealer, False
        self.trumps_chosen, self.trump, self.doublings = False, None, 0
        self.speaker, self.calls = None, []
        self.trick, self.last_trick, self.played = None, [], []
        self.piles = WonPiles(sides=[[0, 2], [1, 3]])
        return [HandStarted(hand=self.hand), Dealt(dealer=self.dealer)]

    # ---- who decides --------------------------------------------------------------------------

    @property
    def current_trick(self) -> Trick:
        """The trick being played."""
        assert self.trick is not None  # read only in the "play" phase, which has one
        return self.trick

    @property
    def multiplier(self) -> int:
        return multiplier(self.trumps_chosen and self.trump is None, self.doublings)

    def partner_declined(self) -> bool:
        """The speaker's partner has just declined this question (they spoke first)."""
        return bool(self.calls) and not self.calls[-1].doubles

    def deciding_seat(self) -> int | None:
        """The seat `pending` asks, without writing its prompt: the Expert's playouts ask
        whose turn it is several times a step, thousands of steps a decision."""
        if self.phase == "choose":
            return self.chooser
        if self.phase == "double":
            return self.speaker
        return self.turn()

    def pending_seats(self) -> list[int]:
        seat = self.deciding_seat()
        return [] if seat is None else [seat]

    def pending(self) -> list[Decision]:
        if self.phase == "choose":
            prompt = (
                _("Your partner passed you the choice: choose trumps or botifarra (no trumps).")
                if self.passed
                else _("Choose trumps, botifarra (no trumps), or pass the choice to your partner.")
            )
            return [Decision(seat=self.chooser, kind=BotifarraKind.TRUMPS, prompt=prompt)]
        if self.phase == "double":
            after = (
                _(PARTNER_DECLINED[self.doublings])
                if self.partner_declined()
                else _("The table hears your answer; if you don't, your partner may.")
            )
            contract = _(
                "{trumps}, x{multiplier}.",
                trumps=trump_name(self.trump, capital=True),
                multiplier=self.multiplier,
            )
            prompt = f"{contract} {_(DOUBLING_QUESTIONS[self.doublings])} {after}"
            assert self.speaker is not None  # the "double" phase always asks someone
            return [Decision(seat=self.speaker, kind=BotifarraKind.DOUBLE, prompt=prompt)]
        if self.phase == "play":
            trick = self.current_trick
            seat = trick.next_seat(range(SEATS))
            assert seat is not None  # a full trick is taken at once
            prompt = _("Play a card to the trick.") if trick.plays else _("Lead a card.")
            return [Decision(seat=seat, kind=BotifarraKind.PLAY, prompt=prompt)]
        return []

    def turn(self) -> int | None:
        if self.phase != "play" or self.trick is None:
            return None
        return self.trick.next_seat(range(SEATS))

    def legal(self, seat: int) -> list[FrenchCard]:
        """The cards `seat` may play to the trick now (tricks.legal_cards, Botifarra's rules)."""
        return legal_cards(
            self.hands[seat],
            self.current_trick,
            RULES,
            trump=self.trump,
            partners=[partner_of(seat)],
        )

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        if self.phase == "choose":
            choices: list[Action] = [ChooseTrumps(suit=suit) for suit in SUIT_ORDER]
            choices.append(ChooseTrumps(suit=None))
            return choices if self.passed else [*choices, PassChoice()]
        if self.phase == "double":
            return [Double(), NoDouble()]
        return [PlayCard(card=card) for card in self.legal(seat)]

    def verify(self, seat: int, action: Action) -> None:
        """The heading rules' own reason for a card that may not be played. A card in turn is
        checked against the legal cards once (the base's check would list them again)."""
        if isinstance(action, PlayCard) and self.phase == "play" and seat == self.turn():
            if action.card in self.legal(seat):
                return
            reason = why_illegal(
                action.card,
                self.hands[seat],
                self.current_trick,
                RULES,
                trump=self.trump,
                partners=[partner_of(seat)],
            )
            raise IllegalAction(reason or _("You can't play that card now."))
        passing_back = self.phase == "choose" and self.passed and seat == self.chooser
        if isinstance(action, PassChoice) and passing_back:
            raise IllegalAction(_("Your partner passed you the choice: you can't pass it back."))
        super().verify(seat, action)

    def default_action(self, seat: int) -> Action:
        """Choosing trumps: your longest suit (more points, then ♠ ♥ ♦ ♣ on a tie); asked to
        double: no; playing: your lowest legal card (a non-trump before a trump)."""
        if self.phase == "choose":
            return ChooseTrumps(suit=self.longest_suit(seat))
        if self.phase == "double":
            return NoDouble()
        return PlayCard(card=min(self.legal(seat), key=self.lowness))

    def lowness(self, card: FrenchCard) -> tuple[int, bool, int]:
        return (power(card), card.suit == self.trump, SUIT_ORDER.index(card.suit))

    def longest_suit(self, seat: int) -> Suit:
        def strength(suit: Suit) -> tuple[int, int, int]:
            held = [card for card in self.hands[seat] if card.suit == suit]
            return (-len(held), -sum(map(card_points, held)), SUIT_ORDER.index(suit))

        return min(SUIT_ORDER, key=strength)

    # ---- acting -------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, PassChoice):
            self.passed, self.chooser = True, partner_of(seat)
            return [ChoicePassed(seat=seat, partner=self.chooser)]
        if isinstance(action, ChooseTrumps):
            self.trump, self.trumps_chosen, self.phase = action.suit, True, "double"
            self.speaker = next_seat(seat)  # the first opponent in turn order
            return [TrumpsChosen(seat=seat, suit=action.suit, multiplier=self.multiplier)]
        if isinstance(action, Double | NoDouble):
            return self.speak(seat, isinstance(action, Double))
        assert isinstance(action, PlayCard)  # verify lets no other action through
        return self.play(seat, action.card)

    def speak(self, seat: int, doubles: bool) -> list[Event]:
        """An answer in turn, heard by all. The turn goes on from the last declarer: after a
        double, the other side's next seat may answer it; after a first "no", the partner
        (the seat between them belongs to the side not asked); after a second, the play."""
        declined_before = self.partner_declined()
        call = DoublingCall(seat=seat, level=self.doublings + 1, doubles=doubles)
        self.calls.append(call)
        if doubles:
            self.doublings = call.level
        event = DoublingSpoken(call=call, multiplier=self.multiplier)
        if doubles and self.doublings < MAX_DOUBLINGS:
            self.speaker = next_seat(seat)
        elif not doubles and not declined_before:
            self.speaker = partner_of(seat)
        else:
            self.speaker, self.phase = None, "play"
            self.trick = Trick(leader=next_seat(self.dealer))
        return [event]

    def play(self, seat: int, card: FrenchCard) -> list[Event]:
        trick = self.current_trick
        self.hands[seat].remove(card)
        trick.add(seat, card)
        events: list[Event] = [Played(seat=seat, card=card)]
        if len(trick.plays) < SEATS:
            return events
        winner = trick.winner(RULES, self.trump)
        self.piles.take(winner, trick.cards)
        points = sum(map(card_points, trick.cards)) + 1
        events.append(TrickTaken(seat=winner, cards=trick.cards, points=points))
        self.last_trick = list(trick.plays)
        self.played += trick.plays
        self.trick = Trick(leader=winner)
        if any(self.hands):
            return events
        return events + self.end_hand()

    def points(self) -> list[int]:
        """Trick points per side: 1 per trick plus the cards' points."""
        return self.piles.points(card_points, per_trick=1)

    def end_hand(self) -> list[Event]:
        points = self.points()
        times = self.multiplier
        scored = hand_scores(points, times)
        over = self.match.add_hand(scored)
        events: list[Event] = [
            HandScored(
                points=points,
                tricks=list(self.piles.tricks),
                multiplier=times,
                scored=scored,
                totals=list(self.match.scores),
            ),
            HandEnded(
                hand=self.hand,
                players=list(range(SEATS)),
                net_chips=[0] * SEATS,
                scores=[scored[side_of(seat)] for seat in range(SEATS)],
                winners=[seat for seat in range(SEATS) if scored[side_of(seat)] > 0],
            ),
        ]
        self.trick = None
        if over:
            self.phase = "over"
            return [*events, self.standings()]
        self.phase = "between"
        return events

    # ---- what each seat sees ------------------------------------------------------------------

    def view(self, viewer: Viewer) -> BotifarraView:
        ended = self.phase in ("between", "over") and not any(self.hands)
        view = BotifarraView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            chooser=self.chooser if self.phase == "choose" else None,
            passed=self.passed,
            trumps_chosen=self.trumps_chosen,
            trump=self.trump,
            multiplier=self.multiplier,
            doublings=self.doublings,
            speaker=self.speaker,
            calls=list(self.calls),
            counts=[len(hand) for hand in self.hands],
            trick=self.trick,
            last_trick=self.last_trick,
            played=self.played,
            turn=self.turn(),
            tricks=list(self.piles.tricks),
            points=self.points() if ended else None,
            scored=hand_scores(self.points(), self.multiplier) if ended else None,
            scores=list(self.match.scores),
            target=self.options.target,
        )
        if viewer is not None:
            view.seat = viewer
            view.my_cards = self.hands[viewer]
            if self.phase == "play" and viewer == self.turn():
                view.my_legal = self.legal(viewer)
        return view

    def all_cards(self) -> list[FrenchCard]:
        held = [card for hand in self.hands for card in hand]
        won = [card for pile in self.piles.cards for card in pile]
        return held + won + (self.trick.cards if self.trick else [])

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        return {card for seat, hand in enumerate(self.hands) if seat != viewer for card in hand}


def new_botifarra(
    options: BotifarraOptions, stacks: list[int], rng: Rng
) -> tuple[BotifarraState, list[Event]]:
    state = BotifarraState(
        rng=rng,
        seat_count=len(stacks),
        options=options,
        match=Match.to_target([[0, 2], [1, 3]], options.target),
    )
    return state, state.start_hand()
