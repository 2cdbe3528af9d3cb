"""Calabrasella's AI: declares when its hand should make the defenders pay, names the 3 that
makes the most of its hand, gives back and discards its worst cards, takes the widow's best,
and plays the tricks with the shared trick sense (bot/games/tricks_ai.py), searching the last
three to the end: the last trick scores 3 and the set-aside cards.

Bidding: a linear estimate of the payment (`expected_payment`), fitted to self-play hands
declared by the first bidder whatever they held, from the hand's sure winners, 2s, aces,
longest suit and voids.

Exchanging: a hand is valued card by card as the declarer would play it (`hand_value`): a card
is a likely winner when the cards above it that others may hold are no more than its own
cards above it in the suit (3 2 A over a lone K, say), a long suit's low cards win once the
others run out, and a loser's points go to the defenders. Cards worth less than a widow card
would be on average are discarded; the widow cards that add most are taken.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations

from bot.cards import FrenchCard, Rank, Suit, italian_deck
from bot.engine import Action, Decision, GameState, Policy
from bot.games.ai import in_rollout
from bot.games.calabrasella.cards import (
    LAST_TRICK,
    MAX_DISCARD,
    ORDER,
    PLAYERS,
    RULES,
    SUITS,
    card_points,
    nameable,
)
from bot.games.calabrasella.records import (
    CalabrasellaKind,
    CalabrasellaView,
    Declare,
    Discard,
    GiveBack,
    Name,
    Pass,
    PlayCard,
    Take,
)
from bot.games.calabrasella.rules import CalabrasellaState
from bot.games.jokerless import suit_of
from bot.games.tricks import TrickPlay
from bot.games.tricks_ai import Table, choose_card
from bot.games.tricks_expert import deal_as_play_shows, quick_card, rank_cards

DECK = frozenset(italian_deck())
FUTURE_TRICK = 2.2  # two cards at 0.8 points and a share of the last trick's 3
ENDGAME_CARDS = 3  # the last three tricks are searched to the end (the last one scores 3)


def power(card: FrenchCard) -> int:
    return RULES.power(card)


SUIT_POWERS = {suit: [(card, power(card)) for card in DECK if card.suit == suit] for suit in SUITS}


@lru_cache(maxsize=1 << 14)
def suit_value(held: tuple[FrenchCard, ...], others: tuple[int, ...]) -> float:
    """The points a suit's cards should take for the declarer. A card is a likely winner when
    the cards above it that others may hold (`others`: their powers) are no more than the
    declarer's own above it; a long suit's low cards win once the others run out."""
    value = 0.0
    for above, card in enumerate(sorted(held, key=power, reverse=True)):
        others_above = sum(p > power(card) for p in others)
        if others_above == 0:
            wins = 1.0
        elif others_above <= above:
            wins = 0.75
        else:
            wins = 0.35 ** (others_above - above)
            if len(held) >= 5 and len(held) > len(others):
                wins = max(wins, 0.6)
        points = card_points(card)
        value += wins * (FUTURE_TRICK + points) - (1 - wins) * points
    return value


# Keyed by a card's `suit` (None only for a joker, which Calabrasella doesn't deal).
Parts = dict[Suit | None, tuple[tuple[FrenchCard, ...], tuple[int, ...]]]


def split(hand: list[FrenchCard], out: frozenset[FrenchCard] = frozenset()) -> Parts:
    """Per suit: the declarer's cards, and the powers of those others may hold."""
    mine = set(hand)
    return {
        suit: (
            tuple(card for card, _ in cards if card in mine),
            tuple(p for card, p in cards if card not in mine and card not in out),
        )
        for suit, cards in SUIT_POWERS.items()
    }


def hand_value(hand: list[FrenchCard], out: frozenset[FrenchCard] = frozenset()) -> float:
    """The declarer's points this hand should take: each likely winner a trick's worth, each
    card's own points kept if it wins or given away if it loses. `out`: cards out of play."""
    return sum(suit_value(held, others) for held, others in split(hand, out).values())


