"""Delphi's AI: a player who hunts for the oracle's rule, and an oracle
who writes a rule from the bot's library and judges by it.

A player weighs hypotheses about the secret rule against every verdict on the table. The view
holds that whole history: each card of the line was judged correct against the line before
it, each card below line[i] incorrect against the line up to line[i] (cards set aside were not
judged). When the bot judges, its rule is one of its library's (library.py), of
the level it shows, drawn evenly: the hypotheses are those rules, and one that contradicts a
verdict is out. When a player oracle judges a rule of their own words, the hypotheses are the
library and simple rules a person might write (suits, rank ranges, a relation to the last
correct card), those outside the library weighing less; a person may misjudge a card, so a
hypothesis that missed a verdict or two keeps a small weight. The player answers with the
weighted majority. Unsure (the weights split about evenly, or nothing fits), it abstains while
it holds a token and guesses when it holds none (a wrong answer then costs nothing).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from bot.cards import FrenchCard, Suit
from bot.engine import Action, Decision, Policy
from bot.games.delphi.library import LEVELS, LIBRARY, MEDIUM, Judge, Line, is_face, value
from bot.games.delphi.records import (
    ABSTAIN,
    CORRECT,
    INCORRECT,
    NO,
    UNJUDGED,
    YES,
    DelphiKind,
    DelphiView,
    WriteRule,
)

# Library rules that look further back than the last correct card: judged on the whole line.
LONG_MEMORY = frozenset({"suit_of_last_two", "colour_pairs", "colour_two_back", "rank_in_line"})
# How likely a player oracle's rule is each hypothesis, before any verdict: a library rule 1, a
# person's rule less, the more so the more rules of its kind there are.
LIBRARY_PRIOR, SUITS_PRIOR, RELATION_PRIOR, RANGE_PRIOR = 1.0, 0.5, 0.2, 0.05
MISS_WEIGHT = 0.1  # a player oracle may misjudge: a hypothesis weighs this much less per miss
MOST_MISSES = 3  # beyond this many misses a hypothesis is out
UNSURE = 0.05  # a yes share within this of one half is no majority
ORACLE_LEVEL = MEDIUM  # "neither too hard nor too easy to figure out"


@dataclass(frozen=True)
class Hypothesis:
    name: str
    judge: Judge
    level: int | None  # a library rule's difficulty; None for a person's rule outside it
    prior: float  # its weight before any verdict, when a player oracle judges
    long_memory: bool = False


# ---- rules a person might write (all judged against the last correct card at most) ---------


def card_rule(name: str, prior: float, test: Callable[[FrenchCard], bool]) -> Hypothesis:
    return Hypothesis(name, lambda line, card: test(card), None, prior)


def last_card_rule(name: str, test: Callable[[FrenchCard, FrenchCard], bool]) -> Hypothesis:
    return Hypothesis(name, lambda line, card: test(line[-1], card), None, RELATION_PRIOR)


# The tests below close over their parameter in a function of their own (a lambda's default
# argument would do, but the type checker can't infer such a lambda's type).


def in_suits(suits: frozenset[Suit]) -> Callable[[FrenchCard], bool]:
    return lambda card: card.suit in suits


def in_ranks(ranks: range) -> Callable[[FrenchCard], bool]:
    return lambda card: value(card) in ranks


def not_in_ranks(ranks: range) -> Callable[[FrenchCard], bool]:
    return lambda card: value(card) not in ranks


def suit_rules() -> list[Hypothesis]:
    subsets = [frozenset(s) for size in (1, 2, 3) for s in itertools.combinations(Suit, size)]
    return [card_rule(f"suits {''.join(sorted(s))}", SUITS_PRIOR, in_suits(s)) for s in subsets]


def rank_rules() -> list[Hypothesis]:
    """Odd ranks, faces or not, a range of ranks, every rank but a range."""
    rules = [
        card_rule("odd ranks", SUITS_PRIOR, lambda c: value(c) % 2 == 1),
        card_rule("faces", SUITS_PRIOR, is_face),
        card_rule("no faces", SUITS_PRIOR, lambda c: not is_face(c)),
    ]
    for low, high in itertools.combinations_with_replacement(range(1, 14), 2):
        ranks = range(low, high + 1)
        if (low, high) != (1, 13):
            rules.append(card_rule(f"{low}-{high}", RANGE_PRIOR, in_ranks(ranks)))
        if low > 1 and high < 13:
            rules.append(card_rule(f"not {low}-{high}", RANGE_PRIOR, not_in_ranks(ranks)))
    return rules


Relation = Callable[[FrenchCard, FrenchCard], bool]  # (the last correct card, the card)


def within(gap: int) -> Relation:
    return lambda last, c: abs(value(c) - value(last)) <= gap


def over(gap: int) -> Relation:
    return lambda last, c: abs(value(c) - value(last)) > gap


def sum_at_least(total: int) -> Relation:
    return lambda last, c: value(c) + value(last) >= total


def sum_under(total: int) -> Relation:
    return lambda last, c: value(c) + value(last) < total


def suit_after(after: dict[Suit | None, Suit]) -> Relation:
    return lambda last, c: c.suit == after[last.suit]


def relation_rules() -> list[Hypothesis]:
    relations: dict[str, Relation] = {
        "same suit": lambda last, c: c.suit == last.suit,
        "other suit": lambda last, c: c.suit != last.suit,
        "same rank": lambda last, c: c.rank == last.rank,
        "other rank": lambda last, c: c.rank != last.rank,
        "same parity": lambda last, c: value(c) % 2 == value(last) % 2,
        "strictly higher": lambda last, c: value(c) > value(last),
        "strictly lower": lambda last, c: value(c) < value(last),
        "higher or equal": lambda last, c: value(c) >= value(last),
        "lower or equal": lambda last, c: value(c) <= value(last),
    }
    for gap in range(1, 7):
        relations[f"within {gap}"] = within(gap)
        relations[f"over {gap} away"] = over(gap)
    for total in range(8, 21):
        relations[f"sum {total}+"] = sum_at_least(total)
        relations[f"sum under {total}"] = sum_under(total)
    for rest in itertools.permutations([Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]):
        cycle = (Suit.CLUBS, *rest)
        # Keyed by a card's `suit` (None only for a joker, which Delphi doesn't deal).
        after: dict[Suit | None, Suit] = {
            suit: cycle[(place + 1) % 4] for place, suit in enumerate(cycle)
        }
        relations[f"suits go {''.join(cycle)}"] = suit_after(after)
    return [last_card_rule(name, test) for name, test in relations.items()]


HYPOTHESES: tuple[Hypothesis, ...] = (
    *(
        Hypothesis(rule.id, rule.judge, rule.level, LIBRARY_PRIOR, rule.id in LONG_MEMORY)
        for rule in LIBRARY
    ),
    *suit_rules(),
    *rank_rules(),
    *relation_rules(),
)


def mask_of(keep: Callable[[Hypothesis], bool]) -> int:
    """The hypotheses `keep` picks, as bits (bit i: HYPOTHESES[i])."""
    return sum(1 << i for i, hypothesis in enumerate(HYPOTHESES) if keep(hypothesis))


def prior_is(prior: float) -> Callable[[Hypothesis], bool]:
    return lambda hypothesis: hypothesis.prior == prior


def level_is(level: int) -> Callable[[Hypothesis], bool]:
    return lambda hypothesis: hypothesis.level == level


LIBRARY_MASK = mask_of(lambda h: h.level is not None)
PRIOR_MASKS = [(mask_of(prior_is(p)), p) for p in sorted({h.prior for h in HYPOTHESES})]
LEVEL_MASKS: dict[int | None, int] = {level: mask_of(level_is(level)) for level in LEVELS.values()}
LONG_MEMORY_BITS = [(1 << i, h.judge) for i, h in enumerate(HYPOTHESES) if h.long_memory]
SHORT_MEMORY_BITS = [(1 << i, h.judge) for i, h in enumerate(HYPOTHESES) if not h.long_memory]
BY_TEXT = {rule.text: rule for rule in LIBRARY}


# ---- what the hypotheses say ----------------------------------------------------------------


@cache
def after_last(last: FrenchCard, card: FrenchCard) -> int:
    """The hypotheses judged on the last correct card alone that call `card` correct."""
    line = (last,)
    return sum(bit for bit, judge in SHORT_MEMORY_BITS if judge(line, card))


def saying_correct(line: Line, card: FrenchCard) -> int:
    """Every hypothesis that calls `card` correct after `line`, as bits."""
    longer = sum(bit for bit, judge in LONG_MEMORY_BITS if judge(line, card))
    return after_last(line[-1], card) | longer


def verdicts_seen(view: DelphiView) -> Iterator[tuple[Line, FrenchCard, bool]]:
    """Every judged card with the line it was judged against, and whether it was correct."""
    for place, cards_below in enumerate(view.below):
        before = view.line[: place + 1]
        for card in cards_below:
            yield before, card, False
        if place + 1 < len(view.line):
            yield before, view.line[place + 1], True


def priors(view: DelphiView) -> list[tuple[int, float]]:
    """(hypotheses, weight of each) before any verdict. The bot judges a rule of the level it
    shows, drawn evenly; a player oracle's rule may be anything."""
    if view.bot_judges:
        return [(LEVEL_MASKS.get(LEVELS.get(view.level or ""), LIBRARY_MASK), 1.0)]
    return PRIOR_MASKS


