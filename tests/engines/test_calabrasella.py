"""Calabrasella's engine: scripted hands for the rule text's examples, every restriction and
every payment rule, and the conformance test. The rule text's examples are copied here as
data (bot/games/calabrasella/rules.md is its rules text)."""

import pytest

from bot.cards import FrenchCard, italian_deck, parse_french
from bot.engine import IllegalAction, MatchEnded
from bot.games.calabrasella import (
    CALABRASELLA,
    CalabrasellaState,
    Declare,
    Discard,
    GiveBack,
    Name,
    Pass,
    PlayCard,
    Take,
    card_points,
    payment,
)
from bot.games.tricks import WonPiles

# The rule text's two worked payments: (declarer, defenders) -> what each defender pays.
WORKED_PAYMENTS = [((19, 16), 3), ((11, 24), -13)]

# A deal by blocks (dealer = seat 0): seat 1 (the dealer's left) gets the first twelve,
# seat 2 the next twelve, seat 0 the next twelve, then the widow of four.
SEAT1 = "3s 2s As Ks Qs Js 7s 6s 5s 4s 3h 2h"
SEAT2 = "Ah Kh Qh Jh 7h 6h 5h 4h 3d 2d Ad Kd"
SEAT0 = "Qd Jd 7d 6d 5d 4d 3c 2c Ac Kc Qc Jc"
WIDOW = "7c 6c 5c 4c"


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def card(text: str) -> FrenchCard:
    return parse_french(text)[0]


def dealt(
    seat0: str = SEAT0,
    seat1: str = SEAT1,
    seat2: str = SEAT2,
    widow: str = WIDOW,
    stacks: tuple[int, ...] = (500, 500, 500),
) -> CalabrasellaState:
    order = [c.code for text in (seat1, seat2, seat0, widow) for c in cards(text)]
    assert sorted(order) == sorted(c.code for c in italian_deck())
    return CALABRASELLA.new_match(None, list(stacks), seed=1, stacked=[order])


def declared_by_2() -> CalabrasellaState:
    state = dealt()
    state.apply(1, Pass())
    state.apply(2, Declare())
    return state


def refused(state: CalabrasellaState, seat: int, action, reason: str) -> None:
    before = state.snapshot()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert str(caught.value) == reason
    assert state.snapshot() == before


# ---- the deal and the bidding --------------------------------------------------------------


def test_the_deal_twelve_each_and_a_widow_of_four():
    state = dealt()
    assert [len(hand) for hand in state.hands] == [12, 12, 12]
    assert sorted(c.code for c in state.widow) == sorted(c.code for c in cards(WIDOW))
    assert set(state.hands[1]) == set(cards(SEAT1))
    assert sum(map(card_points, italian_deck())) + 3 == 35


def test_bidding_starts_at_the_dealers_left_and_a_play_ends_it_at_once():
    state = dealt()
    assert state.pending_seats() == [1]
    refused(state, 2, Pass(), "It is not your turn to act.")
    state.apply(1, Pass())
    assert state.pending_seats() == [2]
    state.apply(2, Declare())
    assert state.declarer == 2 and state.phase == "naming"
    assert state.pending_seats() == [2]  # the dealer is never asked


def test_all_pass_redeals_with_the_deal_passing_left():
    state = dealt()
    state.apply(1, Pass())
    state.apply(2, Pass())
    events = state.apply(0, Pass())
    kinds = [event.kind for event in events]
    assert kinds == ["bid_made", "redeal", "hand_started", "dealt"]
    assert state.dealer == 1 and state.pending_seats() == [2]
    assert state.phase == "bidding" and state.bids == [None, None, None]
    assert [len(hand) for hand in state.hands] == [12, 12, 12]


# ---- naming a card and giving one back -------------------------------------------------------


def test_the_declarer_names_a_3_they_lack_and_its_holder_hands_it_over_privately():
    state = declared_by_2()
    names = {a.card.code for a in state.legal_actions(2)}
    assert names == {"3s", "3h", "3c"}  # seat 2 holds 3♦
    refused(state, 2, Name(card=card("3d")), "Name a 3 you don't hold.")
    refused(state, 2, Name(card=card("2s")), "Name a 3 you don't hold.")
    events = state.apply(2, Name(card=card("3s")))
    public = [e for e in events if e.public]
    private = [e for e in events if not e.public]
    assert [(e.kind, e.holder) for e in public] == [("named", 1)]
    assert "3s" not in str([e.model_dump() for e in public])
    assert [(e.kind, e.card.code, e.audience) for e in private] == [("handed_over", "3s", (2, 1))]
    assert card("3s") in state.hands[2] and card("3s") not in state.hands[1]
    assert state.phase == "giving_back" and len(state.hands[2]) == 13
    # The third player (seat 0) and the public never see it; the holder knows where it went.
    assert card("3s") in state.hidden_from(0) and card("3s") in state.hidden_from(None)
    assert card("3s") not in state.hidden_from(1)
    assert state.view(1).named_card == card("3s") and state.view(0).named_card is None


