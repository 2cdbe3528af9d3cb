"""Big Two: every combination and ranking rule (bot/games/big_two/rules.md), legal plays, the first
lead, passing and the trick, scoring, and the match to the target."""

import os
import random
import subprocess
import sys
from itertools import combinations, pairwise

import pytest

from bot.cards import french_deck, parse_french
from bot.engine import HandEnded, HandStarted, IllegalAction, MatchEnded
from bot.games.big_two import (
    BIG_TWO,
    BigTwoOptions,
    cards_left_points,
    classify,
    legal_plays,
    value,
)
from bot.games.climbing import Pass, Play


def combo(text: str):
    return classify(parse_french(text))


def beats(a: str, b: str) -> bool:
    return combo(a).beats(combo(b))


def test_card_order_is_3_low_to_2_high_and_suits_diamonds_clubs_hearts_spades():
    ordered = sorted(parse_french("2d As 3s 3d Kc 3c 3h"), key=value)
    assert [c.code for c in ordered] == ["3d", "3c", "3h", "3s", "Kc", "As", "2d"]
    assert beats("2d", "As") and beats("3s", "3h") and not beats("3d", "3c")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("6d 5c 4h 3s 2d", "straight"),  # rules.md: 6-5-4-3-2 is fine
        ("Ad 2c 3h 4s 5d", "straight"),
        ("10d Jc Qh Ks Ad", "straight"),
        ("5d 6d 9d Jd Kd", "flush"),
        ("7d 7c 7h 3s 3d", "full house"),
        ("5d 5c 5h 5s Jd", "four of a kind"),
        ("4s 5s 6s 7s 8s", "straight flush"),
        ("10s Js Qs Ks As", "straight flush"),  # the royal flush is the top straight flush
    ],
)
def test_five_card_hands(text, name):
    assert combo(text).name == name


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("2d Ac Kh Qs Jd", "Five cards must make"),  # 2-A-K-Q-J is not a straight
        ("4d 3c 2h As Kd", "Five cards must make"),  # nor 4-3-2-A-K
        ("Jd Qc Kh As 2d", "Five cards must make"),  # nor J-Q-K-A-2
        ("5d 5c 5h 5s", "Play one card"),  # four of a kind needs a fifth card
        ("7d 8d", "A pair must be 2 cards of the same rank"),
        ("7d 7c 8d", "Three of a kind must be 3 cards of the same rank"),
        ("7d 7c 8d 8c", "Play one card"),  # two pairs are no combination
    ],
)
def test_what_is_not_a_combination_says_why(text, reason):
    with pytest.raises(IllegalAction, match=reason):
        combo(text)


def test_straights_order_by_top_card_and_tie_on_its_suit():
    order = ["Ad 2c 3h 4s 5d", "2d 3c 4h 5s 6d", "3d 4c 5h 6s 7d", "10d Jc Qh Ks Ac"]
    for low, high in pairwise(order):
        assert beats(high, low)
    assert beats("Ad 2c 3h 4s 5s", "Ad 2c 3h 4s 5h")  # the 5 decides A-2-3-4-5
    assert beats("2d 3c 4h 5s 6s", "As 2c 3h 4s 5s")


def test_five_card_categories_and_their_ties():
    assert beats("5d 6d 9d Jd Kd", "10d Jc Qh Ks Ac")  # flush beats straight
    assert beats("3d 3c 3h 4s 4d", "5s 6s 9s Js Ks")  # full house beats flush
    assert beats("3d 3c 3h 3s 4d", "As Ac Ah Ks Kd")  # four of a kind beats full house
    assert beats("3c 4c 5c 6c 7c", "2d 2c 2h 2s Ad")  # straight flush beats four of a kind
    assert beats("3s 4s 6s 8s 10s", "Ah Kh Qh Jh 9h")  # flushes compare suit first
    assert beats("3h 4h 6h 8h Kh", "3h 4h 6h 8h Qh")  # then the highest cards
    assert beats("Qd Qc Qh 9s 9d", "10d 10c 10h Ks Kd")  # full house: the three decide
    assert beats("6d 6c 6h 6s 3d", "5d 5c 5h 5s Ad")


