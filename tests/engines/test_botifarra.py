"""Botifarra's engine (bot/games/botifarra/) against its rules text (bot/games/botifarra/rules.md),
copied here as data: the rank order 9 A K Q J 8 ... 2, the trump choice (trumps, botifarra, or
passing to the partner once), doubling spoken aloud in turn order from the last player to
declare, the heading rules through the engine, the points (72 a hand, the excess over 36 times
the multiplier, nothing on a 36-36 tie), the match to 101 and the conformance test."""

import json
import random

import pytest

from bot.cards import FrenchCard, Suit, parse_french, spanish_deck
from bot.engine import HandEnded, HandStarted, IllegalAction, MatchEnded, Rng
from bot.games.ai import ai_move
from bot.games.botifarra import (
    BOTIFARRA,
    ORDER,
    RULES,
    BotifarraOptions,
    BotifarraState,
    ChooseTrumps,
    Double,
    DoublingCall,
    DoublingSpoken,
    HandScored,
    NoDouble,
    PassChoice,
    PlayCard,
    TrickTaken,
    TrumpsChosen,
    card_points,
    hand_scores,
    multiplier,
    new_botifarra,
)
from bot.games.tricks import Trick, WonPiles

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS

# The rule text's card ranking and scoring, as written there.
RANKING = "(high) 9, A, K, Q, J, 8, 7, 6, 5, 4, 3, 2 (low)"
POINTS = {"9": 5, "A": 4, "K": 3, "Q": 2, "J": 1}
# A deal where seats 0 & 2 hold every card from the 8 up: under botifarra they take every trick.
STRONG = {
    0: "9s As Ks Qs Js 8s 9h Ah Kh Qh Jh 8h",
    1: "7s 6s 5s 4s 3s 2s 7h 6h 5h 4h 3h 2h",
    2: "9d Ad Kd Qd Jd 8d 9c Ac Kc Qc Jc 8c",
    3: "7d 6d 5d 4d 3d 2d 7c 6c 5c 4c 3c 2c",
}


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def codes(found) -> str:
    return " ".join(card.code for card in found)


def stacked(hands: dict[int, str], dealer: int = 0) -> list[str]:
    """The deck order that deals `hands`: twelve cards each from the dealer's left."""
    return [code for i in range(4) for code in hands[(dealer + 1 + i) % 4].split()]


def new(hands: dict[int, str] | None = None, target: int = 101, seed: int = 1) -> BotifarraState:
    rng = Rng(seed=seed, stacked=[stacked(hands)] if hands else [])
    state, _ = new_botifarra(BotifarraOptions(target=target), [0] * 4, rng)
    return state


def at_play(hands: dict[int, str], trump: Suit | None, leader: int, played: str = ""):
    """A state in the play with these hands, trumps and the trick so far (from `leader`)."""
    state = new()
    state.phase, state.trumps_chosen, state.trump = "play", True, trump
    state.hands = [cards(hands.get(seat, "")) for seat in range(4)]
    state.trick = Trick(leader=leader)
    for index, card in enumerate(cards(played)):
        state.trick.add((leader + index) % 4, card)
    return state


def legal(state: BotifarraState) -> str:
    seat = state.turn()
    return " ".join(action.card.code for action in state.legal_actions(seat))


