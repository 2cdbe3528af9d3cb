"""Liar's Terrapin scripted hands. Three seats; seat 0 holds first."""

import pytest

from bot.cards.decktet import card, parse
from bot.engine import HandEnded, IllegalAction, MatchEnded
from bot.games.terrapin.liars import (
    LIARS,
    Accept,
    Challenge,
    Claim,
    DiscardOne,
    DoneDiscarding,
    Draw,
)

TEN = "Ace of Suns, Ace of Knots, Bard, Huntress"  # a pair of Aces and one of Crowns: 10
SIX = "Ace of Moons, Author, Journey, Mountain"  # A-2-3-4: 6
TURTLE = "Author, Desert, Origin"


def rigged(hand: str, draws: str = "", seats: int = 3, stacks=None):
    state = LIARS.new_match(None, stacks or [20] * seats, seed=9)
    fixed, top = parse(hand), parse(draws)
    state.hands[state.holder] = fixed
    state.deck = [c for c in state.all_cards() if c not in set(fixed) | set(top)] + top[::-1]
    state.discards = []
    return state


def test_the_ante_is_half_the_players_rounded_up_and_the_holder_draws_three():
    for seats, ante in ((2, 1), (3, 2), (4, 2), (5, 3), (7, 4)):
        state = LIARS.new_match(None, [20] * seats, seed=1)
        assert state.pot == seats * ante and state.stacks[0] == 20 - ante
    assert len(state.hands[0]) == 3 and state.pending()[0].seat == 0


def test_the_holder_draws_one_at_a_time_then_claims():
    state = rigged(TEN, draws="Sea")
    state.apply(0, Draw())
    assert card("Sea") in state.hands[0] and len(state.hands[0]) == 5
    assert state.legal_actions(0)[1:3] == [Claim(points=1), Claim(points=2)]
    state.apply(0, Claim(points=12))
    assert state.pending()[0].seat == 1 and state.legal_actions(1) == [Challenge(), Accept()]
    public, next_player = state.view(None), state.view(1)
    assert public.claim == 12 and public.hand_size == 5 and next_player.my_cards is None


def test_accepting_moves_the_hand_then_discard_draw_and_claim_higher():
    state = rigged(SIX, draws="Bard")
    state.apply(0, Claim(points=3))
    state.apply(1, Accept())
    assert (
        state.holder == 1
        and state.view(1).my_cards == parse(SIX)
        and state.view(0).my_cards is None
    )
    state.apply(1, DiscardOne(card=card("Mountain")))
    state.apply(1, DoneDiscarding())
    state.apply(1, Draw())
    assert [c.name for c in state.hands[1]] == ["Ace of Moons", "Author", "Journey", "Bard"]
    assert state.legal_actions(1)[1] == Claim(points=4)  # more than 3


def test_a_true_claim_puts_the_challenger_out_and_they_are_paid_from_the_pot():
    state = rigged(TEN)
    state.apply(0, Claim(points=10))
    events = state.apply(1, Challenge())
    result = next(e for e in events if e.kind == "challenged")
    assert (result.score, result.out) == (10, 1)
    assert result.paid == {0: 1, 2: 1}  # each player still in takes a chip
    assert state.stacks == [19, 18, 19] and state.pot == 4
    assert isinstance(events[-1], HandEnded)
    state.next_hand()
    assert state.holder == 2  # the challenger lost: the player after them starts


def test_a_false_or_turtle_butt_claim_puts_the_holder_out_and_the_challenger_starts():
    state = rigged(SIX)
    state.apply(0, Claim(points=7))
    state.apply(1, Challenge())
    assert not state.alive[0] and state.starter == 1
    turtles = rigged(TURTLE)
    turtles.apply(0, Claim(points=1))
    events = turtles.apply(1, Challenge())
    assert next(e for e in events if e.kind == "challenged").turtle_butt and not turtles.alive[0]


def test_the_last_player_in_takes_the_rest_and_the_match_ends():
    state = rigged(SIX, seats=2, stacks=[10, 10])  # ante 1 each: pot 2
    state.apply(0, Claim(points=9))
    events = state.apply(1, Challenge())
    assert state.is_over() and state.stacks == [9, 11] and state.pot == 0
    assert next(e for e in events if isinstance(e, MatchEnded)).placings == [2, 1]


def test_the_deck_is_reshuffled_from_the_discards_when_it_runs_out():
    state = rigged(SIX)
    state.apply(0, Claim(points=1))
    state.apply(1, Accept())
    state.apply(1, DiscardOne(card=card("Author")))
    state.apply(1, DoneDiscarding())
    state.deck = []
    state.apply(1, Draw())
    assert card("Author") in state.hands[1] and state.discards == []


def test_timeout_defaults():
    state = rigged(SIX)
    assert state.default_action(0) == Claim(points=1)
    state.apply(0, Claim(points=5))
    assert state.default_action(1) == Accept()
    state.apply(1, Accept())
    assert state.default_action(1) == DoneDiscarding()
    state.apply(1, DoneDiscarding())
    assert state.default_action(1) == Claim(points=6)


def offered_claims(state, seat: int) -> list[int]:
    return [a.points for a in state.legal_actions(seat) if isinstance(a, Claim)]


def test_a_claim_is_at_most_24_above_the_last_one():
    state = rigged(SIX, draws="Bard")
    assert offered_claims(state, 0) == list(range(1, 25))  # the first: as if the last were 0
    with pytest.raises(IllegalAction):
        state.apply(0, Claim(points=25))
    state.apply(0, Claim(points=1))
    state.apply(1, Accept())
    state.apply(1, DoneDiscarding())
    assert offered_claims(state, 1) == list(range(2, 26))  # 2 to 1 + 24, not 26
    with pytest.raises(IllegalAction):
        state.apply(1, Claim(points=26))
    state.apply(1, Claim(points=25))
    assert state.claim == 25


def test_leaving_between_hands_warns_that_the_pot_stays_with_the_others():
    state = rigged(TEN)
    assert state.leave_warning(0) is None  # during a hand: you leave when it ends
    state.apply(0, Claim(points=10))
    state.apply(1, Challenge())  # seat 1 is out; seats 0 and 2 take a chip each: 4 left
    assert state.awaiting_next_hand() and state.pot == 4
    assert state.leave_warning(0) == (
        "The pot of 4 chips carried to the next hand stays at the table: you give up your share."
    )
    assert state.leave_warning(1) is None  # already out: no share to give up
