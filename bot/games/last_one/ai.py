"""Last One's AI: sheds cards as fast as it can, from its own view.

Every option of a turn is valued in cards, the game's currency: a card played is one fewer to
score, a card drawn one more. A play is worth more when it leaves many cards that follow on it
(cards of its suit or rank: the next players usually keep the suit), when it sheds many points
while another player is close to going out, and by its effect: a 2 or a Jack hits the next
player (more when they are close to going out), an Ace turns play away from a player close to
going out, a 3 is followed by the best extra card, a 4 makes the next player draw unless
someone holds the 5 of its suit. Eights and jokers, which go on anything, are kept for when
nothing else goes, unless someone is close to going out (they score 25 and 40). It names its
longest suit with an 8 and, with a joker, the card that most of its hand follows. In a melee
it continues when it is the defender, when its card is a King (which ends the melee on the
previous aggressor) or when nobody else is likely to go on; it calls "Last one!" at once.

Heads up an Ace, a Jack or a 2 gives the turn back: the value then counts the best play after
it, as after a 3. It never draws when it can play: every card shed counts.

The Expert plays the same way with weights of its own (`EXPERT`, `expert_choose`): it keeps its
wild cards longer, and counts a player close to going out only at one card.

For the Expert search (bot/games/expert.py), which plays no better than Standard and is not
used (`expert_choose` comes first), it ranks its moves (`ranked`), looks one play deep
in the search's playouts, and deals a world's hands as the draws show (`shape_world`): a player
who drew on a turn held no card that went, as the AI draws only then.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.cards import FrenchCard, Rank, Suit
from bot.engine import Action, Decision, GameState, Policy
from bot.games.ai import in_rollout
from bot.games.jokerless import suit_of
from bot.games.last_one.cards import SUITS, card_points, is_wild, sort_cards
from bot.games.last_one.records import (
    Call,
    Continue,
    Draw,
    EndTurn,
    Lack,
    LastOneKind,
    LastOneView,
    NameCard,
    NameSuit,
    Play,
)
from bot.games.last_one.rules import LastOneState

CARD = 3.0  # the value of a card shed (or, negated, drawn)
OUT = 1_000.0  # going out wins the hand
FOLLOW = 1.0  # per card left that follows on the new upcard
POINTS_CALM = 0.02  # per point shed while nobody is close to going out
POINTS_CLOSE = 0.15  # per point shed while someone is
CLOSE = 2  # a player holding this many cards or fewer is close to going out
KEEP_EIGHT, KEEP_JOKER = 2.5, 4.0  # what holding a wild card for later is worth
HIT_TWO, HIT_JACK = 2.5, 1.5  # the next player draws two and is skipped / is skipped
HIT_CLOSE = 2.0  # more when the player hit is close to going out
TURN_AWAY = 1.5  # an Ace turning play away from a player close to going out
MELEE_HIT = 2.0  # a 4: the next player draws four if nobody goes on
DEFENDER_DRAW = 6.0  # a 4 whose 5 someone else holds: about what we draw when they go on
JOKER_IN_MELEE = 3  # a defender uses a joker to go on only when facing a draw at least this big
DEPTH = 3  # plays looked ahead when a card gives the turn back
QUICK_DEPTH = 1  # in the Expert's playouts: thousands of moves a decision


@dataclass(frozen=True)
class Weights:
    """What a card that follows on the new upcard, and a wild card kept, are worth; how
    few cards make a player close to going out."""

    follow: float = FOLLOW
    keep_eight: float = KEEP_EIGHT
    keep_joker: float = KEEP_JOKER
    close: int = CLOSE


STANDARD = Weights()
# The Expert's: a hand that follows on is worth less, a wild card kept more, and only a player
# down to one card is close to going out (an 8 or a joker is played early only then, and points
# shed). Chosen among a few values each by matches against Standard; `bench/ai.py lastone
# --versus expert:standard --matches 2000`: 57.1% of the matches won (54.7 to 59.3) on seed 0,
# 55.6% (53.2 to 58.1) on seed 1000.
EXPERT = Weights(follow=0.6, keep_eight=8.0, keep_joker=12.0, close=1)


class Table:
    """What the seat knows of the table: its cards, and who sits where with how many."""

    def __init__(self, view: LastOneView, weights: Weights = STANDARD) -> None:
        assert view.seat is not None  # a policy gets its own seat's view
        self.view = view
        self.weights = weights
        self.seat: int = view.seat
        self.others = [s for s in view.players if s != view.seat and view.counts[s] > 0]
        self.close = any(view.counts[s] <= weights.close for s in self.others)

    @property
    def heads_up(self) -> bool:
        return len(self.view.players) == 2

    def after(self, steps: int = 1, direction: int | None = None) -> int:
        """The seat `steps` places after ours in the direction of play (or the one given)."""
        order = self.view.players
        turn = direction or self.view.direction
        return order[(order.index(self.seat) + steps * turn) % len(order)]

    def chance_held_by_others(self, wanted: Sequence[FrenchCard]) -> float:
        """About how likely another player holds one of these cards (none of them ours):
        every card we can't see is as likely in their hands as in the stock or the discards."""
        view = self.view
        held = sum(view.counts[s] for s in self.others)
        unseen = held + view.stock + view.discards
        if not unseen or not wanted:
            return 0.0
        missing = 1.0
        for _ in wanted:
            missing *= 1 - held / unseen
        return 1 - missing