def worths(hand: list[FrenchCard]) -> dict[FrenchCard, float]:
    """What the hand loses without each of its cards (set aside, out of play)."""
    parts = split(hand)
    worth = {}
    for card in hand:
        held, others = parts[card.suit]
        rest = tuple(c for c in held if c != card)
        worth[card] = suit_value(held, others) - suit_value(rest, others)
    return worth


def widow_gain(hand: list[FrenchCard]) -> float:
    """What an unknown card from the widow adds to the hand, on average."""
    parts = split(hand)
    gains = []
    for card in DECK - set(hand):
        held, others = parts[card.suit]
        rest = tuple(p for p in others if p != power(card))
        gains.append(suit_value((*held, card), rest) - suit_value(held, others))
    return sum(gains) / len(gains)


def best_name(hand: list[FrenchCard]) -> FrenchCard:
    return names(hand)[0]


def names(hand: list[FrenchCard]) -> list[FrenchCard]:
    """The cards the hand may name, the one that makes the most of it first."""
    return sorted(
        nameable(hand),
        key=lambda card: (hand_value([*hand, card]), suit_of(card).value),
        reverse=True,
    )


def top_sequences(hand: list[FrenchCard]) -> int:
    """Sure winners: the cards running down from the 3 of each suit (3, 3 2, 3 2 A...)."""
    held = set(hand)
    sure = 0
    for suit in SUITS:
        for rank in ORDER:
            if FrenchCard(rank, suit) not in held:
                break
            sure += 1
    return sure


def expected_payment(hand: list[FrenchCard]) -> float:
    """What each defender should pay a declarer with this hand (negative: be paid), fitted
    (least squares) to self-play hands: the hand with the card it would name, its sure
    winners, 2s and aces, its longest suit, and voids (which cost: no trumps to ruff with)."""
    if nameable(hand):
        hand = [*hand, best_name(hand)]
    suits = [[card for card in hand if card.suit == suit] for suit in SUITS]
    return (
        -33.6
        + 3.65 * top_sequences(hand)
        + 4.2 * sum(card.rank == Rank.TWO for card in hand)
        + 1.4 * sum(card.rank == Rank.ACE for card in hand)
        + 2.2 * max(map(len, suits))
        - 3.3 * sum(not cards for cards in suits)
    )


def worst(cards: list[FrenchCard], hand: list[FrenchCard]) -> FrenchCard:
    return by_worth(cards, hand)[0]


def by_worth(cards: list[FrenchCard], hand: list[FrenchCard]) -> list[FrenchCard]:
    """`cards`, the one the hand misses least first."""
    worth = worths(hand)
    return sorted(cards, key=lambda c: (worth[c], power(c), suit_of(c).value))


def discards(view: CalabrasellaView) -> list[FrenchCard]:
    """The cards worth less than a card from the widow would be on average: one at least (it
    takes back a named card lost in the widow), four at most."""
    assert view.my_cards is not None  # a policy gets its own seat's view
    hand = list(view.my_cards)
    lost = view.named_card if view.holder is None else None  # lies in the widow: taken back
    planned = [*hand, lost] if lost else hand
    worth = worths(planned)
    by_worth = sorted(hand, key=lambda c: (worth[c], power(c), suit_of(c).value))
    gain = widow_gain(planned)
    chosen = [by_worth[0]]
    for card in by_worth[1:MAX_DISCARD]:
        if worth[card] >= gain:
            break
        chosen.append(card)
    return chosen


def takes(view: CalabrasellaView) -> list[FrenchCard]:
    return list(widow_choices(view)[0])


def widow_choices(view: CalabrasellaView) -> list[tuple[FrenchCard, ...]]:
    """The ways to take from the widow, the one that makes the most of the hand first."""
    # The declarer's own view, once it has discarded and turned the widow up.
    assert view.my_cards is not None and view.widow is not None and view.my_discards is not None
    hand, widow = list(view.my_cards), list(view.widow)
    out = frozenset(view.my_discards)

    def value(chosen: tuple[FrenchCard, ...]) -> float:
        left = frozenset(c for c in widow if c not in chosen)
        return hand_value([*hand, *chosen], out | left)

    return sorted(combinations(widow, view.to_take), key=value, reverse=True)


