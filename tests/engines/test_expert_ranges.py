"""Expert's worlds follow what the others' play implies (`Policy.shape_world`): in Lowball a
player who stood pat holds a made low in the worlds searched, not any five cards; in Western
Terrapin the last to bet holds an even hand or better, but for a bluff now and then."""

from __future__ import annotations

import random

import bot.games  # noqa: F401  (registers every game)
from bot.cards import FrenchCard, parse_french
from bot.engine import registry
from bot.games.expert import Worlds, shaped, shapes_worlds
from bot.games.lowball.ai import PAT_TOP, UNLIKE_THE_AI, draws_likelihood, is_made, top
from bot.games.lowball.rules import DRAWS
from bot.games.terrapin.western.ai import betting_likelihood
from bot.games.terrapin.western.rules import ANTE
from tests.engines.test_ai_levels import states_along_a_match


def cards(*codes: str) -> list[FrenchCard]:
    return parse_french(" ".join(codes))


def test_a_pat_hand_is_a_made_low_the_ai_would_stand_on():
    eight_low = cards("2c", "4d", "5h", "7s", "8c")
    assert draws_likelihood(eight_low, [2, 0]) == 1.0
    assert draws_likelihood(cards("2c", "2d", "5h", "7s", "8c"), [0]) == UNLIKE_THE_AI  # a pair
    assert draws_likelihood(cards("2c", "4d", "5h", "7s", "Kc"), [0]) == UNLIKE_THE_AI
    assert draws_likelihood(eight_low, []) == 1.0  # no draw yet: any hand


def test_a_drawing_hand_kept_the_low_cards_the_ai_keeps():
    assert draws_likelihood(cards("2c", "4d", "5h", "7s", "Kc"), [1]) == 1.0
    assert draws_likelihood(cards("2c", "4d", "Qh", "Js", "Kc"), [1]) == UNLIKE_THE_AI
    assert draws_likelihood(cards("2c", "4d", "Qh", "Js", "Kc"), [3]) == 1.0


def test_expert_searches_worlds_where_a_pat_opponent_holds_a_made_low():
    lowball = registry.get("lowball")
    found = None
    for seed in range(40):
        for state in states_along_a_match(lowball, seed, 400):
            seat = state.pending()[0].seat
            view = state.view(seat)
            pat = [
                s.seat for s in view.seats if s.seat != seat and s.in_hand and s.draws[-1:] == [0]
            ]
            if pat:
                found = state, seat, pat[0], len(view.seats[pat[0]].draws)
                break
        if found:
            break
    assert found is not None, "no opponent stood pat in 40 matches"
    state, seat, opponent, draws = found
    worlds, rng = Worlds(state, seat), random.Random(5)
    assert shapes_worlds(lowball)

    def pat_worthy(world: str) -> bool:
        hand = lowball.restore(world).view(opponent).my_cards
        return is_made(hand) and top(hand) <= PAT_TOP[DRAWS + 1 - draws]

    shaped_worlds = [shaped(lowball, worlds.sample(rng), seat, rng) for _ in range(100)]
    assert all(lowball.restore(w).view(seat) == state.view(seat) for w in shaped_worlds)
    believed = sum(pat_worthy(world) for world in shaped_worlds)
    uniform = sum(pat_worthy(worlds.sample(rng)) for _ in range(100))
    assert believed >= 95, believed
    assert uniform <= 40, uniform


def test_expert_searches_worlds_where_a_western_bettor_holds_an_even_hand_or_better():
    western = registry.get("western")
    found = None
    for seed in range(40):
        for state in states_along_a_match(western, seed, 400):
            seat = state.pending()[0].seat
            bettor = state.last_aggressor
            betting = state.betting
            bet = bettor != seat and betting.committed[bettor] > ANTE
            if bet and not betting.folded[bettor] and not state.shown[bettor]:
                found = state, seat, bettor
                break
        if found:
            break
    assert found is not None, "nobody bet in 40 matches"
    state, seat, bettor = found
    worlds, rng = Worlds(state, seat), random.Random(5)
    assert shapes_worlds(western)

    def even_or_better(world: str) -> bool:
        dealt = western.restore(world)
        return betting_likelihood(dealt.hands[bettor], dealt.shared) == 1.0

    shaped_worlds = [shaped(western, worlds.sample(rng), seat, rng) for _ in range(200)]
    assert all(western.restore(w).view(seat) == state.view(seat) for w in shaped_worlds)
    shaped_even = sum(even_or_better(world) for world in shaped_worlds)
    uniform_even = sum(even_or_better(worlds.sample(rng)) for _ in range(200))
    assert uniform_even <= 80, uniform_even  # a bettor's hand, dealt blindly: some 20% here
    assert shaped_even >= 130, shaped_even  # as the play implies: bluffs are rarer than that
