"""Big Two (bot/games/big_two/rules.md).

Card order: 3 lowest ... K, A, 2 highest; suits diamonds < clubs < hearts < spades.
Combinations: single, pair, three of a kind, and five-card hands ranked
straight < flush < full house < four of a kind (+1) < straight flush. The holder of the lowest
card dealt leads first and must play it. A hand ends when someone is out of cards; the others
score 1 per card left (2 each from 10 cards, 3 each with all 13). Hands go on until someone
reaches the target; the lowest score wins. A tie goes to whoever held fewer cards when the last
hand ended (the rule text is silent); players tied on that too share the place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.cards import FrenchCard, Rank, Suit, french_deck
from bot.engine import (
    Action,
    Decision,
    DecisionKind,
    Event,
    HandEnded,
    IllegalAction,
    MatchEnded,
    Rng,
    Viewer,
)
from bot.engine import HandStarted as BaseHandStarted
from bot.games.climbing import Climb, Pass, Play, Played
from bot.games.hands import HandAfterHand
from bot.games.jokerless import rank_of
from bot.i18n import N_, _, n_
from bot.text import upper_first

# Keyed by a card's `suit`, which is None only for the jokers Big Two doesn't deal.
SUIT_ORDER: dict[Suit | None, int] = {
    Suit.DIAMONDS: 0,
    Suit.CLUBS: 1,
    Suit.HEARTS: 2,
    Suit.SPADES: 3,
}
FIVE_CARD_NAMES = {
    1: N_("straight"),
    2: N_("flush"),
    3: N_("full house"),
    4: N_("four of a kind"),
    5: N_("straight flush"),
}
HAND_SIZE = 13


def rank_order(rank: Rank) -> int:
    """3 -> 0 ... K -> 10, A -> 11, 2 -> 12."""
    return (int(rank) - 3) % 13


def value(card: FrenchCard) -> int:
    rank = card.rank
    assert rank is not None  # no jokers (bot/games/jokerless.py); inline: sorts call it a lot
    return rank_order(rank) * 4 + SUIT_ORDER[card.suit]


def rank_name(rank: Rank) -> str:
    return rank.label


class Combo(BaseModel):
    """A valid combination: what it is, and a key that orders it against its own kind. Its
    `name` is in the language of the moment it was classified in."""

    model_config = ConfigDict(frozen=True)
    size: int
    category: int  # five-card hands: 1 straight ... 5 straight flush; else 0
    key: tuple[int, ...]
    name: str

    def beats(self, other: Combo) -> bool:
        return self.size == other.size and (self.category, self.key) > (other.category, other.key)


def classify(cards: list[FrenchCard]) -> Combo:
    """The combination these cards make, or IllegalAction saying why they make none."""
    if len(cards) != len(set(cards)) or not cards:
        raise IllegalAction(_("Choose one or more different cards."))
    ranks = Counter(card.rank for card in cards)
    if len(cards) == 1:
        return Combo(size=1, category=0, key=(value(cards[0]),), name=cards[0].label)
    if len(cards) in (2, 3):
        pair = len(cards) == 2
        if len(ranks) != 1:
            raise IllegalAction(
                _("A pair must be 2 cards of the same rank.")
                if pair
                else _("Three of a kind must be 3 cards of the same rank.")
            )
        rank = rank_of(cards[0])
        top_suit = max(SUIT_ORDER[card.suit] for card in cards)
        label = rank_name(rank)
        name = _("pair of {rank}s", rank=label) if pair else _("three of {rank}s", rank=label)
        return Combo(size=len(cards), category=0, key=(rank_order(rank), top_suit), name=name)
    if len(cards) == 5:
        return five_card(cards, ranks)
    raise IllegalAction(_("Play one card, a pair, three of a kind or a five-card hand."))


def straight_start(cards: Sequence[FrenchCard]) -> int | None:
    """The straight's place in rules.md's order (A-2-3-4-5 = 1 ... 10-J-Q-K-A = 10)."""
    natural = sorted(int(rank_of(card)) for card in cards)
    if len(set(natural)) != 5:
        return None
    if natural == [1, 10, 11, 12, 13]:
        return 10
    if natural[-1] - natural[0] == 4:
        return natural[0]
    return None


def five_card(cards: list[FrenchCard], ranks: Counter) -> Combo:
    flush = len({card.suit for card in cards}) == 1
    start = straight_start(cards)
    if start is not None:
        top_rank = 1 if start == 10 else start + 4  # the Ace tops 10-J-Q-K-A
        top = next(card for card in cards if card.rank == top_rank)
        category = 5 if flush else 1
        return Combo(
            size=5,
            category=category,
            key=(start, SUIT_ORDER[top.suit]),
            name=_(FIVE_CARD_NAMES[category]),
        )
    counts = sorted(ranks.values())
    if counts == [1, 4] or counts == [2, 3]:
        main = max(ranks, key=lambda rank: ranks[rank])
        category = 4 if counts == [1, 4] else 3
        return Combo(
            size=5, category=category, key=(rank_order(main),), name=_(FIVE_CARD_NAMES[category])
        )
    if flush:
        by_value = tuple(sorted((value(card) for card in cards), reverse=True))
        key = (SUIT_ORDER[cards[0].suit], *by_value)
        return Combo(size=5, category=2, key=key, name=_(FIVE_CARD_NAMES[2]))
    raise IllegalAction(
        _(
            "Five cards must make a straight, a flush, a full house, four of a kind with one "
            "more card, or a straight flush."
        )
    )


def five_card_plays(hand: list[FrenchCard]) -> list[tuple[tuple, list[FrenchCard]]]:
    """Every five-card hand in `hand` as (category, key) and cards: four of a kind + 1, full
    houses, flushes and straights (straight flushes once), built already classified from the
    hand's ranks and suits (not all 1,287 subsets of 13 cards classified one by one)."""
    by_rank: dict[int, list[FrenchCard]] = {}
    by_suit: dict[Suit | None, list[FrenchCard]] = {}
    for card in hand:
        by_rank.setdefault(int(rank_of(card)), []).append(card)
        by_suit.setdefault(card.suit, []).append(card)
    found: list[tuple[tuple, list[FrenchCard]]] = []
    for rank, cards in by_rank.items():
        order = rank_order(rank_of(cards[0]))
        if len(cards) == 4:
            found += [
                ((4, order), [*cards, kicker]) for kicker in hand if kicker.rank != cards[0].rank
            ]
        if len(cards) >= 3:
            for trio in combinations(cards, 3):
                for other, pairs in by_rank.items():
                    if other != rank and len(pairs) >= 2:
                        found += [((3, order), [*trio, *pair]) for pair in combinations(pairs, 2)]
    for suit, cards in by_suit.items():
        for five in combinations(cards, 5):
            start = straight_start(five)
            if start is not None:
                found.append(((5, start, SUIT_ORDER[suit]), list(five)))
            else:
                values = sorted((value(card) for card in five), reverse=True)
                found.append(((2, SUIT_ORDER[suit], *values), list(five)))
    for start in range(1, 11):
        ranks = [1 if r == 14 else r for r in range(start, start + 5)]
        if all(r in by_rank for r in ranks):
            top = by_rank[ranks[-1]]
            for pick in product(*(by_rank[r] for r in ranks[:-1])):
                suits = {card.suit for card in pick}
                for card in top:
                    if len(suits) > 1 or card.suit not in suits:  # else a straight flush
                        found.append(((1, start, SUIT_ORDER[card.suit]), [*pick, card]))
    return found


