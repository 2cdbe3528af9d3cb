"""The climbing games' AIs (Big Two, Dou Dizhu): every answer legal over many seeded matches,
sensible in scripted situations, and blind to the cards their seat can't see."""

import logging
import random

import pytest

from bot.cards import FrenchCard, french_deck, parse_french
from bot.engine import GameState
from bot.games.big_two import BIG_TWO, BigTwoOptions, value
from bot.games.big_two.ai import BigTwoPolicy
from bot.games.climbing import Pass, Play
from bot.games.dou_dizhu import DOU_DIZHU, Bid, order
from bot.games.dou_dizhu.ai import DouDizhuPolicy, wanted_bid
from bot.games.simulate import Seats, play_match, policies_for, step

BIG_TWO_AI = BigTwoPolicy()
DOU_DIZHU_AI = DouDizhuPolicy()


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def ask(policy, state: GameState, seed: int = 0):
    """The policy's answer for the seat to act, checked legal."""
    decision = state.pending()[0]
    seat = decision.seat
    view = state.view(seat)
    action = policy.choose(seat, view, decision, state.legal_actions(seat), random.Random(seed))
    assert state.can(seat, action), action
    return action


def play_of(text: str) -> Play:
    return Play(cards=cards(text))


# ---- every answer is legal -------------------------------------------------------------------


