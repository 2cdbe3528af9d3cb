"""Turup's engine (bot/games/turup/) against its rules text (bot/games/turup/rules.md), whose
examples are copied here as data: packs by the number of players, the deal from the dealer's
left with the community pile, match and addition captures (the match, addition, add-and-match,
massive-addition, delayed-match and doubled-match examples), faces only by match, capturing
never compulsory, the empty pile, four more each, the end-of-stock deal, cards won counted and
the pile left over not, rounds with the deal passing left, leaving between rounds, timeouts,
what each seat sees, and the engine's capture rulings against a brute force on random piles."""

import random
from itertools import combinations

import pytest

from bot.cards import FrenchCard, parse_french
from bot.engine import HandEnded, IllegalAction, MatchEnded
from bot.games.captures import pip
from bot.games.turup import (
    TURUP,
    Capture,
    Captured,
    Dealt,
    NewCards,
    Place,
    Placed,
    RoundScored,
    TurupOptions,
    TurupState,
    packs_for,
    packs_for_players,
)
from bot.games.turup.ui import TurupUI, dealt_line
from tests.engines.test_captures import brute_is_sum


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def card(text: str) -> FrenchCard:
    return FrenchCard.from_code(text)


def codes(found) -> str:
    return " ".join(c.code for c in found)


def new(
    hands: dict[int, str],
    pile: str,
    *,
    players: int = 2,
    rest: str = "",
) -> TurupState:
    """A round dealt by seat 0: four cards to each player from seat 1 round to the dealer,
    then the pile, then `rest` on top of the stock (the remaining cards shuffled after)."""
    order = [(1 + i) % players for i in range(players)]
    stack = [code for seat in order for code in hands[seat].split()] + pile.split() + rest.split()
    return TURUP.new_match(None, [0] * players, seed=1, stacked=[stack])


def capture(state: TurupState, held: str, taken: str):
    seat = state.turn
    return state.apply(seat, Capture(card=card(held), cards=cards(taken)))


def place(state: TurupState, held: str):
    return state.apply(state.turn, Place(card=card(held)))


def refusal(state: TurupState, action, seat: int | None = None) -> str:
    with pytest.raises(IllegalAction) as refused:
        state.apply(state.turn if seat is None else seat, action)
    return str(refused.value)


def play_defaults(state: TurupState, until=lambda state: False) -> list:
    """Every seat to play takes its timeout default until `until(state)` or the round ends."""
    events = []
    while state.phase == "play" and not until(state):
        events += state.apply(state.turn, state.default_action(state.turn))
    return events


# ---- packs and the deal -------------------------------------------------------------------


def test_one_pack_for_two_to_four_players_two_for_five_to_seven_three_for_eight_to_twelve():
    assert [packs_for_players(n) for n in range(2, 13)] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3]
    assert len(packs_for(4)) == 52 and len(packs_for(5)) == 104 and len(packs_for(12)) == 156
    assert TURUP.deck_for(7) == packs_for(7)
    assert sum(c.code.startswith("7h") for c in packs_for(9)) == 3  # 7h, 7h#2, 7h#3
    assert (TURUP.min_players, TURUP.max_players) == (2, 12)


def test_four_cards_each_from_the_dealers_left_then_four_on_the_community_pile():
    state = new({1: "As 2s 3s 4s", 2: "5s 6s 7s 8s", 0: "9s 10s Js Qs"}, "Ah 2h 3h 4h", players=3)
    assert state.dealer == 0 and state.turn == 1  # the first to the dealer's left begins
    assert [codes(hand) for hand in state.hands] == ["9s 10s Js Qs", "As 2s 3s 4s", "5s 6s 7s 8s"]
    assert codes(state.pile) == "Ah 2h 3h 4h"
    assert len(state.stock) == 52 - 3 * 4 - 4
    assert state.pending()[0].seat == 1


