"""Porrazo (bot/games/porrazo/rules.md).

Two to five players alone, or four in two partnerships (partners sit across), one 52-card pack,
aces low. Three cards each from the dealer's left; the rest is the stock. Every deal of three:

- a player holding a pair or three of a kind may declare a ronda or rondine (the rank stays
  hidden) until the deal's first card is played; once every declared set is out, the highest
  declaration scores (K 4, Q 3, J 2, 10-A 1; a rondine three times that and above any ronda;
  ties to the first from the dealer's left);
- the dealer may deal the tendido (once a hand, at the latest with the last deal): four cards
  face up, arranged for the most points (pips of A-4 lying in their own place, counting either
  way, plus the pairs, threes and fours they make with the table);
- on the last deal the three odd cards of an odd table are turned face up.

Play from the dealer's left: a card takes one table card of its rank, or a run of two or more
consecutive ranks starting at its rank (K-A-2 wraps); it must capture when it can, unless it is
played in place (an A-4 whose pip is the number of table cards once it lies there: its pip
scores). A capture of every table card is a limpia (a ronda of the last rank taken). A card
pairing the card just placed by the previous player is a porrazo: it waits on the table until
the next play; a third card then is a counter-porrazo (a rondine, taking both), a fourth a san
benito (the game); otherwise the porrazo stands (a ronda, taking the card, and a limpia too when
that card was the only one on the table). The dealer's last card of the hand takes every card
left. The side with the most cards scores the difference to the next best; the first side to
the target (61) wins, even mid-hand.
"""

from __future__ import annotations

from bot.cards import FrenchCard, french_deck
from bot.engine import Action, Decision, Event, HandEnded, HandStarted, IllegalAction, Rng
from bot.games.jokerless import rank_of
from bot.games.matches import Match
from bot.games.porrazo.plays import (
    HAND_SIZE,
    SAN_BENITO,
    SET_NAMES,
    SIDES,
    TENDIDO_SIZE,
    best_arrangement,
    card_key,
    declarable,
    in_place_points,
    last_rank,
    move_of,
    pip,
    play_options,
    play_problem,
    ronda_points,
    run_order,
    set_points,
    sort_cards,
    tendido_sets,
)
from bot.games.porrazo.records import (
    Dealt,
    DealTendido,
    Declaration,
    Declare,
    Declared,
    HandDealt,
    HandResult,
    HandScored,
    NoTendido,
    OddCards,
    Play,
    Played,
    PorrazoKind,
    PorrazoOptions,
    Replenished,
    SanBenito,
    Stack,
    Swept,
    TendidoDealt,
    TendidoDeferred,
    Why,
)
from bot.games.porrazo.table import PorrazoTable
from bot.i18n import N_, _

# What a player holding a set may declare (a decision's prompt).
MAY_DECLARE = {
    "ronda": N_(
        "You may declare your ronda (its rank stays hidden) until the deal's first card is played."
    ),
    "rondine": N_(
        "You may declare your rondine (its rank stays hidden) until the deal's first card is "
        "played."
    ),
}


def partnership_sides(options: PorrazoOptions) -> int:
    return SIDES if options.partnerships else 0


def table_sides(seats: int, partnerships: bool) -> list[list[int]]:
    if not partnerships:
        return [[seat] for seat in range(seats)]
    if seats % SIDES:
        raise ValueError("partnerships need an even number of players")
    return [[seat for seat in range(seats) if seat % SIDES == side] for side in range(SIDES)]


# ---- the game ------------------------------------------------------------------------------


