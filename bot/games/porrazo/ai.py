"""Porrazo's AI player. It declares every ronda and rondine (declaring costs nothing). It keeps
the tendido for the last deal, where it must be dealt anyway: by then the table is fuller (more
sets to score) and what the others don't capture falls to the dealer's last card; only a table
that already promises rondines makes it deal sooner. It plays the card worth most now (bonus
points, and the cards won, which decide the hand's count) less what the table it leaves offers
the next player: their best capture, limpia, card played in place, porrazo on the card it
placed, or counter-porrazo on its porrazo, each weighed by the chance they hold that rank among
the cards it hasn't seen. A counter-porrazo risks the san benito: it counters only when the
game it could lose is unlikely. It sees only its view (its hand, the table, the pending porrazo
and the tendido); the view doesn't list the cards captured earlier, so it counts them unseen.

For the Expert search (bot/games/expert.py) it ranks its plays by the same scores, and in the
search's playouts weighs each play without what the table left offers the next player."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from bot.cards import FrenchCard, Rank, Suit
from bot.engine import Action, Decision, GameState, Policy
from bot.games.ai import in_rollout
from bot.games.captures_ai import best, chance_holds, ranking
from bot.games.jokerless import rank_of
from bot.games.porrazo.plays import (
    SAN_BENITO,
    TENDIDO_SIZE,
    Move,
    last_rank,
    move_of,
    pip,
    play_options,
    ronda_points,
    set_points,
)
from bot.games.porrazo.records import (
    DealTendido,
    Declaration,
    Declare,
    NoTendido,
    Play,
    PorrazoView,
)
from bot.games.porrazo.table import PorrazoTable

DECK = 52
COPIES = 4  # of each rank
CARD = 0.5  # a card won, in points: the hand's count pays the difference to the next best
THEIRS = 0.5  # an opponent's gain counts this much against us (there are other opponents)
GAME = 100.0  # the san benito: the whole game
TENDIDO_WORTH = 4.0  # deal the tendido before the last deal only if its sets promise this much


def side_of(view: PorrazoView, seat: int) -> int:
    return next(side for side, seats in enumerate(view.sides) if seat in seats)


def gain(move: Move, card: FrenchCard, take: Sequence[FrenchCard], table_size: int) -> float:
    """What a play on a table of `table_size` open cards is worth to its player at once, if it
    stands: its bonus and its cards (a porrazo on the only table card is a limpia too)."""
    cards = CARD * (len(take) + 1) if take else 0.0
    if move == "in_place":
        return pip(card)
    if move == "limpia":
        return cards + ronda_points(last_rank(card, len(take)))
    if move == "porrazo":
        limpia = ronda_points(rank_of(card)) if table_size == 1 else 0
        return cards + set_points(rank_of(card), 2) + limpia
    if move == "counter":
        return cards + set_points(rank_of(card), 3)
    if move == "san_benito":
        return GAME
    return cards


@lru_cache(maxsize=1 << 14)
def best_gains(
    table: tuple[Rank, ...], stack: tuple[Rank, ...], trailed: Rank | None
) -> tuple[tuple[float, Rank], ...]:
    """For each rank, the most a card of it gains on a table of these ranks (with a pending
    porrazo of `stack` and the card just placed of rank `trailed`), best first; suits never
    matter to a play, so stand-in cards do."""
    cards = [FrenchCard(rank, Suit.SPADES, None, copy) for copy, rank in enumerate(table, 1)]
    placed = next((card for card in reversed(cards) if card.rank == trailed), None)
    pending = [FrenchCard(rank, Suit.HEARTS, None, copy) for copy, rank in enumerate(stack, 1)]
    found = []
    for rank in Rank:
        card = FrenchCard(rank, Suit.CLUBS, None, 0)  # no card on the table is this one
        most = max(
            gain(move_of(card, take, cards, pending, placed), card, take, len(cards))
            for take in play_options(card, cards, pending, placed)
        )
        if most > 0:
            found.append((most, rank))
    return tuple(sorted(found, reverse=True))


class Table:
    """What the seat knows: its hand, the table, and the ranks it hasn't seen."""

    def __init__(self, view: PorrazoView, seat: int) -> None:
        self.view, self.seat = view, seat
        self.hand = list(view.my_cards or [])
        seen = {*self.hand, *view.table, *view.porrazo, *view.tendido}
        ranks = Counter(card.rank for card in seen)
        self.unseen = {rank: COPIES - ranks[rank] for rank in Rank}
        self.unseen_total = DECK - len(seen)
        self.next_seat = (seat + 1) % len(view.counts)
        self.next_is_partner = side_of(view, self.next_seat) == side_of(view, seat)

    def next_holds(self, rank: Rank) -> float:
        """The chance the next player holds one of the cards of `rank` we haven't seen."""
        held = self.view.counts[self.next_seat]
        return chance_holds(self.unseen[rank], self.unseen_total, held)

    # ---- what a play leaves the next player ----------------------------------------------

    def offered(
        self,
        table: list[FrenchCard],
        stack: list[FrenchCard],
        trailed: FrenchCard | None,
    ) -> float:
        """The next player's expected best gain from the table we leave: for each rank, the
        best play a card of it makes there, weighed by the chance they hold one."""
        if self.next_is_partner or not self.view.counts[self.next_seat]:
            return 0.0
        gains = best_gains(
            tuple(sorted(rank_of(card) for card in table)),
            tuple(rank_of(card) for card in stack),
            rank_of(trailed) if trailed else None,
        )
        expected, none_better = 0.0, 1.0
        for worth, rank in gains:
            if self.unseen[rank] <= 0:
                continue
            chance = self.next_holds(rank)
            expected += none_better * chance * worth
            none_better *= 1 - chance
        return expected

    # ---- a play's worth -------------------------------------------------------------------

    def play(self, action: Play) -> float:
        view, card, take = self.view, action.card, list(action.take)
        stack, trailed = list(view.porrazo), view.trailed
        move = move_of(card, take, view.table, stack, trailed)
        worth = gain(move, card, take, len(view.table))
        if move in ("counter", "san_benito"):
            table = list(view.table)
        else:
            worth += self.standing_stack()
            table = [other for other in view.table if other not in take]
        after_stack: list[FrenchCard] = []
        after_trailed: FrenchCard | None = None
        if move in ("placed", "in_place"):
            table.append(card)
            after_trailed = card
        elif move == "porrazo":  # the card placed is in `take`: off the table already
            assert trailed is not None  # a porrazo takes the card just placed
            after_stack = [trailed, card]
        elif move == "counter":
            after_stack = [*stack, card]
        if after_stack and not self.next_is_partner:
            worth *= 1 - self.next_holds(rank_of(card))
            if len(after_stack) + 1 == SAN_BENITO:
                worth -= self.next_holds(rank_of(card)) * GAME
                return worth
        return worth - THEIRS * self.offered(table, after_stack, after_trailed)

    def standing_stack(self) -> float:
        """A pending porrazo we don't counter stands: its player scores."""
        stack = self.view.porrazo
        if not stack or self.view.porrazo_seat is None:
            return 0.0
        rank = rank_of(stack[0])
        worth = set_points(rank, len(stack)) + CARD * len(stack)
        if self.view.porrazo_limpia:
            worth += ronda_points(rank)
        if side_of(self.view, self.view.porrazo_seat) == side_of(self.view, self.seat):
            return worth
        return -THEIRS * worth

    # ---- the tendido ----------------------------------------------------------------------

    def tendido_sets(self) -> float:
        """The set points a tendido dealt now can expect from pairing the table's ranks."""
        on_table = Counter(rank_of(card) for card in self.view.table)
        unseen = max(self.unseen_total, 1)
        return sum(
            TENDIDO_SIZE * self.unseen[rank] / unseen * set_points(rank, count + 1)
            for rank, count in on_table.items()
            if count < COPIES and self.unseen[rank] > 0
        )

    def score(self, action: Action) -> float:
        if isinstance(action, Play):
            return self.play(action)
        if isinstance(action, DealTendido):
            return 1.0 if self.tendido_sets() >= TENDIDO_WORTH else -1.0
        if isinstance(action, NoTendido):
            return 0.0
        return float("-inf")


