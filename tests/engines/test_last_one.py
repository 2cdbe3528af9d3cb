"""Last One's engine (bot/games/last_one/) against its rules text (bot/games/last_one/rules.md),
with stacked deals: matching and drawing even when able to play, every special (2, 3, 4's melee,
8, J, A, joker), every first upcard, the "Last one!" call and its penalty, the stock rebuilt
from the discards, scoring and elimination at the threshold, timeouts, and what each seat may
see. The rule text's values are copied here as data."""

import re

import pytest

from bot.cards import FrenchCard, Rank, Suit, parse_french
from bot.engine import HandEnded, IllegalAction, MatchEnded
from bot.games.last_one import (
    LAST_ONE,
    Call,
    Called,
    CardNamed,
    Continue,
    Draw,
    Drew,
    EndTurn,
    HandScored,
    LastOneOptions,
    LastOneState,
    MeleeContinued,
    MeleeEnded,
    MeleeStarted,
    NameCard,
    NameSuit,
    Play,
    Reversed,
    Skipped,
    StockRebuilt,
    card_points,
    deal_refusal,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS

# The rule text's scoring: "jokers worth 40 points, 8s worth 25, aces worth 15, face cards
# worth 10 each, and all other cards worth their pip value".
POINTS = {"BJ": 40, "RJ": 40, "8h": 25, "As": 15, "Kd": 10, "Qc": 10, "Jh": 10, "10s": 10}
POINTS |= {"9d": 9, "5c": 5, "2h": 2}


def card(code: str) -> FrenchCard:
    return parse_french(code)[0]


def codes(cards) -> str:
    return " ".join(c.code for c in cards)


def deal(hands: dict[int, str], upcard: str, stock: str = "", seed: int = 1, **options):
    """A first hand (seat 0 deals) with these hands: the deck is dealt in blocks from the
    dealer's left, then the upcard, then the stock from its top (the rest comes shuffled)."""
    seats = len(hands)
    order = [(1 + index) % seats for index in range(seats)]
    stacked = [code for seat in order for code in hands[seat].split()]
    stacked += [upcard, *stock.split()]
    size = len(hands[0].split())
    opts = LastOneOptions(hand_size=size, **options)
    return LAST_ONE.new_match(opts, [0] * seats, seed, stacked=[stacked])


def play(state: LastOneState, seat: int, code: str):
    return state.apply(seat, Play(card=card(code)))


def public(events) -> list:
    return [event for event in events if event.public]


def refused(state: LastOneState, seat: int, action, reason: str) -> None:
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(seat, action)
    assert state.snapshot() == before


# ---- the deal, matching, drawing --------------------------------------------------------------


def test_card_values_follow_the_rule_text():
    assert {code: card_points(card(code)) for code in POINTS} == POINTS


def test_the_deal_in_blocks_from_the_dealers_left_then_the_upcard_and_the_stock():
    state = deal({1: "7s 9h Kd 2c", 2: "5h 6h 10c Qc", 0: "3d 4d 5d 6d"}, "7h", "As Ad")
    assert [codes(hand) for hand in state.hands] == ["3d 4d 5d 6d", "7s 9h Kd 2c", "5h 6h 10c Qc"]
    assert state.discards == [card("7h")] and len(state.stock) == 54 - 13
    assert state.pending()[0].seat == 1  # the dealer's left plays first
    assert state.stock[-1] == card("As")  # the top of the stock


def test_hand_size_four_to_nine_and_a_size_the_pack_cant_deal_is_refused_with_a_sentence():
    """rules.md: "A hand size the deck cannot deal with an upcard left (9 cards at 6 players)
    is refused." 6 x 9 + an upcard would need 55 cards of 54; 5 x 9 + 1 and 6 x 8 + 1 fit."""
    assert [deal_refusal(size, 6) for size in range(4, 9)] == [None] * 5
    assert deal_refusal(9, 5) is None
    five = LAST_ONE.new_match(LastOneOptions(hand_size=9), [0] * 5, seed=3)
    assert [len(hand) for hand in five.hands] == [9] * 5 and len(five.stock) == 54 - 46
    eight = LAST_ONE.new_match(LastOneOptions(hand_size=8), [0] * 6, seed=3)
    assert [len(hand) for hand in eight.hands] == [8] * 6 and len(eight.stock) == 54 - 49
    refusal = (
        "The pack can't deal 9 cards each to 6 players and keep an upcard: start with 5 "
        "players or fewer, or open a table with a smaller hand size."
    )
    assert deal_refusal(9, 6) == refusal
    with pytest.raises(IllegalAction, match=re.escape(refusal)):
        LAST_ONE.new_match(LastOneOptions(hand_size=9), [0] * 6, seed=3)
    with pytest.raises(ValueError):
        LastOneOptions(hand_size=3)
    with pytest.raises(ValueError):
        LastOneOptions(hand_size=10)


def test_match_the_suit_or_rank_and_draw_even_when_able_to_play():
    state = deal({1: "7s 9h Kd 2c", 2: "5h 6h 10c Qc", 0: "3d 4d 5d 6d"}, "7h", "As Ad")
    assert state.legal_actions(1) == [Play(card=card("7s")), Play(card=card("9h")), Draw()]
    refused(state, 1, Play(card=card("Kd")), "K♦ doesn't go on 7♥")
    refused(state, 1, Play(card=card("5h")), "You don't hold that card")
    refused(state, 2, Play(card=card("5h")), "not your turn")
    events = state.apply(1, Draw())
    told, mine = [e for e in events if isinstance(e, Drew)]
    assert told.public and told.count == 1 and told.cards == []  # the table: how many
    assert mine.audience == (1,) and mine.cards == [card("As")]  # the drawer: which
    assert card("As") in state.hands[1] and state.pending()[0].seat == 2  # the turn passes


def test_an_8_goes_on_anything_and_names_the_suit_the_next_player_must_play():
    state = deal({1: "8c 9c 9d 5d", 2: "9h 7s 7d 8h", 0: "3d 4d 5s 6s"}, "5h")
    play(state, 1, "8c")
    assert state.phase == "suit" and state.pending()[0].seat == 1
    refused(state, 1, Draw(), "Name a suit for your 8")
    events = state.apply(1, NameSuit(suit=D))
    assert events[0].suit == D and state.pending()[0].seat == 2
    assert state.legal_actions(2) == [Play(card=card("8h")), Play(card=card("7d")), Draw()]
    refused(state, 2, Play(card=card("9h")), "9♥ doesn't go on diamonds")


def test_a_joker_names_any_card_and_has_none_of_its_effects():
    state = deal({1: "BJ 9c 9d 5d", 2: "9h 2s 7d Kh", 0: "3d 4d 5s 6s"}, "5h")
    play(state, 1, "BJ")
    assert state.phase == "name" and len(state.legal_actions(1)) == 52
    events = state.apply(1, NameCard(rank=Rank.TWO, suit=S))
    assert isinstance(events[0], CardNamed)
    # Named a 2: the next player neither draws two nor is skipped, and plays on the 2 of spades.
    assert len(state.hands[2]) == 4 and state.pending()[0].seat == 2
    assert state.legal_actions(2) == [Play(card=card("2s")), Draw()]
    assert "2s" not in state.view(None).model_dump_json()  # a rank and suit, never a card


# ---- the specials ------------------------------------------------------------------------------


def test_a_2_makes_the_next_player_draw_two_and_skips_them_and_a_2_on_a_2_does_the_same():
    state = deal({1: "2h 5c 6c 7c", 2: "8s 9s 10s Js", 0: "2d 3c 4c Kc"}, "5h", "Qd Qs Qh Qc")
    events = play(state, 1, "2h")
    assert [codes(e.cards) for e in events if isinstance(e, Drew) and not e.public] == ["Qd Qs"]
    assert Skipped(seat=2) in events and state.pending()[0].seat == 0
    events = play(state, 0, "2d")  # a 2 on a 2: no stacking, just the same again
    assert codes(state.hands[1]) == "Qh 5c 6c 7c Qc" and Skipped(seat=1) in events
    assert state.pending()[0].seat == 2


def test_a_3_lets_its_player_add_any_card_whose_effect_applies():
    state = deal({1: "3h Js 3c 9d", 2: "5h 7s 7d 8h", 0: "3d 4d 5s 6s"}, "5h")
    play(state, 1, "3h")
    assert state.phase == "free" and state.pending()[0].seat == 1
    refused(state, 1, Draw(), "add any card from your hand or end your turn")
    events = play(state, 1, "3c")  # any card, matching or not: another 3, another free card
    assert events[0].free and state.phase == "free"
    events = play(state, 1, "Js")  # a jack that matches nothing: the next player is skipped
    assert Skipped(seat=2) in events and state.pending()[0].seat == 0
    again = deal({1: "3h Js 3c 9d", 2: "5h 7s 7d 8h", 0: "3d 4d 5s 6s"}, "5h")
    play(again, 1, "3h")
    again.apply(1, EndTurn())
    assert again.phase == "turn" and again.pending()[0].seat == 2


def test_a_jack_skips_and_an_ace_reverses():
    state = deal({1: "Jh Ah 9c 9d", 2: "5h 7h 7d 8d", 0: "7h 4d 5s Ad"}, "5h")
    assert Skipped(seat=2) in play(state, 1, "Jh") and state.pending()[0].seat == 0
    play(state, 0, "7h")
    play(state, 1, "Ah")
    assert state.direction == -1 and state.pending()[0].seat == 0  # to the right of seat 1
    events = play(state, 0, "Ad")
    assert Reversed(direction=1) in events and state.pending()[0].seat == 1


def test_with_two_players_an_ace_and_a_jack_let_the_same_player_go_again():
    state = deal({1: "Ah Jh 9c 9d", 0: "3d 4d 5s 6s"}, "5h")
    assert Skipped(seat=0) in play(state, 1, "Ah")
    assert state.direction == 1 and state.pending()[0].seat == 1
    play(state, 1, "Jh")
    assert state.pending()[0].seat == 1


# ---- the melee ---------------------------------------------------------------------------------


MELEE = {1: "4s 9c 9d 9h", 2: "5s 7c 7d 7h", 0: "RJ 6s Kc Kd"}


def test_a_4_opens_a_window_for_whoever_holds_the_next_card_or_a_joker():
    state = deal(MELEE, "4h")
    assert state.phase == "turn"  # a first upcard 4 starts no melee
    events = play(state, 1, "4s")
    assert MeleeStarted(seat=1, suit=S, defender=2) in events
    assert state.required_seats() == [] and state.window_seconds() == 10
    holders = {d.seat: d for d in state.pending()}
    assert set(holders) == {0, 2} and all(d.optional for d in holders.values())
    assert state.legal_actions(2) == [Continue(card=card("5s"), rank=Rank.FIVE)]
    assert state.legal_actions(0) == [Continue(card=card("RJ"), rank=Rank.FIVE)]
    refused(state, 1, Continue(card=card("9c"), rank=Rank.FIVE), "You are the aggressor")


def test_two_holders_race_and_only_the_first_continuation_counts():
    state = deal(MELEE, "4h")
    play(state, 1, "4s")
    stale = Continue(card=card("RJ"), rank=Rank.FIVE)  # seat 0's button, pressed second
    (offered,) = [d for d in state.pending() if d.seat == 0]
    events = state.apply(2, Continue(card=card("5s"), rank=Rank.FIVE))
    assert state.melee.aggressor == 2 and state.melee.defender == 1
    refused(state, 0, stale, "Only the 6 of spades")
    # Seat 0 may now go on with the 6 (or the joker as the 6): another choice, which the
    # table prompts afresh.
    (now,) = [d for d in state.pending() if d.seat == 0]
    assert now != offered and "6 of spades" in now.prompt
    assert state.legal_actions(0) == [
        Continue(card=card("6s"), rank=Rank.SIX),
        Continue(card=card("RJ"), rank=Rank.SIX),
    ]
    events = state.apply(0, Continue(card=card("RJ"), rank=Rank.SIX))
    (continued,) = [e for e in events if isinstance(e, MeleeContinued)]
    assert continued.defender == 2 and state.named.rank == Rank.SIX
    refused(state, 0, Continue(card=card("6s"), rank=Rank.SEVEN), "You are the aggressor")
    # Nobody holds the 7: the window passes, the last defender draws 6 (the joker's pips).
    events = state.close_window()
    assert MeleeEnded(defender=2, rank=Rank.SIX) in events
    assert len(state.hands[2]) == 3 + 6
    assert state.phase == "turn" and state.pending()[0].seat == 0  # after the defender


def test_a_window_passing_makes_the_defender_draw_the_4_and_play_goes_on_after_them():
    state = deal(MELEE, "4h")
    play(state, 1, "4s")
    (offered,) = [d for d in state.pending() if d.seat == 0]
    state.close_window()
    assert len(state.hands[2]) == 4 + 4 and state.pending()[0].seat == 0
    # Seat 0 held an optional melee choice: its turn now is another decision (a fresh prompt).
    (turn,) = state.pending()
    assert turn != offered and not turn.optional


def test_the_melee_ends_after_the_king_and_its_cards_have_no_other_effect():
    hands = {1: "4s 6s 8s 10s Qs 9d 9c", 2: "5s 7s 9s Js Ks 9h 2d", 0: "3d 4d 5d 6d 7d 8d Ad"}
    state = deal(hands, "4h")
    play(state, 1, "4s")
    for index, step in enumerate(parse_french("5s 6s 7s 8s 9s 10s Js Qs")):
        seat = 2 if index % 2 == 0 else 1  # seat 2 and seat 1 take turns as aggressor
        state.apply(seat, Continue(card=step, rank=step.rank))
        assert state.phase == "melee" and state.suit is None  # no 8 suit, no jack skip
    events = state.apply(2, Continue(card=card("Ks"), rank=Rank.KING))
    assert MeleeEnded(defender=1, rank=Rank.KING) in events
    assert len(state.hands[1]) == 2 + 13 and state.pending()[0].seat == 2


def test_the_public_never_learns_who_may_continue_a_melee():
    with_holder = deal(MELEE, "4h")
    without = deal({1: "4s 9c 9d 9h", 2: "7s 7c 7d 7h", 0: "2h 6h Kc Kd"}, "4h", "5s RJ")
    for state in (with_holder, without):
        play(state, 1, "4s")
    assert with_holder.pending_seats() != without.pending_seats()
    assert with_holder.view(None).model_dump_json() == without.view(None).model_dump_json()
    assert with_holder.window_seconds() == without.window_seconds()


# ---- the first upcard --------------------------------------------------------------------------

HANDS = {1: "9c 9d 9h 10c", 2: "7c 7d 7h 10d", 0: "6c 6d 6h 10h"}


@pytest.mark.parametrize(
    ("upcard", "first", "phase"),
    [
        ("2s", 2, "turn"),  # the first player draws two and is skipped
        ("Js", 2, "turn"),  # the first player is skipped
        ("As", 2, "turn"),  # play starts to the dealer's right
        ("8s", 0, "suit"),  # the dealer names the suit
        ("BJ", 0, "name"),  # the dealer names the card
        ("3s", 1, "turn"),  # nothing
        ("4s", 1, "turn"),  # nothing: no melee
        ("5s", 1, "turn"),
    ],
)
def test_the_first_upcard_acts_as_if_the_dealer_had_played_it(upcard, first, phase):
    state = deal(HANDS, upcard, "Qd Qs")
    assert state.phase == phase and state.pending()[0].seat == first
    assert len(state.hands[1]) == (6 if upcard == "2s" else 4)
    assert state.melee is None and state.direction == (-1 if upcard == "As" else 1)


def test_a_first_8_named_by_the_dealer_then_the_dealers_left_plays():
    state = deal(HANDS, "8s")
    state.apply(0, NameSuit(suit=H))
    assert state.pending()[0].seat == 1
    assert state.legal_actions(1) == [Play(card=card("9h")), Draw()]


def test_heads_up_a_first_ace_or_2_lets_the_dealer_start():
    ace = deal({1: "9c 9d 9h 10c", 0: "6c 6d 6h 10h"}, "As")
    assert ace.pending()[0].seat == 0
    two = deal({1: "9c 9d 9h 10c", 0: "6c 6d 6h 10h"}, "2s")
    assert two.pending()[0].seat == 0 and len(two.hands[1]) == 6


# ---- "Last one!" -------------------------------------------------------------------------------

CALLING = {1: "3h 3c 5c 9d", 2: "5s 6d 7d 8d", 0: "9s Kd 8c BJ"}


def down_to_one(state: LastOneState) -> None:
    """Seat 1 plays 3♥, adds 3♣, then 5♣: one card left (9♦)."""
    for code in ("3h", "3c", "5c"):
        play(state, 1, code)
    assert codes(state.hands[1]) == "9d" and state.pending_seats() == [2, 1]


def test_not_calling_before_the_next_player_plays_costs_two_cards():
    state = deal(CALLING, "7h", "Qd Qs")
    down_to_one(state)
    (call,) = [d for d in state.pending() if d.seat == 1]
    assert call.optional and state.legal_actions(1) == [Call()]
    events = play(state, 2, "5s")
    (penalty,) = [e for e in events if isinstance(e, Drew) and e.public]
    assert penalty.seat == 1 and penalty.count == 2 and penalty.reason == "penalty"
    assert codes(state.hands[1]) == "Qs 9d Qd" and state.pending_seats() == [0]


def test_a_call_in_time_saves_the_cards_and_one_card_scores_nothing():
    state = deal(CALLING, "7h", "Qd Qs", threshold=50)
    down_to_one(state)
    refused(state, 2, Call(), "only when you hold one card")
    assert state.apply(1, Call()) == [Called(seat=1)]
    refused(state, 1, Call(), "already called")
    play(state, 2, "5s")
    assert codes(state.hands[1]) == "9d"
    play(state, 0, "9s")
    events = play(state, 1, "9d")  # out of cards: the hand is over
    (scored,) = [e for e in events if isinstance(e, HandScored)]
    assert scored.points == [10 + 25 + 40, 0, 6 + 7 + 25]  # K♦ 8♣ joker; 6♦ 7♦ 8♦
    assert scored.eliminated == [0] and state.phase == "between"
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    assert ended.winners == [1] and ended.scores == [75, 0, 38]
    # The deal passes left to the next player still in; seat 0 is out and not dealt.
    state.next_hand()
    assert state.dealer == 1 and state.players == [1, 2] and state.hands[0] == []


def test_the_public_view_says_a_call_is_open_and_a_closing_table_makes_it():
    """The table message shows a call may be made (its holder's count is public anyway); a
    table closed mid-hand, where nobody can press anything, calls for the player."""
    state = deal(CALLING, "7h", "Qd Qs")
    assert not state.view(None).call_open and state.closing_choice(1) is None
    down_to_one(state)
    assert state.view(None).call_open and state.view(0).call_open
    assert [state.closing_choice(seat) for seat in range(3)] == [None, Call(), None]
    state.apply(1, state.closing_choice(1))
    assert not state.view(None).call_open and state.closing_choice(1) is None


def test_anyone_left_with_one_card_scores_nothing():
    state = deal(CALLING, "7h", "Qd Qs")
    down_to_one(state)
    state.apply(1, Call())
    state.hands[2] = [card("5s")]  # seat 2 has played down to its last card too
    state.hands[0] = [card("Kd"), card("5h")]
    events = play(state, 2, "5s")
    (scored,) = [e for e in events if isinstance(e, HandScored)]
    assert scored.points == [15, 0, 0]


def test_the_last_player_standing_wins_and_players_out_together_rank_by_score():
    state = deal(CALLING, "7h", "Qd Qs", threshold=10)
    down_to_one(state)
    state.apply(1, Call())
    play(state, 2, "5s")
    play(state, 0, "9s")
    events = play(state, 1, "9d")
    (ended,) = [e for e in events if isinstance(e, MatchEnded)]
    assert ended.placings == [3, 1, 2] and ended.scores == [75, 0, 38]
    assert state.is_over() and state.final_standings() == ended


# ---- the stock ---------------------------------------------------------------------------------


def test_the_stock_is_rebuilt_from_the_discards_under_the_upcard():
    state = deal({1: "9c 9d 9h 10c", 2: "7c 7d 7h 10d", 0: "6c 6d 6h 10h"}, "5s", "As")
    upcard = state.discards[-1]
    state.discards = [*state.stock[:-1], upcard]  # as if all the rest had been played
    state.stock = state.stock[-1:]
    events = state.apply(1, Draw())
    assert card("As") in state.hands[1]
    events = state.apply(2, Draw())
    (rebuilt,) = [e for e in events if isinstance(e, StockRebuilt)]
    assert rebuilt.count == 54 - 13 - 1
    assert state.discards == [upcard] and len(state.stock) == 54 - 13 - 2
    assert sorted(map(str, state.all_cards())) == sorted(map(str, LAST_ONE.deck()))


def test_with_stock_and_discards_empty_a_draw_stops_short():
    state = deal({1: "9c 9d 9h 10c", 2: "7c 7d 7h 10d", 0: "6c 6d 6h 10h"}, "5s")
    state.hands[0] += state.stock
    state.stock = []
    assert "pass (nothing is left to draw)" in state.pending()[0].prompt
    events = state.apply(1, Draw())
    (told,) = public([e for e in events if isinstance(e, Drew)])
    assert told.count == 0 and told.wanted == 1 and state.pending()[0].seat == 2


# ---- timeouts, leaving, secrecy ------------------------------------------------------------------


def test_timeout_defaults():
    state = deal({1: "8h 9h Kh 2c", 2: "5c 6c 10c Qc", 0: "3d 4d 5d 6d"}, "7h")
    assert state.default_action(1) == Play(card=card("Kh"))  # the most points, the 8 kept
    play(state, 1, "Kh")
    assert state.default_action(2) == Draw()  # nothing playable
    three = deal({1: "3h 9h Kh 2c", 2: "5c 6c 10c Qc", 0: "3d 4d 5d 6d"}, "7h")
    play(three, 1, "3h")
    assert three.default_action(1) == EndTurn()
    eight = deal({1: "8h 9c Kc 2c", 2: "5c 6c 10c Qc", 0: "3d 4d 5d 6d"}, "7h")
    play(eight, 1, "8h")
    assert eight.default_action(1) == NameSuit(suit=C)  # the longest suit
    joker = deal({1: "BJ 9c Kc 2c", 2: "5c 6c 10c Qc", 0: "3d 4d 5d 6d"}, "7h")
    play(joker, 1, "BJ")
    assert joker.default_action(1) == NameCard(rank=Rank.KING, suit=C)


def test_leaving_between_hands_drops_a_player_and_the_others_play_on():
    state = deal(CALLING, "7h", "Qd Qs", threshold=500)
    down_to_one(state)
    state.apply(1, Call())
    play(state, 2, "5s")
    play(state, 0, "9s")
    play(state, 1, "9d")
    with pytest.raises(IllegalAction):
        LAST_ONE.new_match(None, [0, 0, 0], seed=2).leave(0)  # not during a hand
    assert state.leave(2) == 0 and not state.is_over()
    state.next_hand()
    assert state.players == [0, 1] and state.dealer == 1
    with pytest.raises(IllegalAction, match="between hands"):
        state.leave(0)


def test_each_seat_sees_its_own_hand_and_only_counts_of_the_others():
    state = deal(CALLING, "7h")
    view = state.view(1)
    assert codes(view.my_cards) == "3h 9d 3c 5c" and view.counts == [4, 4, 4]
    assert codes(view.my_playable) == "3h"
    assert state.hidden_from(1) == set(state.stock) | set(state.hands[0]) | set(state.hands[2])
    text = state.view(None).model_dump_json()
    assert not any(f'"{c.code}"' in text for c in state.hidden_from(None))
