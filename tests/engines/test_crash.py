"""Crash (Thirteen-Card Brag): the Brag ranking over every three-card hand, scripted deals (stacked
decks) for every scoring rule of its rules text (bot/games/crash/rules.md), the refusals of
arrangements with their reasons, and the suggestions, samples and defaults."""

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.cards import Rank, french_deck, parse_french
from bot.engine import HandEnded, IllegalAction, MatchEnded
from bot.games.crash import (
    CRASH,
    Arrange,
    Category,
    CrashOptions,
    DeclareSixPairs,
    HandStarted,
    HandVoid,
    Ready,
    RevealStraight,
    Showdown,
    StraightRevealed,
    arrangement_problem,
    brag_key,
    category,
    expected_points,
    fill_hands,
    hand_name,
    pair_count,
)


def cards(text: str):
    return parse_french(text)


def key(text: str):
    return brag_key(cards(text))


def deal(hands: dict[int, str], dealer: int = 0) -> list[str]:
    """The deck order that deals `hands` (thirteen each, in blocks from the dealer's left)."""
    seats = len(hands)
    order = [c.code for i in range(seats) for c in cards(hands[(dealer + 1 + i) % seats])]
    assert all(len(cards(text)) == 13 for text in hands.values())
    assert len(set(order)) == len(order)
    return order


def new_game(hands: dict[int, str], target: int = 7, seed: int = 1):
    stacks = [0] * len(hands)
    state = CRASH.new_match(CrashOptions(target=target), stacks, seed, stacked=[deal(hands)])
    for seat, text in hands.items():
        assert sorted(map(str, state.hands[seat])) == sorted(map(str, cards(text)))
    return state


def arrangement(text: str) -> Arrange:
    """ "As Ah Ad | Js 10h 9d" -> those hands ("" sets none)."""
    return Arrange(hands=[cards(hand) for hand in text.split("|") if hand.strip()])


def set_all(state, arrangements: dict[int, str]) -> list:
    events = []
    for seat, text in arrangements.items():
        events += state.apply(seat, arrangement(text))
    return events


def the(kind, events):
    (found,) = [event for event in events if isinstance(event, kind)]
    return found


# ---- the Brag ranking -------------------------------------------------------------------------


def test_categories_over_all_22100_three_card_hands():
    counted = Counter(category(hand) for hand in combinations(french_deck(), 3))
    assert sum(counted.values()) == 22_100
    assert counted == {
        Category.PRIAL: 52,
        Category.RUNNING_FLUSH: 48,
        Category.RUN: 720,
        Category.FLUSH: 1_096,
        Category.PAIR: 3_744,
        Category.HIGH_CARD: 16_440,
    }


def test_prials_3s_highest_then_aces_kings_down_to_2s():
    order = ["3s 3h 3d", "As Ah Ad", "Ks Kh Kd", "Qs Qh Qd", "10s 10h 10d", "4s 4h 4d"]
    order.append("2s 2h 2d")
    keys = [key(text) for text in order]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)


def test_runs_a23_highest_then_akq_kqj_down_to_432():
    order = ["As 2h 3d", "As Kh Qd", "Ks Qh Jd", "Qs Jh 10d", "5s 4h 3d", "4s 3h 2d"]
    keys = [key(text) for text in order]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    assert key("As 2s 3s") > key("As Ks Qs") > key("4s 3s 2s")  # running flushes alike
    assert category(cards("Qs Ks 2s")) == Category.FLUSH  # Q-K-A-2 doesn't wrap
    assert category(cards("Kh As 2d")) == Category.HIGH_CARD


