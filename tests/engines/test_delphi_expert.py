"""Delphi's Expert (bot/games/delphi/expert.py): its belief is Standard's, verdict by verdict
(so it foresees the Standard players' answers); sure of the card it answers right; on the last
card it weighs a first place against the odds (a gamble for an outright win when tied, no risk
to a sure win when ahead), and in an earlier hand a token's worth; it never reads the oracle's
rule (two states differing only in the rule give the same answer); its answers are legal,
within its time, and as oracle it writes and judges as Standard."""

import random
import time

import pytest

from bot.cards import FrenchCard
from bot.games.delphi import ABSTAIN, DELPHI, NO, YES, DelphiOptions, DelphiState
from bot.games.delphi.ai import HYPOTHESES, POLICY, saying_correct, yes_share
from bot.games.delphi.expert import Belief, Budget, expert_answer, searched
from bot.games.delphi.library import BY_ID, LEVEL_NAMES, LIBRARY
from bot.games.delphi.records import DelphiKind, DelphiView

WORLDS = Budget(worlds=400, seconds=None)  # reproducible: the worlds alone bound a search


def bot_hand(rule_id: str, deal: str | None = None, cards: int = 26) -> DelphiState:
    """A 3-seat bot-oracle match whose hand draws `rule_id` (dealing `deal`, starter first)."""
    level = LEVEL_NAMES[BY_ID[rule_id].level]
    count = len(deal.split()) if deal else cards
    options = DelphiOptions(oracle="bot", difficulty=level, cards=count)
    stacked = [deal.split()] if deal else None
    for seed in range(500):
        state = DELPHI.new_match(options, [0] * 3, seed, stacked=stacked)
        if state.library_rule == rule_id:
            return state
    raise AssertionError(f"no seed draws {rule_id}")


def decide(state: DelphiState, seat: int, rng: random.Random, seconds: float | None = None):
    decision = next(d for d in state.pending() if d.seat == seat)
    legal = state.legal_actions(seat)
    return POLICY.expert_choose(seat, state.view(seat), decision, legal, rng, seconds)


def answer_round(state: DelphiState, rng: random.Random, expert: int | None = None) -> None:
    """Every pending seat answers (Standard, Expert in seat `expert`; an oracle by its rule)."""
    for decision in state.pending():
        seat, view, legal = decision.seat, state.view(decision.seat), []
        if seat == expert:
            action = decide(state, seat, rng, None)
        else:
            action = POLICY.choose(seat, view, decision, legal, rng)
        state.apply(seat, action)


# ---- the belief -----------------------------------------------------------------------------


@pytest.mark.parametrize("oracle", ["bot", "players"])
def test_its_belief_learned_verdict_by_verdict_is_standards(oracle):
    for seed in range(4):
        options = DelphiOptions(oracle=oracle, difficulty="any", cards=30)
        state = DELPHI.new_match(options, [0] * 3, seed)
        rng = random.Random(seed)
        if oracle == "players":  # a random oracle: verdicts no rule fits, missed by every one
            state.apply(0, POLICY.choose(0, state.view(0), state.pending()[0], [], rng))
        seat = 1
        belief = Belief.of(state.view(seat))
        while state.phase == "answer":
            view = state.view(seat)
            said = saying_correct(view.line, view.current)
            assert belief.share(said) == yes_share(view)
            assert Belief.of(view).missed_by == belief.missed_by
            for decision in state.pending():
                if decision.kind == DelphiKind.JUDGE:
                    state.apply(decision.seat, state.sample(decision.seat, rng))
                else:
                    state.apply(decision.seat, ABSTAIN)
            belief.learn(said, state.last.verdict == "correct")


# ---- its answers ----------------------------------------------------------------------------


def test_sure_of_the_rule_it_answers_right_without_searching():
    # "Red cards are correct": after K♥ yes, 2♠ no, 9♦ yes, Q♣ no only "red" stands.
    state = bot_hand("red", "5c Kh 2s 9d Qc Ah 7s 3d")
    rng = random.Random(1)
    for _ in range(4):
        answer_round(state, rng)
    for card, right in (("Ah", YES), ("7s", NO), ("3d", YES)):
        assert state.current == FrenchCard.from_code(card)
        view = state.view(0)
        assert searched(view, Belief.of(view), rng, WORLDS) == (right, 0)
        answer_round(state, rng)


def test_it_answers_right_whenever_the_rule_is_known_in_played_hands():
    for rule in ("red", "higher", "colour_pairs"):
        state, rng = bot_hand(rule), random.Random(rule)
        while state.phase == "answer":
            view = state.view(0)
            if yes_share(view) in (0.0, 1.0):
                truth = BY_ID[rule].judge(state.line, state.current)
                assert expert_answer(view, rng, WORLDS) == (YES if truth else NO)
            answer_round(state, rng, expert=0)


def last_card(tokens: list[int], hand: int = 1, hands: int = 1) -> DelphiView:
    """Seat 0's view of the hand's last card (A♥), with these tokens, in this hand of the match."""
    state, rng = bot_hand("red", "5c Kh 2s 9d Qc Ah"), random.Random(0)
    for _ in range(4):
        answer_round(state, rng)
    assert state.view(0).number == state.view(0).of  # no card after this one
    update = {"tokens": tokens, "hand": hand, "hands": hands, "scores": [0, 0, 0]}
    return state.view(0).model_copy(update=update)