def test_what_each_seat_sees():
    state = new({1: "As 2s 3s 4s", 0: "9s 10s Js Qs"}, "Ah 2h 3h 4h")
    public = state.view(None)
    assert public.my_cards is None and codes(public.pile) == "Ah 2h 3h 4h"
    assert public.counts == [4, 4] and public.stock == 40 and public.turn == 1
    assert codes(state.view(1).my_cards) == "As 2s 3s 4s"
    assert state.hidden_from(None) == set(state.stock) | set(state.hands[0]) | set(state.hands[1])
    assert state.hidden_from(1) == set(state.stock) | set(state.hands[0])
    shown = state.view(1).model_dump_json()
    assert all(f'"{c.code}"' not in shown for c in state.hidden_from(1))


# ---- captures: the rule text's examples ---------------------------------------------------


def test_match_example_a_six_takes_a_six_whatever_the_suit():
    state = new({1: "6s 9c 9d Jc", 0: "2d 3d 4d Qc"}, "6h Kd 8c 10h")
    events = capture(state, "6s", "6h")
    assert events == [Captured(seat=1, card=card("6s"), cards=cards("6h"))]
    assert codes(state.won[1]) == "6s 6h" and codes(state.pile) == "Kd 8c 10h"
    assert state.turn == 0  # play moves to the next player


def test_addition_example_a_ten_takes_a_four_and_a_six():
    state = new({1: "10s 9c 9d Jc", 0: "2d 3d 4d Qc"}, "4h 6c Kd 8c")
    capture(state, "10s", "4h 6c")
    assert codes(state.won[1]) == "10s 4h 6c" and codes(state.pile) == "Kd 8c"


def test_add_and_match_example_a_five_takes_two_and_three_and_the_five():
    # "A player owns a queen, a ten (10) and a five (5) and the community pile contains a
    # three (3), two (2), king and five (5) ... for a total of four cards won."
    state = new({1: "Qh 10h 5h 9c", 0: "Ad 4d 6d 7d"}, "3s 2c Kd 5s")
    suggested = [a for a in state.legal_actions(1) if isinstance(a, Capture)]
    assert Capture(card=card("5h"), cards=cards("2c 3s 5s")) in suggested
    assert "A Q takes only Qs." in refusal(state, Capture(card=card("Qh"), cards=cards("Kd")))
    capture(state, "5h", "3s 2c 5s")
    assert len(state.won[1]) == 4 and codes(state.pile) == "Kd"


def test_massive_addition_example_a_ten_takes_ace_two_three_four():
    state = new({1: "10h 9c 9d Jc", 0: "5d 6d 7d Qc"}, "Ah 2s 3d 4c")
    capture(state, "10h", "Ah 2s 3d 4c")
    assert len(state.won[1]) == 5 and state.pile == []
    # "If there are no cards in the community pile the next player ... must place a card"
    assert state.pending()[0].prompt == "The pile is empty: place a card on it"
    assert all(isinstance(a, Place) for a in state.legal_actions(0))
    assert refusal(state, Capture(card=card("5d"), cards=[])) == (
        "The pile is empty: place a card on it."
    )
    place(state, "5d")
    assert codes(state.pile) == "5d"


def test_delayed_match_example_placing_a_five_to_take_three_and_five_with_the_eight():
    state = new({1: "5h 8d 9c 9d", 0: "2d 4d 6d 7d"}, "Kh 3s 6c Jc")
    place(state, "5h")  # capturing is never compulsory
    place(state, "2d")
    capture(state, "8d", "3s 5h")
    assert codes(state.won[1]) == "8d 3s 5h" and codes(state.pile) == "Kh 6c Jc 2d"


def test_doubled_match_example_a_king_left_on_the_pile_is_taken_with_the_other_later():
    state = new({1: "Kd Kc 2h 9d", 0: "4d 5d 6d 7d"}, "Ks 3h 8c 9c")
    place(state, "Kd")  # the match left on the pile
    place(state, "4d")
    capture(state, "Kc", "Ks Kd")  # a king takes both kings on the pile
    assert len(state.won[1]) == 3


