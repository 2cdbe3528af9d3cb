"""Liar's Terrapin's AI.

Holding the hand, it claims the hand's true score when that is enough (a challenge then puts
the challenger out); otherwise it draws while the chance of reaching a high enough score
before Turtle Butt beats the chance a bluff survives, and bluffs with the least claim allowed
when it does not. Taking a hand over, it first discards the cards whose loss leaves the best
chance (a Turtle Butt hand can be mended only by discarding). Answering a claim, it
challenges when a hand of that many unseen cards is unlikely to score the claim.

For the Expert search (bot/games/expert.py) it ranks its moves, and deals the claimant's
hidden hand again in each world as the claim implies (`shape_claimant`): a hand scoring the
claim, or now and then a bluff, as often as this AI's own claims are.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from bot.engine import Action, Decision, GameState, Policy
from bot.games.ai import Place, reshape
from bot.games.terrapin import ai
from bot.games.terrapin.liars.rules import (
    MAX_RAISE,
    Accept,
    Challenge,
    Claim,
    DiscardOne,
    DoneDiscarding,
    Draw,
    LiarsKind,
    LiarsState,
    LiarsView,
)

BLUFF_SURVIVAL = 0.5  # how often a false claim is taken to go unchallenged
CHALLENGE_BELOW = 0.15  # challenge a claim that a hand its size reaches less often than this
LOOKAHEAD = 2  # draws looked ahead when weighing a draw against a bluff


class LiarsPolicy(Policy[LiarsView]):
    game_id = "liars"

    def choose(
        self,
        seat: int,
        view: LiarsView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if decision.kind == LiarsKind.RESPOND:
            return respond(view)
        hand, chances = holding(view)
        if decision.kind == LiarsKind.DISCARD:
            return discard(hand, chances)
        points, target = ai.value(hand), chances.target
        if points >= target:
            return Claim(points=min(points, target - 1 + MAX_RAISE))
        if Draw() in legal and chances.after_draw(hand, LOOKAHEAD) > BLUFF_SURVIVAL:
            return Draw()
        return Claim(points=target)  # the least lie is the likeliest to be believed

    def ranked(
        self,
        seat: int,
        view: LiarsView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """Its own move, then the likeliest others: the other answer to a claim; the discards
        that leave the best chance; a draw, the least claim, then higher ones."""
        first = self.choose(seat, view, decision, legal, rng)
        if decision.kind == LiarsKind.RESPOND:
            others: list[Action] = [Challenge(), Accept()]
        elif decision.kind == LiarsKind.DISCARD:
            others = discards_ranked(*holding(view))
        else:
            others = [Draw(), *sorted(claims(legal), key=lambda claim: claim.points)]
        moves = [first] if first is not None else []
        moves += [move for move in others if move != first and move in legal]
        return moves

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        shape_claimant(world, seat, rng)


def holding(view: LiarsView) -> tuple[tuple[int, ...], Chances]:
    """The holder's hand (card indices) and its chances of beating the last claim."""
    cards = view.my_cards or []
    return tuple(sorted(ai.ids(cards))), Chances((view.claim or 0) + 1, ai.unseen(cards))


def claims(legal: list[Action]) -> list[Claim]:
    return [action for action in legal if isinstance(action, Claim)]


class Chances:
    """The chance a hand gets through the holder's turn: 1 when it scores the target, a
    bluff's chance otherwise, or better by drawing (each card from the unseen pool)."""

    def __init__(self, target: int, pool: Sequence[int]) -> None:
        self.target, self.pool = target, pool
        self.known: dict[tuple[tuple[int, ...], int], float] = {}

    def of(self, hand: tuple[int, ...], draws: int) -> float:
        key = (hand, draws)
        if key not in self.known:
            points = ai.value(hand)
            if points >= self.target:
                self.known[key] = 1.0
            elif points == ai.TURTLE_BUTT or draws == 0:
                self.known[key] = BLUFF_SURVIVAL
            else:
                self.known[key] = max(BLUFF_SURVIVAL, self.after_draw(hand, draws))
        return self.known[key]

    def after_draw(self, hand: tuple[int, ...], draws: int) -> float:
        """The chance of getting through if the holder draws now (then plays on at best)."""
        if draws == 1:  # the last draw looked at: count the cards that reach the target
            held = ai.Partial.of(hand)
            cards = [c for c in self.pool if c not in hand]
            reach = sum(held.plus((c,)) >= self.target for c in cards)
            return (reach + (len(cards) - reach) * BLUFF_SURVIVAL) / max(len(cards), 1)
        outcomes = [
            self.of(tuple(sorted((*hand, c))), draws - 1) for c in self.pool if c not in hand
        ]
        return sum(outcomes) / len(outcomes) if outcomes else BLUFF_SURVIVAL


