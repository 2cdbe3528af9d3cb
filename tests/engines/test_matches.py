"""Points matches (bot/games/matches.py): Big Two to 100 lowest wins with its tie-break,
Botifarra to 101 by partnership, Porrazo's 61 reached mid-hand, Crash to 7 and its outright
crash, Last One's elimination with the last player standing, Turup's and Totit's fixed number
of hands, dealer rotation past eliminated and departed seats, drop-outs, and snapshots."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.matches import Match


def test_big_two_ends_when_someone_reaches_100_and_the_lowest_score_wins():
    match = Match.to_target(4, 100, higher_wins=False)
    assert not match.add_hand([10, 0, 26, 3])
    assert not match.add_hand([39, 0, 60, 13])
    assert match.scores == [49, 0, 86, 16] and match.played == 2
    assert match.add_hand([13, 2, 14, 0])  # seat 2 reaches 100
    assert match.is_over()
    assert match.placings() == [3, 1, 4, 2]
    with pytest.raises(ValueError, match="over"):
        match.add_hand([1, 1, 1, 1])


def test_big_two_ties_go_to_fewer_cards_left_in_the_last_hand_then_share():
    match = Match.to_target(3, 100, higher_wins=False)
    match.add_hand([100, 40, 40])
    assert match.placings() == [3, 1, 1]
    assert match.placings(tie_break=[0, 5, 2]) == [3, 2, 1]
    assert match.seat_placings(tie_break=[0, 2, 2]) == [3, 1, 1]


def test_botifarra_is_played_to_101_by_partnership():
    match = Match.to_target([[0, 2], [1, 3]], 101)
    assert match.side_of(3) == 1 and match.seat_count == 4
    assert not match.add_hand([0, 60])
    assert not match.add_hand([100, 0])
    assert not match.add_hand([0, 40])  # 100 and 100: nobody has 101 yet
    assert match.add_hand([1, 0])  # exactly 101 is enough ("101 or more")
    assert match.placings() == [1, 2]
    assert match.seat_placings() == [1, 2, 1, 2]
    assert match.seat_scores() == [101, 100, 101, 100]


def test_porrazo_ends_the_moment_a_side_reaches_61_even_mid_hand():
    match = Match.to_target(3, 61)
    match.add_hand([58, 20, 0])
    assert not match.add(1, 3)  # bonuses scored during the hand
    assert match.add(0, 3)  # a porrazo takes seat 0 to 61: the match ends at once
    assert match.played == 1  # ... with the hand unfinished
    with pytest.raises(ValueError, match="over"):
        match.add(2, 12)
    assert match.placings() == [1, 2, 3]


def test_porrazo_a_san_benito_wins_outright_and_partnerships_score_together():
    match = Match.to_target([[0, 2], [1, 3]], 61)
    match.add_hand([10, 40])
    match.win(0)
    assert match.is_over() and match.placings() == [1, 2]


def test_crash_to_seven_and_a_crash_wins_at_once():
    match = Match.to_target(4, 7)
    assert not match.add_hand([2, 1, 1, 0])
    assert not match.add_hand([3, 0, 1, 0])
    match.win(3)  # a crash: all four points in one hand, or the thirteen-card straight
    assert match.is_over() and match.placings() == [2, 4, 3, 1]
    fresh = Match.to_target(2, 7)
    for _ in range(2):
        fresh.add_hand([3, 1])
    assert fresh.add(0, 1) and fresh.placings() == [1, 2]  # 7 points: wins immediately


def test_last_one_players_drop_out_at_the_threshold_and_the_last_standing_wins():
    match = Match.elimination(4, 250)
    assert not match.add_hand([120, 80, 0, 200])
    assert not match.add_hand([140, 10, 30, 0])  # seat 0 reaches 260: out
    assert match.out == [1, None, None, None] and match.seats_in() == [1, 2, 3]
    assert match.add_hand([0, 170, 0, 60])  # seats 1 (260) and 3 (260) out together
    assert match.is_over()
    assert match.placings() == [4, 2, 1, 2]  # last standing, then the later out
    with pytest.raises(ValueError, match="over"):
        match.add_hand([0, 0, 0, 0])


def test_last_one_reaching_the_threshold_exactly_is_out():
    match = Match.elimination(3, 250)
    assert not match.add_hand([250, 249, 0])
    assert match.out == [1, None, None] and match.seats_in() == [1, 2]


def test_last_one_players_out_in_the_same_hand_are_ranked_by_score():
    match = Match.elimination(3, 250)
    match.add_hand([300, 260, 100])
    assert match.is_over() and match.placings() == [3, 2, 1]
    everyone = Match.elimination(3, 250)
    everyone.add_hand([240, 240, 100])
    everyone.add_hand([20, 60, 190])  # all out at once: the lowest score still wins
    assert everyone.is_over() and everyone.placings() == [1, 3, 2]


def test_only_players_still_in_score():
    match = Match.elimination(3, 50)
    match.add_hand([60, 0, 0])
    with pytest.raises(ValueError, match="still playing"):
        match.add_hand([5, 0, 0])
    with pytest.raises(ValueError, match="still playing"):
        match.add(0, 1)
    assert not match.add_hand([0, 10, 20])  # a side out scores nothing, silently


def test_turup_plays_a_set_number_of_rounds_and_most_cards_win():
    match = Match.for_hands(3, 2)
    assert not match.add_hand([20, 18, 10])
    assert match.add_hand([10, 12, 24])
    assert match.scores == [30, 30, 34] and match.placings() == [2, 2, 1]


def test_totit_ends_when_every_player_has_dealt_once():
    match = Match.for_hands(4, 4)
    dealer, dealers = 0, [0]
    while not match.add_hand([1, 0, 2, 0]):
        dealer = match.next_dealer(dealer)
        dealers.append(dealer)
    assert dealers == [0, 1, 2, 3] and match.placings() == [2, 3, 1, 3]


def test_the_deal_passes_left_skipping_seats_that_are_out_or_gone():
    match = Match.elimination(5, 100)
    assert match.next_dealer(4) == 0
    match.add_hand([0, 150, 0, 0, 0])
    match.drop(3)
    assert match.next_dealer(0) == 2 and match.next_dealer(2) == 4
    assert match.seats_in() == [0, 2, 4]
    partners = Match.to_target([[0, 2], [1, 3]], 101)
    assert partners.next_dealer(3) == 0


def test_a_player_who_leaves_forfeits_and_is_placed_below_everyone_else():
    match = Match.to_target(3, 100, higher_wins=False)
    match.add_hand([10, 50, 20])
    match.drop(0)
    assert not match.is_over() and match.seats_in() == [1, 2]
    match.drop(2)  # one player left: the match is over
    assert match.is_over() and match.placings() == [2, 1, 3]
    with pytest.raises(ValueError, match="over"):
        match.add(1, 1)


def test_leaving_after_going_out_keeps_the_place_earned():
    match = Match.elimination(3, 100)
    match.add_hand([120, 0, 0])
    match.drop(0)
    assert match.out[0] == 1 and not match.dropped[0]
    match.drop(1)
    assert match.placings() == [2, 3, 1]


def test_a_partnership_leaves_as_one_side():
    match = Match.to_target([[0, 2], [1, 3]], 101)
    match.drop(2)
    assert match.is_over() and match.seats_in() == [1, 3] and match.seat_placings() == [2, 1, 2, 1]


def test_snapshots_round_trip_and_bad_matches_are_refused():
    match = Match.elimination(3, 250)
    match.add_hand([260, 0, 10])
    match.drop(1)
    assert Match.model_validate_json(match.model_dump_json()) == match
    with pytest.raises(ValueError, match="two or more sides"):
        Match.to_target([[0, 1], [1, 2]], 10)
    with pytest.raises(ValueError, match="two or more sides"):
        Match.to_target(1, 10)
    with pytest.raises(ValueError, match="needs target"):
        Match(sides=[[0], [1]], mode="target")
    with pytest.raises(ValueError, match="needs hands"):
        Match(sides=[[0], [1]], mode="hands", target=3)
    with pytest.raises(ValueError, match="lower score"):
        Match(sides=[[0], [1]], mode="elimination", target=3)
    with pytest.raises(ValueError, match="one score per side"):
        Match.to_target(2, 10).add_hand([1])


@given(
    st.lists(st.integers(0, 60), min_size=2, max_size=6),
    st.booleans(),
    st.lists(st.integers(0, 2), min_size=6, max_size=6),
)
def test_placings_are_one_plus_the_sides_strictly_ahead(scores, higher_wins, tie_break):
    match = Match.for_hands(len(scores), 1, higher_wins=higher_wins)
    match.add_hand(scores)
    sign = -1 if higher_wins else 1
    keys = [(sign * score, tie_break[side]) for side, score in enumerate(scores)]
    expected = [1 + sum(other < key for other in keys) for key in keys]
    assert match.placings(tie_break=tie_break[: len(scores)]) == expected