def test_the_risk_of_a_doubled_match_another_king_takes_both():
    state = new({1: "Kd Kc 2h 9d", 0: "Kh 5d 6d 7d"}, "Ks 3h 8c 9c")
    place(state, "Kd")
    capture(state, "Kh", "Ks Kd")
    assert codes(state.won[0]) == "Kh Ks Kd" and state.won[1] == []
    held = card("Kc")
    assert not any(getattr(a, "cards", None) for a in state.legal_actions(1) if a.card == held)


def test_faces_take_only_matching_faces_and_never_add_up():
    state = new({1: "Jd 10d Kc 2h", 0: "4d 5d 6d 7d"}, "5s 6s Jh Ks")
    assert refusal(state, Capture(card=card("Jd"), cards=cards("5s 6s"))) == "A J takes only Js."
    assert refusal(state, Capture(card=card("10d"), cards=cards("Jh"))) == (
        "J, Q and K are taken only by a matching face card."
    )
    assert "don't split" in refusal(state, Capture(card=card("2h"), cards=cards("5s")))
    capture(state, "Jd", "Jh")
    assert codes(state.won[1]) == "Jd Jh"


def test_several_groups_at_once_and_aces_count_one():
    state = new({1: "6h 6c 9d Jc", 0: "4d 5d 7d Qc"}, "As 5c 2s 4h")
    place(state, "6c")
    place(state, "Qc")
    capture(state, "6h", "As 5c 2s 4h 6c")  # 1+5, 2+4 and the 6: three groups
    assert codes(state.pile) == "Qc" and len(state.won[1]) == 6


def test_refusals_say_why():
    state = new({1: "6h 9c 9d Jc", 0: "4d 5d 7d Qc"}, "As 5c 2s 4h")
    before = state.snapshot()
    assert refusal(state, Place(card=card("4d"))) == "You don't hold that card."
    assert refusal(state, Place(card=card("4d")), seat=0) == "It is not your turn to act."
    assert "make 6" in refusal(state, Capture(card=card("6h"), cards=cards("As 2s 4h")))
    assert refusal(state, Capture(card=card("6h"), cards=cards("6s"))) == (
        "Pick cards that are on the pile, each once."
    )
    assert refusal(state, Capture(card=card("6h"), cards=cards("As As"))) == (
        "Pick cards that are on the pile, each once."
    )
    assert refusal(state, Capture(card=card("6h"), cards=[])) == (
        "Pick the pile cards your card takes, or place it on the pile."
    )
    assert state.snapshot() == before  # nothing changed


# ---- dealing on, the end of the stock, scoring ----------------------------------------------


def test_four_more_each_when_every_hand_is_empty_and_play_goes_on_from_the_dealers_left():
    state = new({1: "As 2s 3s 4s", 0: "5s 6s 7s 8s"}, "Kh Kd Kc Ks", rest="Ah 2h 3h 4h 5h 6h 7h 8h")
    events = []
    for _ in range(4):
        events += place(state, codes(state.hands[1][:1]))
        events += place(state, codes(state.hands[0][:1]))
    assert Dealt(each=4, stock=32) in events
    assert codes(state.hands[1]) == "Ah 2h 3h 4h" and codes(state.hands[0]) == "5h 6h 7h 8h"
    assert NewCards(cards=cards("Ah 2h 3h 4h"), audience=(1,)) in events
    assert state.turn == 1 and len(state.pile) == 12