def refusal(state: BotifarraState, code: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        state.apply(state.turn(), PlayCard(card=cards(code)[0]))
    return str(refused.value)


# ---- cards and points ----------------------------------------------------------------------


def test_cards_rank_nine_high_then_a_k_q_j_8_down_to_2():
    written = RANKING.removeprefix("(high) ").removesuffix(" (low)").split(", ")
    assert [rank.label for rank in ORDER] == written
    assert RULES.head and RULES.overtrump and RULES.partner_frees and RULES.follow


def test_points_are_9_5_a_4_k_3_q_2_j_1_and_a_hand_is_worth_72_with_the_tricks():
    for card in spanish_deck():
        assert card_points(card) == POINTS.get(card.rank.label, 0)
    assert len(spanish_deck()) == 48
    assert sum(map(card_points, spanish_deck())) + 12 == 72  # "The maximum ... is 72 points"


def test_the_side_above_36_scores_the_excess_times_the_multiplier_a_tie_scores_nothing():
    assert hand_scores([40, 32], 1) == [4, 0]
    assert hand_scores([30, 42], 4) == [0, 24]
    assert hand_scores([36, 36], 8) == [0, 0]  # "If the partnerships tie at 36 ... neither"
    assert hand_scores([72, 0], 16) == [576, 0]


@pytest.mark.parametrize(
    ("botifarra", "doublings", "times"),
    [(False, 0, 1), (True, 0, 2), (False, 1, 2), (False, 2, 4), (False, 3, 8), (True, 3, 16)],
)
def test_multipliers_botifarra_doubles_and_each_double_doubles_again(botifarra, doublings, times):
    assert multiplier(botifarra, doublings) == times


# ---- the deal and the choice of trumps -------------------------------------------------------


def test_twelve_cards_each_and_the_dealer_chooses_trumps_botifarra_or_passes():
    state = new(STRONG)
    assert [set(hand) for hand in state.hands] == [set(cards(STRONG[s])) for s in range(4)]
    (decision,) = state.pending()
    assert decision.seat == 0 and decision.kind == "trumps"
    assert state.legal_actions(0) == [
        ChooseTrumps(suit=S),
        ChooseTrumps(suit=H),
        ChooseTrumps(suit=D),
        ChooseTrumps(suit=C),
        ChooseTrumps(suit=None),
        PassChoice(),
    ]
    assert state.legal_actions(1) == []


def test_the_partner_chooses_after_a_pass_and_cannot_pass_it_back():
    state = new(STRONG)
    (event,) = state.apply(0, PassChoice())
    assert event.kind == "choice_passed" and event.partner == 2
    assert state.pending_seats() == [2]
    assert PassChoice() not in state.legal_actions(2)
    with pytest.raises(IllegalAction, match="can't pass it back"):
        state.apply(2, PassChoice())
    (chosen,) = state.apply(2, ChooseTrumps(suit=None))
    assert isinstance(chosen, TrumpsChosen) and chosen.multiplier == 2  # botifarra doubles


def test_timeout_defaults_longest_suit_then_no_double_then_lowest_legal_card():
    mine = "Kh 2h 3h 9s As 4d 6d 7d 8d 2c 3c 4c"
    free = [c.code for c in spanish_deck() if c.code not in mine.split()]
    hands = {0: mine, **{seat: " ".join(free[12 * seat - 12 : 12 * seat]) for seat in (1, 2, 3)}}
    state = new(hands)
    # three hearts, two spades, four diamonds, three clubs: diamonds
    assert state.default_action(0) == ChooseTrumps(suit=D)
    state.apply(0, state.default_action(0))
    assert state.default_action(1) == state.default_action(3) == NoDouble()
    equal = new(STRONG)
    # six spades and six hearts with the same points: spades come first
    assert equal.default_action(0) == ChooseTrumps(suit=S)
    played = at_play({1: "Kc 5s 5h 2s 9d"}, trump=S, leader=0, played="3d")
    assert legal(played) == "9d"
    leading = at_play({1: "Kc 5s 5h 9h"}, trump=S, leader=1)
    assert leading.default_action(1) == PlayCard(card=cards("5h")[0])  # 5s is a trump


# ---- doubling ------------------------------------------------------------------------------------


# The rule text: the opponents may double, then the dealer's partnership redouble, then the
# opponents re-redouble; "Players get the opportunity to speak in turn order from the last
# player to make a declaration." (rules.md: each hears what came before.)


def speak(state: BotifarraState, seat: int, doubles: bool) -> DoublingCall:
    """`seat` answers the doubling question; its one event, heard by the whole table."""
    (spoken,) = state.apply(seat, Double() if doubles else NoDouble())
    assert isinstance(spoken, DoublingSpoken) and spoken.multiplier == state.multiplier
    return spoken.call


def test_doubling_is_spoken_in_turn_order_from_the_last_player_to_declare():
    state = new(STRONG)
    state.apply(0, ChooseTrumps(suit=H))  # the dealer declares: seat 1, at her left, speaks
    (asked,) = state.pending()
    assert asked.seat == 1 and asked.kind == "double" and not asked.secret
    assert state.legal_actions(1) == [Double(), NoDouble()] and state.legal_actions(3) == []
    assert speak(state, 1, False) == DoublingCall(seat=1, level=1, doubles=False)
    # Seat 2 is the dealer's partner: next in turn for the opponents is seat 3, who heard it.
    (asked,) = state.pending()
    assert asked.seat == 3 and "Your partner doesn't double" in asked.prompt
    heard = [DoublingCall(seat=1, level=1, doubles=False)]
    assert state.view(3).calls == state.view(None).calls == heard
    assert state.view(None).speaker == 3
    assert speak(state, 3, True).level == 1 and state.multiplier == 2
    # Seat 3 declared last: seat 0, at his left, may redouble first, then her partner.
    assert state.pending_seats() == [0]
    speak(state, 0, False)
    assert state.pending_seats() == [2]
    assert speak(state, 2, True).level == 2 and state.multiplier == 4
    # Seat 2 declared last: seat 3 may re-redouble first.
    assert state.pending_seats() == [3]
    assert speak(state, 3, True).level == 3 and state.multiplier == 8  # the highest possible
    assert [(c.seat, c.doubles) for c in state.view(None).calls] == [
        (1, False),
        (3, True),
        (0, False),
        (2, True),
        (3, True),
    ]
    assert state.phase == "play" and state.pending_seats() == [1]  # the dealer's left leads


def test_after_the_partner_chooses_trumps_the_turn_starts_at_the_partners_left():
    state = new(STRONG)
    state.apply(0, PassChoice())
    state.apply(2, ChooseTrumps(suit=None))  # seat 2 declares: seat 3 speaks first
    assert state.pending_seats() == [3]
    speak(state, 3, True)  # x2 for botifarra, doubled: x4
    assert state.pending_seats() == [0]  # seat 3's left
    speak(state, 0, True)
    assert state.pending_seats() == [1] and state.multiplier == 8
    speak(state, 1, False)
    assert state.pending_seats() == [3]
    speak(state, 3, False)
    assert state.phase == "play" and state.multiplier == 8 and state.speaker is None


def test_only_the_player_whose_turn_it_is_may_speak_and_a_refusal_changes_nothing():
    state = new(STRONG)
    state.apply(0, ChooseTrumps(suit=S))
    before = state.snapshot()
    for seat in (0, 2, 3):  # the declarer's side may not double; seat 3 speaks after seat 1
        with pytest.raises(IllegalAction, match="not your turn"):
            state.apply(seat, Double())
    assert state.snapshot() == before
    speak(state, 1, True)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(3, Double())  # his side has doubled: the other side speaks now
    assert state.snapshot() == before


def test_a_table_saved_while_a_side_answered_in_secret_asks_the_question_again_in_turn():
    state = new(STRONG)
    state.apply(0, ChooseTrumps(suit=H))
    older = json.loads(state.snapshot())
    del older["speaker"], older["calls"]
    older["answers"] = {"3": True}  # seat 3 had doubled in secret, seat 1 not yet answered
    restored = BOTIFARRA.restore(json.dumps(older))
    assert restored.pending_seats() == [1] and restored.calls == []
    speak(restored, 1, True)
    assert restored.pending_seats() == [2] and restored.multiplier == 2


def test_no_double_starts_the_play_and_a_declined_redouble_keeps_the_double():
    state = new(STRONG)
    state.apply(0, ChooseTrumps(suit=C))
    state.apply(1, NoDouble())
    (declined,) = state.apply(3, NoDouble())
    assert not declined.call.doubles and declined.multiplier == 1
    assert state.phase == "play" and state.pending_seats() == [1]
    state = new(STRONG)
    state.apply(0, ChooseTrumps(suit=None))
    state.apply(1, NoDouble())
    state.apply(3, Double())
    state.apply(0, NoDouble())
    state.apply(2, NoDouble())
    assert state.phase == "play" and state.multiplier == 4  # botifarra x2, doubled x2


# ---- the play restrictions, through the engine ------------------------------------------------


def test_you_must_follow_suit():
    state = at_play({1: "Qh 5h 2s 3c"}, trump=C, leader=0, played="Kh")
    assert legal(state) == "Qh 5h"  # nothing beats the Kh: any heart
    assert refusal(state, "3c") == "You must follow suit."


def test_you_must_head_the_trick_when_you_can():
    state = at_play({1: "Ah 9h 5h 2s"}, trump=S, leader=0, played="Kh")
    assert legal(state) == "Ah 9h"
    assert refusal(state, "5h") == "You must beat the winning card when you can."
    assert refusal(state, "2s") == "You must follow suit."


def test_void_you_must_trump_and_over_trump_when_you_can():
    state = at_play({1: "Kc 7s 2s 4d"}, trump=S, leader=0, played="9h")
    assert legal(state) == "7s 2s"
    assert refusal(state, "Kc") == "You must trump, beating the winning card, when you can."
    state = at_play({2: "Kc 9s 7s 2s"}, trump=S, leader=3, played="Kh 5h 6s")
    assert legal(state) == "9s 7s"  # over-trump seat 1's 6s; the 2s can't
    state = at_play({2: "Kc 5s 2s 4d"}, trump=S, leader=3, played="Kh 5h 6s")
    assert legal(state) == "Kc 5s 2s 4d"  # can't over-trump: anything


def test_partner_winning_any_card_worth_points_or_the_lowest_of_its_suit():
    state = at_play({2: "Ah 8h 6h 3h 2s"}, trump=S, leader=0, played="Kh 5h")
    assert legal(state) == "Ah 3h"
    assert "partner is winning" in refusal(state, "8h")
    state = at_play({2: "Qs 7s 4s 2c 5c"}, trump=S, leader=0, played="Kh 5h")  # void in hearts
    assert legal(state) == "Qs 4s 2c"  # no obligation to trump over the partner


def test_botifarra_has_no_trumps():
    state = at_play({1: "Kc 7d 2s"}, trump=None, leader=0, played="5h")
    assert legal(state) == "Kc 7d 2s"


# ---- whole hands and the match -------------------------------------------------------------------


def play_out(state: BotifarraState) -> list:
    """Everyone plays their default (lowest legal) card to the end of the hand."""
    events = []
    while state.phase == "play":
        seat = state.turn()
        events += state.apply(seat, state.default_action(seat))
    return events


def test_a_scripted_hand_botifarra_re_redoubled_takes_every_trick_and_the_match():
    state = new(STRONG)
    state.apply(0, ChooseTrumps(suit=None))
    state.apply(1, Double())  # then seat 2, at seat 1's left, may redouble
    state.apply(2, NoDouble())
    state.apply(0, Double())
    state.apply(1, NoDouble())  # seat 1, at seat 0's left, may re-redouble
    state.apply(3, Double())
    assert state.multiplier == 16
    events = play_out(state)
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert len(taken) == 12 and all(e.seat in (0, 2) for e in taken)
    (scored,) = [e for e in events if isinstance(e, HandScored)]
    assert scored.points == [72, 0] and scored.tricks == [12, 0]
    assert scored.scored == [576, 0] and scored.totals == [576, 0]
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    assert ended.winners == [0, 2] and ended.scores == [576, 0, 576, 0]
    (match,) = [e for e in events if isinstance(e, MatchEnded)]
    assert match.placings == [1, 2, 1, 2] and match.scores == [576, 0, 576, 0]
    assert state.is_over() and state.pending() == []


def last_trick_state(side_a: str, side_b: str, last: dict[int, str], trump: Suit | None):
    """The last trick to play: the other 44 cards already won, `side_a` by seats 0 & 2 and
    `side_b` by seats 1 & 3, in 11 tricks split as given."""
    state = at_play(last, trump=trump, leader=0)
    state.piles = WonPiles(sides=[[0, 2], [1, 3]], cards=[cards(side_a), cards(side_b)])
    return state


def test_the_excess_over_36_times_the_multiplier_is_scored_and_the_deal_passes_left():
    last = {0: "2s", 1: "3s", 2: "4s", 3: "5s"}
    held = {c for hand in last.values() for c in hand.split()}
    rest = [c.code for c in spanish_deck() if c.code not in held]
    # Side B won 9s As Ks Qs (14 points) and 8 tricks; side A everything else.
    b_cards = ["9s", "As", "Ks", "Qs"]
    a_cards = [c for c in rest if c not in b_cards]
    state = last_trick_state(" ".join(a_cards), " ".join(b_cards), last, trump=H)
    state.piles.tricks = [3, 8]
    state.doublings = 1  # doubled: x2
    events = play_out(state)  # 5s (seat 3) takes the last trick: side B
    (scored,) = [e for e in events if isinstance(e, HandScored)]
    # A: 60 - 14 card points + 3 tricks = 49; B: 14 + 9 tricks = 23
    assert scored.points == [49, 23] and scored.multiplier == 2 and scored.scored == [26, 0]
    assert state.match.scores == [26, 0] and state.phase == "between"
    (started, dealt) = state.next_hand()
    assert isinstance(started, HandStarted) and started.hand == 2
    assert dealt.dealer == 1 and state.pending_seats() == [1]  # the deal passes left


@pytest.mark.parametrize(("before", "over"), [(28, False), (29, True), (40, True)])
def test_the_match_ends_when_a_side_reaches_101_not_before(before, over):
    state = new(STRONG)
    state.match.scores = [before, 90]
    state.apply(0, ChooseTrumps(suit=None))  # every trick: 36 x 2 = 72
    state.apply(1, NoDouble())
    state.apply(3, NoDouble())
    events = play_out(state)
    (scored,) = [e for e in events if isinstance(e, HandScored)]
    assert scored.scored == [72, 0] and scored.totals == [before + 72, 90]
    assert state.is_over() == over
    assert any(isinstance(e, MatchEnded) for e in events) == over


def test_leaving_between_hands_forfeits_the_leavers_side():
    state = new(STRONG)
    state.apply(0, ChooseTrumps(suit=None))
    with pytest.raises(IllegalAction):
        state.leave(1)
    state.apply(1, NoDouble())
    state.apply(3, NoDouble())
    play_out(state)
    assert state.phase == "between"
    assert state.leave(0) == 0 and state.is_over()
    standings = state.final_standings()
    assert standings.placings == [2, 1, 2, 1]


def test_no_hidden_card_in_a_public_view_or_another_seats_view():
    state = new(STRONG)
    public = state.view(None).model_dump_json()
    for card in spanish_deck():
        assert f'"{card.code}"' not in public
    mine = state.view(1)
    assert codes(mine.my_cards) == codes(state.hands[1])
    assert not any(f'"{c.code}"' in mine.model_dump_json() for c in state.hands[0])


def test_whose_turn_and_which_cards_are_allowed_agree_with_the_decisions_and_the_listing():
    """`pending_seats` and a card's check skip the prompts and the listing (the Expert's
    playouts ask them at every step): they must answer as `pending` and `legal_actions` do."""
    policy = BOTIFARRA.ai
    assert policy is not None
    for seed in range(4):
        state = new(seed=seed)
        rng = random.Random(seed)
        while not state.is_over() and not state.awaiting_next_hand():
            seat = state.pending()[0].seat
            assert state.pending_seats() == [seat]
            if state.phase == "play":
                listed = state.legal_actions(seat)
                for card in state.hands[seat]:
                    assert state.can(seat, PlayCard(card=card)) == (PlayCard(card=card) in listed)
                other = (seat + 1) % 4
                if state.hands[other]:  # not its turn
                    assert not state.can(other, PlayCard(card=state.hands[other][0]))
            state.apply(seat, ai_move(state, seat, policy, rng))
        assert state.pending_seats() == []