def test_categories_in_order_and_suits_never_break_ties():
    order = ["2s 2h 2d", "4c 3c 2c", "As 2h 3d", "As Ks 9s", "As Ah Kd", "As Kh Jd"]
    keys = [key(text) for text in order]
    assert keys == sorted(keys, reverse=True)
    assert key("Ks Qs Js") == key("Kh Qh Jh")
    assert key("7s 7h 9d") == key("7c 7d 9s")
    assert key("7s 7h 9d") > key("7c 7d 8s")  # the kicker counts
    assert key("Ks 9s 2s") > key("Kh 8h 7h")  # flushes from the highest card down
    assert key("8s 8h 2d") > key("7s 7h Ad")


def test_hand_names():
    assert hand_name(cards("3s 3h 3d")) == "prial of 3s"
    assert hand_name(cards("As 2s 3s")) == "running flush A-2-3"
    assert hand_name(cards("Qh As Kd")) == "run A-K-Q"
    assert hand_name(cards("Ks 9s 2s")) == "K-high flush"
    assert hand_name(cards("10s 10h 2d")) == "pair of 10s"
    assert hand_name(cards("Ks 9h 2d")) == "K high"


# ---- scoring ----------------------------------------------------------------------------------

# Alice: a prial of 3s, a run J-10-9, a pair of 7s, a pair of 5s (K♦ discarded).
# Bob: a prial of aces, a run J-10-9 too, a pair of 8s and no fourth hand.
POSITIONS = {
    0: "3s 3h 3d 9s 10h Jd 7s 7h 2c 5s 5h 4c Kd",
    1: "As Ah Ad 9d 10s Jh 8s 8h 2d Kc Qc 6d 4d",
}
POSITIONS_SET = {
    0: "3s 3h 3d | 9s 10h Jd | 7s 7h 2c | 5s 5h 4c",
    1: "8s 8h 2d | As Ah Ad | 9d 10s Jh",  # in any order: the bot ranks them
}


def test_positions_stick_up_and_a_player_alone_at_the_fourth():
    state = new_game(POSITIONS)
    first = state.apply(0, arrangement(POSITIONS_SET[0]))
    assert first == [Ready(seat=0)] and state.pending_seats() == [1]
    events = state.apply(1, arrangement(POSITIONS_SET[1]))
    result = the(Showdown, events).result
    assert [p.winner for p in result.positions] == [0, None, 1, 0]
    assert result.positions[1].best == [0, 1]  # the runs tie: a stick-up, nobody scores
    assert result.positions[3].contenders == [0]  # Alice alone formed a fourth hand
    assert result.points == [2, 1] and result.totals == [2, 1]
    assert result.discards == [1, 4]
    assert result.bonus is None and result.crash is None
    ended = the(HandEnded, events)
    assert ended.scores == [2, 1] and ended.winners == [0]
    assert state.phase == "between" and not state.is_over()
    # Revealed: the set hands are public; discards and undealt cards stay hidden.
    assert state.hidden_from(None) == set(state.undealt) | set(cards("Kd Kc Qc 6d 4d"))
    assert state.hidden_from(0) == set(state.undealt) | set(cards("Kc Qc 6d 4d"))


def test_the_bot_orders_each_players_hands_strongest_first():
    state = new_game(POSITIONS)
    set_all(state, POSITIONS_SET)
    assert state.sets[1] == [cards("As Ah Ad"), cards("Jh 10s 9d"), cards("8s 8h 2d")]
    assert [hand_name(hand) for hand in state.result.sets[0]] == [
        "prial of 3s",
        "run J-10-9",
        "pair of 7s",
        "pair of 5s",
    ]


CRASHING = {
    0: "3s 3h 3d As Kh Qd 9s 9h 2c 7s 7h 4c 5d",
    1: "Ks Kc Kd Js 10d 9c 8s 8h 2d 6s 6h 4d 5c",
}


def test_a_crash_wins_the_game_at_once():
    state = new_game(CRASHING)
    events = set_all(
        state,
        {
            0: "3s 3h 3d | As Kh Qd | 9s 9h 2c | 7s 7h 4c",
            1: "Ks Kc Kd | Js 10d 9c | 8s 8h 2d | 6s 6h 4d",
        },
    )
    result = the(Showdown, events).result
    assert [p.winner for p in result.positions] == [0, 0, 0, 0]
    assert result.crash == 0 and result.totals == [4, 0]
    assert state.is_over() and state.pending() == []
    assert the(MatchEnded, events).placings == [1, 2]
    assert the(HandEnded, events).winners == [0]


