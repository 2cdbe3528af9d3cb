"""Delphi's Expert player: the answer worth most, by playing the hand out in sampled worlds.

Every player sees the same verdicts, so every player's belief about the rule is the same: the
Standard player's weighed hypotheses (ai.py), public to all. What an answer changes is only the
tokens, and what tokens are worth depends on the others': a match is won by the highest total,
so a player behind must sometimes differ from the leader, and a player ahead must follow them.
Standard's fixed thresholds don't see that; Expert weighs it.

At an answer, Expert samples worlds consistent with its seat's view alone: a rule drawn from the
hypotheses by their weight (never the oracle's own rule) and the cards still to come drawn from
the unseen ones. In each world the hand is played out from the verdict on the card up: the
others answer it as Standard would (their tokens are public, and so is the belief they answer
from), Expert gives each candidate answer (yes, no, abstain), then everyone plays Standard to
the end. A world's worth is Expert's share of first place once the scores are added (in the
match's last hand; earlier, its hand score), and the same worlds serve every candidate, so
their differences are the answers', not the worlds'. Standard's answer is played unless another
is surely better; in the match's last hand Expert then draws among the better ones, the likelier
the more each gains, so that two Experts in the same spot don't make the same gamble together
(which leaves the first place to whoever made none); earlier, the best is played. The worlds
are played until the budget's worlds or seconds run out, their rules drawn evenly spread, so
that the card up is correct in as many worlds as its odds say.

A world's future depends on the rule and the cards, never on the answers (the verdicts are shown
whatever anyone answered): each world's verdicts and shared belief are found once, then each
candidate's tokens are counted along them.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bot.cards import FrenchCard, french_deck
from bot.engine import Action
from bot.games.delphi.ai import (
    HYPOTHESES,
    MISS_WEIGHT,
    MOST_MISSES,
    answer_for,
    by_misses,
    priors,
    saying_correct,
)
from bot.games.delphi.records import ABSTAIN, NO, YES, DelphiView
from bot.games.delphi.rules import oracle_score, player_scores
from bot.games.expert import NOTHING, gain_bound

CANDIDATES: tuple[Action, ...] = (YES, NO, ABSTAIN)
# A hand score this much is worth as much as a first place: a tie-break among answers equally
# likely to win (far ahead or behind, more tokens are still better).
MARGIN = 1e-4
# How surely an answer must beat Standard's to be played instead: its gain's lower bound, in
# standard errors, above nothing. Three candidates on the same worlds: the best-looking is
# rarely the luckiest by much, so a loose bound.
SURE = 0.5
# How far a worse answer's gain may trail the best's and still be drawn often (`chosen`): a
# twentieth of a first place trailing makes it e times less likely.
TEMPERATURE = 0.05


@dataclass(frozen=True)
class Budget:
    """At most `worlds` sampled worlds, and none begun after `seconds` (None: worlds only)."""

    worlds: int = 400
    seconds: float | None = 0.15


DEFAULT_BUDGET = Budget()


class Belief:
    """The hypotheses still standing, by how many verdicts each missed, weighed as `yes_share`
    weighs them, learning one verdict at a time (the same arithmetic, so the same shares)."""

    def __init__(self, weights: list[tuple[int, float]], missed_by: list[int]) -> None:
        self.weights = weights
        self.missed_by = missed_by

    @classmethod
    def of(cls, view: DelphiView) -> Belief:
        weights = priors(view)
        considered = sum(mask for mask, _ in weights)
        most = 0 if view.bot_judges else MOST_MISSES
        return cls(weights, by_misses(view, considered, most))

    def copy(self) -> Belief:
        return Belief(self.weights, list(self.missed_by))

    def share(self, said: int) -> float | None:
        """The weight calling a card correct (hypotheses `said`), of all; None: none stands."""
        yes = total = 0.0
        for misses, standing in enumerate(self.missed_by):
            scale = MISS_WEIGHT**misses
            for mask, weight in self.weights:
                yes += scale * weight * (standing & mask & said).bit_count()
                total += scale * weight * (standing & mask).bit_count()
        return yes / total if total else None

    def learn(self, said: int, correct: bool) -> None:
        """A verdict: each hypothesis that missed it moves one miss down (out past the last)."""
        considered = 0
        for standing in self.missed_by:
            considered |= standing
        wrong = (considered & ~said) if correct else said
        most = len(self.missed_by) - 1
        for misses in range(most, -1, -1):
            moved = self.missed_by[misses] & wrong
            self.missed_by[misses] &= ~moved
            if misses < most:
                self.missed_by[misses + 1] |= moved

    def settled(self) -> bool:
        """One hypothesis alone stands (the bot judges: none missed any verdict)."""
        return len(self.missed_by) == 1 and self.missed_by[0].bit_count() <= 1

    def weighed(self) -> tuple[list[int], list[float]]:
        """Each standing hypothesis (its index in HYPOTHESES) and its weight."""
        found: dict[int, float] = {}
        for misses, standing in enumerate(self.missed_by):
            for mask, weight in self.weights:
                bits = standing & mask
                while bits:
                    low = bits & -bits
                    found[low.bit_length() - 1] = weight * MISS_WEIGHT**misses
                    bits ^= low
        return list(found), list(found.values())


# ---- one world ------------------------------------------------------------------------------


@dataclass(frozen=True)
class World:
    """What a world holds from the card up: its verdict on the card, and for each later card
    the share everyone answers from and the verdict; `settled` cards more that everyone
    answers right (the rule alone stands, so every player knows it)."""

    correct: bool
    later: list[tuple[float | None, bool]]
    settled: int


def unseen(view: DelphiView) -> list[FrenchCard]:
    """The cards the seat has not seen: still in the stock, in some order."""
    seen = {*view.line, *view.aside, *(card for cards in view.below for card in cards)}
    if view.current is not None:
        seen.add(view.current)
    return [card for card in french_deck() if card not in seen]


def world_from(view: DelphiView, belief: Belief, rule: int, cards: list[FrenchCard]) -> World:
    """The verdicts rule number `rule` gives the card up and `cards` after it, and the shared
    belief they answer from, played on."""
    judge = HYPOTHESES[rule].judge
    line = list(view.line)
    known = belief.copy()
    later: list[tuple[float | None, bool]] = []
    first: bool | None = None
    for number, card in enumerate([view.current, *cards]):
        assert card is not None  # Expert answers about the card up
        said = saying_correct(line, card)
        correct = judge(line, card)
        if first is None:
            first = correct
        else:
            later.append((known.share(said), correct))
        known.learn(said, correct)
        if correct:
            line.append(card)
        if known.settled():
            return World(correct=bool(first), later=later, settled=len(cards) - number)
    return World(correct=bool(first), later=later, settled=0)


def paid(answer: Action, correct: bool, tokens: int) -> int:
    """The rules' payment: a token for a right answer, one back for a wrong one if held."""
    if answer is ABSTAIN:  # the records' own answers: identity is the cheap test
        return 0
    if (answer is YES) == correct:
        return 1
    return -1 if tokens > 0 else 0