# ---- what a hand follows --------------------------------------------------------------------


def followers(hand: Sequence[FrenchCard], rank: Rank | None, suit: Suit) -> int:
    """Cards of the hand, not wild, that go on this rank or suit."""
    return sum(not is_wild(c) and (c.suit == suit or c.rank == rank) for c in hand)


def best_suit(hand: Sequence[FrenchCard]) -> Suit:
    """The suit most of the hand follows (then the most points: shed them while it lasts)."""
    naturals = [c for c in hand if not is_wild(c)]

    def worth(suit: Suit) -> tuple[int, int, int]:
        cards = [c for c in naturals if c.suit == suit]
        return len(cards), sum(map(card_points, cards)), -SUITS.index(suit)

    return max(SUITS, key=worth)


def best_name(hand: Sequence[FrenchCard]) -> tuple[Rank, Suit]:
    """The card a joker should stand for: the one most of the hand follows."""
    suit = best_suit(hand)
    return max(((rank, suit) for rank in Rank), key=lambda named: (followers(hand, *named), named))


def follow_up(hand: Sequence[FrenchCard], card: FrenchCard) -> int:
    """Cards left that follow after playing `card` (an 8 names, and a joker stands for, the
    best it can)."""
    if card.is_joker:
        return followers(hand, *best_name(hand))
    if card.rank == Rank.EIGHT:
        return followers(hand, None, best_suit(hand))
    return followers(hand, card.rank, suit_of(card))


# ---- the value of a play --------------------------------------------------------------------


def without(hand: Sequence[FrenchCard], card: FrenchCard) -> list[FrenchCard]:
    rest = list(hand)
    rest.remove(card)
    return rest


def gives_turn_back(table: Table, card: FrenchCard) -> bool:
    """A 3 gives a free card; heads up, an Ace, a Jack or a 2 skips the other player."""
    if card.is_joker:
        return False
    return card.rank == Rank.THREE or (
        table.heads_up and card.rank in (Rank.ACE, Rank.JACK, Rank.TWO)
    )


