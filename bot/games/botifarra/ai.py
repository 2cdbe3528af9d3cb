"""Botifarra's AI: chooses trumps for the most points, doubles on strength against the
contract named, and plays the tricks with the shared trick sense (bot/games/tricks_ai.py).

Choosing: each suit is valued as trumps (its length and honours, the side suits' nines, aces
and kings, short suits to ruff with), the hand as botifarra (nines, aces, kings, long suits
they head), and passing the choice as what the hand brings to the partner's choice. Each value
estimates the points over 36 the side will take, with weights fitted to self-play hands (every
choice of the same deals played out); botifarra counts double, as it scores double. The
highest value is chosen.

Doubling: a player asked, in turn, estimates its side's excess over 36 in the contract from
its own hand; it doubles at +4, redoubles at +8 and re-redoubles at +10.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.cards import FrenchCard, Rank, Suit, spanish_deck
from bot.engine import Action, Decision, GameState, Policy
from bot.games.ai import in_rollout
from bot.games.botifarra.records import (
    BotifarraKind,
    BotifarraView,
    ChooseTrumps,
    Double,
    NoDouble,
    PassChoice,
    PlayCard,
)
from bot.games.botifarra.rules import (
    HALF,
    RULES,
    SEATS,
    SUIT_ORDER,
    BotifarraState,
    card_points,
    partner_of,
    side_of,
)
from bot.games.tricks_ai import Table, choose_card
from bot.games.tricks_expert import deal_as_play_shows, quick_card, rank_cards

DECK = frozenset(spanish_deck())
TRICK_BONUS = 1
FUTURE_TRICK = 4.75  # a trick's point and three cards at 1.25 points on average
DOUBLE_AT = (4.0, 8.0, 10.0)  # the excess over 36 a side must expect to double, and so on
# What a hand's whole 36 points of margin add to an Expert playout's value, against the 5/6
# between a hand won and lost (bot/games/expert.py `hand_value`): it parts moves that tie.
MARGIN = 0.1


@dataclass(frozen=True)
class Suited:
    """One suit of a hand, for valuing a contract."""

    length: int
    nine: bool
    ace: bool
    king: bool
    lesser_honours: int  # the queen and the jack

    @classmethod
    def of(cls, cards: list[FrenchCard], suit: Suit) -> Suited:
        ranks = {card.rank for card in cards if card.suit == suit}
        return cls(
            length=len(ranks),
            nine=Rank.NINE in ranks,
            ace=Rank.ACE in ranks,
            king=Rank.KING in ranks,
            lesser_honours=(Rank.QUEEN in ranks) + (Rank.JACK in ranks),
        )


# The weights below were fitted (least squares) to the trick points over 36 that self-play
# hands gave the dealer's side, for each possible choice of the same deals.


def suits_of(cards: list[FrenchCard]) -> dict[Suit, Suited]:
    """A hand, suit by suit: each value below reads every suit, some for each choice."""
    return {suit: Suited.of(cards, suit) for suit in SUIT_ORDER}


def trumps_value(suits: dict[Suit, Suited], trump: Suit) -> float:
    """The points over 36 the chooser's side should take with `trump` as trumps."""
    held = suits[trump]
    value = (
        -14.4
        + 1.4 * held.length
        + 2.3 * max(0, held.length - 4)
        + 5.9 * held.nine
        + 3.8 * held.ace
        + 2.2 * held.king
        + 1.7 * held.lesser_honours
    )
    for suit in SUIT_ORDER:
        if suit != trump:
            side = suits[suit]
            value += 5.1 * side.nine + (0.4 if side.nine else 1.7) * side.ace
            value += 0.7 * side.king + 0.4 * (side.length <= 1)
    return value


def botifarra_value(suits: dict[Suit, Suited]) -> float:
    """The same without trumps: nines, aces (less behind their nine), kings, and the long
    suits that a nine and an ace head."""
    value = -9.8
    for suit in SUIT_ORDER:
        held = suits[suit]
        value += 5.1 * held.nine + (2.3 if held.nine else 4.0) * held.ace + 1.8 * held.king
        if held.nine and held.ace:
            value += 1.5 * max(0, held.length - 3)
    return value


def passing_value(suits: dict[Suit, Suited]) -> float:
    """The same when the partner chooses: what this hand brings to whatever they name."""
    return (
        -4.8
        + sum(5.0 * held.nine + 2.1 * held.ace + 1.3 * held.king for held in suits.values())
        + 0.4 * max(held.length for held in suits.values())
    )


def choose_trumps(view: BotifarraView) -> Action:
    """The choice worth the most: a score counts the excess times the multiplier, and
    botifarra doubles it."""
    return ranked_choices(view)[0][1]


def ranked_choices(view: BotifarraView) -> list[tuple[float, Action]]:
    """Every choice open to the seat with its value, the most valued first (the first of
    equals as listed: the suits in order, botifarra, passing)."""
    assert view.my_cards is not None  # a policy gets its own seat's view
    return choices_for(list(view.my_cards), passed=view.passed)


