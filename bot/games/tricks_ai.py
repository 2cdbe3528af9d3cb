"""Trick-play sense shared by the Botifarra and Calabrasella AIs.

A policy turns its seat's view into a `Table` (what the seat can know: its hand, the trick on
the table, the finished tricks, how many cards each seat holds, the cards still out of its
sight) and asks `choose_card` for a card to play. The card play:

- reads the tricks for what they prove: a seat that did not follow is void in the suit; under
  heading rules a seat that did not beat the winning card holds nothing that would have, and
  a card worth nothing played under a winning partner is its lowest of the suit (`read_play`);
- spreads every unseen card over the seats that may hold it, in proportion to the cards they
  hold (`Odds`);
- following, scores each legal card by the trick it can win now against what it would be worth
  kept: the chance its side takes the trick, times the trick's points either way, less the
  future tricks the card could take and the points it would risk later. This plays the lowest
  winner that holds, throws the cheapest loser, and loads points on a partner's safe trick;
- leading: draws trumps when its side chose them and holds the most, cashes masters an
  opponent cannot ruff, and otherwise leads the lowest card of its longest safe suit;
- with the last few cards (`endgame_cards`), plays the rest of the hand out over a few deals
  of the unseen cards that fit what it knows, every seat playing its best for its side, and
  takes the card that does best on average.

Everything is a pure function of the Table: no state, no clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from bot.cards import FrenchCard, Rank, Suit
from bot.games.ai import in_rollout
from bot.games.tricks import Trick, TrickPlay, TrickRules, beats, legal_cards

LOAD_CHANCE = 0.3  # how often a card that cannot win still lands in its own side's trick
RUFF_RISK = 0.3  # above this chance of an opponent trumping it, a master is not cashed


@dataclass(frozen=True)
class Table:
    """What a seat knows when it plays to a trick."""

    rules: TrickRules
    points: Callable[[FrenchCard], int]
    seat: int
    seats: Sequence[int]  # every seat, in turn order
    side_of: Callable[[int], int]
    hand: Sequence[FrenchCard]
    legal: Sequence[FrenchCard]
    trick: Sequence[TrickPlay]  # the cards on the table, the leader's first
    history: Sequence[TrickPlay]  # the finished tricks of the hand, in order
    counts: Sequence[int]  # cards in each seat's hand
    unseen: frozenset[FrenchCard]  # cards it has not seen: in other hands or set aside unseen
    trump: Suit | None = None
    elsewhere: int = 0  # unseen cards in nobody's hand (a discard the seat never saw)
    known: Mapping[FrenchCard, int] = field(default_factory=dict)  # unseen cards' known holders
    trick_bonus: int = 0  # points for taking a trick, whatever its cards
    future_trick: float = 4.0  # what the other cards of a trick won later are worth
    draw_trumps: bool = False  # its side chose trumps: it leads them while opponents hold some
    last_bonus: float = 0  # what the last trick is worth beyond its cards and trick bonus
    last_takes_unseen: bool = False  # the unseen cards in no hand go to the last trick
    endgame_cards: int = 2  # with this many cards left or fewer, search the play to the end

    def partner(self, seat: int) -> bool:
        return self.side_of(seat) == self.side_of(self.seat)

    def power(self, card: FrenchCard) -> int:
        return self.powers[card.rank]

    @cached_property
    def powers(self) -> dict[Rank | None, int]:
        """`rules.power` by rank, looked up rather than searched: the card play asks it
        thousands of times a decision (in the Expert's playouts most of all)."""
        order = self.rules.order
        return {rank: len(order) - index for index, rank in enumerate(order)}

    def later_seats(self) -> list[int]:
        """The seats still to play to the trick after this one."""
        start = self.seats.index(self.seat)
        after = [self.seats[(start + i) % len(self.seats)] for i in range(1, len(self.seats))]
        return after[: len(self.seats) - len(self.trick) - 1]

    @cached_property
    def odds(self) -> Odds:
        return Odds(self)


@dataclass
class Reading:
    """What the play so far proves of each seat's hand, per suit: the highest power it can
    still hold there (0: void), and a power all its cards there are above. Suits are a card's
    `suit` (None only for a joker, which no trick game deals)."""

    highest: dict[int, dict[Suit | None, int]]
    above: dict[int, dict[Suit | None, int]]

    def may_hold(self, seat: int, card: FrenchCard, power: int) -> bool:
        suit = card.suit
        return self.above[seat].get(suit, 0) < power <= self.highest[seat].get(suit, math.inf)

    def cap(self, seat: int, suit: Suit | None, power: int) -> None:
        self.highest[seat][suit] = min(self.highest[seat].get(suit, power), power)


def read_play(table: Table) -> Reading:
    """Reads every play seen this hand: not following proves a void; under heading rules,
    failing to beat the winning card (partner not winning) proves holding no card that
    would have; and under a winning partner, a card worth nothing is the lowest of its suit."""
    reading = Reading({seat: {} for seat in table.seats}, {seat: {} for seat in table.seats})
    plays = list(table.history) + list(table.trick)
    size = len(table.seats)
    for start in range(0, len(plays), size):
        _read_trick(table, plays[start : start + size], reading)
    return reading


def _read_trick(table: Table, plays: list[TrickPlay], reading: Reading) -> None:
    rules, trump = table.rules, table.trump
    led = plays[0].card.suit
    best = plays[0]
    for play in plays[1:]:
        seat, card = play.seat, play.card
        beat = beats(card, best.card, rules, trump)
        partner_winning = rules.partner_frees and table.side_of(best.seat) == table.side_of(seat)
        if card.suit != led:
            reading.cap(seat, led, 0)
        if partner_winning:
            if rules.card_points is not None and rules.card_points(card) == 0:
                lowest = reading.above[seat].get(card.suit, 0)
                reading.above[seat][card.suit] = max(lowest, table.power(card))
        elif card.suit != led and rules.overtrump and trump is not None and not beat:
            reading.cap(seat, trump, table.power(best.card) if best.card.suit == trump else 0)
        elif card.suit == led and rules.head and not beat and best.card.suit == led:
            reading.cap(seat, led, table.power(best.card))
        if beat:
            best = play


class Odds:
    """The chance each other seat holds each unseen card: known holders for certain, else
    spread over the seats that may hold it (and the unseen discard), by their free cards."""

    def __init__(self, table: Table) -> None:
        self.table = table
        reading = read_play(table)
        others = [s for s in table.seats if s != table.seat]
        known_left = {s: 0 for s in others}
        for card, known_holder in table.known.items():
            if card in table.unseen and known_holder in known_left:
                known_left[known_holder] += 1
        free = {s: max(0, table.counts[s] - known_left[s]) for s in others}
        self.chance: dict[FrenchCard, dict[int, float]] = {}
        for card in table.unseen:
            holder = table.known.get(card)
            if holder is not None:
                self.chance[card] = {holder: 1.0}
                continue
            weights = {
                s: free[s]
                for s in others
                if free[s] and reading.may_hold(s, card, table.power(card))
            }
            total = sum(weights.values()) + table.elsewhere
            self.chance[card] = {s: w / total for s, w in weights.items()} if total else {}
        # `outstanding`'s answers, by suit, in the order of `chance` (asked many times a play)
        self.by_suit: dict[Suit | None, list[FrenchCard]] = {}
        for card, held in self.chance.items():
            if held:
                self.by_suit.setdefault(card.suit, []).append(card)

    def holds(self, seat: int, card: FrenchCard) -> float:
        return self.chance.get(card, {}).get(seat, 0.0)

    def any_of(self, seat: int, cards: list[FrenchCard]) -> float:
        """The chance `seat` holds at least one of `cards`."""
        return 1 - math.prod(1 - self.holds(seat, card) for card in cards)

    def outstanding(self, suit: Suit | None) -> list[FrenchCard]:
        """Unseen cards of `suit` someone may still hold."""
        return list(self.by_suit.get(suit, ()))

    def beat_chance(self, seat: int, best: FrenchCard, led: Suit | None) -> float:
        """The chance `seat`, yet to play, can beat `best` in a trick led in `led`."""
        table = self.table
        following = self.outstanding(led)
        higher = [c for c in following if best.suit == led and table.power(c) > table.power(best)]
        by_following = self.any_of(seat, higher)
        void = 1 - self.any_of(seat, following)
        trump = table.trump
        if trump is None or led == trump:
            return by_following
        trumps = [
            c
            for c in self.outstanding(trump)
            if best.suit != trump or table.power(c) > table.power(best)
        ]
        return min(1.0, by_following + void * self.any_of(seat, trumps))


def side_takes(table: Table, card: FrenchCard) -> float:
    """The chance the seat's side takes the trick if it plays `card` now: each opponent still
    to play may beat the winning card, a partner still to play may win it back."""
    plays = [*table.trick, TrickPlay(seat=table.seat, card=card)]
    led = plays[0].card.suit
    best = plays[0]
    for play in plays[1:]:
        if beats(play.card, best.card, table.rules, table.trump):
            best = play
    ours = 1.0 if table.partner(best.seat) else 0.0
    for seat in table.later_seats():
        beaten = table.odds.beat_chance(seat, best.card, led)
        ours = ours + (1 - ours) * beaten if table.partner(seat) else ours * (1 - beaten)
    return ours


def future_win(table: Table, card: FrenchCard) -> float:
    """The chance `card`, kept, takes a trick later: a master surely (less the risk of a
    ruff), a lower card less with every unseen card above it."""
    odds = table.odds
    above = [c for c in odds.outstanding(card.suit) if table.power(c) > table.power(card)]
    chance = 0.35 ** len(above)
    trump = table.trump
    if trump is not None and card.suit != trump and odds.outstanding(trump):
        chance *= 1 - RUFF_RISK
    return chance


def keep_value(table: Table, card: FrenchCard) -> float:
    """What holding `card` is worth to the side, as a swing of points: the tricks it could
    take later, and its own points, which the side gets if it wins or is loaded."""
    wins = future_win(table, card)
    ours = wins + (1 - wins) * LOAD_CHANCE
    return 2 * wins * table.future_trick + (2 * ours - 1) * table.points(card)


def trick_value(table: Table, card: FrenchCard) -> float:
    """The points the trick will hold with `card` in it: the cards on the table, the trick's
    own bonus, and a little from each seat still to play."""
    others = table.future_trick - table.trick_bonus
    per_card = others / max(1, len(table.seats) - 1) / 2  # half an average card: they throw low
    on_table = sum(table.points(play.card) for play in table.trick)
    return on_table + table.points(card) + table.trick_bonus + per_card * len(table.later_seats())


def follow_score(table: Table, card: FrenchCard) -> float:
    """Playing `card` now against keeping it: the swing of this trick, less its keep value."""
    takes = side_takes(table, card)
    return (2 * takes - 1) * trick_value(table, card) - keep_value(table, card)


def cheapness(table: Table, card: FrenchCard) -> tuple[bool, int, int]:
    """Smaller is a card given up sooner: a non-trump, fewer points, lower."""
    return card.suit == table.trump, table.points(card), table.power(card)


def choose_card(table: Table, rng: random.Random) -> FrenchCard:
    """The card the seat plays: searched to the end with few cards left, else led or scored."""
    legal = list(table.legal)
    if len(legal) == 1:
        return legal[0]
    if len(table.hand) <= table.endgame_cards and not in_rollout():
        found = endgame(table, rng)
        if found is not None:
            return found
    if not table.trick:
        return lead(table, rng)
    scored = {card: follow_score(table, card) for card in legal}
    best = max(scored.values())
    top = [card for card in legal if scored[card] >= best - 1e-9]
    return _pick(table, top, rng)


def _pick(table: Table, cards: list[FrenchCard], rng: random.Random) -> FrenchCard:
    """The cheapest of `cards`, a random one among equals."""
    cheapest = min(cheapness(table, card) for card in cards)
    return rng.choice([card for card in cards if cheapness(table, card) == cheapest])


def ruff_risk(table: Table, suit: Suit | None) -> float:
    """The chance some opponent trumps a lead of `suit`."""
    trump = table.trump
    if trump is None or suit == trump:
        return 0.0
    odds = table.odds
    following = odds.outstanding(suit)
    trumps = odds.outstanding(trump)
    safe = 1.0
    for seat in table.seats:
        if seat != table.seat and not table.partner(seat):
            void = 1 - odds.any_of(seat, following)
            safe *= 1 - void * odds.any_of(seat, trumps)
    return 1 - safe


def is_master(table: Table, card: FrenchCard) -> bool:
    return all(table.power(c) < table.power(card) for c in table.odds.outstanding(card.suit))


def lead(table: Table, rng: random.Random) -> FrenchCard:
    """Trumps while drawing them, else a master no opponent can ruff (the one worth most),
    else the lowest card of the longest suit safe from a ruff, non-trumps first."""
    hand = list(table.legal)
    trump = table.trump
    trumps = [card for card in hand if card.suit == trump]
    opponents_trumps = trump is not None and any(
        table.odds.holds(seat, card) > 0
        for card in table.odds.outstanding(trump)
        for seat in table.seats
        if not table.partner(seat)
    )
    if table.draw_trumps and trumps and opponents_trumps:
        masters = [card for card in trumps if is_master(table, card)]
        if masters:
            return max(masters, key=table.power)
        if len(trumps) >= len(table.odds.outstanding(trump)):  # as many as are out: draw them
            return _pick(table, trumps, rng)
    cashable = [
        card
        for card in hand
        if card.suit != trump and is_master(table, card) and ruff_risk(table, card.suit) < RUFF_RISK
    ]
    if cashable:
        return max(cashable, key=lambda card: (table.points(card), table.power(card)))
    side_cards = [card for card in hand if card.suit != trump] or hand
    length: dict[Suit | None, int] = {
        suit: sum(card.suit == suit for card in hand) for suit in Suit
    }

    def low_lead(card: FrenchCard) -> tuple:
        lowest = min((c for c in side_cards if c.suit == card.suit), key=table.power)
        return (
            card != lowest,
            ruff_risk(table, card.suit) >= RUFF_RISK,
            table.points(card),
            -length[card.suit],
            table.power(card),
        )

    best = min(low_lead(card) for card in side_cards)
    return rng.choice([card for card in side_cards if low_lead(card) == best])


# ---- the endgame: a few cards left, every way to play them out ------------------------------

ENDGAME_DEALS = 16  # deals of the unseen cards to play out, at most
ENDGAME_NODES = 4_000  # no new deal once the search has visited this many positions
NOWHERE = -1  # stands for the unseen cards in no hand


def endgame(table: Table, rng: random.Random) -> FrenchCard | None:
    """The card that does best, on average over deals of the unseen cards that fit what the
    seat knows, when every seat then plays the rest of the hand perfectly for its side."""
    leader = table.trick[0].seat if table.trick else table.seat
    plays = tuple((play.seat, play.card) for play in table.trick)
    totals = dict.fromkeys(table.legal, 0.0)
    room, places = where_unseen(table)
    search = PlayOut(table)
    dealt = False
    for _ in range(ENDGAME_DEALS):
        if search.nodes > ENDGAME_NODES:
            break
        hands = sample_deal(room, places, rng)
        if hands is None:
            continue
        dealt = True
        nowhere = hands.pop(NOWHERE)  # set aside: the last trick's winner may get them
        unseen_points = sum(map(table.points, nowhere))
        search.last_bonus = table.last_bonus + unseen_points * table.last_takes_unseen
        hands[table.seat] = list(table.hand)
        for card in table.legal:
            hands[table.seat].remove(card)
            after = (*plays, (table.seat, card))
            totals[card] += search.value(hands, after, leader, -math.inf, math.inf)
            hands[table.seat].append(card)
    if not dealt:
        return None
    best = max(totals.values())
    return _pick(table, [card for card in table.legal if totals[card] >= best - 1e-9], rng)


Room = dict[int, int]
Places = dict[FrenchCard, list[int]]


def where_unseen(table: Table) -> tuple[Room, Places]:
    """How many unseen cards each other seat holds (NOWHERE: set aside), and where each unseen
    card may be: with its known holder, else any seat the play has not ruled out, or aside."""
    reading = read_play(table)
    room = {s: table.counts[s] for s in table.seats if s != table.seat}
    room[NOWHERE] = table.elsewhere
    places: Places = {}
    for card in table.unseen:
        holder = table.known.get(card)
        if holder is not None:
            places[card] = [holder]
        else:
            seats = [s for s in room if s != NOWHERE]
            fits = [s for s in seats if reading.may_hold(s, card, table.power(card))]
            places[card] = [*fits, NOWHERE]
    return room, places


def sample_deal(room: Room, places: Places, rng: random.Random) -> dict | None:
    """One way the unseen cards may lie: each card, the most constrained first, goes to a
    place it may be in proportion to the room left there (None: no fit found)."""
    order = sorted(places, key=lambda card: (len(places[card]), card.code))
    for _ in range(8):
        left = dict(room)
        hands: dict[int, list[FrenchCard]] = {s: [] for s in room}
        for card in order:
            options = [s for s in places[card] if left[s] > 0]
            if not options:
                break
            seat = rng.choices(options, weights=[left[s] for s in options])[0]
            left[seat] -= 1
            hands[seat].append(card)
        else:
            return hands
    return None


class PlayOut:
    """Plays one deal out to the end, every seat doing its best for its side (alpha-beta)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.last_bonus = table.last_bonus
        cards = {*table.unseen, *table.hand, *(play.card for play in table.trick)}
        self.points = {card: table.points(card) for card in cards}
        self.ours = {seat: table.partner(seat) for seat in table.seats}
        self.partners = {
            seat: [s for s in table.seats if s != seat and table.side_of(s) == table.side_of(seat)]
            for seat in table.seats
        }
        self.options: dict[tuple, list[FrenchCard]] = {}
        self.nodes = 0

    def value(self, hands: dict, plays: tuple, leader: int, alpha: float, beta: float) -> float:
        """The seat's side's points less the others' over the rest of the hand (`plays`: the
        trick so far, led by `leader`)."""
        self.nodes += 1
        table = self.table
        seats = table.seats
        if len(plays) == len(seats):
            return self.trick_over(hands, plays, alpha, beta)
        seat = seats[(seats.index(leader) + len(plays)) % len(seats)]
        hand = hands[seat]
        ours = self.ours[seat]
        best = -math.inf if ours else math.inf
        for card in self.legal(seat, hand, plays, leader):
            hand.remove(card)
            found = self.value(hands, (*plays, (seat, card)), leader, alpha, beta)
            hand.append(card)
            if ours:
                best, alpha = max(best, found), max(alpha, found)
            else:
                best, beta = min(best, found), min(beta, found)
            if alpha >= beta:
                break
        return best

    def trick_over(self, hands: dict, plays: tuple, alpha: float, beta: float) -> float:
        table = self.table
        best_seat, best_card = plays[0]
        for seat, card in plays[1:]:
            if beats(card, best_card, table.rules, table.trump):
                best_seat, best_card = seat, card
        last = not any(hands.values())
        points: float = sum(self.points[card] for _, card in plays) + table.trick_bonus
        points += self.last_bonus if last else 0
        won = points if self.ours[best_seat] else -points
        if last:
            return won
        return won + self.value(hands, (), best_seat, alpha - won, beta - won)

    def legal(self, seat: int, hand: list[FrenchCard], plays: tuple, leader: int):
        if not plays or len(hand) == 1:
            return list(hand)
        key = (seat, frozenset(hand), plays)
        if key not in self.options:
            trick = Trick.model_construct(
                leader=leader, plays=[TrickPlay.model_construct(seat=s, card=c) for s, c in plays]
            )
            table = self.table
            self.options[key] = legal_cards(
                hand, trick, table.rules, trump=table.trump, partners=self.partners[seat]
            )
        return list(self.options[key])