def by_misses(view: DelphiView, considered: int, most: int) -> list[int]:
    """The hypotheses by how many verdicts seen they missed: [none, one, ... `most`]."""
    missed_by = [considered] + [0] * most
    for line, card, correct in verdicts_seen(view):
        said = saying_correct(line, card)
        wrong = (considered & ~said) if correct else said
        for misses in range(most, -1, -1):
            moved = missed_by[misses] & wrong
            missed_by[misses] &= ~moved
            if misses < most:
                missed_by[misses + 1] |= moved
    return missed_by


def yes_share(view: DelphiView) -> float | None:
    """The weight of the hypotheses calling the current card correct, of all still standing;
    None when none stands."""
    weights = priors(view)
    considered = sum(mask for mask, _ in weights)
    most = 0 if view.bot_judges else MOST_MISSES
    assert view.current is not None  # players answer about the card up
    said = saying_correct(view.line, view.current)
    yes = total = 0.0
    for misses, standing in enumerate(by_misses(view, considered, most)):
        scale = MISS_WEIGHT**misses
        for mask, weight in weights:
            yes += scale * weight * (standing & mask & said).bit_count()
            total += scale * weight * (standing & mask).bit_count()
    return yes / total if total else None


# ---- the choices ----------------------------------------------------------------------------