def all_plays(hand: list[FrenchCard], size: int | None) -> list[tuple[tuple, list[FrenchCard]]]:
    """Every combination a hand can make (each set of cards once) as (size, category, key)
    and cards; only those of `size` cards if given."""
    found: list[tuple[tuple, list[FrenchCard]]] = []
    if size in (None, 1):
        found += [((1, 0, value(card)), [card]) for card in hand]
    by_rank: dict[Rank, list[FrenchCard]] = {}
    for card in hand:
        by_rank.setdefault(rank_of(card), []).append(card)
    for rank, group in by_rank.items():
        for width in (2, 3):
            if size in (None, width) and len(group) >= width:
                found += [
                    (
                        (width, 0, rank_order(rank), max(SUIT_ORDER[c.suit] for c in cards)),
                        list(cards),
                    )
                    for cards in combinations(group, width)
                ]
    if size in (None, 5):
        found += [((5, *kind), cards) for kind, cards in five_card_plays(hand)]
    return found


def legal_plays(
    hand: list[FrenchCard], to_beat: list[FrenchCard] | None, must_include: FrenchCard | None = None
) -> list[list[FrenchCard]]:
    """Every play `hand` may make against `to_beat` (None or empty: a free lead), lowest first.
    `must_include` is the lowest card on the first lead of a hand."""
    target = classify(to_beat) if to_beat else None
    plays = all_plays(hand, target.size if target else None)
    if target is not None:
        floor = (target.size, target.category, *target.key)
        plays = [play for play in plays if play[0] > floor]
    if must_include is not None:
        plays = [play for play in plays if must_include in play[1]]
    # The cards themselves break ties, so the order (which random players and replays
    # depend on) is the same in every process, whatever the hash seed.
    keyed = [(kind, sorted(map(value, cards)), cards) for kind, cards in plays]
    keyed.sort(key=lambda item: (item[0], item[1]))
    return [sorted(cards, key=value) for _, _, cards in keyed]