# Alice holds four 4s, Bob four aces, Carol four kings, each with a pair to go with the fourth.
QUADS = {
    0: "4s 4h 4d 4c Qs Qh 2s 2h 5s 6h 7d 8c 9s",
    1: "As Ah Ad Ac Jd Jc 2d 2c 5h 6d 7c 8s 9h",
    2: "Ks Kh Kd Kc 10s 10h 3s 3h 5d 6c 7s 8h 9d",
}


def play_quads(alice: str, bob: str = "As Ah Ad | Ac Jd Jc", carol: str = "Ks Kh Kd | Kc 10s 10h"):
    state = new_game(QUADS)
    return state, the(Showdown, set_all(state, {0: alice, 1: bob, 2: carol})).result


def test_four_of_a_kind_bonus_4s_beat_aces_beat_kings():
    _, result = play_quads("4s 4h 4d | 4c Qs Qh")
    assert result.bonus.seat == 0 and result.bonus.rank == Rank.FOUR
    assert [p.winner for p in result.positions] == [1, 0, None, None]  # A-A-A, then Q-Q
    assert result.points == [2, 1, 0]
    # Alice's fourth 4 discarded: her quad doesn't compete, and the aces take the bonus.
    _, result = play_quads("4s 4h 4d | Qs Qh 2s")
    assert result.bonus.seat == 1 and result.bonus.rank == Rank.ACE
    assert result.points == [1, 2, 0]
    # Aces broken too: the kings.
    _, result = play_quads("4s 4h 4d | Qs Qh 2s", bob="As Ah Ad | Jd Jc 2d")
    assert result.bonus.seat == 2 and result.bonus.rank == Rank.KING


def test_a_quad_counts_spread_over_two_hands_and_the_bonus_can_reach_the_target():
    state = new_game(QUADS, target=3)
    state.match.scores = [2, 0, 0]
    events = set_all(state, {0: "4s 4h Qs | 4d 4c Qh", 1: "As Ah Ad", 2: "Ks Kh Kd"})
    result = the(Showdown, events).result
    assert [p.winner for p in result.positions] == [1, 0]  # two pairs of 4s: alone at 2
    assert result.totals == [3, 1, 0] and result.bonus is None  # Alice reached 3 at 2
    assert result.target_reached and state.is_over()
    state = new_game(QUADS, target=3)
    state.match.scores = [1, 0, 0]
    events = set_all(state, {0: "4s 4h Qs | 4d 4c Qh", 1: "As Ah Ad", 2: "Ks Kh Kd"})
    result = the(Showdown, events).result
    assert result.bonus.seat == 0 and result.totals == [3, 1, 0] and state.is_over()


# ---- the special combinations -----------------------------------------------------------------

SIX_PAIRS = {
    0: "2s 2h 3s 3h 5s 5h 7s 7h 9s 9h Js Jh Kd",
    1: "As Ah Ad 9d 10s Jd 8s 8h 2d Kc Qc 6d 4d",
}


def test_six_pairs_counted_with_trips_and_quads():
    assert pair_count(cards(SIX_PAIRS[0])) == 6
    assert pair_count(cards("2s 2h 2d 2c 3s 3h 5s 5h 7s 7h 9s 9h Kd")) == 6
    assert pair_count(cards("2s 2h 2d 3c 3s 3h 5s 5h 7s 7h 9s 9h Kd")) == 5


