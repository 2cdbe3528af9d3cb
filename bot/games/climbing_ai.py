"""What the climbing-game AIs (Big Two, Dou Dizhu) share: judging a move by the hand it leaves.

Each game plans a hand as the cheapest split into combinations it could play one per turn: a
combination costs a turn, and more when it is weak (a weak combination needs a free lead to
go, a strong one wins tricks back). A move is then worth the plan of what it leaves, adjusted
for the table: spending a control card or a bomb costs extra until near the end; an opponent
about to go out is beaten with the strongest and never led what they can beat to go out; a
partner's trick is left alone, and a partner about to go out is fed low. A play nobody can
beat, after which the rest goes in one play, wins. The games say how to plan a hand and how
strong a combination is, reading cards as small ints (keys) and remembering what recurs.

For the Expert search (bot/games/expert.py) a policy ranks every move by its score, its pick
first (`rank_plays`); in the search's playouts it weighs only the few moves it nearly always
picks from (`likely_moves`); and it deals a world's hidden hands as the others' play shows
(`deal_to_fit`): a player who passed holds cards it would have passed with, as the Standard
AI judges them at the table it passed at (`passes_seen`, from the climb's public moves).
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field, replace
from functools import partial

from bot.cards import FrenchCard
from bot.engine import Action
from bot.games.ai import in_rollout
from bot.games.climbing import Climb, Pass, Play

WEAKNESS = 0.5  # what the weakest combination costs over a turn; the strongest costs a turn
CONTROL = 0.85  # a single or pair this strong is kept to win a trick back
CONTROL_SIZE = 2
NEAR_END = 2.5  # a plan this cheap goes out soon: controls and bombs may be spent
HOLD_CONTROL = 0.8  # cost of spending a control card early
HOLD_BOMB = 1.5  # cost of spending a bomb early
# By threat (none, an opponent near out, an opponent who may go out on this very trick): the
# cost of passing, and of beating with less than the strongest.
PASS_UNDER_THREAT = (0.0, 2.0, 6.0)
PRESS = (0.0, 1.5, 4.0)
LEAD_RISK = 3.0  # cost of leading what an opponent may beat to go out, weakest first
PARTNER_CLASH = 5.0  # cost of overtaking a partner's trick with a strong combination
FEED = 2.0  # gain of leading low to a partner about to go out
GOES_OUT_NEXT = -1000.0  # the score of a play that wins the lead for the last combination
SHED = 0.02  # per card kept: between equal plans, shed more
THREAT = 2  # an opponent with this many cards or fewer may go out any time


def combo_cost(strength: float) -> float:
    """A turn, plus more the weaker the combination (strength 0 weakest ... 1 strongest)."""
    return 1 + WEAKNESS * (1 - strength)


class Sense(ABC):
    """A climbing game's judgement of hands and combinations. Hands and plays are read as
    their cards' keys (small ints, cheap to compare and hash, unlike cards)."""

    @abstractmethod
    def key(self, card: FrenchCard) -> int:
        """The card's place in the game's order: all its plans and strengths look at."""

    @abstractmethod
    def plan_cost(self, keys: tuple[int, ...]) -> float:
        """The cost of the cheapest split of a hand (its keys, sorted) into combinations."""

    @abstractmethod
    def unseen_tops(self, seen: list[int]) -> tuple[int, ...]:
        """What the cards the seat has not seen (held by the others or out of play) can beat
        with, from the keys of those it has (its own and those played): by group size (one
        card, a pair ...), the top key of a rank with that many unseen cards (-1: none)."""

    @abstractmethod
    def strength(self, keys: tuple[int, ...], unseen_tops: tuple[int, ...]) -> float:
        """How strong a legal combination (its cards' keys, in its cards' order) is, 0
        weakest ... 1 strongest (1 when none of the cards unseen can beat it)."""

    def is_bomb(self, keys: tuple[int, ...]) -> bool:
        """A combination that beats any other kind (Dou Dizhu's bombs and rocket)."""
        return False

    @abstractmethod
    def one_combination(self, keys: tuple[int, ...]) -> bool:
        """Whether these cards (their keys, sorted) can all go at once."""