def discard(hand: tuple[int, ...], chances: Chances) -> Action:
    """Drop the card whose loss most raises the chance of getting through; else stop. (One
    draw looked ahead per card: the claim that follows looks further.)"""
    if chances.of(hand, 1) == 1.0:
        return DoneDiscarding()
    return discards_ranked(hand, chances)[0]


def discards_ranked(hand: tuple[int, ...], chances: Chances) -> list[Action]:
    """Stopping and each discard, the best chance of getting through first (a tie keeps the
    earlier: stopping, then the cards in order)."""
    choices: list[tuple[float, Action]] = [(chances.of(hand, 1), DoneDiscarding())]
    for card in hand:
        rest = tuple(c for c in hand if c != card)
        choices.append((chances.of(rest, 1), DiscardOne(card=ai.card_at(card))))
    choices.sort(key=lambda choice: -choice[0])  # stable: ties keep their order
    return [action for _, action in choices]


def respond(view: LiarsView) -> Action:
    if ai.chance_at_least(view.claim or 0, view.hand_size) < CHALLENGE_BELOW:
        return Challenge()
    return Accept()


# ---- what a claim says of the holder's cards (the Expert's worlds) ----------------------------

# How likely this AI claims a score its hand falls short of (a bluff, the least claim allowed,
# when drawing looks worse), against 1 for a hand scoring the claim exactly (its true claims):
# fitted to Standard self-play (3,600 claims, 3 and 5 players: a fifth are bluffs, and the
# bluffs it expects are within 2% of them; tests/engines/test_liars_expert.py checks it).
BLUFFED = 0.01
# How likely a claim is below the hand's score: this AI claims less only when the most it may
# claim is less, a human may understate now and then (a few % of the worlds of a first claim).
UNDERSTATED = 0.0002
FIND_TRIES = 400  # random hands tried for one of the kind a claim implies (a few % may be)


def shape_claimant(world: GameState, seat: int, rng: random.Random) -> None:
    """The holder who claimed, answered by `seat`, holds in the Expert's world a hand scoring
    the claim, below it (a bluff) or above it, as often as this AI's claims do (`kind_for`)."""
    assert isinstance(world, LiarsState)
    if world.phase != "responding" or world.holder == seat or world.claim is None:
        return
    hand, claim = world.hands[world.holder], world.claim
    kind = kind_for(claim, len(hand), rng)

    def fits(cards: Sequence[int]) -> bool:
        return compared(ai.value(cards), claim) == kind

    def choose(places: list[Place]) -> list[Place] | None:
        return fitting(places, len(hand), fits, rng)

    piles = (world.deck, world.discards)
    reshape(hand, lambda cards: float(fits(ai.ids(cards))), piles, rng, 2, choose)


def compared(points: int, claim: int) -> int:
    """-1 below the claim (Turtle Butt too), 0 scoring it exactly, 1 above it."""
    return (points > claim) - (points < claim)


def kind_for(claim: int, size: int, rng: random.Random) -> int:
    """Whether the claimant's hand is below the claim, scores it or is above (`compared`),
    drawn as `kind_weights` says."""
    weights = kind_weights(claim, size)
    return rng.choices((-1, 0, 1), weights)[0] if any(weights) else -1


def kind_weights(claim: int, size: int) -> tuple[float, float, float]:
    """How likely a hand of `size` cards is below the claim, scores it or is above, unnormalised:
    as likely as a random hand is so, times how likely this AI claims so holding it."""
    spread = ai.value_spread(size)
    below, above = bisect_left(spread, claim), bisect_right(spread, claim)
    return BLUFFED * below, float(above - below), UNDERSTATED * (len(spread) - above)


def fitting(
    places: list[Place], count: int, fits: Callable[[Sequence[int]], bool], rng: random.Random
) -> list[Place] | None:
    """`count` of the face-down places whose cards `fits` takes, tried at random (None: none
    found, the hand is dealt as it comes)."""
    cards = ai.ids(pile[index] for pile, index in places)
    order = list(range(len(places)))
    for _ in range(FIND_TRIES):
        picked = ai.deal(order, count, rng)
        if fits([cards[i] for i in picked]):
            return [places[i] for i in picked]
    return None