def effect_value(table: Table, card: FrenchCard, rest: Sequence[FrenchCard]) -> float:
    """What the card's effect is worth, beyond shedding it."""
    view = table.view
    if card.is_joker:
        return -table.weights.keep_joker * (not table.close)
    nxt = table.after()
    close = table.weights.close
    hit_close = HIT_CLOSE * (view.counts[nxt] <= close)
    match card.rank:
        case Rank.EIGHT:
            return -table.weights.keep_eight * (not table.close)
        case Rank.TWO:
            return HIT_TWO + hit_close
        case Rank.JACK:
            return HIT_JACK + hit_close
        case Rank.ACE if not table.heads_up:
            behind = table.after(direction=-view.direction)
            if view.counts[nxt] <= close < view.counts[behind]:
                return TURN_AWAY
            if view.counts[behind] <= close < view.counts[nxt]:
                return -TURN_AWAY
        case Rank.FOUR:
            five = FrenchCard(Rank.FIVE, card.suit)
            if five in rest:
                return MELEE_HIT
            return MELEE_HIT - DEFENDER_DRAW * table.chance_held_by_others([five])
    return 0.0


def play_value(table: Table, hand: Sequence[FrenchCard], card: FrenchCard, depth: int) -> float:
    """What playing `card` from `hand` is worth, in cards."""
    rest = without(hand, card)
    if not rest:
        return OUT
    points = POINTS_CLOSE if table.close else POINTS_CALM
    value = CARD + points * card_points(card) + effect_value(table, card, rest)
    if gives_turn_back(table, card) and depth > 0:
        if card.rank == Rank.THREE:  # any card may follow, or the turn ends on the 3
            options, stop = rest, table.weights.follow * follow_up(rest, card)
        else:  # heads up: play again on this card, or draw
            options = [c for c in rest if is_wild(c) or c.suit == card.suit or c.rank == card.rank]
            stop = -CARD
        best = max((play_value(table, rest, c, depth - 1) for c in options), default=stop)
        return value + max(best, stop)
    return value + table.weights.follow * follow_up(rest, card)


def lookahead() -> int:
    """How deep a play's value looks: less in the Expert's playouts (`in_rollout`), where
    the value of a 3's follow-up card, looked at one deep, is all the speed asks for."""
    return QUICK_DEPTH if in_rollout() else DEPTH


def best_play(table: Table, hand: Sequence[FrenchCard], plays: list[Play], rng) -> Play:
    values = [play_value(table, hand, play.card, lookahead()) for play in plays]
    top = max(values)
    return rng.choice([play for play, value in zip(plays, values, strict=True) if value == top])


# ---- the melee ------------------------------------------------------------------------------


def melee_choice(table: Table, moves: list[Continue]) -> Continue | None:
    """Go on with the melee when it makes us go out, when we would draw otherwise, with a
    King (it ends the melee on the previous aggressor), or when nobody else is likely to go
    on; a joker only as a defender facing a big draw."""
    view = table.view
    melee, hand = view.melee, view.my_cards
    assert melee is not None and hand is not None  # asked in a melee, with the seat's cards
    naturals = [m for m in moves if not m.card.is_joker]
    jokers = [m for m in moves if m.card.is_joker]
    if len(hand) == 1:
        return moves[0]
    defending = melee.defender == table.seat
    if naturals:
        move = naturals[0]
        if defending or move.rank == Rank.KING:
            return move
        after = FrenchCard(Rank(move.rank + 1), melee.suit)  # who holds it makes us defend
        theirs = [] if after in hand else [after]
        risk = table.chance_held_by_others(theirs) * (move.rank + 1)
        return move if risk < CARD else None
    if jokers and defending and melee.rank >= JOKER_IN_MELEE:
        return jokers[0]
    return None


# ---- the policy -----------------------------------------------------------------------------