@dataclass
class Table:
    """What a climbing AI reads from its seat's view."""

    seat: int
    hand: list[FrenchCard]
    counts: list[int]  # cards each seat holds
    to_beat: list[FrenchCard]  # empty: a free lead
    last_player: int | None
    opponents: list[int]
    partner: int | None = None
    next_seat: int | None = None
    played: list[FrenchCard] = field(default_factory=list)  # this hand's, all public

    @property
    def free_lead(self) -> bool:
        return not self.to_beat

    def threat(self) -> int:
        """2: an opponent holds just as many cards as the combination to beat, and may go out
        on it; 1: an opponent is near out; 0: neither."""
        counts = [self.counts[o] for o in self.opponents]
        if self.to_beat and len(self.to_beat) in counts:
            return 2
        return int(min(counts) <= THREAT)


def choose_play(sense: Sense, table: Table, legal: list[Action], rng: random.Random) -> Action:
    """The play (or pass) that leaves the best hand, all things on the table considered. In
    the Expert's playouts, chosen from the few moves it nearly always picks from."""
    if in_rollout():
        legal = likely_moves(sense, table, legal)
    return rank_plays(sense, table, legal, rng)[0]


# A playout's move weighs at most these: following, the pass, the lowest plays and the top
# one; leading, the plays with the lowest card. Over Standard matches the move is Standard's
# in 97.6% of Big Two's decisions and 96.7% of Dou Dizhu's; a world costs 10 to 15% less.
LIKELY_FOLLOWS = 8
LIKELY_LEADS = 16


def likely_moves(sense: Sense, table: Table, legal: list[Action]) -> list[Action]:
    """The moves worth weighing in a playout (legal ones, listed lowest first): a cheaper
    player that seldom differs from the full weighing, so that a search plays more worlds."""
    if len(legal) <= LIKELY_FOLLOWS + 2:
        return legal
    plays = [action for action in legal if isinstance(action, Play)]
    others = [action for action in legal if not isinstance(action, Play)]
    if not table.free_lead:
        return [*others, *plays[:LIKELY_FOLLOWS], *plays[LIKELY_FOLLOWS:][-1:]]
    low = min(map(sense.key, table.hand))
    with_low = [play for play in plays if any(sense.key(card) == low for card in play.cards)]
    with_low = with_low[:LIKELY_LEADS]
    whole = [play for play in plays if len(play.cards) == len(table.hand) and play not in with_low]
    return [*others, *with_low, *whole] or legal


def rank_plays(sense: Sense, table: Table, legal: list[Action], rng: random.Random) -> list[Action]:
    """Every action of `legal`, best first by `score` (ties in their listed order), but the
    first is `choose_play`'s pick: one of the best, drawn with `rng` when several tie."""
    scores = scores_of(sense, table, legal)
    low = min(scores)
    tied = [index for index, value in enumerate(scores) if value <= low + 1e-9]
    pick = tied[0] if len(tied) == 1 else rng.choice(tied)
    order = sorted(range(len(legal)), key=scores.__getitem__)
    return [legal[pick], *(legal[index] for index in order if index != pick)]


def scores_of(sense: Sense, table: Table, legal: list[Action]) -> list[float]:
    """Each action's `score`, lower better."""
    hand = sorted(sense.key(card) for card in table.hand)
    base = sense.plan_cost(tuple(hand))
    tops = sense.unseen_tops([*hand, *map(sense.key, table.played)])
    return [score(sense, table, action, base, hand, tops) for action in legal]