def test_the_card_given_back_is_never_seen_by_the_third_player():
    state = declared_by_2()
    state.apply(2, Name(card=card("3s")))
    refused(
        state, 2, GiveBack(card=card("3s")), "Give back another card, not the one you were handed."
    )
    refused(state, 2, GiveBack(card=card("As")), "You don't hold that card.")
    events = state.apply(2, GiveBack(card=card("4h")))
    public = [e for e in events if e.public]
    private = [e for e in events if not e.public]
    assert [(e.kind, e.card) for e in public] == [("gave_back", None)]
    assert [(e.card.code, e.audience) for e in private] == [("4h", (2, 1))]
    assert card("4h") in state.hands[1] and len(state.hands[1]) == len(state.hands[2]) == 12
    assert card("4h") in state.hidden_from(0) and card("4h") in state.hidden_from(None)
    assert card("4h") not in state.hidden_from(2)
    third = state.view(0)
    assert third.given_back is None and third.named_card is None and third.my_cards is not None
    assert card("4h") not in third.my_cards
    assert state.view(2).given_back == card("4h") and state.view(1).given_back == card("4h")
    assert state.phase == "discarding"


def test_a_named_card_in_the_widow_is_simply_lost():
    # Seat 2 lacks 3♣, which lies in the widow.
    state = dealt(seat0="Qd Jd 7d 6d 5d 4d 4c 2c Ac Kc Qc Jc", widow="7c 6c 5c 3c", seat2=SEAT2)
    state.apply(1, Pass())
    state.apply(2, Declare())
    before = [list(hand) for hand in state.hands]
    events = state.apply(2, Name(card=card("3c")))
    assert [(e.kind, e.audience) for e in events] == [("named", None), ("lost_in_widow", (2,))]
    assert events[0].holder is None
    assert state.hands == before and state.phase == "discarding"


def test_holding_all_four_3s_the_declarer_names_a_2():
    state = dealt(
        seat0="Qd Jd 7d 6d 5d 4d 4c 2c Ac Kc Qc Jc",
        seat1="3s 3h 3d 3c Qs Js 7s 6s 5s 4s Ks 2h",
        seat2="Ah Kh Qh Jh 7h 6h 5h 4h As 2d Ad Kd",
        widow="7c 6c 5c 2s",
    )
    state.apply(1, Declare())
    assert {a.card.code for a in state.legal_actions(1)} == {"2s", "2d", "2c"}
    refused(state, 1, Name(card=card("3s")), "You hold all four 3s: name a 2 you don't hold.")
    state.apply(1, Name(card=card("2d")))
    assert card("2d") in state.hands[1] and state.holder == 2


# ---- the discard and the widow -----------------------------------------------------------------


def exchanged() -> CalabrasellaState:
    state = declared_by_2()
    state.apply(2, Name(card=card("3s")))
    state.apply(2, GiveBack(card=card("4h")))
    return state


def test_discard_one_to_four_then_the_widow_is_turned_and_as_many_taken():
    state = exchanged()
    refused(state, 2, Discard(cards=[]), "Discard 1 to 4 cards.")
    five = state.hands[2][:5]
    refused(state, 2, Discard(cards=five), "Discard 1 to 4 cards.")
    refused(state, 2, Discard(cards=[card("4c")]), "You can only discard cards you hold.")
    assert state.view(None).widow is None  # face down until the discard
    events = state.apply(2, Discard(cards=cards("5h 6h")))
    public = [e for e in events if e.public]
    assert [e.kind for e in public] == ["discarded", "widow_turned"]
    assert public[0].cards == [] and public[0].count == 2
    assert set(public[1].cards) == set(cards(WIDOW))
    assert (
        state.view(None).widow is not None
        and set(state.hidden_from(None)) & set(cards(WIDOW)) == set()
    )
    assert set(cards("5h 6h")) <= state.hidden_from(None) and set(cards("5h 6h")) <= (
        state.hidden_from(1)
    )
    assert state.view(2).my_discards == cards("5h 6h")
    assert state.pending()[0].prompt == "Take 2 cards from the widow"
    refused(
        state, 2, Take(cards=cards("7c")), "Take 2 cards from the widow, as many as you discarded."
    )
    refused(state, 2, Take(cards=cards("7c 5h")), "Take cards from the widow.")
    state.apply(2, Take(cards=cards("7c 6c")))
    assert len(state.hands[2]) == 12 and state.widow == cards("5c 4c")
    # Taken from the face-up widow: everyone saw them go.
    assert card("7c") not in state.hidden_from(None) and card("7c") not in state.hidden_from(0)
    assert state.phase == "playing" and state.pending_seats() == [0]  # the declarer's left