def test_six_pairs_declared_void_the_hand_and_the_same_dealer_deals_again():
    state = new_game(SIX_PAIRS)
    assert DeclareSixPairs() in state.legal_actions(0)
    assert DeclareSixPairs() not in state.legal_actions(1)
    assert state.view(0).my_six_pairs and not state.view(1).my_six_pairs
    with pytest.raises(IllegalAction, match="You don't hold six pairs"):
        state.apply(1, DeclareSixPairs())
    # Declaring is as secret as setting: the table sees the same thing either way.
    trial = CRASH.restore(state.snapshot())
    assert trial.apply(0, arrangement("2s 2h Kd")) == state.apply(0, DeclareSixPairs())
    assert trial.view(1) == state.view(1) and trial.view(None) == state.view(None)
    events = state.apply(1, arrangement("As Ah Ad"))
    assert the(HandVoid, events).declared == [0]
    assert the(HandEnded, events).scores == [0, 0] and not any(
        isinstance(event, Showdown) for event in events
    )
    assert state.phase == "between" and state.match.scores == [0, 0]
    assert state.hidden_from(None) >= set(cards(SIX_PAIRS[1]))  # nothing revealed
    dealt = state.next_hand()
    assert the(HandStarted, dealt).redeal and state.dealer == 0 and state.hand == 2
    set_all(state, {seat: "" for seat in (0, 1)})
    state.next_hand()
    assert state.dealer == 1  # after a played hand the deal passes left again


def test_six_pairs_may_be_played_instead():
    state = new_game(SIX_PAIRS)
    events = set_all(state, {0: "2s 2h Kd | 3s 3h Jh | 5s 5h Js | 7s 7h 9s", 1: "As Ah Ad"})
    result = the(Showdown, events).result
    assert [p.winner for p in result.positions] == [1, 0, 0, 0]
    assert result.totals == [3, 1]


STRAIGHT = {
    0: "As Kh Qd Jc 10s 9h 8d 7c 6s 5h 4d 3c 2s",
    1: "Ah Ad Ac Ks Kd Kc Qs Qh Qc Js Jh Jd 10h",
}


def test_a_thirteen_card_straight_is_revealed_and_wins_at_once():
    state = new_game(STRAIGHT)
    assert state.legal_actions(0) == [RevealStraight()]
    assert state.default_action(0) == RevealStraight()
    assert state.view(0).my_straight and not state.view(1).my_straight
    with pytest.raises(IllegalAction, match="reveal it"):
        state.apply(0, arrangement("As Kh Qd"))
    with pytest.raises(IllegalAction, match="You don't hold a thirteen-card straight"):
        state.apply(1, RevealStraight())
    state.apply(1, arrangement("Ah Ad Ac | Ks Kd Kc | Qs Qh Qc | Js Jh Jd"))
    events = state.apply(0, RevealStraight())
    assert the(StraightRevealed, events).seats == [0]
    assert the(MatchEnded, events).placings == [1, 2] and state.is_over()
    assert state.hidden_from(None) == set(state.undealt) | set(cards(STRAIGHT[1]))
    assert state.view(None).seats[0].straight == state.hands[0]


def test_a_straight_wins_even_before_the_others_have_set():
    state = new_game(STRAIGHT)
    events = state.apply(0, RevealStraight())
    assert state.is_over() and the(MatchEnded, events).placings == [1, 2]


# ---- the game to 7 ----------------------------------------------------------------------------


def test_the_first_to_reach_seven_wins_at_once_and_later_positions_are_not_scored():
    state = new_game(POSITIONS)
    state.match.scores = [6, 6]
    events = set_all(state, POSITIONS_SET)
    result = the(Showdown, events).result
    assert [p.position for p in result.positions] == [1]  # Alice's 3-3-3 makes her 7
    assert result.totals == [7, 6] and result.target_reached
    assert the(MatchEnded, events).placings == [1, 2] and state.is_over()
    state = new_game(POSITIONS)
    state.match.scores = [5, 6]
    events = set_all(state, POSITIONS_SET)
    result = the(Showdown, events).result
    assert [p.winner for p in result.positions] == [0, None, 1]  # Bob's 8s make him 7
    assert result.totals == [6, 7] and the(MatchEnded, events).placings == [2, 1]