def answer_for(share: float | None, tokens: int, rng: random.Random) -> Action:
    """The majority's answer; unsure, abstain while holding a token, else guess."""
    if share is not None and abs(share - 0.5) > UNSURE:
        return YES if share > 0.5 else NO
    if tokens > 0:
        return ABSTAIN
    if share is None or share == 0.5:
        return rng.choice([YES, NO])
    return YES if share > 0.5 else NO


def verdict_for(view: DelphiView) -> Action:
    """The oracle judges by its own rule (one of the library's texts, as the AI writes). A rule
    it can't read (never one it wrote) gets what a timeout gives: the card left unjudged."""
    rule = BY_TEXT.get(view.my_rule or "")
    if rule is None or view.current is None:
        return UNJUDGED
    return CORRECT if rule.judge(view.line, view.current) else INCORRECT


def rule_to_write(rng: random.Random) -> Action:
    choices = [rule for rule in LIBRARY if rule.level == ORACLE_LEVEL]
    return WriteRule(text=rng.choice(choices).text)


class DelphiPolicy(Policy[DelphiView]):
    game_id = "delphi"

    def choose(
        self,
        seat: int,
        view: DelphiView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if decision.kind == DelphiKind.RULE:
            return rule_to_write(rng)
        if decision.kind == DelphiKind.JUDGE:
            return verdict_for(view)
        return answer_for(yes_share(view), view.tokens[seat] or 0, rng)

    def expert_choose(
        self,
        seat: int,
        view: DelphiView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
        seconds: float | None,
    ) -> Action | None:
        """The Expert's move (bot/games/delphi/expert.py): its own answer, searched within
        `seconds` (None: its worlds alone bound it); as oracle it writes and judges as Standard."""
        if decision.kind != DelphiKind.ANSWER:
            return self.choose(seat, view, decision, legal, rng)
        from bot.games.delphi import expert  # it builds on this module: imported when needed

        most = expert.DEFAULT_BUDGET.seconds
        budget = expert.Budget(
            seconds=None if seconds is None or most is None else min(seconds, most)
        )
        return expert.expert_answer(view, rng, budget)


POLICY = DelphiPolicy()
