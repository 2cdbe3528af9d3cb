"""Fishing captures (bot/games/captures.py): Totit's matches (identical on the first turn, same
rank after with A J Q K as one rank, odd suits before identical pairs), Porrazo's sequences
(K-A-2 wraps) and Turup's sums (the rule text's examples, copied here), each lister against a
brute force over every subset of random small tables, the verifiers against the listers, and
the limit keeping the fact that more options exist."""

import random
import time
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cards import FrenchCard, Rank, french_deck, parse_french, totit_deck
from bot.engine import IllegalAction
from bot.games.captures import (
    identical,
    match_captures,
    pip,
    ranks_as_one,
    same_rank,
    sequence_captures,
    sum_captures,
    verify_match_capture,
    verify_sequence_capture,
    verify_sum_capture,
)

TOTIT_RANKS = ranks_as_one(Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING)


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def card(text: str) -> FrenchCard:
    return FrenchCard.from_code(text)


def codes(options) -> list[str]:
    return [" ".join(c.code for c in option) for option in options]


def allowed(verify, *args, **kwargs) -> bool:
    try:
        verify(*args, **kwargs)
    except IllegalAction:
        return False
    return True


def subsets(table):
    for size in range(1, len(table) + 1):
        yield from combinations(table, size)


# ---- match captures (Totit, Porrazo's pairs) ----------------------------------------------


def test_totit_first_turn_takes_only_an_identical_card():
    table = cards("5s 5h As Kc")
    assert codes(match_captures(card("5s#2"), table, matches=identical).options) == ["5s"]
    assert match_captures(card("5d"), table, matches=identical).options == []
    assert not allowed(verify_match_capture, card("5s#2"), cards("5h"), table, matches=identical)


def test_totit_later_turns_take_the_same_rank_with_aces_and_faces_as_one_rank():
    table = cards("As 5h Jc 9d")
    assert codes(match_captures(card("Kc"), table, matches=TOTIT_RANKS).options) == ["As", "Jc"]
    assert codes(match_captures(card("As#2"), table, matches=TOTIT_RANKS).options) == [
        "As",
        "Jc",
    ]
    assert codes(match_captures(card("Qc"), cards("Jc"), matches=TOTIT_RANKS).options) == ["Jc"]
    assert codes(match_captures(card("5d"), table, matches=TOTIT_RANKS).options) == ["5h"]


def test_totit_odd_suits_are_taken_before_a_pair_of_identical_cards():
    table = cards("5s 5s#2 5h 9d")
    rule = {"matches": TOTIT_RANKS, "twins_last": True}
    assert codes(match_captures(card("5d"), table, **rule).options) == ["5h"]
    with pytest.raises(IllegalAction, match="identical twin"):
        verify_match_capture(card("5d"), cards("5s"), table, **rule)
    # once the twins are the only cards of their rank left, either may go
    assert codes(match_captures(card("5d"), cards("5s 5s#2 9d"), **rule).options) == [
        "5s",
        "5s#2",
    ]
    # A J Q K are one rank for this rule too: the K is the odd card beside the two A♠
    assert codes(match_captures(card("Qc"), cards("As As#2 Kc"), **rule).options) == ["Kc"]
    # two identical pairs and nothing else: any of the four
    assert len(match_captures(card("5d"), cards("5s 5s#2 5h 5h#2"), **rule).options) == 4


def test_porrazo_a_pair_on_the_table_gives_up_one_card_only():
    table = cards("7h 7s 9c")
    assert codes(match_captures(card("7d"), table).options) == ["7h", "7s"]
    assert not allowed(verify_match_capture, card("7d"), cards("7h 7s"), table)
    assert allowed(verify_match_capture, card("7d"), cards("7s"), table)


@given(st.randoms(use_true_random=False), st.integers(0, 10), st.booleans(), st.booleans())
def test_match_listing_agrees_with_verify_and_brute_force(rnd, size, twins_last, totit):
    deck = totit_deck()
    rnd.shuffle(deck)
    played, table = deck[0], deck[1 : size + 1]
    matches = TOTIT_RANKS if totit else same_rank
    listed = match_captures(played, table, matches=matches, twins_last=twins_last)
    candidates = [c for c in table if matches(played, c)]
    twinned = [c for c in candidates if any(o != c and identical(o, c) for o in candidates)]
    odd = [c for c in candidates if c not in twinned]
    expected = odd if twins_last and twinned and odd else candidates
    assert listed.options == [[c] for c in expected] and not listed.more
    for taken in subsets(table[:6]):
        ok = allowed(
            verify_match_capture,
            played,
            taken,
            table,
            matches=matches,
            twins_last=twins_last,
        )
        assert ok == ([*taken] in listed.options)


# ---- sequence captures (Porrazo) ----------------------------------------------------------