def test_a_whole_match_by_defaults_ends_with_the_winner_at_the_target():
    state = CRASH.new_match(None, [0, 0, 0], seed=7)
    events = []
    for _ in range(200):
        if state.is_over():
            break
        if state.awaiting_next_hand():
            events += state.next_hand()
            continue
        seat = state.pending_seats()[0]
        events += state.apply(seat, state.default_action(seat))
    ended = the(MatchEnded, events)
    scores = state.match.scores
    winner = ended.placings.index(1)
    crashed = any(isinstance(e, Showdown) and e.result.crash is not None for e in events)
    assert scores[winner] >= 7 or crashed


# ---- refusals and what the bot offers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("3s 3h 3c", "3♣ is not in your hand."),
        ("3s 3h 3d | 3d 7s 7h", "3♦ is used twice: a card goes into one hand only."),
        ("3s 3h", "A hand takes exactly 3 cards, not 2."),
        ("7s 7h 2c 5s", "A hand takes exactly 3 cards, not 4."),
        ("3s 3h 3d | Kd Jd 2c", "K♦ J♦ 2♣ is only K high: every hand must be a pair or better."),
    ],
)
def test_arrangements_refused_with_reasons(text, reason):
    state = new_game(POSITIONS)
    before = state.snapshot()
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, arrangement(text))
    assert str(refused.value) == reason
    assert state.snapshot() == before


def test_refusals_out_of_turn():
    state = new_game(POSITIONS)
    state.apply(0, arrangement("3s 3h 3d"))
    with pytest.raises(IllegalAction, match="already set your hands"):
        state.apply(0, arrangement("7s 7h 2c"))
    state.apply(1, arrangement("As Ah Ad"))
    with pytest.raises(IllegalAction, match="not being set now"):
        state.apply(1, arrangement("8s 8h 2d"))


def test_fewer_hands_than_possible_and_none_at_all_are_allowed():
    state = new_game(POSITIONS)
    events = set_all(state, {0: "7s 7h 2c", 1: ""})
    result = the(Showdown, events).result
    assert result.sets[0] == [cards("7s 7h 2c")] and result.sets[1] == []
    assert [p.winner for p in result.positions] == [0, None, None, None]
    assert result.discards == [10, 13]


def test_nothing_shows_before_the_reveal():
    state = new_game(POSITIONS)
    state.apply(0, arrangement(POSITIONS_SET[0]))
    public = state.view(None).model_dump_json()
    for card in cards(POSITIONS[0] + " " + POSITIONS[1]):
        assert f'"{card.code}"' not in public
    assert state.view(None).seats[0].ready and not state.view(None).seats[1].ready
    assert state.view(1).my_set is None and state.view(1).seats[0].hands is None
    assert state.view(0).my_set == state.sets[0]
    assert state.hidden_from(1) >= set(cards(POSITIONS[0]))


def test_suggestions_are_legal_and_the_default_is_the_first():
    state = CRASH.new_match(None, [0, 0, 0, 0], seed=3)
    for seat in range(4):
        suggestions = state.suggestions(seat, 6)
        assert 1 < len(suggestions) <= 6
        assert state.default_action(seat) == suggestions[0]
        assert suggestions == state.legal_actions(seat)[: len(suggestions)]
        for action in suggestions:
            state.verify(seat, action)
            keys = [brag_key(hand) for hand in action.hands]
            assert keys == sorted(keys, reverse=True)  # strongest first, as the bot ranks
        # Arrangements that rank alike are offered once.
        ranks = [tuple(sorted(brag_key(h) for h in a.hands)) for a in suggestions]
        assert len(set(ranks)) == len(ranks)