def no_fallbacks(caplog) -> list[str]:
    """`ai_move` logs a warning (an illegal answer) or an error (a crash) before it falls back
    to the default action: none may be logged."""
    return [r.getMessage() for r in caplog.records if r.name == "bot.games.ai"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_big_two_ai_answers_are_always_legal(caplog, players):
    caplog.set_level(logging.WARNING, logger="bot.games.ai")
    options = BigTwoOptions(target=15)
    steps = 0
    for seed in range(10):
        for against in ("ai", "random"):
            seats = Seats(policies_for(BIG_TWO, players, against), seed)
            steps += play_match(BIG_TWO, seats, seed, options=options).steps
    assert steps > 500 and no_fallbacks(caplog) == []


def test_dou_dizhu_ai_answers_are_always_legal(caplog):
    caplog.set_level(logging.WARNING, logger="bot.games.ai")
    steps = 0
    for seed in range(15):
        for against in ("ai", "random"):
            seats = Seats(policies_for(DOU_DIZHU, 3, against), seed)
            steps += play_match(DOU_DIZHU, seats, seed, most_hands=2).steps
    assert steps > 1000 and no_fallbacks(caplog) == []


# ---- Big Two: scripted situations ---------------------------------------------------------------

FILLER = "3h 4h 5s 8s 9c Jh Qd Kh"  # an opponent's cards that nothing below depends on


def big_two(hands: list[str], to_beat: str = "", last: int | None = None, turn: int = 0):
    """A Big Two hand in play: seat `turn` to act on `to_beat`, played by `last`."""
    state = BIG_TWO.new_match(BigTwoOptions(), [0] * len(hands), seed=1)
    dealt = [sorted(cards(hand), key=value) for hand in hands]
    held = {card for hand in dealt for card in hand}
    assert len(held) == sum(map(len, dealt)), "a card dealt twice"
    state.hands, state.played = dealt, []
    state.unused = [card for card in french_deck() if card not in held]
    state.opening, state.climb.turn = None, turn
    state.climb.to_beat, state.climb.last_player = cards(to_beat), last
    return state


def test_big_two_plays_the_lowest_single_that_beats():
    state = big_two(["6c 9h Ks 2s", FILLER, "3s 4s 5h 7h 8h 10d Jd Qc"], "5d", last=2)
    assert ask(BIG_TWO_AI, state) == play_of("6c")


def test_big_two_does_not_break_a_pair_or_a_straight_to_beat():
    pair = big_two(["7c 7h 9d Ks Qh Jc 4d 3c", FILLER, "3s 4s 5h 8h 10s Jd Qc Kc"], "6d", last=2)
    assert ask(BIG_TWO_AI, pair) == play_of("9d")
    straight = big_two(["3c 4d 5c 6h 7d Jc", FILLER, "3s 4s 5h 8h 10s Jd Qc Kc"], "4c", last=2)
    assert ask(BIG_TWO_AI, straight) == play_of("Jc")


def test_big_two_keeps_its_2s_for_when_nothing_lower_beats():
    hand = "3c 5d 10c Js 2s 2h"
    low = big_two([hand, FILLER, "3s 4s 5h 7h 8h 10d Jd Qc"], "9d", last=2)
    assert ask(BIG_TWO_AI, low) == play_of("10c")
    ace = big_two([hand, FILLER, "3s 4s 5h 7h 8h 10d Jd Qc"], "As", last=2)
    assert ask(BIG_TWO_AI, ace) == Pass()  # it won't split its pair of 2s this early


def test_big_two_leads_what_nobody_can_beat_when_the_rest_then_goes_out():
    state = big_two(["2s 9d", FILLER, "3s 4s 5h 7h 8h 10d Jd Qc"])
    assert ask(BIG_TWO_AI, state) == play_of("2s")
    played = big_two(["As 9d", FILLER, "3s 4s 5h 7h 8h 10d Jd Qc"])
    played.played = cards("2s 2h 2c 2d")  # every 2 is out: the ace is the top single now
    assert ask(BIG_TWO_AI, played) == play_of("As")


def test_big_two_stops_an_opponent_about_to_go_out_with_its_strongest():
    state = big_two(["3d 5c 8h 2s 9d Jc Qs 10h 4s 6d", "6h", FILLER], "5d", last=2)
    assert ask(BIG_TWO_AI, state) == play_of("2s")  # seat 1 could beat anything less


def test_big_two_does_not_lead_a_low_single_to_an_opponents_last_card():
    state = big_two(["3d 5c 8h 8s 9d 10d Qs", "6h", "3s 4s 5h 7h 8d 10s Jd Qc Kc"])
    led = ask(BIG_TWO_AI, state)
    assert led == play_of("8h 8s")


def test_big_two_leads_a_five_card_hand_over_its_singles_and_goes_out_when_it_can():
    state = big_two(["3d 4d 7d 9d Jd Kc", FILLER, "3s 4s 5h 8h 10s Jc Qc Kd"])
    assert ask(BIG_TWO_AI, state) == play_of("3d 4d 7d 9d Jd")
    out = big_two(["9d 9h", FILLER, "3s 4s 5h 8h 10s Jd Qc Kd"], "5d 5h", last=2)
    assert ask(BIG_TWO_AI, out) == play_of("9d 9h")


# ---- Dou Dizhu: scripted situations ----------------------------------------------------------


def dou_dizhu(
    hands: list[str], landlord: int, turn: int, to_beat: str = "", last: int | None = None
):
    """A Dou Dizhu hand in play after `landlord` won the auction with 3: seat `turn` to act."""
    state = DOU_DIZHU.new_match(None, [50, 50, 50], 3)
    state.apply(state.pending()[0].seat, Bid(chips=3))  # ends the auction; seats are set below
    state.landlord = landlord
    state.hands = [sorted(cards(hand), key=order) for hand in hands]
    held = {card for hand in state.hands for card in hand}
    assert len(held) == sum(map(len, state.hands)), "a card dealt twice"
    state.played = [card for card in french_deck(jokers=True) if card not in held]
    state.climb.seats = [(landlord + i) % 3 for i in range(3)]
    state.climb.turn, state.climb.to_beat, state.climb.last_player = turn, cards(to_beat), last
    return state


def test_dou_dizhu_bids_on_hand_strength_and_not_with_a_weak_hand():
    weak = cards("3s 4h 6d 7c 9s 10h Jd Qs Kc 5s 5h 8d 8c Jh 4d 6h 9c")
    strong = cards("BJ RJ 2s 2h 2d As Ah 9s 9h 9d 9c 3s 4h 5d 6c 7s 10h")
    assert wanted_bid(weak) == 0 and wanted_bid(strong) == 3
    middling = cards("2s 2h As Kd Qc Js 10h 9d 8c 7c 6s 6h 6d 4s 4h 3c 3d")
    assert 0 < wanted_bid(middling) < 3


def test_dou_dizhu_bids_only_above_the_bid_so_far():
    state = DOU_DIZHU.new_match(None, [50, 50, 50], 3)
    first = state.pending()[0].seat
    state.apply(first, Bid(chips=2))
    middling = "2s 2h As Kd Qc Js 10h 9d 8c 7c 6s 6h 6d 4s 4h 3c 3d"
    state.hands[(first + 1) % 3] = cards(middling)
    assert wanted_bid(cards(middling)) <= 2 and ask(DOU_DIZHU_AI, state) == Bid(chips=0)
    state.hands[(first + 1) % 3] = cards("BJ RJ 2s 2h 2d As Ah 9s 9h 9d 9c 3s 4h 5d 6c 7s 10h")
    assert ask(DOU_DIZHU_AI, state) == Bid(chips=3)


def test_dou_dizhu_leads_a_three_with_its_lone_low_card_as_kicker():
    state = dou_dizhu(["9s 9h 9d 3c Ks Kh", "3h 4s 5s 6s 9c 10c", "8h 8d 8s 7c"], 0, turn=0)
    assert ask(DOU_DIZHU_AI, state) == play_of("3c 9s 9h 9d")


def test_dou_dizhu_leaves_its_partners_trick_alone():
    state = dou_dizhu(
        ["As Ah 3s 4h 7d", "3h 4s 5s 6s 7s 8c 9c 10c", "Qs Qh 5d 6d"],
        landlord=1,
        turn=0,
        to_beat="Qc Qd",
        last=2,
    )
    assert ask(DOU_DIZHU_AI, state) == Pass()


def test_dou_dizhu_keeps_its_bomb_until_the_landlord_is_about_to_go_out():
    hands = ["3h 4s 5s 6s 9s 10c Jc Qc Kc 5h", "8s 8h 8d 8c 3d 4d 6d", "5d 6h 7h 9h 10h Jh"]
    early = dou_dizhu(hands, landlord=0, turn=1, to_beat="Ks", last=0)
    assert ask(DOU_DIZHU_AI, early) == Pass()
    hands[0] = "3h 4s"
    late = dou_dizhu(hands, landlord=0, turn=1, to_beat="Ks", last=0)
    assert ask(DOU_DIZHU_AI, late) == play_of("8s 8h 8d 8c")


def test_dou_dizhu_leads_low_to_a_partner_with_one_card_left():
    hands = ["3h 4s 5s 6s 9s 10c Jc Qc Kc 5h", "Ks Kh 3d 9d Ad", "8h"]
    state = dou_dizhu(hands, landlord=0, turn=1)
    assert ask(DOU_DIZHU_AI, state) == play_of("3d")


# ---- the AIs see only their seat's view ---------------------------------------------------------


def reshuffle_hidden(state: GameState, seat: int, places: list[list[FrenchCard]], rng) -> None:
    """Deal the cards hidden from `seat` afresh among the `places` that hold them, each place
    keeping its size (and its public cards)."""
    hidden = state.hidden_from(seat)
    pool = [card for place in places for card in place if card in hidden]
    rng.shuffle(pool)
    for place in places:
        for index, card in enumerate(place):
            if card in hidden:
                place[index] = pool.pop()


def assert_blind(policy, state: GameState, places, seed: int) -> None:
    """Two states that differ only in the cards hidden from the seat to act get one answer."""
    seat = state.pending()[0].seat
    other = state.model_copy(deep=True)
    reshuffle_hidden(other, seat, places(other, seat), random.Random(seed))
    assert other.all_cards() != state.all_cards()
    assert other.view(seat) == state.view(seat)
    assert ask(policy, other, seed) == ask(policy, state, seed)


def test_big_two_ai_sees_only_its_view():
    def places(state, seat):
        return [hand for s, hand in enumerate(state.hands) if s != seat] + [state.unused]

    seats = Seats(policies_for(BIG_TWO, 3, "random"), 0)
    for seed in range(6):
        state = BIG_TWO.new_match(BigTwoOptions(), [0, 0, 0], seed)
        for moves in range(12):
            if state.phase != "playing":
                break
            if moves >= 3:  # past the first lead, whose card is known to its holder only
                assert_blind(BIG_TWO_AI, state, places, seed)
            step(state, seats)


def test_dou_dizhu_ai_sees_only_its_view():
    def places(state, seat):
        return [hand for s, hand in enumerate(state.hands) if s != seat] + [state.widow]

    seats = Seats(policies_for(DOU_DIZHU, 3, "random"), 0)
    for seed in range(6):
        state = DOU_DIZHU.new_match(None, [50, 50, 50], seed)
        for _ in range(12):
            if state.phase not in ("bidding", "playing"):
                break
            assert_blind(DOU_DIZHU_AI, state, places, seed)
            step(state, seats)