class PorrazoState(PorrazoTable):
    """Porrazo's deals on its table: dealing, declarations, the tendido, plays and counts."""

    # ---- dealing ------------------------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        self.stock = self.rng.shuffled(french_deck())
        self.hands = [[] for _ in range(self.seat_count)]
        self.table, self.stack, self.trailed = [], None, None
        self.won = [[] for _ in self.match.sides]
        self.deal, self.tendido, self.tendido_dealt = 0, [], False
        self.declared, self.result = [], None
        self.hand_points = [0] * len(self.match.sides)
        return [HandStarted(hand=self.hand), HandDealt(dealer=self.dealer), *self.deal_round()]

    def deal_round(self) -> list[Event]:
        """Three cards each from the dealer's left; then the tendido (asked, or forced on the
        last deal) and, on the last deal, the odd cards."""
        self.deal += 1
        self.played = [False] * self.seat_count
        self.trailed = None
        for seat in self.seats_from_left():
            self.hands[seat] = sort_cards(self.stock[:HAND_SIZE])
            del self.stock[:HAND_SIZE]
        self.turn = (self.dealer + 1) % self.seat_count
        events: list[Event] = [Replenished(deal=self.deal, stock=len(self.stock))]
        events += [
            Dealt(seat=seat, cards=self.hands[seat], audience=(seat,))
            for seat in range(self.seat_count)
        ]
        if self.tendido_dealt:
            return events + self.begin_play()
        if not self.last_deal():
            self.phase = "tendido"
            return events
        return events + self.deal_tendido() + self.begin_play()

    def last_deal(self) -> bool:
        """No full deal is left in the stock once the tendido's cards are set aside."""
        reserve = 0 if self.tendido_dealt else TENDIDO_SIZE
        return len(self.stock) - reserve < HAND_SIZE * self.seat_count

    def begin_play(self) -> list[Event]:
        self.phase = "play"
        if not (self.last_deal() and self.stock):
            return []
        odd, self.stock = self.stock, []
        self.table += odd
        return [OddCards(cards=odd)]

    def deal_tendido(self) -> list[Event]:
        row = best_arrangement(self.stock[:TENDIDO_SIZE])
        del self.stock[:TENDIDO_SIZE]
        sets = tendido_sets(row, self.table)
        self.table += row
        self.tendido, self.tendido_dealt = row, True
        lying = [card for place, card in enumerate(row, start=1) if pip(card) == place]
        points = in_place_points(row) + sum(found.points for found in sets)
        dealt = TendidoDealt(dealer=self.dealer, cards=row, in_place=lying, sets=sets)
        return [dealt, *self.award(self.dealer, points, "tendido")]

    # ---- who decides --------------------------------------------------------------------------

    def required_seat(self) -> int | None:
        if self.phase == "tendido":
            return self.dealer
        return self.turn if self.phase == "play" else None

    def pending(self) -> list[Decision]:
        required = self.required_seat()
        if required is None:
            return []
        if self.phase == "tendido":
            kind = PorrazoKind.TENDIDO
            prompt = _("Deal your tendido now (four cards face up), or keep it for a later deal.")
        else:
            kind = PorrazoKind.PLAY
            prompt = _("Play a card: it takes from the table when it can, or it is placed.")
        # The declarations come first: they close with the deal's first card, so whoever
        # takes pending seats in order (the runtime's AI seats) declares before playing.
        declarations = [
            Decision(
                seat=seat,
                kind=PorrazoKind.DECLARE,
                prompt=_(MAY_DECLARE[SET_NAMES[len(declarable(self.hands[seat]))]]),
                optional=True,
            )
            for seat in range(self.seat_count)
            if seat != required and self.may_declare(seat)
        ]
        return [*declarations, Decision(seat=required, kind=kind, prompt=prompt)]

    def plays(self, seat: int) -> list[Play]:
        return [
            Play(card=card, take=take)
            for card in self.hands[seat]
            for take in play_options(card, self.table, self.stack_cards(), self.trailed)
        ]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        declare: list[Action] = [Declare()] if self.may_declare(seat) else []
        if seat != self.required_seat():
            return declare
        if self.phase == "tendido":
            return [DealTendido(), NoTendido(), *declare]
        return [*self.plays(seat), *declare]

    def verify(self, seat: int, action: Action) -> None:
        """The rules' own reasons for a refused card, declaration or tendido."""
        reason = None if self.is_over() else self.refusal(seat, action)
        if reason:
            raise IllegalAction(reason)
        super().verify(seat, action)

    def refusal(self, seat: int, action: Action) -> str | None:
        if isinstance(action, DealTendido | NoTendido) and self.phase != "tendido":
            return _("The tendido is the dealer's, once a hand, right after a deal.")
        if seat not in self.pending_seats():
            return None
        if isinstance(action, Play) and self.phase == "play" and seat == self.turn:
            hand, stack = self.hands[seat], self.stack_cards()
            return play_problem(action.card, action.take, hand, self.table, stack)
        if isinstance(action, Declare) and not self.may_declare(seat):
            if any(d.seat == seat for d in self.declared):
                return _("You have declared already this deal.")
            if any(self.played):
                return _("Declarations close when the deal's first card is played.")
            return _("You hold no pair or three of a kind to declare.")
        return None

    def default_action(self, seat: int) -> Action:
        """The tendido: not now. Playing: the capture of a pending porrazo, else a porrazo,
        else the capture taking the most cards (your lowest card first); with no capture, your
        lowest card is placed."""
        if self.phase == "tendido":
            return NoTendido()
        stack, trailed = self.stack_cards(), self.trailed
        plays = sorted(self.plays(seat), key=lambda play: card_key(play.card))
        captures = [play for play in plays if play.take]
        if not captures:
            return plays[0]
        return max(
            captures,
            key=lambda p: (p.take == sort_cards(stack), p.take == [trailed], len(p.take)),
        )

    # ---- acting -------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Declare):
            found = Declaration(seat=seat, cards=declarable(self.hands[seat]))
            self.declared.append(found)
            return [Declared(seat=seat, set_name=found.name)]
        if isinstance(action, DealTendido | NoTendido):
            dealt = self.deal_tendido() if isinstance(action, DealTendido) else []
            events = dealt or [TendidoDeferred(dealer=self.dealer)]
            if not self.match.is_over():
                events += self.begin_play()
        else:
            assert isinstance(action, Play)  # verify lets no other action through
            events = self.play(seat, action.card, action.take)
            if not self.match.is_over():
                events += self.advance()
        if self.match.is_over() and self.phase in ("tendido", "play"):
            events += self.close_hand()
        return events

    def play(self, seat: int, card: FrenchCard, take: list[FrenchCard]) -> list[Event]:
        self.played[seat] = True
        if take and set(take) == set(self.stack_cards()):
            self.hands[seat].remove(card)
            return self.counter(seat, card)
        events = self.stand()  # the porrazo was not countered
        if self.match.is_over():
            return events  # play stops at once: the card is not played
        self.hands[seat].remove(card)
        return events + self.place_or_take(seat, card, take)

    def place_or_take(self, seat: int, card: FrenchCard, take: list[FrenchCard]) -> list[Event]:
        move = move_of(card, take, self.table, (), self.trailed)
        self.trailed = card if not take else None
        for taken in take:
            self.table.remove(taken)
        played = Played(seat=seat, card=card, taken=run_order(card, take), move=move)
        if move in ("placed", "in_place"):
            self.table.append(card)
            in_place = pip(card) if move == "in_place" else 0
            return [played, *self.award(seat, in_place, "in_place", card.rank)]
        if move == "porrazo":
            self.stack = Stack(seat=seat, cards=[*take, card], limpia=not self.table)
            return [played]
        self.won[self.side(seat)] += [*take, card]
        if move != "limpia":
            return [played]
        last = last_rank(card, len(take))
        return [played, *self.award(seat, ronda_points(last), "limpia", last)]

    def counter(self, seat: int, card: FrenchCard) -> list[Event]:
        """A third card on a porrazo (a counter-porrazo) or a fourth (a san benito)."""
        assert self.stack is not None  # a counter plays on a pending porrazo
        taken = self.stack.cards
        self.stack = Stack(seat=seat, cards=[*taken, card])
        self.trailed = None
        if len(self.stack.cards) < SAN_BENITO:
            return [Played(seat=seat, card=card, taken=taken, move="counter")]
        side = self.side(seat)
        self.match.win(side)
        return [
            Played(seat=seat, card=card, taken=taken, move="san_benito"),
            SanBenito(seat=seat, side=side, side_seats=self.match.sides[side]),
        ]

    def stand(self) -> list[Event]:
        """A pending porrazo (or counter-porrazo) stands: its player takes its cards and
        scores a ronda (or rondine) of its rank, and a limpia when the porrazo took the only
        table card (a counter-porrazo took it from the porrazo, so never)."""
        if self.stack is None:
            return []
        stack, self.stack = self.stack, None
        self.won[self.side(stack.seat)] += stack.cards
        size, rank = len(stack.cards), rank_of(stack.cards[0])
        why: Why = "porrazo" if size == 2 else "counter_porrazo"
        events = self.award(stack.seat, set_points(rank, size), why, rank, stack.cards)
        if stack.limpia:
            events += self.award(stack.seat, ronda_points(rank), "limpia", rank, stack.cards[:1])
        return events

    def advance(self) -> list[Event]:
        """After a play: the declarations, the next turn (the dealer's last card of the hand
        plays itself), the end of the deal."""
        events = self.settle_declarations()
        if self.match.is_over():
            return events
        if any(self.hands):
            self.turn = (self.turn + 1) % self.seat_count
            if not self.dealers_last_turn():
                return events
            events += self.last_card()
            if self.match.is_over():
                return events
        return events + self.end_deal()

    def settle_declarations(self) -> list[Event]:
        """Once every declared set has been played (declarations closed with the deal's first
        card), the highest declaration scores (a rondine over a ronda, then rank; ties: first
        from the dealer's left)."""
        if not self.declared:
            return []
        if any(card in self.hands[d.seat] for d in self.declared for card in d.cards):
            return []
        order = self.seats_from_left()
        best = max(
            self.declared,
            key=lambda d: (len(d.cards), d.cards[0].rank, -order.index(d.seat)),
        )
        self.declared = []
        size, rank = len(best.cards), rank_of(best.cards[0])
        return self.award(best.seat, set_points(rank, size), best.name, rank, best.cards)

    def dealers_last_turn(self) -> bool:
        return (
            not self.stock
            and self.turn == self.dealer
            and sum(map(len, self.hands)) == len(self.hands[self.dealer]) == 1
        )

    def last_card(self) -> list[Event]:
        """The dealer's last card takes every card left on the table. It may still counter a
        porrazo (or make a san benito) or make a porrazo, which score; never a limpia or a card
        played in place."""
        dealer, card = self.dealer, self.hands[self.dealer][0]
        countering = self.stack is not None and self.stack.cards[0].rank == card.rank
        events = [] if countering else self.stand()
        if self.match.is_over():
            return events
        self.hands[dealer].clear()
        self.played[dealer] = True
        if countering:
            events += self.counter(dealer, card)
            if self.match.is_over():
                return events
            events += self.stand()
        elif self.trailed is not None and self.trailed.rank == card.rank:
            pair = [self.trailed, card]
            self.table.remove(self.trailed)
            self.won[self.side(dealer)] += pair
            events.append(Played(seat=dealer, card=card, taken=pair[:1], move="porrazo"))
            rank = rank_of(card)
            events += self.award(dealer, set_points(rank, 2), "porrazo", rank, pair)
        else:
            self.table.append(card)
            events.append(Played(seat=dealer, card=card, taken=[], move="last"))
        swept, self.table = self.table, []
        self.won[self.side(dealer)] += swept
        return [*events, Swept(seat=dealer, cards=swept)]

    def end_deal(self) -> list[Event]:
        """Every hand is empty: a pending porrazo stands (a new deal interrupts it), then the
        next deal, or the hand's count."""
        events = self.stand() + self.settle_declarations()
        self.trailed = None
        if self.match.is_over():
            return events
        if self.stock:
            return events + self.deal_round()
        return events + self.end_hand()

    # ---- the end of a hand ----------------------------------------------------------------------

    def end_hand(self) -> list[Event]:
        """The side with the most cards scores the difference to the next best."""
        won = [len(pile) for pile in self.won]
        ranked = sorted(won, reverse=True)
        best = won.index(ranked[0]) if ranked[0] > ranked[1] else None
        self.result = HandResult(won=won, side=best, points=ranked[0] - ranked[1])
        events: list[Event] = []
        if best is not None:
            seat = self.match.sides[best][0]
            events += self.award(seat, self.result.points, "cards")
        scored = HandScored(
            result=self.result, totals=list(self.match.scores), sides=self.match.sides
        )
        return [*events, scored, *self.close_hand()]

    def close_hand(self) -> list[Event]:
        over = self.match.is_over()
        self.phase = "over" if over else "between"
        most = max(self.hand_points)
        winners = [
            seat
            for seat in range(self.seat_count)
            if most and self.hand_points[self.side(seat)] == most
        ]
        if self.match.winner is not None:
            winners = list(self.match.sides[self.match.winner])
        ended = HandEnded(
            hand=self.hand,
            players=list(range(self.seat_count)),
            net_chips=[0] * self.seat_count,
            scores=[self.hand_points[self.side(seat)] for seat in range(self.seat_count)],
            winners=winners,
        )
        return [ended, self.standings()] if over else [ended]


def new_porrazo(
    options: PorrazoOptions, stacks: list[int], rng: Rng
) -> tuple[PorrazoState, list[Event]]:
    seats = len(stacks)
    state = PorrazoState(
        rng=rng,
        seat_count=seats,
        options=options,
        match=Match.to_target(table_sides(seats, options.partnerships), options.target),
    )
    return state, state.start_hand()