class QuickTable(Table):
    """The Expert's playouts' sense, several times cheaper: each play's worth now and the risk
    of its porrazo being countered, but not what the table left offers the next player."""

    def offered(
        self,
        table: list[FrenchCard],
        stack: list[FrenchCard],
        trailed: FrenchCard | None,
    ) -> float:
        return 0.0


class PorrazoPolicy(Policy[PorrazoView]):
    game_id = "porrazo"
    beginner_slips = 0.85

    def choose(
        self,
        seat: int,
        view: PorrazoView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if any(isinstance(action, Declare) for action in legal):
            return Declare()
        if decision.optional:
            return None
        return best(legal, (QuickTable if in_rollout() else Table)(view, seat).score, rng)

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """A player who declared a ronda or rondine holds one: in a world, where their hidden
        cards were dealt at random, the declared cards are made cards of one rank (`fit`)."""
        assert isinstance(world, PorrazoTable)
        hidden, settled = world.hidden_from(seat), set[FrenchCard]()
        for declaration in world.declared:
            if declaration.seat != seat:
                settled |= fit(world, declaration, hidden - settled)

    def ranked(
        self,
        seat: int,
        view: PorrazoView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        if decision.optional or any(isinstance(action, Declare) for action in legal):
            return None  # declared (or let go) at once: nothing to weigh
        return ranking(legal, Table(view, seat).score, rng)


def fit(world: PorrazoTable, declaration: Declaration, hidden: set[FrenchCard]) -> set[FrenchCard]:
    """The declared cards made cards of one rank (that of any already played, which all saw):
    each hidden one of another rank swapped with a hidden card of that rank, from the
    declarer's own hand, another hand or the stock, wherever one is left. The cards it
    settles, for the next declaration not to take."""
    cards, hand = declaration.cards, world.hands[declaration.seat]
    rank = next((card for card in cards if card not in hidden), cards[0]).rank
    places = [hand, *(h for h in world.hands if h is not hand), world.stock]
    for index, card in enumerate(cards):
        if card.rank == rank or card not in hidden:
            continue
        found = next(
            (
                (place, at)
                for place in places
                for at, other in enumerate(place)
                if other.rank == rank and other in hidden and other not in cards
            ),
            None,
        )
        if found is None:
            break  # no such card left unseen: the world stays as dealt
        place, at = found
        other = place[at]
        if place is not hand:  # the two change places; else it only becomes the declared one
            hand[hand.index(card)], place[at] = other, card
        cards[index] = other
    return set(cards)