def cards_left_points(count: int) -> int:
    if count == HAND_SIZE:
        return 3 * count
    return 2 * count if count >= 10 else count


def check_play(
    cards: list[FrenchCard], to_beat: list[FrenchCard], must_include: FrenchCard | None
) -> None:
    """Raise IllegalAction with the reason unless `cards` may be played on `to_beat` (the
    engine's verify and the player's preview of a pick both ask this)."""
    combo = classify(cards)
    if must_include is not None and must_include not in cards:
        raise IllegalAction(
            _("The first play must include the lowest card, {card}.", card=must_include.label)
        )
    if to_beat:
        target = classify(to_beat)
        if combo.size != target.size:
            raise IllegalAction(
                n_(
                    "Play {count} card to beat {combination}.",
                    "Play {count} cards to beat {combination}.",
                    target.size,
                    combination=target.name,
                )
            )
        if not combo.beats(target):
            shown = " ".join(card.label for card in to_beat)
            raise IllegalAction(
                _(
                    "{combination} does not beat {cards}.",
                    combination=upper_first(combo.name),
                    cards=shown,
                )
            )


class BigTwoKind(DecisionKind):
    """Big Two's one decision: a play (or a pass) on the trick."""

    PLAY = "play"


class BigTwoOptions(BaseModel):
    target: int = Field(default=100, ge=10, le=500, description="Score that ends the game")


BigTwoAction = Annotated[Play | Pass, Field(discriminator="kind")]


class HandStarted(BaseHandStarted):
    """A deal: who leads. Not which card is lowest: with fewer than four players that card
    is in the leader's hand, hidden from the others until it is played."""

    leader: int


class BigTwoView(BaseModel):
    hand: int
    phase: str
    counts: list[int]  # cards each player holds (always public)
    scores: list[int]
    target: int
    to_beat: list[FrenchCard]
    last_player: int | None
    turn: int | None
    first_play: bool  # the first play of the hand must include the lowest card dealt
    must_include: FrenchCard | None = None  # that card, for its holder only
    my_cards: list[FrenchCard] | None = None
    played: list[FrenchCard] = []  # every card played this hand (all shown on the table)


