"""Facing all-in players (issue 38, shared betting in bot/games/betting.py), in Western
Terrapin, the other game on the shared betting: a player with chips who faces an all-in bet is
asked to call or fold and offered no raise nobody could answer; with nothing to call and
nobody left to bet against, nobody is asked to bet. Triple Draw Lowball's own examples are in
tests/engines/test_lowball.py. Seat 0 deals, so seat 1 opens the betting."""

from bot.games.betting import Bet, Fold, Raise
from tests.engines.test_western import SIXES, TENS, TURTLE, rigged
from tests.poker_play import call_facing_all_ins, play


def test_facing_an_all_in_bet_with_nobody_else_to_answer_a_raise_you_call_or_fold():
    state = rigged([TENS, SIXES, TURTLE], stacks=[20, 3, 20])  # seat 1 has 2 after the ante
    play(state, (1, Bet(amount=2)))  # all-in
    assert Raise(amount=1) in state.legal_actions(2)  # seat 0 could still answer a raise
    play(state, (2, Fold()))
    call_facing_all_ins(state, 0, Raise(amount=1))
    # The shared cards come; nobody can bet against seat 0 any more: on to the draw.
    assert state.betting_round == 2 and state.phase == "draw" and state.pot_size() == 7


def test_nobody_is_asked_to_bet_against_players_who_are_all_in():
    state = rigged([TENS, SIXES, TURTLE], stacks=[20, 1, 20])  # seat 1 all-in with its ante
    assert state.pending()[0].seat == 2  # the first player who can bet
    play(state, (2, Fold()))
    assert state.phase == "draw" and state.stacks == [19, 0, 19] and state.pot_size() == 3