def choices_for(cards: list[FrenchCard], *, passed: bool) -> list[tuple[float, Action]]:
    """`ranked_choices` for a hand of `cards` (`passed`: the partner passed the choice)."""
    suits = suits_of(cards)
    choices: list[tuple[float, Action]] = [
        (trumps_value(suits, suit), ChooseTrumps(suit=suit)) for suit in SUIT_ORDER
    ]
    choices.append((2 * botifarra_value(suits), ChooseTrumps(suit=None)))
    if not passed:
        choices.append((passing_value(suits), PassChoice()))
    return sorted(choices, key=lambda choice: -choice[0])


def own_excess(view: BotifarraView) -> float:
    """The points over 36 the seat's side should take in the contract named, judged from its
    hand as a chooser would, with the offset fitted for its role: the choosing side chose
    knowing its hands (+4.5 in trumps, +7.5 in botifarra), the defenders did not (-1, -4)."""
    assert view.seat is not None and view.my_cards is not None  # its own seat's view
    suits = suits_of(list(view.my_cards))
    choosing = side_of(view.seat) == side_of(view.dealer)
    if view.trump is None:
        return botifarra_value(suits) + (7.5 if choosing else -4.0)
    return trumps_value(suits, view.trump) + (4.5 if choosing else -1.0)


def answer_double(view: BotifarraView) -> Action:
    """Double when the side should win the hand by a margin: more of one to redouble after
    the opponents doubled, and again to re-redouble."""
    return Double() if own_excess(view) >= DOUBLE_AT[view.doublings] else NoDouble()


def table_for(view: BotifarraView) -> Table:
    """The trick sense's table for the seat whose view this is (its legal cards listed
    while it plays; none while trumps are doubled, when only the Expert's worlds ask)."""
    assert view.seat is not None and view.my_cards is not None  # a policy's own seat's view
    trick = view.trick.plays if view.trick else []
    seen = {play.card for play in [*view.played, *trick]}
    mine = set(view.my_cards)
    return Table(
        rules=RULES,
        points=card_points,
        seat=view.seat,
        seats=range(SEATS),
        side_of=side_of,
        hand=view.my_cards,
        legal=view.my_legal or [],
        trick=trick,
        history=view.played,
        counts=view.counts,
        unseen=DECK - seen - mine,
        trump=view.trump,
        trick_bonus=TRICK_BONUS,
        future_trick=FUTURE_TRICK,
        draw_trumps=view.trump is not None and side_of(view.seat) == side_of(view.dealer),
    )


class BotifarraPolicy(Policy[BotifarraView]):
    game_id = "botifarra"

    def choose(
        self,
        seat: int,
        view: BotifarraView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if decision.kind == BotifarraKind.TRUMPS:
            return choose_trumps(view)
        if decision.kind == BotifarraKind.DOUBLE:
            return answer_double(view)
        if in_rollout():  # an Expert's playout: its many worlds make up for quick rules
            return PlayCard(card=quick_card(table_for(view)))
        return PlayCard(card=choose_card(table_for(view), rng))

    def ranked(
        self,
        seat: int,
        view: BotifarraView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """The Standard choice first, then the others by the values that chose it."""
        if decision.kind == BotifarraKind.TRUMPS:
            return [action for _, action in ranked_choices(view)]
        if decision.kind == BotifarraKind.DOUBLE:
            pick = answer_double(view)
            return [pick, NoDouble() if isinstance(pick, Double) else Double()]
        table = table_for(view)
        return [PlayCard(card=card) for card in rank_cards(table, choose_card(table, rng))]

    def playout_margin(self, world: GameState, seat: int) -> float:
        """The side's trick points over 36, a little of them (`MARGIN`): a playout's hand is
        otherwise only won or lost, so most moves would tie and be dropped as no better."""
        assert isinstance(world, BotifarraState)
        return MARGIN * (world.points()[side_of(seat)] - HALF) / HALF

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """Once trumps are named, the hidden hands dealt again as the play so far allows and
        as the choice of trumps suggests (`fits_the_choice`)."""
        assert isinstance(world, BotifarraState)
        if world.phase in ("double", "play"):
            table = table_for(world.view(seat))
            deal_as_play_shows(table, world.hands, [], rng, fits_the_choice(world, seat))


def fits_the_choice(
    world: BotifarraState, seat: int
) -> Callable[[dict[int, list[FrenchCard]]], bool]:
    """Whether hidden hands, as dealt, are ones the Standard AI would have made the hand's
    choice with: the chooser's choice its best, and a dealer who passed the choice better
    off passing. Each hand as it was dealt: the cards it holds and those it has played."""
    played: dict[int, list[FrenchCard]] = {s: [] for s in range(SEATS)}
    for play in [*world.played, *(world.trick.plays if world.trick else [])]:
        played[play.seat].append(play.card)
    named = ChooseTrumps(suit=world.trump)
    dealer = partner_of(world.chooser) if world.passed else None

    def fits(dealt: dict[int, list[FrenchCard]]) -> bool:
        def best(who: int, passed: bool) -> Action:
            return choices_for([*dealt[who], *played[who]], passed=passed)[0][1]

        if world.chooser in dealt and best(world.chooser, world.passed) != named:
            return False
        return dealer not in dealt or isinstance(best(dealer, False), PassChoice)

    return fits