def score(
    sense: Sense,
    table: Table,
    action: Action,
    base: float,
    hand: list[int],
    tops: tuple[int, ...],
) -> float:
    """Lower is better: the plan of the hand the action leaves, with the table's adjustments.
    `base` is the plan of the whole hand, `hand` its keys, sorted; `tops` the unseen cards'."""
    if isinstance(action, Pass):
        return base + PASS_UNDER_THREAT[table.threat()]
    if not isinstance(action, Play):
        return float("inf")
    keys = tuple(sense.key(card) for card in action.cards)
    left = list(hand)
    for key in keys:
        left.remove(key)  # still sorted
    if not left:
        return float("-inf")
    strength = sense.strength(keys, tops)
    if strength >= 1 and sense.one_combination(tuple(left)):
        return GOES_OUT_NEXT  # nobody beats this, and the rest goes on the lead it wins
    rest = sense.plan_cost(tuple(left))
    bomb = sense.is_bomb(keys)
    value = rest + SHED * len(left)
    if table.free_lead:
        return value + lead_adjustment(table, action.cards, strength, bomb, rest)
    return value + follow_adjustment(table, action.cards, strength, bomb, rest)


def lead_adjustment(
    table: Table, cards: list[FrenchCard], strength: float, bomb: bool, rest: float
) -> float:
    size = len(cards)
    extra = 0.0
    if bomb and rest > NEAR_END:
        extra += HOLD_BOMB
    if any(table.counts[o] == size for o in table.opponents):
        extra += LEAD_RISK * (1 - strength)
    partner = table.partner
    if partner is not None and partner == table.next_seat and table.counts[partner] == size:
        extra -= FEED * (1 - strength)
    return extra


def follow_adjustment(
    table: Table, cards: list[FrenchCard], strength: float, bomb: bool, rest: float
) -> float:
    if table.last_player is not None and table.last_player == table.partner:
        partner_close = table.counts[table.partner] <= THREAT + 1
        return PARTNER_CLASH if bomb or strength >= 0.5 or partner_close else 0.0
    if threat := table.threat():
        return PRESS[threat] * (1 - strength)
    if bomb and rest > NEAR_END:
        return HOLD_BOMB
    if strength >= CONTROL and len(cards) <= CONTROL_SIZE and rest > NEAR_END:
        return HOLD_CONTROL
    return 0.0


# ---- the Expert's worlds, as the others' play shows (`Policy.shape_world`) -------------------

# A world where a player's pass is not one the Standard AI would have made with the cards
# dealt to it is kept this often per such pass (people pass otherwise); else dealt again.
UNLIKE_THE_AI = 0.1
SHAPE_TRIES = 24  # deals tried at most; then the one that fitted best is kept


@dataclass
class PassSeen:
    """A pass by a player whose cards the searching seat cannot see: the table the player
    saw (its hand left out) and the cards it has played since. Its hand then: those, and
    the cards a world deals it now."""

    table: Table
    since: list[FrenchCard]


# The table a seat saw: (seat, counts, to_beat, last_player, played) -> Table, its hand empty.
TableAt = Callable[[int, list[int], list[FrenchCard], int | None, list[FrenchCard]], Table]
# A hand's actions against a combination, as the policy weighs them (the pass among them).
LegalFor = Callable[[list[FrenchCard], list[FrenchCard]], list[Action]]


def passes_seen(
    climb: Climb, counts: list[int], players: Collection[int], table_at: TableAt
) -> list[PassSeen]:
    """The passes `players` made this hand, each with the table as it was: the climb's moves
    replayed from the hand's start (`counts`: the cards each seat holds now). Their plays
    would say more, but judging them too made shaping a world ten times as costly."""
    moves = climb.history()
    held = list(counts)
    for who, cards in moves:
        held[who] += len(cards)
    replay = Climb(seats=climb.seats, turn=climb.turn)
    played: list[FrenchCard] = []
    found = []
    for index, (who, cards) in enumerate(moves):
        if cards:
            replay.played(who, cards)
            held[who] -= len(cards)
            played += cards
            continue
        if who in players:
            since = [card for other, later in moves[index:] if other == who for card in later]
            table = table_at(who, list(held), replay.to_beat, replay.last_player, list(played))
            found.append(PassSeen(table, since))
        replay.passed(who)
    return found