def test_the_end_of_the_stock_goes_round_one_at_a_time_and_the_rest_turns_onto_the_pile():
    # Seven players, two packs: 4 + 3 deals of 28 leave 16, two each and two turned up.
    state = TURUP.new_match(None, [0] * 7, seed=3)
    play_defaults(state, until=lambda s: len(s.stock) == 16 and sum(map(len, s.hands)) == 1)
    stock = list(state.stock)
    events = state.apply(state.turn, state.default_action(state.turn))
    assert Dealt(each=2, stock=0, turned=stock[14:]) in events
    for position, seat in enumerate([1, 2, 3, 4, 5, 6, 0]):  # from the dealer's left
        assert sorted(state.hands[seat], key=str) == sorted(stock[position:14:7], key=str)
    assert state.pile[-2:] == stock[14:] and state.stock == [] and state.turn == 1


def test_cards_that_cannot_go_round_end_the_round_on_the_pile():
    # Six players, two packs: four deals of 24 leave 4 cards, fewer than the players.
    state = TURUP.new_match(None, [0] * 6, seed=5)
    play_defaults(state, until=lambda s: len(s.stock) == 4 and sum(map(len, s.hands)) == 1)
    stock = list(state.stock)
    events = state.apply(state.turn, state.default_action(state.turn))
    assert Dealt(each=0, stock=0, turned=stock) in events
    assert state.pile[-4:] == stock and state.phase == "over"


def test_a_round_counts_the_cards_won_and_not_the_pile_left_over():
    state = TURUP.new_match(None, [0, 0, 0], seed=11)
    events = play_defaults(state)
    (scored,) = [e for e in events if isinstance(e, RoundScored)]
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    (match,) = [e for e in events if isinstance(e, MatchEnded)]
    won = [len(pile) for pile in state.won]
    assert scored.won == won and ended.scores == won and scored.left_on_pile == state.pile
    assert sum(won) + len(state.pile) == 52
    most = max(won)
    assert ended.winners == [seat for seat in range(3) if won[seat] == most]
    assert match.scores == won
    assert match.placings == [1 + sum(other > mine for other in won) for mine in won]
    assert state.is_over() and state.pending() == []


def test_rounds_pass_the_deal_left_and_the_most_cards_over_all_rounds_wins():
    state = TURUP.new_match(TurupOptions(rounds=2), [0, 0, 0], seed=2)
    events = play_defaults(state)
    first = next(e for e in events if isinstance(e, RoundScored)).won
    assert state.phase == "between" and not any(isinstance(e, MatchEnded) for e in events)
    state.next_hand()
    assert state.hand == 2 and state.dealer == 1 and state.turn == 2
    assert state.won == [[], [], []] and len(state.pile) == 4
    events = play_defaults(state)
    second = next(e for e in events if isinstance(e, RoundScored)).won
    (match,) = [e for e in events if isinstance(e, MatchEnded)]
    totals = [a + b for a, b in zip(first, second, strict=True)]
    assert match.scores == totals and state.view(None).totals == totals
    assert match.placings == [1 + sum(other > mine for other in totals) for mine in totals]


def test_a_player_leaving_between_rounds_forfeits_and_the_others_play_on():
    state = TURUP.new_match(TurupOptions(rounds=3), [0, 0, 0], seed=4)
    with pytest.raises(IllegalAction, match="between rounds"):
        state.leave(2)
    play_defaults(state)
    assert state.leave(0) == 0 and not state.is_over()
    state.next_hand()
    assert state.dealer == 1 and state.turn == 2 and state.hands[0] == []
    assert not state.view(None).playing[0]
    events = play_defaults(state)
    assert next(e for e in events if isinstance(e, HandEnded)).players == [1, 2]
    state.next_hand()
    assert state.dealer == 2 and state.turn == 1  # the deal skips the seat that left
    events = play_defaults(state)
    (match,) = [e for e in events if isinstance(e, MatchEnded)]
    assert match.placings[0] == 3 and sorted(match.placings[1:]) in ([1, 2], [1, 1])


def test_with_two_players_a_leaver_ends_the_match():
    state = TURUP.new_match(TurupOptions(rounds=2), [0, 0], seed=4)
    play_defaults(state)
    state.leave(1)
    assert state.is_over() and state.final_standings().placings == [1, 2]