def test_pairs_compare_by_rank_then_the_highest_suit():
    assert beats("Ks Kd", "Kh Kc")  # rules.md's example
    assert beats("2d 2c", "As Ah") and not beats("Kh Kc", "Ks Kd")
    assert not combo("Ks Kd").beats(combo("3d"))  # a pair never beats a single


def test_legal_plays_against_a_combination_and_on_a_free_lead():
    hand = parse_french("3d 3c 7h 7s 8d 9c 10h Jh Qs Qd 2s Ah Kc")
    assert legal_plays(hand, parse_french("7d 7c")) == [
        parse_french("7h 7s"),
        parse_french("Qd Qs"),
    ]
    assert legal_plays(hand, parse_french("2h")) == [parse_french("2s")]
    straights = [p for p in legal_plays(hand, None) if len(p) == 5]
    assert all(combo(" ".join(c.code for c in p)).name == "straight" for p in straights)
    # 7-8-9-10-J (two 7s), 8-9-10-J-Q and 9-10-J-Q-K (two Qs), 10-J-Q-K-A (two Qs): 8.
    assert len(straights) == 8
    with_3d = legal_plays(hand, None, must_include=parse_french("3d")[0])
    assert with_3d == [parse_french("3d"), parse_french("3d 3c")]


def test_the_fast_generator_finds_exactly_what_brute_force_finds():
    rng = random.Random(7)
    for _ in range(100):
        deck = french_deck()
        rng.shuffle(deck)
        hand = deck[:13]
        brute = set()
        for five in combinations(hand, 5):
            try:
                classify(list(five))
                brute.add(frozenset(five))
            except IllegalAction:
                pass
        assert {frozenset(p) for p in legal_plays(hand, None) if len(p) == 5} == brute


def dealt(hands: list[str], target: int = 100):
    state = BIG_TWO.new_match(BigTwoOptions(target=target), [0] * len(hands), seed=1)
    fixed = [sorted(parse_french(h), key=value) for h in hands]
    used = {c for h in fixed for c in h}
    state.hands, state.unused, state.played = fixed, [c for c in french_deck() if c not in used], []
    state.opening = min(used, key=value)
    state.climb.turn = next(s for s, h in enumerate(fixed) if state.opening in h)
    state.climb.to_beat, state.climb.last_player = [], None
    return state


def test_the_first_lead_must_include_the_lowest_card_in_play():
    state = dealt(["4c 9d Kd", "4d 5s 6h", "7c 8c 2s"])  # no 3s dealt: 4d is lowest
    assert state.pending()[0].seat == 1
    with pytest.raises(IllegalAction, match="must include the lowest card, 4♦"):
        state.apply(1, Play(cards=parse_french("5s")))
    assert state.view(1).must_include == parse_french("4d")[0]
    assert state.view(0).must_include is None and state.view(None).first_play
    assert state.default_action(1) == Play(cards=parse_french("4d"))


def test_passing_and_coming_back_and_the_trick_going_to_the_last_player():
    state = dealt(["3d 5d Kd Kh", "4d 5s 6h 7h", "7c 8c 10s 2s"])
    state.apply(0, Play(cards=parse_french("3d")))
    state.apply(1, Play(cards=parse_french("6h")))
    state.apply(2, Pass())
    with pytest.raises(IllegalAction, match="5♦ does not beat 6♥"):
        state.apply(0, Play(cards=parse_french("5d")))
    with pytest.raises(IllegalAction, match="Play 1 card to beat"):
        state.apply(0, Play(cards=parse_french("Kd Kh")))
    state.apply(0, Play(cards=parse_french("Kd")))
    state.apply(1, Pass())
    state.apply(2, Play(cards=parse_french("2s")))  # seat 2 passed before and comes back in
    state.apply(0, Pass())
    events = state.apply(1, Pass())
    assert events[-1].kind == "trick_won" and state.pending()[0].seat == 2
    assert Pass() not in state.legal_actions(2)
    assert state.default_action(2) == Play(cards=parse_french("7c"))
    with pytest.raises(IllegalAction, match="You lead this trick"):
        state.apply(2, Pass())


def test_a_hand_ends_when_someone_is_out_and_the_others_score_their_cards():
    assert [cards_left_points(n) for n in (1, 9, 10, 12, 13)] == [1, 9, 20, 24, 39]
    state = dealt(["3d", "4d 5s 6h", "7c 8c 10s 2s 2h 2c Jd Jc Qd Qc Kd Kc Ac"], target=30)
    events = state.apply(0, Play(cards=parse_french("3d")))
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.scores == [0, 3, 39] and ended.winners == [0]
    assert state.scores == [0, 3, 39] and state.is_over()
    assert next(e for e in events if isinstance(e, MatchEnded)).placings == [1, 2, 3]


