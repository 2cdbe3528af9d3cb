from typing import Literal

import pytest

from bot.cards import FrenchCard, parse_french
from bot.engine import Action, HandEnded, IllegalAction, MatchEnded, Rng, placings, registry
from tests.tinygame import TINY, Keep, Revealed, Stake, Swap, TinyState


def test_rng_is_reproducible_and_survives_a_snapshot():
    first, second = Rng(seed=7), Rng(seed=7)
    assert first.shuffled(range(50)) == second.shuffled(range(50))
    restored = Rng.model_validate_json(first.model_dump_json())
    assert restored.shuffled(range(50)) == first.shuffled(range(50))
    assert Rng(seed=8).shuffled(range(50)) != Rng(seed=7).shuffled(range(50))


def test_rng_draws_differ_from_one_call_to_the_next():
    rng = Rng(seed=1)
    assert rng.shuffled(range(30)) != rng.shuffled(range(30))
    assert rng.draws == 2


def test_placings_share_places_on_ties():
    assert placings([10, 30, 10, 5]) == [2, 1, 2, 4]
    assert placings([10, 30, 10, 5], higher_wins=False) == [2, 4, 2, 1]


def test_registry_refuses_a_second_game_with_the_same_id():
    registry.register(TINY)
    try:
        assert registry.get("highcard") is TINY
        other = TINY.model_copy(update={"name": "Impostor"})
        with pytest.raises(ValueError, match="already registered"):
            registry.register(other)
    finally:
        registry._GAMES.pop("highcard")
    with pytest.raises(KeyError, match="highcard"):
        registry.get("highcard")


@pytest.mark.parametrize("seats", [1, 6])
def test_spec_refuses_a_seat_count_outside_its_range(seats):
    with pytest.raises(ValueError, match="2-5 players"):
        TINY.new_match(None, [10] * seats, seed=1)


def dealt(cards: str) -> TinyState:
    """Three seats with known cards; the deck's top card is the last one listed after them."""
    state = TINY.new_match(None, [10, 10, 10], seed=3)
    fixed = parse_french(cards)
    rest = [card for card in state.all_cards() if card not in fixed]
    state.cards, state.deck, state.discards = fixed[:3], rest + fixed[3:], []
    return state


def test_only_the_seat_to_act_may_act_and_refusals_say_why():
    state = dealt("2c 9h Kd")
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, Keep())
    with pytest.raises(IllegalAction, match="not allowed"):
        state.apply(0, Stake(chips=1))


def test_secret_stakes_stay_private_until_everyone_has_chosen():
    state = dealt("2c 9h Kd As")
    state.apply(0, Swap())  # 2c to the discards, draws the As
    state.apply(1, Keep())
    state.apply(2, Keep())
    assert {d.seat for d in state.pending()} == {0, 1, 2}
    assert all(d.secret for d in state.pending())
    assert state.apply(1, Stake(chips=1)) == []
    public, seat0 = state.view(None), state.view(0)
    assert public.has_staked == [False, True, False]
    assert public.my_stake is None and seat0.my_stake is None
    assert state.view(1).my_stake == 1
    state.apply(2, Stake(chips=0))
    events = state.apply(0, Stake(chips=1))
    revealed = next(e for e in events if isinstance(e, Revealed))
    assert revealed.stakes == [1, 1, 0]
    assert [str(card) for card in revealed.cards.values()] == ["As", "9h"]
    # Ante 3 + stakes 2 = 5 chips: the ace (seat 0) takes them all...
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.net_chips == [3, -2, -1] and ended.winners == [0]
    # ... and the next hand has already taken its antes.
    assert state.stacks == [13 - 1, 8 - 1, 9 - 1] and state.pot == 3


def test_a_tie_splits_the_pot_and_the_odd_chip_stays():
    state = dealt("9c 9h 3d")
    for seat in range(3):
        state.apply(seat, Keep())
    state.apply(0, Stake(chips=1))
    state.apply(1, Stake(chips=1))
    state.apply(2, Stake(chips=1))
    # Pot 3 antes + 3 stakes = 6: 3 each to the nines; next hand's antes join the pot.
    assert state.stacks == [10 - 2 + 3 - 1, 10 - 2 + 3 - 1, 8 - 1]
    assert state.pot == 3


def test_match_ends_after_the_set_number_of_hands():
    state = TINY.new_match(None, [10, 10], seed=5)
    events = []
    while not state.is_over():
        seat = state.pending()[0].seat
        events += state.apply(seat, state.default_action(seat))
    assert state.hand == 4 and isinstance(events[-1], MatchEnded)
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, Keep())


class Shows(Action):
    kind: Literal["shows"] = "shows"
    count: int = 0
    cards: list[list[FrenchCard]] = []


def test_an_action_names_a_hidden_card_wherever_it_holds_it():
    """What a timeout's announcement may say of the action played (tables/play.py)."""
    state = TINY.new_match(None, [10, 10], 1)
    (hidden, *_) = sorted(state.hidden_from(None), key=str)
    assert state.names_hidden_card(Shows(count=3, cards=[[], [hidden]]))
    assert not state.names_hidden_card(Shows(count=3, cards=[[], []]))
    state.deck, state.cards = [], [None, None]  # every card out of play: nothing is hidden
    assert not state.names_hidden_card(Shows(cards=[[hidden]]))
