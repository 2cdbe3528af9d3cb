"""Terrapin scoring: the rule texts' own examples first, then properties."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cards.decktet import DECK, parse
from bot.games.terrapin import is_turtle_butt, longest_straight, score


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        # the Terrapin rule text: "A four card straight Ace-2-3-4 is worth 6".
        ("Ace of Moons, Author, Journey, Mountain", 6),
        # the Terrapin rule text / rules.md: 3,4,5,9,9 with five suits = 5 (pair) + 4 (straight).
        ("Journey, Mountain, Forest, Pact, Merchant", 9),
        # ... discard the 3 or the 5: "You'll still have 7 points".
        ("Mountain, Forest, Pact, Merchant", 7),
        ("Journey, Mountain, Pact, Merchant", 7),
        # ... draw the sixth suit (Wyrms): Turtle Butt kills the hand.
        ("Journey, Mountain, Forest, Pact, Merchant, Savage", 0),
        # the Soliterrapin rule text: row 4-6-5-3-8-9 is worth 6 (3-4-5-6; 8-9 does not count).
        ("Mountain, Lunatic, Forest, Journey, Diplomat, Pact", 6),
        # the Soliterrapin rule text: a two-card straight is 2, a six-card straight is 10.
        ("Author, Journey", 2),
        ("Ace of Moons, Author, Journey, Mountain, Forest, Lunatic", 10),
        # the Soliterrapin rule text: a pair 5; three, four, five of a kind (Aces, Crowns) 10,
        # 15, 20.
        ("Ace of Moons, Ace of Suns", 5),
        ("Ace of Moons, Ace of Suns, Ace of Waves", 10),
        ("Huntress, Bard, Sea, End", 15),
        ("Huntress, Bard, Sea, End, Calamity", 20),
        # ... six of a kind is Turtle Butt.
        ("Huntress, Bard, Sea, End, Calamity, Windfall", 0),
        # the Terrapin rule text: three of a number rank (three 7s) is Turtle Butt.
        ("Chance Meeting, Castle, Cave", 0),
        # rules.md: two pairs of different ranks score 10.
        ("Ace of Moons, Ace of Suns, Huntress, Bard", 10),
        # Straight cards may also be in pairs: 2-2-3 = pair 5 + straight 2.
        ("Author, Desert, Journey", 7),
        # No wrap-around: an Ace and a Crown are no straight.
        ("Ace of Moons, Huntress", 0),
        ("Ace of Moons", 0),
        ("", 0),
    ],
)
def test_rule_text_examples(hand, points):
    assert score(parse(hand)) == points


def test_turtle_butt_with_as_few_as_three_cards():
    assert is_turtle_butt(parse("Author, Desert, Origin"))
    assert not is_turtle_butt(parse("Author, Desert"))


hands = st.lists(st.sampled_from(DECK), unique=True, max_size=12)


@given(hands)
def test_turtle_butt_iff_all_six_suits(hand):
    suits = {suit for card in hand for suit in card.suits}
    assert is_turtle_butt(hand) == (len(suits) == 6)
    if is_turtle_butt(hand):
        assert score(hand) == 0


def test_any_three_of_a_numbered_rank_is_turtle_butt_with_anything_added():
    for rank in range(2, 10):
        trio = [card for card in DECK if card.rank == rank]
        assert is_turtle_butt(trio)
        for extra in DECK:
            if extra not in trio:
                assert score([*trio, extra]) == 0


@given(hands, st.randoms())
def test_score_does_not_depend_on_order(hand, random):
    shuffled = list(hand)
    random.shuffle(shuffled)
    assert score(shuffled) == score(hand)


@given(hands, st.sampled_from(DECK))
def test_adding_a_card_never_revives_a_turtle_butt_hand(hand, extra):
    if is_turtle_butt(hand) and extra not in hand:
        assert is_turtle_butt([*hand, extra])
        assert score([*hand, extra]) == 0


@given(hands)
def test_longest_straight_matches_a_window_search(hand):
    ranks = {card.rank for card in hand}
    windows = [
        length
        for length, start in itertools.product(range(1, 11), range(1, 11))
        if all(r in ranks for r in range(start, start + length))
    ]
    assert longest_straight(hand) == max(windows, default=0)