# ---- timeouts ---------------------------------------------------------------------------------


def test_timeout_takes_the_capture_of_most_cards_else_places_the_lowest_card():
    state = new({1: "10h 5h Kc 2d", 0: "9d Qd 7d 5c"}, "As 2s 3d 4c")
    place(state, "Kc")
    place(state, "5c")
    # the 10 takes A 2 3 4 (four cards); the 5 takes the 5, 2 + 3 and A + 4 (five)
    assert state.default_action(1) == Capture(card=card("5h"), cards=cards("As 2s 3d 4c 5c"))
    capture(state, "5h", "As 2s 3d 4c 5c")
    assert state.default_action(0) == Place(card=card("7d"))  # nothing to take: the lowest
    events = state.apply(0, state.default_action(0))
    assert events == [Placed(seat=0, card=card("7d"))]


# ---- the engine's rulings against a brute force ---------------------------------------------


def test_captures_agree_with_a_brute_force_on_random_piles():
    """Small cards and faces on the pile make many captures; two packs make twin cards."""
    chooser = random.Random(15)
    accepted = 0
    for trial in range(40):
        state = TURUP.new_match(None, [0] * 5, seed=trial)
        seat, size = state.turn, chooser.randint(1, 8)
        small = [c for c in state.stock if pip(c) <= 5 or pip(c) > 10]
        state.pile = chooser.sample(small, size)
        state.hands[seat] = chooser.sample([c for c in state.stock if c not in state.pile], 4)
        for suggestion in state.legal_actions(seat):
            state.verify(seat, suggestion)
        state.verify(seat, state.default_action(seat))
        for held in state.hands[seat]:
            for count in range(1, size + 1):
                for taken in combinations(state.pile, count):
                    action = Capture(card=held, cards=list(taken))
                    assert state.can(seat, action) == brute_is_sum(held, taken), (held, taken)
                    accepted += brute_is_sum(held, taken)
    assert accepted > 200  # the brute force found plenty of captures to agree on


def test_a_snapshot_restores_the_same_game():
    state = TURUP.new_match(TurupOptions(rounds=2), [0, 0, 0, 0, 0], seed=8)
    play_defaults(state, until=lambda s: len(s.stock) < 50)
    copy = TURUP.restore(state.snapshot())
    assert copy == state
    assert play_defaults(copy) == play_defaults(state)


def test_the_rounds_option_is_bounded():
    assert TurupOptions().rounds == 1
    with pytest.raises(ValueError):
        TurupOptions(rounds=0)
    with pytest.raises(ValueError):
        TurupOptions(rounds=13)


# ---- how the table reads (bot/games/turup/ui.py) ------------------------------------------


def test_the_deals_and_plays_read_in_words():
    ui = TurupUI()
    names = ["Alice", "Bob"]
    assert dealt_line(Dealt(each=4, stock=32)) == (
        "Every hand is empty: 4 more cards each, 32 cards left in the stock."
    )
    assert dealt_line(Dealt(each=2, stock=0, turned=cards("2s 3h"))) == (
        "The end of the stock goes round one card at a time: 2 each; 2♠ 3♥ are turned onto "
        "the pile, as they can't go round."
    )
    assert dealt_line(Dealt(each=0, stock=0, turned=cards("9d"))) == (
        "Every hand is empty and the last cards can't go round: 9♦ is turned onto the pile."
    )
    taken = Captured(seat=1, card=card("5h"), cards=cards("3d 2c 5s"))
    assert ui.event_line(taken, names) == "Bob's 5♥ takes 3♦ 2♣ 5♠ (4 cards won)."
    assert ui.action_label(None, Place(card=card("Kd#2"))) == "Place K♦#2 on the pile"
    # A new deal is the hand the player's DM shows: no line piling up a deal at a time.
    assert ui.event_line(NewCards(cards=cards("As"), audience=(0,)), names) is None