class BigTwoState(HandAfterHand):
    options: BigTwoOptions
    phase: Literal["playing", "between", "over"] = "playing"
    hands: list[list[FrenchCard]] = []
    unused: list[FrenchCard] = []  # not dealt when fewer than four play
    played: list[FrenchCard] = []
    scores: list[int] = []
    climb: Climb | None = None
    opening: FrenchCard | None = None  # the lowest card, until it has been played
    last_left: list[int] = []  # cards each player held when the last hand ended

    @property
    def climbing(self) -> Climb:
        """The hand's climb (the last hand's between hands)."""
        assert self.climb is not None  # dealt when the match is made
        return self.climb

    def start_hand(self) -> list[Event]:
        deck = self.rng.shuffled(french_deck())
        order = [(self.dealer + 1 + i) % self.seat_count for i in range(self.seat_count)]
        self.hands = [[] for _ in range(self.seat_count)]
        for index, seat in enumerate(order):
            self.hands[seat] = sorted(deck[index * HAND_SIZE : (index + 1) * HAND_SIZE], key=value)
        self.unused, self.played = deck[self.seat_count * HAND_SIZE :], []
        self.opening = min((c for hand in self.hands for c in hand), key=value)
        leader = next(s for s in range(self.seat_count) if self.opening in self.hands[s])
        self.climb = Climb(seats=list(range(self.seat_count)), turn=leader)
        self.phase = "playing"
        return [HandStarted(hand=self.hand, leader=leader)]

    # ---- the protocol -------------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase != "playing":
            return []
        prompt = (
            _("Lead anything")
            if self.climbing.free_lead
            else _("Beat {combination} or pass", combination=classify(self.climbing.to_beat).name)
        )
        return [Decision(seat=self.climbing.turn, kind=BigTwoKind.PLAY, prompt=prompt)]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase != "playing" or seat != self.climbing.turn:
            return []
        plays: list[Action] = [
            Play(cards=cards)
            for cards in legal_plays(self.hands[seat], self.climbing.to_beat, self.opening)
        ]
        return plays if self.climbing.free_lead else [Pass(), *plays]

    def verify(self, seat: int, action: Action) -> None:
        """Judge a play by what it is (not by listing every legal play), with the reason."""
        if self.phase != "playing":
            raise IllegalAction(
                _("This hand is over.") if self.phase == "between" else _("This game is over.")
            )
        if seat != self.climbing.turn:
            raise IllegalAction(_("It is not your turn to act."))
        if isinstance(action, Pass):
            if self.climbing.free_lead:
                raise IllegalAction(_("You lead this trick: play something."))
            return
        if not isinstance(action, Play):
            raise IllegalAction(_("That move is not allowed right now."))
        if not set(action.cards) <= set(self.hands[seat]):
            raise IllegalAction(_("You don't hold those cards."))
        check_play(action.cards, self.climbing.to_beat, self.opening)

    def default_action(self, seat: int) -> Action:
        """Pass; on a free lead, the single lowest card."""
        if not self.climbing.free_lead:
            return Pass()
        return Play(cards=[min(self.hands[seat], key=value)])

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Pass):
            return self.climbing.passed(seat)
        assert isinstance(action, Play)  # verify lets only a Pass or a Play through
        cards = action.cards
        for card in cards:
            self.hands[seat].remove(card)
        self.played += cards
        self.opening = None
        self.climbing.played(seat, cards)
        combo = classify(cards)
        events: list[Event] = [
            Played(seat=seat, cards=cards, combination=combo.name, left=len(self.hands[seat]))
        ]
        return events + (self.end_hand(seat) if not self.hands[seat] else [])

    def end_hand(self, winner: int) -> list[Event]:
        self.last_left = [len(hand) for hand in self.hands]
        points = [cards_left_points(left) for left in self.last_left]
        self.scores = [total + p for total, p in zip(self.scores, points, strict=True)]
        players = list(range(self.seat_count))
        events: list[Event] = [
            HandEnded(
                hand=self.hand,
                players=players,
                net_chips=[0] * self.seat_count,
                scores=list(points),
                winners=[winner],
            )
        ]
        if max(self.scores) >= self.options.target:
            self.phase = "over"
            return [*events, self.standings()]
        self.phase = "between"
        return events

    def standings(self) -> MatchEnded:
        """Lowest score first; a tie goes to whoever held fewer cards when the last hand ended,
        and players tied on both share the place."""
        left = self.last_left or [0] * self.seat_count
        keys = list(zip(self.scores, left, strict=True))
        ranked = sorted(keys)
        return MatchEnded(
            placings=[ranked.index(key) + 1 for key in keys], scores=list(self.scores)
        )

    def final_standings(self) -> MatchEnded:
        """A game cut short (a player left) is ranked on the scores so far, like a finished one."""
        return self.standings()

    def view(self, viewer: Viewer) -> BigTwoView:
        climb = self.climbing if self.phase == "playing" else None
        to_beat = climb.to_beat if climb else []
        view = BigTwoView(
            hand=self.hand,
            phase=self.phase,
            counts=[len(hand) for hand in self.hands],
            scores=self.scores,
            target=self.options.target,
            to_beat=to_beat,
            last_player=climb.last_player if climb else None,
            turn=climb.turn if climb else None,
            first_play=self.opening is not None,
            played=self.played,
        )
        if viewer is not None:
            view.my_cards = self.hands[viewer]
            if self.opening in self.hands[viewer]:  # who holds the lowest card is private
                view.must_include = self.opening
        return view

    def all_cards(self) -> list[FrenchCard]:
        return [c for hand in self.hands for c in hand] + self.unused + self.played

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        hidden = set(self.unused)
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden |= set(hand)
        return hidden


def new_big_two(
    options: BigTwoOptions, stacks: list[int], rng: Rng
) -> tuple[BigTwoState, list[Event]]:
    state = BigTwoState(rng=rng, seat_count=len(stacks), options=options, scores=[0] * len(stacks))
    return state, state.start_hand()