def played_out(
    world: World, tokens: dict[int, int], first: dict[int, Action], rng: random.Random
) -> dict[int, int]:
    """Each player's tokens at the hand's end: `first` answers on the card up, then Standard."""
    held = {seat: count + paid(first[seat], world.correct, count) for seat, count in tokens.items()}
    for share, correct in world.later:
        for seat, count in held.items():
            held[seat] = count + paid(answer_for(share, count, rng), correct, count)
    return {seat: count + world.settled for seat, count in held.items()}


def worth(view: DelphiView, seat: int, tokens: dict[int, int]) -> float:
    """The hand's end to `seat`: its share of first place in the match's last hand (with a
    little for its hand score, a tie-break); earlier, its hand score alone."""
    players = sorted(tokens)
    counts = [tokens[s] for s in players]
    scores = dict(zip(players, player_scores(counts), strict=True))
    if view.oracle is not None:
        scores[view.oracle] = oracle_score(counts)
    if view.hand < view.hands:
        return float(scores[seat])
    totals = [total + scores.get(s, 0) for s, total in enumerate(view.scores)]
    best = max(totals)
    first = 1 / totals.count(best) if totals[seat] == best else 0.0
    return first + MARGIN * scores[seat]


# ---- the choice -----------------------------------------------------------------------------