def test_porrazo_a_seven_takes_the_run_7_8_9_10():
    table = cards("7h 8s 9c 10d Kh")
    found = sequence_captures(card("7s"), table)
    assert codes(found.options) == ["7h 8s 9c 10d", "7h 8s 9c", "7h 8s"]
    assert allowed(verify_sequence_capture, card("7s"), cards("10d 8s 9c 7h"), table)
    assert not allowed(verify_sequence_capture, card("7s"), cards("7h 9c 10d"), table)  # gap
    assert not allowed(verify_sequence_capture, card("7s"), cards("7h"), table)  # 2 or more
    assert not allowed(verify_sequence_capture, card("8d"), cards("7h 8s"), table)  # not lowest
    assert sequence_captures(card("Kd"), table).options == []  # K alone is no run


def test_porrazo_kings_and_aces_are_consecutive():
    table = cards("Qh Ks Ac 2d 5h")
    assert codes(sequence_captures(card("Qs"), table).options)[0] == "Qh Ks Ac 2d"
    # porrazo/rules.md: the card matches the lowest card of the run, so the J of the text's
    # Q-K-A-2 example captures nothing here (there is no J on the table)
    assert sequence_captures(card("Jd"), table).options == []
    assert codes(sequence_captures(card("Kh"), cards("Ks Ac 2d 3c 4h")).options)[0] == (
        "Ks Ac 2d 3c 4h"  # the limpia example: K-A-2-3-4
    )
    assert sequence_captures(card("Kh"), cards("Ks Ac"), wrap=False).options == []


def test_a_run_with_copies_offers_every_choice_of_copy():
    table = cards("7h 7s 8c")
    assert sorted(codes(sequence_captures(card("7d"), table).options)) == ["7h 8c", "7s 8c"]
    assert not allowed(verify_sequence_capture, card("7d"), cards("7h 7s 8c"), table)


def brute_is_sequence(played: FrenchCard, taken) -> bool:
    ranks = [int(c.rank) for c in taken]
    wanted = {(int(played.rank) - 1 + step) % 13 + 1 for step in range(len(taken))}
    return 2 <= len(taken) <= 13 and len(set(ranks)) == len(ranks) and set(ranks) == wanted


@given(st.randoms(use_true_random=False), st.integers(0, 12))
def test_sequence_listing_agrees_with_brute_force_and_verify(rnd, size):
    deck = french_deck(packs=2)
    rnd.shuffle(deck)
    played, table = deck[0], deck[1 : size + 1]
    if rnd.random() < 0.7:  # make runs likely: a table of nearby ranks
        near = [c for c in deck[1:] if (int(c.rank) - int(played.rank)) % 13 < 5]
        table = near[:size]
    listed = sequence_captures(played, table)
    brute = {frozenset(s) for s in subsets(table) if brute_is_sequence(played, s)}
    assert {frozenset(o) for o in listed.options} == brute
    assert len(listed.options) == len(brute)  # no option twice
    for taken in subsets(table):
        assert allowed(verify_sequence_capture, played, taken, table) == (frozenset(taken) in brute)


# ---- sum captures (Turup) -----------------------------------------------------------------


def value_sets(options) -> set[tuple[int, ...]]:
    return {tuple(sorted(pip(c) for c in option)) for option in options}


def test_turup_match_example_a_six_takes_a_six_whatever_the_suit():
    assert value_sets(sum_captures(card("6s"), cards("6h Kc 9d")).options) == {(6,)}


def test_turup_addition_example_a_ten_takes_four_and_six():
    table = cards("4h 6c")
    assert allowed(verify_sum_capture, card("10s"), table, table)
    assert value_sets(sum_captures(card("10s"), table).options) == {(4, 6)}


def test_turup_add_and_match_example_a_five_takes_two_three_and_five():
    # "A player owns a queen, a ten (10) and a five (5) and the community pile contains a
    # three (3), two (2), king and five (5). The player can combine the two (2) and three (3)
    # to equal the players five (5) and match the five (5) ... for a total of four cards won."
    table = cards("3h 2c Kd 5s")
    found = sum_captures(card("5h"), table)
    assert value_sets(found.options) == {(2, 3, 5), (2, 3), (5,)}
    assert codes(found.options)[0] == "2c 3h 5s"  # the biggest capture first
    assert allowed(verify_sum_capture, card("5h"), cards("5s 3h 2c"), table)
    assert sum_captures(card("Qs"), table).options == []  # no queen to match
    assert value_sets(sum_captures(card("10d"), table).options) == {(2, 3, 5)}


def test_turup_massive_addition_example_a_ten_takes_ace_two_three_four():
    table = cards("Ah 2s 3d 4c")
    assert allowed(verify_sum_capture, card("10h"), table, table)
    assert codes(sum_captures(card("10h"), table).options) == ["Ah 2s 3d 4c"]


def test_turup_delayed_match_example_an_eight_takes_three_and_five():
    table = cards("Kh 3s 6d Jc 5c")  # the five placed by the player
    assert value_sets(sum_captures(card("8d"), table).options) == {(3, 5)}