# ---- the play -------------------------------------------------------------------------------


def playing() -> CalabrasellaState:
    state = exchanged()
    state.apply(2, Discard(cards=cards("5h 6h")))
    state.apply(2, Take(cards=cards("7c 6c")))
    return state


def test_follow_suit_and_the_ranking_3_2_a():
    state = playing()
    # Seat 0 leads; seat 1 holds spades and 2♥; seat 2 holds 3♠ (named) and the hearts.
    state.apply(0, PlayCard(card=card("Jc")))
    state.apply(1, PlayCard(card=card("Ks")))  # void in clubs: anything
    refused(state, 2, PlayCard(card=card("Ah")), "You must follow suit.")
    events = state.apply(2, PlayCard(card=card("7c")))
    assert events[-1].kind == "trick_won" and events[-1].seat == 0  # J♣ beats 7♣
    assert state.pending_seats() == [0]
    state.apply(0, PlayCard(card=card("Ac")))
    state.apply(1, PlayCard(card=card("2h")))
    events = state.apply(2, PlayCard(card=card("6c")))
    assert events[-1].seat == 0
    state.apply(0, PlayCard(card=card("2c")))
    state.apply(1, PlayCard(card=card("3h")))
    view = state.view(None)
    assert [p.card.code for p in view.trick] == ["2c", "3h"] and view.leader == 0
    assert view.tricks == [0, 2] and view.points == [0, 6]
    events = state.apply(2, PlayCard(card=card("3s")))  # out of clubs now: anything
    assert events[-1].seat == 0  # only the suit led wins: 2♣ over 3♥ and 3♠
    assert state.view(None).my_cards is None and state.view(1).my_cards is not None


def test_a_3_beats_a_2_beats_an_ace():
    state = playing()
    state.apply(0, PlayCard(card=card("Qd")))
    state.apply(1, PlayCard(card=card("4s")))
    state.apply(2, PlayCard(card=card("2d")))  # 2♦ beats Q♦
    assert state.pending_seats() == [2]
    state.apply(2, PlayCard(card=card("Ah")))
    state.apply(0, PlayCard(card=card("4d")))  # void in hearts
    events = state.apply(1, PlayCard(card=card("3h")))  # 3♥ beats A♥
    assert events[-1].seat == 1 and events[-1].points == 4


def test_a_whole_hand_the_set_aside_cards_go_to_the_last_tricks_side():
    state = playing()
    settled = None
    while state.phase == "playing":
        (seat,) = state.pending_seats()
        action = state.default_action(seat)
        assert state.can(seat, action)
        for event in state.apply(seat, action):
            if event.kind == "settled":
                settled = event
    assert settled is not None and sum(settled.points) == 35
    assert sorted(c.code for c in settled.set_aside) == sorted(["5h", "6h", "5c", "4c"])
    pile = state.piles.cards[settled.to_side]
    assert set(settled.set_aside) <= set(pile)
    assert state.piles.last == settled.to_side
    assert settled.per_defender == payment(*settled.points)
    assert sum(settled.net) == 0 and settled.net[2] == 2 * settled.per_defender
    assert state.phase == "between" and sorted(c.code for c in state.all_cards()) == sorted(
        c.code for c in italian_deck()
    )


# ---- payments -------------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "each"), WORKED_PAYMENTS)
def test_the_rule_texts_worked_payments(points, each):
    assert payment(*points) == each


def test_35_0_pays_70_each_and_equal_scores_pay_nothing():
    assert payment(35, 0) == 70 and payment(0, 35) == -70
    assert payment(34, 1) == 33 and payment(1, 34) == -33
    assert payment(16, 16) == 0  # never happens with 35 points at stake, but pays nothing


