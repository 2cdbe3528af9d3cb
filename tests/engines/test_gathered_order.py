"""Cards gathered back for a shuffle (issue 50): a match started now shuffles them from the game's
fresh-deck order, so every hand is dealt from the fresh deck, whatever order the last hand left
its cards in; a state saved before that (its Rng's JSON has no `fresh_order`) goes on
shuffling them in the order gathered, exactly as the code before dealt it (the pinned hands
below are what that code dealt from the same saved state)."""

import json
import random

import pytest

from bot.cards.french import french_deck
from bot.engine import GameState, Rng, registry
from bot.engine.deals import DealSeed
from bot.engine.rng import in_deck_order

SEED, CLICK = bytes(range(32)), 1234567890123456789
# Each game's second hand dealt from the same saved state (3 seats, every turn its default):
# what the code before issue 50 dealt, and what a match started now deals.
OLD_SECOND_HANDS = {
    "lowball": [
        ["8s", "8c", "6s", "3c", "2c"],
        ["Kh", "Kc", "Qs", "5d", "4s"],
        ["Ad", "Js", "10d", "6c", "4c"],
    ],
    "western": [["Market", "Forest"], ["Calamity", "Journey"], ["Ace of Moons", "Discovery"]],
}
NEW_LOWBALL_SECOND_HAND = [
    ["9s", "8c", "6h", "6c", "3d"],
    ["Ad", "10c", "9c", "5s", "4h"],
    ["Kh", "Qh", "Qc", "10h", "7c"],
]


def first_hand_played(game: str) -> GameState:
    """A keyed match of three, every turn its default, paused after its first hand."""
    state = registry.get(game).new_match(None, [100] * 3, DealSeed(SEED, CLICK))
    while not state.awaiting_next_hand():
        seat = state.required_seats()[0]
        state.apply(seat, state.default_action(seat))
    return state


def saved_before_issue_50(state: GameState) -> str:
    """The state's snapshot as the code before issue 50 wrote it: no `fresh_order`."""
    saved = json.loads(state.snapshot())
    assert saved["rng"].pop("fresh_order") is True
    return json.dumps(saved)


def test_a_new_match_gathers_in_the_fresh_deck_order():
    for seed in (DealSeed(SEED, CLICK), 7):
        assert Rng.starting(seed).fresh_order


def test_gathered_cards_shuffle_the_same_whatever_order_they_were_gathered_in():
    deck = french_deck()
    scrambled = random.Random(0).sample(deck, len(deck))
    new = Rng.starting(DealSeed(SEED, CLICK))
    assert new.model_copy().shuffled_gathered(scrambled, deck) == new.shuffled(deck)


def test_an_rng_saved_before_shuffles_gathered_cards_as_gathered():
    old = Rng.model_validate_json(f'{{"key":"{SEED.hex()}","player_input":{CLICK},"draws":4}}')
    assert not old.fresh_order
    deck = french_deck()
    scrambled = random.Random(0).sample(deck, len(deck))
    as_gathered = old.model_copy().shuffled(scrambled)
    assert old.model_copy().shuffled_gathered(scrambled, deck) == as_gathered
    fresh = old.model_copy(update={"fresh_order": True}).shuffled_gathered(scrambled, deck)
    assert fresh != as_gathered  # the order gathered matters to the old way only


def test_fresh_order_is_saved_only_when_set():
    """An old state saved again keeps its JSON (so `/table verify` compares it as it was)."""
    old = '{"seed":5,"draws":1,"stacked":[],"key":"","player_input":0}'
    assert Rng.model_validate_json(old).model_dump_json() == old
    new = Rng.starting(5)
    assert '"fresh_order":true' in new.model_dump_json()
    assert Rng.model_validate_json(new.model_dump_json()).fresh_order
    match = registry.get("lowball").new_match(None, [9, 9], 5)
    assert json.loads(match.snapshot())["rng"]["fresh_order"] is True


@pytest.mark.parametrize("game", sorted(OLD_SECOND_HANDS))
def test_a_state_saved_before_deals_its_next_hand_the_old_way(game):
    spec = registry.get(game)
    old = spec.restore(saved_before_issue_50(first_hand_played(game)))
    assert not old.rng.fresh_order
    old.next_hand()
    assert [[card.code for card in hand] for hand in old.hands] == OLD_SECOND_HANDS[game]
    assert "fresh_order" not in json.loads(old.snapshot())["rng"]  # and stays the old way


def test_a_match_started_now_deals_its_next_hand_from_the_fresh_deck():
    state = first_hand_played("lowball")
    draw = state.rng.draws
    state.next_hand()
    assert [[card.code for card in hand] for hand in state.hands] == NEW_LOWBALL_SECOND_HAND
    dealt = Rng.starting(DealSeed(SEED, CLICK)).model_copy(update={"draws": draw})
    stub = dealt.shuffled(french_deck())  # the fresh deck, shuffled by the hand's draw
    order = state.players
    for index, seat in enumerate(order):
        assert set(state.hands[seat]) == set(stub[index : 5 * len(order) : len(order)])


@pytest.mark.parametrize("saved_before", [True, False], ids=["saved-before", "started-now"])
def test_a_mid_hand_reshuffle_takes_the_order_its_state_was_started_with(saved_before):
    """Lowball's stub made again from the discards: in a hand saved before issue 50, the
    discards shuffled in the order thrown; in a match started now, from the fresh order."""
    state = first_hand_played("lowball")
    if saved_before:
        state = registry.get("lowball").restore(saved_before_issue_50(state))
    state.next_hand()
    while state.phase != "draw":  # everyone calls or checks to the first draw
        seat = state.required_seats()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, next(a for a in legal if a.kind in ("check", "call")))
    state.discards, state.stub = state.stub[::-1], []  # as if thrown, in this order
    gathered = list(state.discards)
    rng = state.rng.model_copy()
    expected = rng.shuffled(gathered if saved_before else in_deck_order(gathered, french_deck()))
    seat = state.required_seats()[0]
    throw = max(state.legal_actions(seat), key=lambda action: len(getattr(action, "cards", ())))
    kept = [card for card in state.hands[seat] if card not in throw.cards]
    events = state.apply(seat, throw)
    assert any(event.kind == "stub_reshuffled" for event in events)
    assert set(state.hands[seat]) == set(kept + expected[: len(throw.cards)])


def test_in_deck_order_is_stable_for_equal_copies():
    deck = ["a", "b", "c"]
    assert in_deck_order(["c", "a", "b", "a"], deck) == ["a", "a", "b", "c"]
    with pytest.raises(KeyError):
        in_deck_order(["z"], deck)