def table_for(view: CalabrasellaView, seat: int, quick: bool = False) -> Table:
    """The seat's Table; `quick`: without the finished tricks, which only the Standard play
    reads (the quick play of the Expert's playouts needs only the cards they leave unseen)."""
    declarer = view.declarer
    # The seat's own view, in the play: a declarer, the seat's cards and those it may play.
    assert declarer is not None and view.my_cards is not None and view.legal is not None
    trick = [TrickPlay(seat=p.seat, card=p.card) for p in view.trick]
    history = [] if quick else [TrickPlay(seat=p.seat, card=p.card) for p in view.played]
    seen = {p.card for p in view.played} | {p.card for p in trick} | set(view.widow or [])
    mine = set(view.my_cards)
    own_discards = set(view.my_discards or [])
    known = {card: declarer for card in view.taken}
    if seat == declarer and view.given_back is not None:
        assert view.holder is not None  # a card is given back to the seat that handed one
        known[view.given_back] = view.holder
    elif view.named_card is not None and seat != declarer:
        known[view.named_card] = declarer
    return Table(
        rules=RULES,
        points=card_points,
        seat=seat,
        seats=range(PLAYERS),
        side_of=lambda s: 0 if s == declarer else 1,
        hand=view.my_cards,
        legal=view.legal,
        trick=trick,
        history=history,
        counts=view.counts,
        unseen=DECK - seen - mine - own_discards,
        elsewhere=0 if seat == declarer else view.discard_count,
        known=known,
        future_trick=FUTURE_TRICK,
        last_bonus=LAST_TRICK + sum(map(card_points, [*(view.widow or []), *own_discards])),
        last_takes_unseen=True,
        endgame_cards=ENDGAME_CARDS,
    )


class CalabrasellaPolicy(Policy[CalabrasellaView]):
    game_id = "calabrasella"

    def choose(
        self,
        seat: int,
        view: CalabrasellaView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        assert view.my_cards is not None  # of its own seat
        hand = list(view.my_cards)
        match decision.kind:
            case CalabrasellaKind.BIDDING:
                return Declare() if expected_payment(hand) > 0 else Pass()
            case CalabrasellaKind.NAMING:
                return Name(card=best_name(hand))
            case CalabrasellaKind.GIVING_BACK:
                candidates = [c for c in hand if c != view.named_card]
                return GiveBack(card=worst(candidates, hand))
            case CalabrasellaKind.DISCARDING:
                return Discard(cards=discards(view))
            case CalabrasellaKind.TAKING:
                return Take(cards=takes(view))
        if in_rollout():  # an Expert's playout: its many worlds make up for quick rules
            return PlayCard(card=quick_card(table_for(view, seat, quick=True)))
        return PlayCard(card=choose_card(table_for(view, seat), rng))

    def ranked(
        self,
        seat: int,
        view: CalabrasellaView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """The Standard choice first, then the others by the values that chose it; a
        discard (its sets of cards not listed) is not compared."""
        assert view.my_cards is not None  # of its own seat
        hand = list(view.my_cards)
        match decision.kind:
            case CalabrasellaKind.BIDDING:
                return [Declare(), Pass()] if expected_payment(hand) > 0 else [Pass(), Declare()]
            case CalabrasellaKind.NAMING:
                return [Name(card=card) for card in names(hand)]
            case CalabrasellaKind.GIVING_BACK:
                candidates = [c for c in hand if c != view.named_card]
                return [GiveBack(card=card) for card in by_worth(candidates, hand)]
            case CalabrasellaKind.DISCARDING:
                return [Discard(cards=discards(view))]
            case CalabrasellaKind.TAKING:
                return [Take(cards=list(chosen)) for chosen in widow_choices(view)]
        table = table_for(view, seat)
        return [PlayCard(card=card) for card in rank_cards(table, choose_card(table, rng))]

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """In the play, the hidden hands (and discards) dealt again as the play allows."""
        assert isinstance(world, CalabrasellaState)
        if world.phase == "playing":
            table = table_for(world.view(seat), seat)
            deal_as_play_shows(table, world.hands, world.discards, rng)
