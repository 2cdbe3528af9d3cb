"""The trick AIs' part in the Expert search (bot/games/expert.py): which cards it compares, and
a quick card play for its playouts.

- `rank_cards`: the legal cards best first, by the trick sense's own scores (`follow_score`),
  the policy's pick first, one of each set of cards that play alike (`play_alike`); with the
  endgame's few cards, the pick alone, as the policy's own search of the play to the end
  already weighs every card better than playouts would.
- `deal_as_play_shows`: a world of the Expert's (its hidden cards dealt at random) dealt
  again so that it fits what the play proves (`read_play`: a seat that did not follow holds
  none of the suit...), as the endgame's deals do: the search then never plays against hands
  the play has ruled out.
- `quick_card`: what every seat plays in the Expert's playouts (`in_rollout()`), thousands of
  cards a decision: a few rules over the cards still unseen, with none of the Standard play's
  reading of the tricks or odds (most of a playout's time). It takes a trick with its cheapest
  sure winner (keeping it, for a trick of few points a partner may still take), loads points
  on its side's sure trick, throws its cheapest card otherwise, and leads trumps while
  drawing them, masters of suits the others likely follow, or low from its longest suit.

Pure functions of the Table, as the Standard play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.cards import FrenchCard, Suit
from bot.games.tricks import TrickPlay, beats
from bot.games.tricks_ai import (
    NOWHERE,
    Table,
    cheapness,
    follow_score,
    sample_deal,
    where_unseen,
)

# A trick holding at least this many points on the table is worth an unsure winner.
CONTEST_POINTS = 2
# A suit with this many cards unseen is likely followed by the others: its master is cashed.
LIKELY_FOLLOWED = 2


def rank_cards(table: Table, pick: FrenchCard) -> list[FrenchCard]:
    """`pick` (the policy's card), then the other legal cards by `follow_score`, best first,
    one card of each kind that plays alike; the pick alone when the policy searches the play
    to the end itself."""
    if len(table.hand) <= table.endgame_cards:
        return [pick]
    others = [card for card in table.legal if card != pick]
    scores = {card: follow_score(table, card) for card in others}
    ranked: list[FrenchCard] = []
    kinds: set[tuple[Suit | None, int, int]] = set()
    for card in [pick, *sorted(others, key=lambda card: -scores[card])]:
        kind = play_alike(table, card)
        if kind not in kinds:
            kinds.add(kind)
            ranked.append(card)
    return ranked


def play_alike(table: Table, card: FrenchCard) -> tuple[Suit | None, int, int]:
    """Cards of a suit with the same points and no other player's card between them (only
    the seat's own or cards of finished tricks) take the same tricks: the search would spend
    its worlds on their ties. Their kind: the suit, the points, and the live cards below."""
    live = [*table.unseen, *(play.card for play in table.trick)]
    below = sum(
        other.suit == card.suit and table.power(other) < table.power(card) for other in live
    )
    return card.suit, table.points(card), below


# A deal the bidding makes unlikely (the chooser would have named other trumps) stays this
# often: the bidding was a person's, or an AI's judgement that a few cards could sway.
UNLIKE_THE_BIDDING = 0.05
BIDDING_TRIES = 24  # deals tried at most for one that fits the bidding (a quarter or so do)


def deal_as_play_shows(
    table: Table,
    hands: list[list[FrenchCard]],
    aside: list[FrenchCard],
    rng: random.Random,
    bidding: Callable[[dict[int, list[FrenchCard]]], bool] | None = None,
) -> None:
    """Deal the cards unseen by `table`'s seat again, in place, into the other seats' `hands`
    and `aside` (the unseen cards in no hand), each where the play allows it; left as they
    are when the counts disagree or no fitting deal is found. With `bidding` (whether the
    seats' hidden cards, as dealt, fit what they bid), deals that don't fit are tried again
    but for one in `UNLIKE_THE_BIDDING`; after `BIDDING_TRIES`, the last one stands."""
    room, places = where_unseen(table)
    if sum(room.values()) != len(places):
        return
    dealt = sample_deal(room, places, rng)
    for _ in range(BIDDING_TRIES - 1 if bidding else 0):
        if dealt is None or bidding is None or bidding(dealt):
            break
        if rng.random() < UNLIKE_THE_BIDDING:
            break
        dealt = sample_deal(room, places, rng)
    if dealt is None:
        return
    for seat, cards in dealt.items():
        if seat != NOWHERE:
            hands[seat][:] = cards
        elif cards:
            aside[:] = cards


class Unseen:
    """Per suit, the highest power and the number of the cards the seat has not seen."""

    def __init__(self, table: Table) -> None:
        self.top: dict[Suit | None, int] = {}
        self.count: dict[Suit | None, int] = {}
        for card in table.unseen:
            suit = card.suit
            self.top[suit] = max(self.top.get(suit, 0), table.power(card))
            self.count[suit] = self.count.get(suit, 0) + 1

    def master(self, table: Table, card: FrenchCard) -> bool:
        """No unseen card of its suit is higher."""
        return table.power(card) > self.top.get(card.suit, 0)

    def holds(self, table: Table, card: FrenchCard) -> bool:
        """`card`, winning a trick, stays winning whoever plays next: a master that no
        unseen trump can ruff."""
        trump = table.trump
        ruffable = trump is not None and card.suit != trump and self.count.get(trump, 0) > 0
        return self.master(table, card) and not ruffable


def quick_card(table: Table) -> FrenchCard:
    """The card a seat plays in the Expert's playouts (see the module's text)."""
    legal = table.legal
    if len(legal) == 1:
        return legal[0]
    unseen = Unseen(table)
    if not table.trick:
        return _quick_lead(table, unseen)
    return _quick_follow(table, unseen)


def _cheapest(table: Table, cards: Sequence[FrenchCard]) -> FrenchCard:
    return min(cards, key=lambda card: cheapness(table, card))


def _winning(table: Table) -> TrickPlay:
    best = table.trick[0]
    for play in table.trick[1:]:
        if beats(play.card, best.card, table.rules, table.trump):
            best = play
    return best


def _quick_follow(table: Table, unseen: Unseen) -> FrenchCard:
    legal = table.legal
    best = _winning(table)
    opponents_later = any(not table.partner(seat) for seat in table.later_seats())
    if table.partner(best.seat):
        if not opponents_later or unseen.holds(table, best.card):
            return _load(table, unseen)
        return _cheapest(table, legal)
    winners = [card for card in legal if beats(card, best.card, table.rules, table.trump)]
    if not winners:
        return _cheapest(table, legal)
    if not opponents_later:
        return _cheapest(table, winners)
    contested = sum(table.points(play.card) for play in table.trick) >= CONTEST_POINTS
    partner_later = any(table.partner(seat) for seat in table.later_seats())
    sure = [card for card in winners if unseen.holds(table, card)]
    if sure and (contested or not partner_later):  # else a master is kept for richer tricks
        return _cheapest(table, sure)
    if contested:
        return max(winners, key=lambda card: (card.suit != table.trump, table.power(card)))
    return _cheapest(table, legal)


def _load(table: Table, unseen: Unseen) -> FrenchCard:
    """The most points on a trick its side takes, keeping masters, which take tricks later."""
    spare = [card for card in table.legal if not unseen.master(table, card)] or list(table.legal)
    richest = max(spare, key=lambda card: (table.points(card), -table.power(card)))
    return richest if table.points(richest) > 0 else _cheapest(table, table.legal)


def _quick_lead(table: Table, unseen: Unseen) -> FrenchCard:
    legal = table.legal
    trump = table.trump
    trumps = [card for card in legal if card.suit == trump]
    if table.draw_trumps and trumps and unseen.count.get(trump, 0):
        masters = [card for card in trumps if unseen.master(table, card)]
        if masters:
            return max(masters, key=table.power)
        if len(trumps) >= unseen.count[trump]:
            return min(trumps, key=table.power)
    cashable = [card for card in legal if card.suit != trump and unseen.holds(table, card)]
    # else a master of a suit the others likely still follow: a ruff is then unlikely
    cashable = cashable or [
        card
        for card in legal
        if card.suit != trump
        and unseen.master(table, card)
        and unseen.count.get(card.suit, 0) >= LIKELY_FOLLOWED
    ]
    if cashable:
        return max(cashable, key=lambda card: (table.points(card), table.power(card)))
    side = [card for card in legal if card.suit != trump] or list(legal)
    length: dict[Suit | None, int] = {}
    for card in legal:
        length[card.suit] = length.get(card.suit, 0) + 1
    return min(side, key=lambda card: (table.points(card), -length[card.suit], table.power(card)))