def odds(view: DelphiView, yes: int, no: int) -> Belief:
    """A belief with `yes` hypotheses calling the card up correct and `no` calling it not."""
    assert view.current is not None
    said = saying_correct(view.line, view.current)
    ayes = [i for i in range(len(HYPOTHESES)) if said >> i & 1][:yes]
    nays = [i for i in range(len(HYPOTHESES)) if not said >> i & 1][:no]
    assert len(ayes) == yes and len(nays) == no
    every = (1 << len(HYPOTHESES)) - 1
    return Belief([(every, 1.0)], [sum(1 << i for i in ayes + nays)])


@pytest.mark.slow
def test_tied_on_the_last_card_it_gambles_for_the_outright_win():
    # 13 of 25 rules say yes: Standard abstains (no majority) with everyone else, all tied.
    # Yes wins outright 52% of the time, no 48%: either beats a third of a shared first place.
    # It draws between them, the likelier the better (two Experts should not gamble alike).
    view = last_card([1, 1, 1])
    for yes, no, likelier, other in ((13, 12, YES, NO), (12, 13, NO, YES)):
        belief = odds(view, yes, no)
        answers = [searched(view, belief, random.Random(s), WORLDS)[0] for s in range(40)]
        assert answers.count(ABSTAIN) < 4  # a shared first place: rarely worth keeping
        assert answers.count(likelier) > answers.count(other) > 4


def test_ahead_on_the_last_card_a_wrong_answer_costs_more_than_a_right_one_gains():
    # A token ahead of the others, who abstain: abstaining wins for sure, an answer only
    # at its odds, even at 13 to 12 (52%): a sure win beats 52% of one and 48% of a share.
    view, rng = last_card([2, 1, 1]), random.Random(0)
    assert searched(view, odds(view, 13, 12), rng, WORLDS)[0] == ABSTAIN
    # Behind by one with the same odds, abstaining loses for sure: it answers.
    view = last_card([0, 1, 1])
    assert searched(view, odds(view, 13, 12), rng, WORLDS)[0] == YES


def test_in_an_earlier_hand_a_token_is_worth_its_odds():
    # Not the match's last hand: the hand score counts, so any edge is worth answering...
    view, rng = last_card([1, 1, 1], hand=1, hands=3), random.Random(0)
    assert searched(view, odds(view, 13, 12), rng, WORLDS)[0] == YES
    # ...and at even odds a wrong answer costs what a right one gains: it abstains.
    assert searched(view, odds(view, 12, 12), rng, WORLDS)[0] == ABSTAIN


# ---- only its view --------------------------------------------------------------------------


@pytest.mark.slow
def test_it_never_reads_the_oracles_rule():
    medium = [rule for rule in LIBRARY if rule.level == BY_ID["higher"].level]
    compared = 0
    for seed in range(6):
        state, rng = bot_hand("higher", cards=14), random.Random(seed)
        for _ in range(seed % 4):
            answer_round(state, rng)
        view = state.view(1)
        line, card = state.line, state.current
        fits = [r for r in medium if r.judge(line, card) != BY_ID["higher"].judge(line, card)]
        searched_here = 0.0 < yes_share(view) < 1.0
        for other in fits:  # calls the card up otherwise; the view stays the same
            twin = state.model_copy(update={"library_rule": other.id, "rule": other.text})
            assert twin.view(1) == view
            mine = decide(state, 1, random.Random(seed), None)
            theirs = decide(twin, 1, random.Random(seed), None)
            assert mine == theirs
            compared += searched_here
    assert compared > 0  # some of them were searched


# ---- legal, in time -------------------------------------------------------------------------


@pytest.mark.slow
def test_its_answers_are_legal_and_timely_through_whole_matches():
    times = []
    for seed in (0, 2):  # the bot as oracle, then the players
        options = DelphiOptions(oracle="players" if seed == 2 else "bot", cards=12)
        state, rng = DELPHI.new_match(options, [0] * 3, seed), random.Random(seed)
        while not state.is_over():
            if state.awaiting_next_hand():
                state.next_hand()
                continue
            seat = state.pending()[0].seat
            started = time.perf_counter()
            action = decide(state, seat, rng, 0.05)
            times.append(time.perf_counter() - started)
            assert action is not None and state.can(seat, action), (seed, seat, action)
            state.apply(seat, action)
    assert max(times) < 2.0


def test_a_search_stops_at_its_deadline():
    ticks = iter(range(10**6))
    view = last_card([1, 1, 1], hands=1)
    belief = odds(view, 13, 12)
    answer, played = searched(
        view, belief, random.Random(0), Budget(worlds=400, seconds=5), lambda: next(ticks)
    )
    assert answer in (YES, NO, ABSTAIN) and played == 4  # the clock reads 1..4 before 5


def test_as_oracle_it_writes_and_judges_as_standard():
    options = DelphiOptions(oracle="players", cards=8)
    state = DELPHI.new_match(options, [0] * 3, 5)
    rng_a, rng_b = random.Random(2), random.Random(2)
    decision = state.pending()[0]
    written = POLICY.expert_choose(0, state.view(0), decision, [], rng_a, 0.2)
    assert written == POLICY.choose(0, state.view(0), decision, [], rng_b)
    state.apply(0, written)
    judge = next(d for d in state.pending() if d.seat == 0)
    verdict = POLICY.expert_choose(0, state.view(0), judge, [], rng_a, 0.2)
    assert verdict == POLICY.choose(0, state.view(0), judge, [], rng_b)