def finished(declarer_points: int, stacks=(500, 500, 500), declarer: int = 2) -> CalabrasellaState:
    """A hand whose twelve tricks are over, the declarer's side holding `declarer_points`
    (the last trick's 3 included when it took it)."""
    state = dealt(stacks=stacks)
    state.declarer = declarer
    deck = sorted(italian_deck(), key=card_points, reverse=True)
    last = 0 if declarer_points >= 3 else 1
    want = declarer_points - (3 if last == 0 else 0)
    mine = []
    for c in deck:
        if 0 < card_points(c) <= want - sum(map(card_points, mine)):
            mine.append(c)
    assert sum(map(card_points, mine)) == want
    others = [c for c in deck if c not in mine]
    defenders = [(declarer + 1) % 3, (declarer + 2) % 3]
    state.piles = WonPiles(
        sides=[[declarer], defenders], cards=[mine, others], tricks=[6, 6], last=last
    )
    state.hands, state.widow, state.discards, state.phase = [[], [], []], [], [], "playing"
    return state


def settle(state: CalabrasellaState):
    events = state.settle()
    return events[0], events[1]


def test_worked_example_19_to_16_each_defender_pays_3():
    settled, ended = settle(finished(19))
    assert settled.points == [19, 16] and settled.net == [-3, -3, 6]
    assert ended.net_chips == [-3, -3, 6] and ended.winners == [2]


def test_worked_example_11_to_24_the_declarer_pays_26_in_all():
    settled, ended = settle(finished(11))
    assert settled.points == [11, 24] and settled.net == [13, 13, -26]
    assert ended.winners == [0, 1]


def test_35_to_0_doubles_to_70_each_way():
    settled, _ = settle(finished(35))
    assert settled.net == [-70, -70, 140]
    settled, _ = settle(finished(0))
    assert settled.points == [0, 35] and settled.net == [70, 70, -140]


def test_one_point_either_way():
    settled, _ = settle(finished(18))
    assert settled.points == [18, 17] and settled.net == [-1, -1, 2]
    settled, _ = settle(finished(17))
    assert settled.points == [17, 18] and settled.net == [1, 1, -2]


def test_short_stacks_pay_what_they_hold():
    settled, _ = settle(finished(35, stacks=(30, 500, 500)))
    assert settled.net == [-30, -70, 100] and settled.short
    settled, _ = settle(finished(0, stacks=(500, 500, 101)))
    assert settled.net == [51, 50, -101] and settled.short  # odd chip to the declarer's left


def test_a_player_with_no_chips_ends_the_game_at_the_next_deal():
    state = finished(35, stacks=(30, 500, 500))
    state.settle()
    assert state.stacks == [0, 430, 600] and state.awaiting_next_hand()
    events = state.next_hand()
    assert isinstance(events[0], MatchEnded) and state.is_over()
    assert events[0].placings == [3, 2, 1]
    assert events[0].scores is None  # a chip game: its standings count chips, not points
    assert state.cash_out() == [0, 430, 600] and state.chip_total() == 0


def test_leaving_between_hands_ends_the_game():
    state = finished(19)
    state.settle()
    refused_state = dealt()
    refused_state.apply(1, Declare())
    with pytest.raises(IllegalAction):
        refused_state.leave(0)
    assert state.leave(1) == 497 and state.is_over()


def test_leaving_before_anyone_plays_ends_the_game_as_between_hands():
    """Nothing is at stake in the auction until someone plays: passes would deal again."""
    state = dealt()
    state.apply(1, Pass())
    stacks = list(state.stacks)
    assert state.can_close_mid_hand() and state.can_leave_now(0)
    assert state.leave(0) == stacks[0] and state.is_over()


# ---- timeouts ---------------------------------------------------------------------------------


def test_timeout_defaults():
    state = dealt()
    assert state.default_action(1) == Pass()
    state.apply(1, Pass())
    state.apply(2, Declare())
    # Seat 2 holds Ah Kh Qh Jh 7h 6h 5h 4h 3d 2d Ad Kd: the longest suit it lacks a 3 of is ♥.
    assert state.default_action(2) == Name(card=card("3h"))
    state.apply(2, Name(card=card("3s")))
    assert state.default_action(2) == GiveBack(card=card("4h"))  # the lowest card
    state.apply(2, state.default_action(2))
    assert state.default_action(2) == Discard(cards=[card("5h")])
    state.apply(2, state.default_action(2))
    assert state.default_action(2) == Take(cards=[card("7c")])  # the widow's best card
    state.apply(2, state.default_action(2))
    assert state.default_action(0) == PlayCard(card=card("4d"))  # the lowest legal card


def test_the_widow_prompt_counts_one_card_in_the_singular():
    state = exchanged()
    state.apply(2, Discard(cards=cards("5h")))
    assert state.pending()[0].prompt == "Take 1 card from the widow"