def test_turup_a_king_takes_one_or_both_kings_and_faces_never_add_up():
    table = cards("Kh 3s 8c Ks")
    assert codes(sum_captures(card("Kd"), table).options) == ["Kh Ks", "Kh"]
    assert allowed(verify_sum_capture, card("Kd"), cards("Ks"), table)
    assert not allowed(verify_sum_capture, card("Kd"), cards("Kh 3s"), table)
    assert sum_captures(card("Jd"), cards("5h 6s")).options == []  # 5 + 6 is not a jack
    with pytest.raises(IllegalAction, match="J, Q and K"):
        verify_sum_capture(card("10d"), cards("Jh"), cards("Jh 5s"))


def test_turup_aces_are_one_and_several_groups_may_be_taken():
    table = cards("Ah As 4c 5d 3h 2s")
    assert allowed(verify_sum_capture, card("2d"), cards("Ah As 2s"), table)
    assert allowed(verify_sum_capture, card("5h"), cards("Ah 4c 5d 3h 2s"), table)
    with pytest.raises(IllegalAction, match="make 5"):
        verify_sum_capture(card("5h"), cards("Ah 4c 3h"), table)  # 8 is not groups of 5
    with pytest.raises(IllegalAction, match="make 6"):
        verify_sum_capture(card("6h"), cards("4c 5d 3h"), table)  # 12, but 4+5+3 won't split
    with pytest.raises(IllegalAction, match="on the table"):
        verify_sum_capture(card("5h"), cards("5s"), table)
    with pytest.raises(IllegalAction, match="at least one"):
        verify_sum_capture(card("5h"), [], table)


def brute_splits(values: list[int], target: int) -> bool:
    """Every way of cutting `values` into groups, tried one by one."""
    if not values:
        return True
    first, rest = values[0], values[1:]
    for size in range(len(rest) + 1):
        for others in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in others) == target:
                left = [v for i, v in enumerate(rest) if i not in others]
                if brute_splits(left, target):
                    return True
    return False


def brute_is_sum(played: FrenchCard, taken) -> bool:
    if pip(played) > 10:
        return all(c.rank == played.rank for c in taken)
    return all(pip(c) <= 10 for c in taken) and brute_splits([pip(c) for c in taken], pip(played))


small_tables = st.tuples(st.randoms(use_true_random=False), st.integers(0, 9), st.booleans())


@given(small_tables)
def test_sum_listing_agrees_with_brute_force_over_every_subset(situation):
    rnd, size, low = situation
    deck = french_deck(packs=3)
    rnd.shuffle(deck)
    if low:  # small number cards make many sums
        deck = [c for c in deck if pip(c) <= 6 or pip(c) > 10]
    played, table = deck[0], deck[1 : size + 1]
    listed = sum_captures(played, table)
    valid = [s for s in subsets(table) if brute_is_sum(played, s)]
    assert value_sets(listed.options) == value_sets(valid)
    assert len(listed.options) == len(value_sets(valid))  # one option per multiset of values
    assert all(set(o) <= set(table) and len(set(o)) == len(o) for o in listed.options)
    for taken in subsets(table):
        assert allowed(verify_sum_capture, played, taken, table) == brute_is_sum(played, taken)


@given(small_tables, st.integers(0, 6))
def test_the_limit_is_honoured_and_says_when_more_exist(situation, limit):
    rnd, size, _ = situation
    deck = [c for c in french_deck(packs=2) if pip(c) <= 5 or c.rank == Rank.TEN]
    rnd.shuffle(deck)
    played, table = deck[0], deck[1 : size + 1]
    for lister in (sum_captures, sequence_captures, match_captures):
        everything = lister(played, table)
        capped = lister(played, table, limit=limit)
        assert capped.options == everything.options[:limit]
        assert capped.more == (len(everything.options) > limit)
        assert not everything.more


def test_a_crowded_turup_table_is_judged_and_suggested_quickly():
    numbers = [c for c in french_deck(packs=3) if pip(c) <= 10]
    random.Random(7).shuffle(numbers)
    table = numbers[:80]
    by_value = {v: [c for c in table if pip(c) == v] for v in range(1, 11)}
    start = time.perf_counter()
    found = sum_captures(card("10s"), table, limit=25)
    assert len(found.options) == 25 and found.more
    assert len(found.options[0]) > 30  # suggestions start with a big capture
    for option in found.options:
        verify_sum_capture(card("10s"), option, table)
    # known answers: pairs 1+9, 2+8, ... 5+5 split; nines (sum 90) and threes never do
    pairs = [
        c for a, b in ((1, 9), (2, 8), (3, 7), (4, 6)) for c in by_value[a][:4] + by_value[b][:4]
    ]
    verify_sum_capture(card("10s"), pairs + by_value[5][:4], table)
    with pytest.raises(IllegalAction):
        verify_sum_capture(card("10s"), by_value[9][:10], table)
    with pytest.raises(IllegalAction):
        verify_sum_capture(card("10s"), by_value[3][:10] + by_value[7][:3] + by_value[9][:1], table)
    assert time.perf_counter() - start < 5