THIRTEEN = "7c 8c 10s 2s 2h 2c Jd Jc Qd Qc Kd Kc Ac"


def test_a_tie_for_the_lowest_score_goes_to_fewer_cards_left_in_the_last_hand():
    state = dealt(["3d", "4d 5s", THIRTEEN], target=30)
    state.scores = [12, 10, 0]
    events = state.apply(0, Play(cards=parse_french("3d")))  # seat 0 out: 12; seat 1: 10 + 2
    ended = next(e for e in events if isinstance(e, MatchEnded))
    assert ended.scores == [12, 12, 39] and ended.placings == [1, 2, 3]


def test_players_tied_on_score_and_cards_left_share_the_place():
    state = dealt(["3d", "4d 5s", "4c 5d", THIRTEEN], target=30)
    state.scores = [25, 10, 10, 0]
    events = state.apply(0, Play(cards=parse_french("3d")))
    ended = next(e for e in events if isinstance(e, MatchEnded))
    assert ended.scores == [25, 12, 12, 39] and ended.placings == [3, 1, 1, 4]


def test_a_game_cut_short_by_a_player_leaving_keeps_its_standings():
    state = dealt(["3d", "4d 5s", "6h"], target=100)
    assert state.final_standings() == MatchEnded(placings=[1, 1, 1], scores=[0, 0, 0])
    state.scores = [3, 0, 2]
    state.apply(0, Play(cards=parse_french("3d")))  # seat 0 out; seats 1 and 2 score 2 and 1
    assert state.awaiting_next_hand() and state.scores == [3, 2, 3]
    state.leave(1)
    assert state.is_over()
    assert state.final_standings() == MatchEnded(placings=[2, 1, 3], scores=[3, 2, 3])


def test_the_next_deal_is_the_engines_hand_started_saying_who_leads():
    state = dealt(["3d", "4d 5s", "6h"], target=100)
    state.apply(0, Play(cards=parse_french("3d")))
    (started,) = state.next_hand()
    assert isinstance(started, HandStarted) and started.kind == "hand_started"
    assert started.hand == 2 and state.opening in state.hands[started.leader]


@pytest.mark.slow
def test_legal_plays_come_in_the_same_order_in_every_process():
    """Random players and replays pick plays by their place in the list: no hash seed may
    change it (five-card hands of equal rank used to follow set order)."""
    script = (
        "import random, bot.games\n"
        "from bot.cards import french_deck\n"
        "from bot.games.big_two import legal_plays\n"
        "for seed in range(20):\n"
        "    deck = french_deck()\n"
        "    random.Random(seed).shuffle(deck)\n"
        "    print([[card.code for card in play] for play in legal_plays(deck[:13], None)])\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


def reference_legal_plays(hand, to_beat):
    """Brute force: every subset of 1, 2, 3 or 5 cards classified, kept if it beats, in the
    listed order (size, category, key, then the cards)."""
    target = classify(to_beat) if to_beat else None
    plays = []
    for size in (1, 2, 3, 5):
        for cards in combinations(sorted(hand, key=value), size):
            try:
                found = classify(list(cards))
            except IllegalAction:
                continue
            if target is None or found.beats(target):
                plays.append(((found.size, found.category, found.key, [*map(value, cards)]), cards))
    plays.sort(key=lambda play: play[0])
    return [list(cards) for _, cards in plays]


@pytest.mark.slow
def test_legal_plays_are_every_subset_that_plays_in_order():
    rng = random.Random(18)
    deck = french_deck()
    for _ in range(25):
        cards = rng.sample(deck, 52)
        hand, others = cards[:13], cards[13:]
        assert legal_plays(hand, None) == reference_legal_plays(hand, None)
        for size in (1, 2, 3, 5):
            targets = [p for p in reference_legal_plays(others[:13], None) if len(p) == size]
            for to_beat in rng.sample(targets, min(2, len(targets))):
                assert legal_plays(hand, to_beat) == reference_legal_plays(hand, to_beat)