class LastOnePolicy(Policy[LastOneView]):
    game_id = "lastone"
    expert_reweighs = True

    def choose(
        self,
        seat: int,
        view: LastOneView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        return self.play_by(STANDARD, view, decision, legal, rng)

    def expert_choose(
        self,
        seat: int,
        view: LastOneView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
        seconds: float | None,
    ) -> Action | None:
        """The Expert plays as Standard with its own weights (`EXPERT`): no search, as every
        search tried played no better than Standard (docs/performance.md)."""
        return self.play_by(EXPERT, view, decision, legal, rng)

    def play_by(
        self,
        weights: Weights,
        view: LastOneView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        table = Table(view, weights)
        hand = view.my_cards or []
        plays = [a for a in legal if isinstance(a, Play)]
        if Call() in legal:  # one card left: play it if it goes, else call at once
            last = [a for a in legal if isinstance(a, Play | Continue)]
            return last[0] if last and len(hand) == 1 else Call()
        match decision.kind:
            case LastOneKind.TURN:
                return best_play(table, hand, plays, rng) if plays else Draw()
            case LastOneKind.FREE:
                if not plays:
                    return EndTurn()
                play = best_play(table, hand, plays, rng)
                assert view.upcard is not None  # the 3 that gave this free card
                stop = table.weights.follow * follow_up(hand, view.upcard)  # end on the 3
                worth = play_value(table, hand, play.card, lookahead())
                return play if worth > stop else EndTurn()
            case LastOneKind.SUIT:
                return NameSuit(suit=best_suit(hand))
            case LastOneKind.NAME:
                rank, suit = best_name(hand)
                return NameCard(rank=rank, suit=suit)
            case LastOneKind.MELEE:
                return melee_choice(table, [a for a in legal if isinstance(a, Continue)])
        return None

    def ranked(
        self,
        seat: int,
        view: LastOneView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """Standard's pick, then the other moves by what they are worth to it (a draw last
        where a card goes): the Expert search compares the first few."""
        first = self.choose(seat, view, decision, legal, rng)
        table, hand = Table(view), view.my_cards or []
        others = [action for action in legal if action != first]
        others.sort(key=lambda action: -move_value(table, hand, action))
        return others if first is None else [first, *others]

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """A player who drew on a turn held no card that went (the AI draws only then): their
        hand in the world holds none that followed what they drew on, but for the cards drawn
        since; the others are swapped for stock cards that fit (`refit`)."""
        assert isinstance(world, LastOneState)
        if world.phase in ("between", "over") or not world.lacks:
            return
        for other in world.players:
            if other != seat and world.lacks[other] and rng.random() >= ODD_DRAW:
                refit(world.hands[other], world.lacks[other], world.stock, rng)


# ---- the Expert's helpers: moves ranked, worlds as the draws show ---------------------------

ODD_DRAW = 0.1  # how often a player (a person, say) draws though a card would go


def move_value(table: Table, hand: Sequence[FrenchCard], action: Action) -> float:
    """What a move is worth to the AI, to rank the moves it did not pick."""
    match action:
        case Play() | Continue():
            return play_value(table, hand, action.card, DEPTH)
        case EndTurn() if table.view.upcard is not None:
            return FOLLOW * follow_up(hand, table.view.upcard)
        case NameSuit():
            return followers(hand, None, action.suit)
        case NameCard():
            return followers(hand, action.rank, action.suit)
        case Call():
            return OUT
    return -CARD  # a draw: a card more


def follows(card: FrenchCard, lack: Lack) -> bool:
    return is_wild(card) or card.suit == lack.suit or card.rank == lack.rank


def refit(hand: list[FrenchCard], lacks: list[Lack], stock: list[FrenchCard], rng) -> None:
    """Swap the hand's cards its draws deny (beyond the cards drawn since each) for stock
    cards that none of its draws deny."""
    for lack in lacks:
        denied = [index for index, card in enumerate(hand) if follows(card, lack)]
        spare = [i for i, card in enumerate(stock) if not any(follows(card, x) for x in lacks)]
        rng.shuffle(denied)
        rng.shuffle(spare)
        for mine, theirs in zip(denied[: max(0, len(denied) - lack.since)], spare, strict=False):
            hand[mine], stock[theirs] = stock[theirs], hand[mine]
    hand[:] = sort_cards(hand)
