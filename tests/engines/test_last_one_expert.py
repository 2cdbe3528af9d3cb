"""Last One's Expert (bot/games/last_one/ai.py): Standard's play with weights of its own
(`EXPERT`: it keeps its wild cards longer), and its help to the Expert search, kept for a
search that beats Standard (none has yet): moves ranked from Standard's pick, a quicker
lookahead only in playouts, and worlds where a player who drew on a turn holds no card that
went (the Standard AI draws only then), the seat's view unchanged."""

from __future__ import annotations

import random
from functools import partial

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.cards import FrenchCard, Rank, Suit
from bot.engine import registry
from bot.games.ai import ai_move, rolling_out
from bot.games.expert import expert_move, own_expert, shapes_worlds
from bot.games.last_one.ai import EXPERT, STANDARD, Weights, follows, refit
from bot.games.last_one.cards import is_wild
from bot.games.last_one.records import Draw, Lack, LastOneKind, Play
from bot.games.last_one.rules import LastOneState
from tests.engines.test_ai_levels import blind_and_shaped, states_along_a_match

LAST_ONE = registry.get("lastone")
POLICY = LAST_ONE.ai


def decisions(seeds: range, most: int = 600):
    for seed in seeds:
        for state in states_along_a_match(LAST_ONE, seed, most):
            for decision in state.pending():
                yield state, decision


def test_ranked_starts_with_standards_pick_and_lists_each_legal_move_once():
    checked = 0
    for state, decision in decisions(range(3)):
        seat, legal = decision.seat, state.legal_actions(decision.seat)
        ranking = POLICY.ranked(seat, state.view(seat), decision, legal, random.Random(2))
        assert ranking is not None
        pick = POLICY.choose(seat, state.view(seat), decision, legal, random.Random(2))
        if pick is not None:
            assert ranking[0] == pick
        assert len(ranking) == len(legal) and all(a in legal for a in ranking)
        if pick is not None and Draw() in legal and len(legal) > 2 and pick != Draw():
            assert ranking[-1] == Draw()  # a draw last where a card goes
        checked += 1
    assert checked > 100


@pytest.mark.slow
def test_the_quick_lookahead_is_only_for_playouts_and_plays_legally():
    differ = 0
    for state, decision in decisions(range(6), 1500):
        seat = decision.seat
        view, legal = state.view(seat), state.legal_actions(seat)
        outside = [POLICY.choose(seat, view, decision, legal, random.Random(d)) for d in range(2)]
        assert outside == [ai_move(state, seat, POLICY, random.Random(d)) for d in range(2)]
        with rolling_out():
            quick = POLICY.choose(seat, view, decision, legal, random.Random(0))
        assert quick is None or quick in legal
        assert POLICY.choose(seat, view, decision, legal, random.Random(0)) == outside[0]
        differ += quick != outside[0]
    assert differ, "the quick rule never differed: is it used at all?"


def draw_seen() -> tuple[LastOneState, int, int]:
    """A state where another player drew on their turn and still holds cards."""
    for seed in range(20):
        for state in states_along_a_match(LAST_ONE, seed, 1500):
            assert isinstance(state, LastOneState)
            seat = state.pending()[0].seat
            for other in state.players:
                lacks = state.lacks[other] if state.lacks else []
                if other != seat and lacks and lacks[-1].since <= 1 and len(state.stock) > 20:
                    return state, seat, other
    raise AssertionError("nobody drew in 20 matches")


def test_a_draw_is_noted_with_what_it_was_on_and_the_cards_drawn_since():
    state, _, other = draw_seen()
    lack = state.lacks[other][-1]
    assert lack.since >= 1  # the draw itself
    assert 1 <= len(state.lacks[other]) <= 3


def test_shaped_worlds_keep_the_view_and_deny_the_drawers_cards():
    state, seat, other = draw_seen()
    assert shapes_worlds(LAST_ONE)
    blind, fitting = blind_and_shaped(
        LAST_ONE, state, seat, partial(fits, other=other), 200, random.Random(3)
    )
    assert fitting >= 170 and fitting > blind + 30, (fitting, blind)


def fits(world: LastOneState, other: int) -> bool:
    hand = world.hands[other]
    return all(
        sum(follows(card, lack) for card in hand) <= lack.since for lack in world.lacks[other]
    )


def test_refit_swaps_denied_cards_for_stock_cards_that_fit():
    hand = [FrenchCard(Rank.SEVEN, Suit.HEARTS), FrenchCard(Rank.TWO, Suit.SPADES)]
    stock = [FrenchCard(Rank.EIGHT, Suit.CLUBS), FrenchCard(Rank.KING, Suit.CLUBS)]
    refit(hand, [Lack(rank=Rank.SEVEN, suit=Suit.HEARTS)], stock, random.Random(1))
    # the 8 is wild, it would follow too: the King takes the 7's place
    assert hand == [FrenchCard(Rank.TWO, Suit.SPADES), FrenchCard(Rank.KING, Suit.CLUBS)]
    assert stock == [FrenchCard(Rank.EIGHT, Suit.CLUBS), FrenchCard(Rank.SEVEN, Suit.HEARTS)]
    kept = [FrenchCard(Rank.SEVEN, Suit.HEARTS)]
    refit(kept, [Lack(rank=Rank.SEVEN, suit=Suit.HEARTS, since=1)], stock, random.Random(1))
    assert kept == [FrenchCard(Rank.SEVEN, Suit.HEARTS)]  # drawn since: it may have followed


def test_pending_seats_match_the_decisions():
    for state, _ in decisions(range(4), 1000):
        assert state.pending_seats() == [d.seat for d in state.pending()]


def test_the_expert_keeps_its_wild_card_while_nobody_is_down_to_one_card():
    """Its own weights (EXPERT): where Standard sheds an 8 or a joker though a natural card
    goes, because a player is down to two cards, the Expert plays the natural card."""
    kept = differ = 0
    for state, decision in decisions(range(3), 1500):
        if decision.optional or decision.kind != LastOneKind.TURN:
            continue
        seat = decision.seat
        view, legal = state.view(seat), state.legal_actions(seat)
        standard = POLICY.choose(seat, view, decision, legal, random.Random(0))
        expert = POLICY.expert_choose(seat, view, decision, legal, random.Random(0), None)
        assert expert in legal
        differ += expert != standard
        naturals = [a for a in legal if isinstance(a, Play) and not is_wild(a.card)]
        fewest = min(view.counts[other] for other in view.players if other != seat)
        if isinstance(standard, Play) and is_wild(standard.card) and naturals and fewest == 2:
            assert isinstance(expert, Play) and not is_wild(expert.card)
            kept += 1
    assert kept >= 5 and differ > kept


def test_the_expert_plays_its_own_weights_in_the_search_and_standards_elsewhere():
    state, decision = next(
        (state, decision)
        for state, decision in decisions(range(3), 1500)
        if not decision.optional
        and POLICY.expert_choose(
            decision.seat,
            state.view(decision.seat),
            decision,
            state.legal_actions(decision.seat),
            random.Random(0),
            None,
        )
        != ai_move(state, decision.seat, POLICY, random.Random(0))
    )
    seat = decision.seat
    expert = POLICY.expert_choose(
        seat, state.view(seat), decision, state.legal_actions(seat), random.Random(0), None
    )
    assert own_expert(LAST_ONE) and not LAST_ONE.searches
    assert expert_move(LAST_ONE, state, seat, random.Random(0)) == expert
    assert EXPERT != STANDARD == Weights()