def expert_answer(
    view: DelphiView,
    rng: random.Random,
    budget: Budget = DEFAULT_BUDGET,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """Expert's answer to the card up, from its seat's view alone (see the module's text)."""
    return searched(view, Belief.of(view), rng, budget, clock)[0]


def searched(
    view: DelphiView,
    belief: Belief,
    rng: random.Random,
    budget: Budget = DEFAULT_BUDGET,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Action, int]:
    """`expert_answer` with `belief` about the rule, and how many worlds it played out."""
    assert view.seat is not None and view.current is not None  # a player answers the card up
    deadline = None if budget.seconds is None else clock() + budget.seconds
    said = saying_correct(view.line, view.current)
    share = belief.share(said)
    standard = answer_for(share, view.tokens[view.seat] or 0, rng)
    if share in (0.0, 1.0) or share is None:
        return standard, 0  # sure (a right answer is worth a token whatever the others do)
    gains: dict[Action, list[float]] = {answer: [] for answer in CANDIDATES if answer != standard}
    deck, played = unseen(view), 0
    ahead = min(max(0, view.of - view.number), len(deck))
    rules = draws(belief, said, rng)
    while played < budget.worlds and (deadline is None or clock() < deadline):
        world = world_from(view, belief, next(rules), rng.sample(deck, ahead))
        weigh(view, share, world, standard, gains, rng)
        played += 1
    return chosen(standard, gains, rng, view.hand >= view.hands), played


GOLDEN = (5**0.5 - 1) / 2  # steps of it spread evenly over [0, 1) however many are taken


def draws(belief: Belief, said: int, rng: random.Random) -> Iterator[int]:
    """The worlds' rules, each as likely as its weight, drawn evenly spread: those calling the
    card up correct first, so that of any number of worlds the card is correct in its share
    (give or take a few), not in a share as noisy as the draws: the answer's payment then differs
    from its odds by no luck of the draws."""
    pairs = sorted(zip(*belief.weighed(), strict=True), key=lambda pair: not said >> pair[0] & 1)
    cumulative = list(itertools.accumulate(weight for _, weight in pairs))
    spot = rng.random()
    while True:
        found = bisect.bisect_right(cumulative, spot * cumulative[-1])
        yield pairs[min(found, len(pairs) - 1)][0]
        spot = (spot + GOLDEN) % 1.0


def weigh(
    view: DelphiView,
    share: float | None,
    world: World,
    standard: Action,
    gains: dict[Action, list[float]],
    rng: random.Random,
) -> None:
    """Each candidate's gain over Standard's answer in `world`, added to `gains`."""
    assert view.seat is not None  # a player's view
    seat = view.seat
    tokens = {s: count for s, count in enumerate(view.tokens) if count is not None}
    # The others answer the card up as Standard would, from the same belief.
    others = {s: answer_for(share, count, rng) for s, count in tokens.items() if s != seat}
    seed = rng.getrandbits(32)  # the same later guesses for every candidate
    ends = played_out(world, tokens, {**others, seat: standard}, random.Random(seed))
    base = worth(view, seat, ends)
    for answer, found in gains.items():
        ends = played_out(world, tokens, {**others, seat: answer}, random.Random(seed))
        found.append(worth(view, seat, ends) - base)


def chosen(
    standard: Action, gains: dict[Action, list[float]], rng: random.Random, mixed: bool
) -> Action:
    """Standard's answer, or one surely better (its gain's lower bound above nothing). Where a
    first place is at stake (`mixed`) the answer is drawn among those, the likelier the more it
    gains (TEMPERATURE): two Experts in the same spot make the same search, and would otherwise
    make the same gamble together, leaving the first place to the player who made none."""
    better = {answer: mean(found) for answer, found in gains.items() if surely_better(found)}
    if not better:
        return standard
    if not mixed:
        return max(better, key=lambda answer: better[answer])
    options = [standard, *better]
    top = max(better.values())
    odds = [math.exp((better.get(answer, 0.0) - top) / TEMPERATURE) for answer in options]
    return rng.choices(options, odds)[0]


def mean(gains: list[float]) -> float:
    return sum(gains) / len(gains)


def surely_better(gains: list[float]) -> bool:
    """Its gain's lower bound (SURE standard errors below the mean) is above nothing."""
    bound = gain_bound(gains, -SURE)
    return bound is not None and bound > NOTHING