def played_by(climb: Climb, seat: int) -> list[FrenchCard]:
    return [card for who, cards in climb.history() if who == seat for card in cards]


def fits_pass(sense: Sense, seen: PassSeen, hand: list[FrenchCard], legal_for: LegalFor) -> bool:
    """Whether the Standard AI would have passed there holding `hand` now (a tie fits)."""
    table = replace(seen.table, hand=[*hand, *seen.since])
    legal = legal_for(table.hand, table.to_beat)
    scores = scores_of(sense, table, legal)
    passing = next(s for action, s in zip(legal, scores, strict=True) if isinstance(action, Pass))
    return passing <= min(scores) + 1e-9


def misfit_passes(
    sense: Sense,
    passes: Iterable[PassSeen],
    hand: list[FrenchCard],
    legal_for: LegalFor,
    most: int,
    found: int = 0,
) -> int:
    """`found` and the `passes` the Standard AI would not have made holding `hand`, counted
    until they are more than `most`."""
    for passed in passes:
        if found > most:
            break
        found += not fits_pass(sense, passed, hand, legal_for)
    return found


Relabel = Callable[[dict[FrenchCard, FrenchCard]], None]
EVERY = 1 << 30  # misfits counted to the last


def deal_to_fit(
    seats: list[int],
    hidden_of: Callable[[int | None], list[FrenchCard]],
    relabel: Relabel,
    misfits: Callable[[int, int], int],
    rng: random.Random,
    tries: int = SHAPE_TRIES,
) -> None:
    """Deal the hidden cards again, seat by seat, so that each seat's hand fits its play: a
    seat's moves depend on its cards alone, so its hand is dealt again from its own hidden
    cards, the later seats' and the undealt ones (`hidden_of(None)`) until it fits, the
    later seats then dealt from what is left. The last seat, with nothing left to deal from
    but its own, is judged with the one before it. `misfits(seat, most)` counts the moves the
    Standard AI would not have made with the seat's cards, stopping past `most`; `relabel`
    puts, in every place a hidden card lies, the card it maps to."""
    for index, seat in enumerate(seats):
        later, spare = seats[index + 1 :], hidden_of(None)
        judged = [seat, *later] if len(later) == 1 and not spare else [seat]
        pool = [*hidden_of(seat), *(card for other in later for card in hidden_of(other)), *spare]
        if len(pool) > len(hidden_of(seat)):
            deal_one_to_fit(pool, relabel, partial(misfits_of, misfits, judged), rng, tries)


def misfits_of(misfits: Callable[[int, int], int], seats: list[int], most: int) -> int:
    found = 0
    for seat in seats:
        found += misfits(seat, most - found)
        if found > most:
            break
    return found


def deal_one_to_fit(
    pool: list[FrenchCard],
    relabel: Relabel,
    misfits: Callable[[int], int],
    rng: random.Random,
    tries: int,
) -> None:
    """Deal the `pool`'s cards again among their places until the world fits: a deal with k
    misfits is kept with the chance UNLIKE_THE_AI ** k, and after `tries` deals the one with
    the fewest is. Every deal is uniform, so the worlds kept come as often as the play makes
    them likely."""
    now = {card: card for card in pool}  # each card as dealt first -> the card in its place
    best, fewest = now, -1
    for attempt in range(tries):
        if attempt:
            mapping = dict(zip(pool, rng.sample(pool, len(pool)), strict=True))
            relabel(mapping)
            now = {first: mapping[card] for first, card in now.items()}
        tolerated = int(math.log(rng.random() or 1e-300) / math.log(UNLIKE_THE_AI))
        # Counted exactly as far as it may be kept, or be the best so far.
        found = misfits(max(tolerated, fewest - 1) if fewest >= 0 else EVERY)
        if found <= tolerated:
            return
        if fewest < 0 or found < fewest:
            best, fewest = now, found
    relabel({now[first]: card for first, card in best.items()})