def test_the_first_suggestion_expects_to_win_the_most_positions():
    state = new_game(POSITIONS)
    names = [[hand_name(hand) for hand in action.hands] for action in state.suggestions(0, 6)]
    # Not two low runs and two flushes instead: the prial of 3s takes position 1.
    assert names[0] == ["prial of 3s", "run J-10-9", "pair of 7s", "pair of 5s"]
    assert ["run J-10-9", "run 4-3-2", "7-high flush", "7-high flush"] in names[1:]
    assert [hand_name(hand) for hand in state.default_action(1).hands] == [
        "prial of As",
        "run K-Q-J",
        "run 10-9-8",
        "6-high flush",
    ]
    for seat in (0, 1):
        hopes = [
            expected_points([brag_key(hand) for hand in action.hands], 1)
            for action in state.suggestions(seat, 6)
        ]
        assert hopes == sorted(hopes, reverse=True)


def named(hands) -> list[str]:
    return [
        hand_name(hand) if len(hand) == 3 else " ".join(c.label for c in hand) for hand in hands
    ]


def test_fill_the_rest_from_nothing_makes_the_first_suggestion():
    state = CRASH.new_match(None, [0, 0, 0], seed=11)
    for seat in range(3):
        first = state.suggestions(seat, 1)[0].hands
        assert fill_hands([], state.hands[seat], opponents=2) == first


def test_fill_the_rest_keeps_complete_hands_in_place_and_refills_the_others():
    held = cards(POSITIONS[0])  # the prial of 3s, runs, pairs of 7s and 5s
    # A complete run in Hand 2 stays there; the prial takes Hand 1, the pairs the others.
    filled = fill_hands([[], cards("Jd 10h 9s")], held)
    assert named(filled) == ["prial of 3s", "run J-10-9", "pair of 7s", "pair of 5s"]
    # A complete hand stays even below a pair (the review says why it can't be set); the cards
    # of an unfinished hand (the 5s) go with the rest.
    filled = fill_hands([cards("5s 5h"), cards("Kd 4c 2c")], held)
    assert filled[1] == cards("Kd 4c 2c")
    assert named(filled) == ["prial of 3s", "K high", "10-high flush", "9-high flush"]
    # Nothing to fill: four complete hands come back as they are.
    full = [cards("3s 3h 3d"), cards("Jd 10h 9s"), cards("7s 7h 2c"), cards("5s 5h 4c")]
    assert fill_hands(full, held) == full


def test_fill_the_rest_is_always_a_legal_completion():
    chooser = random.Random(8)
    for _ in range(60):
        held = chooser.sample(french_deck(), 13)
        placed = chooser.sample(held, chooser.randint(0, 12))
        hands = [placed[i : i + 3] for i in range(0, len(placed), 3)]
        filled = fill_hands(hands, held, opponents=chooser.randint(1, 3))
        assert len(filled) == 4
        kept = [n for n, hand in enumerate(hands) if len(hand) == 3]
        assert all(filled[n] == hands[n] for n in kept)  # complete hands stay in their place
        made = [hand for n, hand in enumerate(filled) if hand and n not in kept]
        assert arrangement_problem(made, held) is None  # pairs or better, of the cards held
        used = [card for hand in filled for card in hand]
        assert len(used) == len(set(used))


def test_samples_are_legal_and_sometimes_set_nothing():
    state = new_game(SIX_PAIRS)
    chooser = random.Random(5)
    seen = Counter()
    for _ in range(200):
        action = state.sample(0, chooser)
        state.verify(0, action)
        seen[len(action.hands) if isinstance(action, Arrange) else "declare"] += 1
    assert seen[0] and seen[4] and seen["declare"]


def test_leaving_between_hands_ends_the_game_and_the_leaver_forfeits():
    state = new_game(POSITIONS)
    set_all(state, {0: "", 1: "8s 8h 2d"})
    assert state.match.scores == [0, 1]
    state.leave(1)
    assert state.is_over() and state.final_standings().placings == [1, 2]
