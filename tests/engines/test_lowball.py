"""Triple Draw Lowball's engine (bot/games/lowball/) against its rules text
(bot/games/lowball/rules.md): the deuce-to-seven ranking against a reference written here,
fixed-limit blinds, bets and the cap, heads-up order, the three private draws and the stub made
again from the discards, all-ins and side pots, the showdown in turn where every hand is shown,
split pots, timeouts and seats leaving.

Seat 0 deals the first hand unless said, so with three players seat 1 posts the small blind,
seat 2 the big blind and seat 0 acts first. Decks are stacked in deal order: five rounds of one
card each from the dealer's left, then the stub."""

import random
from collections import Counter

import pytest

from bot.cards import FrenchCard, Rank, french_deck, parse_french
from bot.engine import HandEnded, IllegalAction, MatchEnded
from bot.games.betting import Bet, Call, Check, Fold, Raise, UncalledReturned
from bot.games.lowball import (
    LOWBALL,
    CardsDrawn,
    Draw,
    Drew,
    LowballOptions,
    Revealed,
    StandPat,
    StubReshuffled,
    describe,
    low_strength,
)
from bot.games.poker import Muck, Mucked, PotAwarded, Show
from tests.poker_play import call_facing_all_ins, play

BEST = "7s 5h 4d 3c 2s"  # 7-5-4-3-2: the best hand there is
EIGHT = "8h 6d 5c 4s 2d"  # 8-6-5-4-2
NINE = "9c 7d 6h 4h 3s"  # 9-7-6-4-3
KINGS = "Kd Kc Qs 9s 6c"  # a pair of kings
BEST_TOO = "7h 5d 4c 3h 2h"  # 7-5-4-3-2 again, in other suits: ties BEST


# ---- the ranking: our pokerkit mapping against a reference written for this test ---------------


def reference_rank(cards: list[FrenchCard]) -> tuple:
    """The ordinary high-poker rank of five cards, aces high only (A-2-3-4-5 is no straight):
    (category, ranks by count then value). In deuce-to-seven the lower rank is the better hand.
    """
    values = [14 if card.rank is Rank.ACE else int(card.rank) for card in cards]
    counts = Counter(values)
    ordered = sorted(values, key=lambda v: (counts[v], v), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({card.suit for card in cards}) == 1
    straight = len(counts) == 5 and max(values) - min(values) == 4
    if straight and flush:
        category = 8
    elif shape == [4, 1]:
        category = 7
    elif shape == [3, 2]:
        category = 6
    elif flush:
        category = 5
    elif straight:
        category = 4
    elif shape == [3, 1, 1]:
        category = 3
    elif shape == [2, 2, 1]:
        category = 2
    elif shape == [2, 1, 1, 1]:
        category = 1
    else:
        category = 0
    return category, ordered


def sign(number) -> int:
    return (number > 0) - (number < 0)


def random_hands(chooser: random.Random):
    """Five cards at random, and hands made to hit every category often: from few ranks
    (pairs up to fours), from one suit (flushes), and runs (straights, some flush)."""
    deck = french_deck()
    by_rank = {rank: [c for c in deck if c.rank is rank] for rank in Rank}
    while True:
        yield chooser.sample(deck, 5)
        ranks = chooser.sample(list(Rank), 3)
        yield chooser.sample([c for r in ranks for c in by_rank[r]], 5)
        suit = chooser.choice(deck).suit
        yield chooser.sample([c for c in deck if c.suit is suit], 5)
        start = chooser.randrange(2, 11)  # 2-3-4-5-6 ... 10-J-Q-K-A
        run = [Rank.ACE if v == 14 else Rank(v) for v in range(start, start + 5)]
        same_suit = chooser.random() < 0.3
        yield [chooser.choice(by_rank[r][:1] if same_suit else by_rank[r]) for r in run]


def test_the_ranking_agrees_with_a_reference_deuce_to_seven_on_thousands_of_pairs():
    chooser = random.Random(27)
    hands = random_hands(chooser)
    categories = Counter()
    for _ in range(4000):
        first, second = next(hands), next(hands)
        ours = sign(low_strength(first) - low_strength(second))  # greater is better
        theirs = sign(reference_rank(second) > reference_rank(first)) - sign(
            reference_rank(first) > reference_rank(second)
        )
        assert ours == theirs, (describe(first), describe(second))
        categories.update(reference_rank(hand)[0] for hand in (first, second))
    assert set(categories) == set(range(9))  # every category was compared


def test_aces_are_high_and_a_wheel_is_no_straight():
    def better(low: str, high: str) -> bool:
        return low_strength(parse_french(low)) > low_strength(parse_french(high))

    assert better(BEST, "7s 6h 4d 3c 2s")  # 7-5 beats 7-6
    assert better("8s 6h 5d 4c 2s", "8d 6c 5h 4s 3d")  # 8-6-5-4-2 beats 8-6-5-4-3
    assert better("Ks Qh Jd 9c 8s", "As 5h 4d 3c 2s")  # A-5-4-3-2 is ace high, no straight
    assert better("Ah Kd Qc Jh 9s", "6s 5h 4d 3c 2s")  # 6-5-4-3-2 is a straight
    assert better("Ah Kd Qc Jh 9s", "9h 7h 5h 4h 2h")  # a flush
    assert better("Ah Kd Qc Jh 9s", "2s 2h 3d 4c 5s")  # any pair
    assert describe(parse_french("As 5h 4d 3c 2s")) == "A-5-4-3-2"
    assert describe(parse_french("2s 2h 3d 4c 5s")) == "one pair: 2-2-5-4-3"


# ---- helpers -------------------------------------------------------------------------------


def stacked(hands: dict[int, str], seats: int, dealer: int = 0, stub: str = "") -> list[str]:
    """The deck in deal order: one card at a time from the dealer's left, then the stub."""
    order = [(dealer + 1 + step) % seats for step in range(seats)]
    order = [seat for seat in order if seat in hands]  # a seat out of chips is dealt nothing
    cards = {seat: parse_french(text) for seat, text in hands.items()}
    dealt = [cards[seat][index].code for index in range(5) for seat in order]
    return dealt + [card.code for card in parse_french(stub)]


def table(hands: dict[int, str], stacks: list[int], small_bet: int = 2, **stacking):
    deck = stacked(hands, len(stacks), **stacking)
    return LOWBALL.new_match(LowballOptions(small_bet=small_bet), stacks, seed=5, stacked=[deck])


def turn(state) -> int:
    (decision,) = state.pending()
    return decision.seat


def check_or_call_round(state):
    """Everyone calls what they owe or checks until the betting round is over."""
    events = []
    while state.phase == "betting":
        seat = turn(state)
        events += state.apply(seat, Call() if Call() in state.legal_actions(seat) else Check())
    return events


def stand_pat_all(state):
    events = []
    while state.phase == "draw":
        events += state.apply(turn(state), StandPat())
    return events


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def same_cards(held: list[FrenchCard], text: str) -> bool:
    return Counter(held) == Counter(cards(text))


THREE = {0: EIGHT, 1: BEST, 2: KINGS}


# ---- blinds and the order of play ----------------------------------------------------------


def test_blinds_deal_and_the_order_of_play_with_three():
    state = table(THREE, [20, 20, 20])
    assert state.small_blind == 1 and state.big_blind == 2
    assert state.stacks == [20, 19, 18] and state.pot_size() == 3
    assert same_cards(state.hands[1], BEST)  # dealt one at a time from seat 1
    assert turn(state) == 0  # left of the big blind
    assert state.legal_actions(0) == [Fold(), Call(), Raise(amount=2)]
    play(state, (0, Call()), (1, Call()))
    assert state.legal_actions(2) == [Fold(), Check(), Raise(amount=2)]  # the big blind's option
    play(state, (2, Check()))
    assert state.phase == "draw" and state.draw_round == 1 and turn(state) == 1  # dealer's left
    play(state, (1, StandPat()), (2, StandPat()), (0, StandPat()))
    assert state.phase == "betting" and state.betting_round == 2 and turn(state) == 1
    play(state, (1, Check()), (2, Bet(amount=2)), (0, Fold()), (1, Fold()))
    assert state.awaiting_next_hand() and state.stacks == [18, 18, 24]
    state.next_hand()
    assert (state.dealer, state.small_blind, state.big_blind, turn(state)) == (1, 2, 0, 1)


def test_heads_up_the_dealer_posts_the_small_blind_and_acts_first_only_before_the_first_draw():
    state = table({0: EIGHT, 1: BEST}, [20, 20])
    assert (state.small_blind, state.big_blind) == (0, 1)  # seat 0 deals
    assert state.stacks == [19, 18] and turn(state) == 0
    play(state, (0, Call()), (1, Check()))
    assert state.phase == "draw" and turn(state) == 1  # then the first player left of the dealer
    play(state, (1, StandPat()), (0, StandPat()))
    assert turn(state) == 1
    play(state, (1, Bet(amount=2)), (0, Fold()))
    state.next_hand()
    assert (state.dealer, state.small_blind, state.big_blind) == (1, 1, 0)
    assert turn(state) == 1 and state.stacks == [16, 21]  # 18 - 2 and 22 - 1
    play(state, (1, Call()), (0, Check()))
    assert turn(state) == 0


def test_a_short_blind_is_all_in_and_the_others_still_match_the_full_big_blind():
    state = table(THREE, [20, 20, 1])
    assert state.stacks == [20, 19, 0]
    assert state.betting.to_call(0) == 2 and state.betting.to_call(1) == 1
    play(state, (0, Call()), (1, Call()))  # the big blind, all-in, has nothing to decide
    assert state.phase == "draw"
    pots = state.betting.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(3, [0, 1, 2]), (2, [0, 1])]


def test_players_out_of_chips_sit_out():
    state = LOWBALL.new_match(None, [20, 0, 20], seed=3)
    assert state.players == [2, 0] and (state.small_blind, state.big_blind) == (0, 2)
    assert state.hands[1] == []


# ---- fixed limit and the cap ---------------------------------------------------------------


def test_a_raise_war_caps_the_first_round_with_the_big_blind_as_its_bet():
    state = table(THREE, [100, 100, 100])
    play(state, (0, Raise(amount=2)), (1, Raise(amount=2)), (2, Raise(amount=2)))
    # Big blind, then three raises: capped; only calling or folding is left.
    assert state.legal_actions(0) == [Fold(), Call()]
    with pytest.raises(IllegalAction, match="capped"):
        state.apply(0, Raise(amount=2))
    assert state.view(None).bets == 4
    play(state, (0, Call()), (1, Call()))
    assert state.phase == "draw" and state.stacks == [92, 92, 92] and state.pot_size() == 24


def test_a_raise_war_caps_a_big_bet_round_at_a_bet_and_three_raises():
    state = table(THREE, [100, 100, 100])
    check_or_call_round(state)
    stand_pat_all(state)
    check_or_call_round(state)  # round 2
    stand_pat_all(state)
    assert state.betting_round == 3 and turn(state) == 1
    assert state.legal_actions(1) == [Fold(), Check(), Bet(amount=4)]  # the big bet
    with pytest.raises(IllegalAction, match="A bet is 4 chips here"):
        state.apply(1, Bet(amount=2))
    play(state, (1, Bet(amount=4)), (2, Raise(amount=4)), (0, Raise(amount=4)))
    play(state, (1, Raise(amount=4)))
    assert state.legal_actions(2) == [Fold(), Call()]
    play(state, (2, Call()), (0, Call()))
    assert state.betting_round == 3 and state.phase == "draw"
    assert state.stacks == [100 - 2 - 16] * 3


def test_the_raise_size_follows_the_small_bet_option():
    state = table(THREE, [500, 500, 500], small_bet=10)
    assert state.stacks == [500, 495, 490]
    assert state.legal_actions(0) == [Fold(), Call(), Raise(amount=10)]


# ---- the draws -----------------------------------------------------------------------------


def test_a_draw_is_private_and_only_its_size_is_public():
    state = table(THREE, [20, 20, 20], stub="6s 8c Jd")
    check_or_call_round(state)
    events = play(state, (1, Draw(cards=cards("7s 5h"))))
    drew, private = events
    assert drew == Drew(seat=1, count=2) and drew.public
    assert private == CardsDrawn(cards=cards("6s 8c"), audience=(1,))
    assert same_cards(state.hands[1], "6s 8c 4d 3c 2s")
    assert set(cards("7s 5h")) <= state.hidden_from(1)  # face down in the discards
    assert state.view(None).seats[1].draws == [2]
    assert state.view(None).my_cards is None and state.view(2).my_cards == state.hands[2]
    public = state.view(None).model_dump_json() + state.view(2).model_dump_json()
    assert "6s" not in public and "8c" not in public
    assert play(state, (2, StandPat())) == [Drew(seat=2, count=0)]
    assert state.default_action(0) == StandPat()


def test_a_throw_must_be_cards_you_hold_in_any_order():
    state = table(THREE, [20, 20, 20], stub="6s 8c Jd")
    check_or_call_round(state)
    with pytest.raises(IllegalAction, match="don't hold"):
        state.apply(1, Draw(cards=cards("Kd")))
    with pytest.raises(IllegalAction, match="twice"):
        state.apply(1, Draw(cards=cards("7s 7s")))
    with pytest.raises(IllegalAction, match="or stand pat"):
        state.apply(1, Draw(cards=[]))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(2, StandPat())
    play(state, (1, Draw(cards=cards("2s 7s"))))  # not in the hand's order: fine
    assert same_cards(state.hands[1], "6s 8c 5h 4d 3c")


def test_when_the_stub_runs_out_the_discards_become_a_new_stub_without_the_drawers_own():
    deck = [card.code for card in french_deck()]
    rng = random.Random(3)
    rng.shuffle(deck)
    dealt, stub = deck[:30], deck[30:]
    hands = {seat: " ".join(dealt[(seat - 1) % 6 :: 6]) for seat in range(6)}  # from seat 1
    first_throw = parse_french(hands[1])
    comes_back = [card.code for card in first_throw[:3]]  # the new stub's first three
    state = LOWBALL.new_match(
        None, [50] * 6, seed=8, stacked=[stacked(hands, 6, stub=" ".join(stub)), comes_back]
    )
    check_or_call_round(state)
    for seat in (1, 2, 3, 4):  # 20 cards thrown, 20 drawn: 2 left in the stub
        play(state, (seat, Draw(cards=list(state.hands[seat]))))
    assert len(state.stub) == 2 and len(state.discards) == 20
    thrown = list(state.hands[5])
    events = play(state, (5, Draw(cards=thrown)))
    assert events[0] == StubReshuffled(cards=20)  # seats 1-4's throws, not seat 5's own
    assert events[-1] == CardsDrawn(
        cards=parse_french(" ".join(stub[-2:] + comes_back)), audience=(5,)
    )
    assert not set(thrown) & set(state.hands[5])
    assert set(thrown) == set(state.discards) and len(state.stub) == 17
    play(state, (0, Draw(cards=list(state.hands[0]))))
    assert len(state.stub) == 12 and len(state.discards) == 10
    assert Counter(state.all_cards()) == Counter(french_deck())
    assert state.phase == "betting" and state.betting_round == 2


# ---- all-ins, side pots, uncalled bets ---------------------------------------------------


def test_an_all_in_short_stack_wins_the_main_pot_and_another_player_the_side_pot():
    state = table(THREE, [50, 4, 50])  # seat 1 holds the best hand and 4 chips
    play(state, (0, Raise(amount=2)), (1, Call()), (2, Call()))  # seat 1 all-in for 4
    assert state.stacks == [46, 0, 46]
    stand_pat_all(state)  # seat 1 still draws
    assert turn(state) == 2  # seat 1 can't bet any more
    play(state, (2, Bet(amount=2)), (0, Call()))
    stand_pat_all(state)
    play(state, (2, Bet(amount=4)), (0, Raise(amount=4)), (2, Call()))
    stand_pat_all(state)
    events = play(state, (2, Check()), (0, Check()))
    # Nobody bet in the last round: the showdown starts on the dealer's left (seat 1).
    assert [e.seat for e in events if isinstance(e, Revealed)] == [1, 2, 0]
    awards = [e for e in events if isinstance(e, PotAwarded)]
    assert [(a.amount, a.winners) for a in awards] == [(12, [1]), (20, [0])]
    assert state.stacks == [56, 12, 36]
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.net_chips == [6, 8, -14] and ended.winners == [0, 1]


def test_chips_nobody_called_go_back_at_the_end_of_the_round():
    state = table(THREE, [50, 3, 50])  # seat 1 posts 1 of its 3 as the small blind
    play(state, (0, Raise(amount=2)), (1, Call()))  # seat 1 all-in for 3 against seat 0's 4
    events = play(state, (2, Fold()))
    assert UncalledReturned(seat=0, amount=1) in events  # nobody could match seat 0's last chip
    assert state.stacks == [47, 0, 48] and state.pot_size() == 8


# ---- issue 38: an all-in blind is called or folded; no raise nobody can answer -------------


def draw_to_the_showdown(state):
    """Nobody can bet any more: everyone still in stands pat in each draw left."""
    events = []
    while state.phase == "draw":
        events += state.apply(turn(state), StandPat())
    return events


@pytest.mark.parametrize("stacks", [[134, 2], [134, 2, 0]], ids=["heads-up", "third-seat-out"])
def test_the_dealer_facing_an_all_in_big_blind_calls_it_or_folds(stacks):
    """The issue's example: small bet 2, the dealer posts 1 of 134 chips and the big blind
    its last 2. The dealer, with 133 left, is asked to call or fold; the pot becomes 4."""
    state = table({0: KINGS, 1: BEST}, stacks)
    assert (state.small_blind, state.big_blind) == (0, 1) and state.stacks[:2] == [133, 0]
    assert state.pending()[0].seat == 0 and state.pending()[0].prompt == "1 to call"
    assert state.legal_actions(0) == [Fold(), Call()]  # the big blind is all-in: no raise
    events = play(state, (0, Call()))
    assert not any(isinstance(e, UncalledReturned) for e in events)
    assert state.phase == "draw" and state.pot_size() == 4
    events = draw_to_the_showdown(state)  # no betting: one player has chips
    assert state.draws[1] == [0, 0, 0]  # the all-in big blind draws in every draw
    assert [e.seat for e in events if isinstance(e, Revealed)] == [1, 0]
    assert PotAwarded(amount=4, winners=[1]) in events
    assert state.stacks[:2] == [132, 4]


def test_the_dealer_may_fold_to_an_all_in_big_blind():
    state = table({0: KINGS, 1: BEST}, [134, 2])
    play(state, (0, Fold()))
    assert state.awaiting_next_hand() and state.stacks == [133, 3]


def test_facing_only_all_in_players_a_call_matches_the_largest_all_in_not_the_full_blind():
    state = table({0: KINGS, 1: BEST}, [100, 3], small_bet=4)  # big blind all-in for 3 of 4
    assert state.pending()[0].prompt == "1 to call"
    events = play(state, (0, Call()))
    assert events[0].amount == 1 and state.stacks == [97, 0] and state.pot_size() == 6
    short = table({0: KINGS, 1: BEST}, [100, 1])  # all-in for 1: the small blind matches it
    assert short.phase == "draw" and short.stacks == [99, 0] and short.pot_size() == 2


def test_with_both_blinds_all_in_the_player_under_the_gun_calls_or_folds():
    state = table(THREE, [50, 1, 2])
    assert turn(state) == 0 and state.legal_actions(0) == [Fold(), Call()]
    play(state, (0, Call()))
    assert state.phase == "draw" and state.stacks == [48, 0, 0]
    pots = state.betting.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(3, [0, 1, 2]), (2, [0, 2])]


def test_no_raise_is_offered_when_everyone_else_still_in_is_all_in():
    state = table({0: EIGHT, 1: BEST}, [50, 5])
    play(state, (0, Raise(amount=2)), (1, Call()))  # 4 each; seat 1 has 1 left
    stand_pat_all(state)
    assert state.legal_actions(1) == [Fold(), Check(), Bet(amount=1)]  # all-in for less
    play(state, (1, Bet(amount=1)))
    call_facing_all_ins(state, 0, Raise(amount=2))
    assert state.stacks == [45, 0] and state.pot_size() == 10
    draw_to_the_showdown(state)
    assert state.stacks == [45, 10]


def test_no_raise_is_offered_against_two_all_in_players():
    state = table(THREE, [50, 4, 6])
    play(state, (0, Raise(amount=2)), (1, Call()))  # seat 1 all-in for 4
    assert Raise(amount=2) in state.legal_actions(2)  # seat 0 can still answer a raise
    play(state, (2, Raise(amount=2)))  # seat 2 all-in for 6
    assert state.legal_actions(0) == [Fold(), Call()]
    play(state, (0, Call()))
    pots = state.betting.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(12, [0, 1, 2]), (4, [0, 2])]


# ---- the showdown --------------------------------------------------------------------------


def to_the_last_round(state):
    for _ in range(3):
        check_or_call_round(state)
        stand_pat_all(state)
    assert state.betting_round == 4


def test_every_hand_still_in_is_shown_from_the_last_aggressor_on_and_none_is_mucked():
    """The text: "they reveal their hands". The losing kings and 8-6-5-4-2 are shown too."""
    state = table({0: KINGS, 1: EIGHT, 2: BEST}, [20, 20, 20])
    to_the_last_round(state)
    events = play(state, (1, Check()), (2, Bet(amount=4)), (0, Call()), (1, Call()))
    shown = [(e.seat, e.description) for e in events if isinstance(e, Revealed)]
    assert shown == [(2, "7-5-4-3-2"), (0, "one pair: K-K-Q-9-6"), (1, "8-6-5-4-2")]
    assert not any(isinstance(e, Mucked) for e in events)
    assert state.awaiting_next_hand() and state.stacks == [14, 14, 14 + 18]
    every_hand = set(state.hands[0]) | set(state.hands[1]) | set(state.hands[2])
    assert not every_hand & state.hidden_from(None)
    assert {s.seat for s in state.result.shown} == {0, 1, 2} and state.result.winners == [2]
    assert state.result.won == [0, 0, 18] and state.result.net == [-6, -6, 12]


def test_no_show_or_muck_decision_is_ever_offered():
    """Random hands where nobody folds, so that each reaches the showdown."""
    showdowns = 0
    for seed in range(20):
        state = LOWBALL.new_match(None, [12, 12, 12], seed=seed)
        chooser = random.Random(seed)
        while not state.awaiting_next_hand():
            (decision,) = state.pending()
            assert decision.kind != "muck"
            legal = state.legal_actions(decision.seat)
            assert Muck() not in legal and Show() not in legal
            state.apply(decision.seat, chooser.choice([a for a in legal if a != Fold()]))
        showdowns += len(state.result.shown) == 3
    assert showdowns == 20


def test_a_player_left_alone_wins_without_showing():
    state = table(THREE, [20, 20, 20])
    events = play(state, (0, Raise(amount=2)), (1, Fold()), (2, Fold()))
    assert not any(isinstance(e, Revealed) for e in events)
    assert state.stacks == [23, 19, 18] and state.awaiting_next_hand()
    assert set(state.hands[0]) <= state.hidden_from(None)
    assert state.hands[1] == [] and len(state.discards) == 10  # folded hands, face down


def test_a_split_pot_gives_the_odd_chip_to_the_first_winner_left_of_the_dealer():
    state = table({0: BEST_TOO, 1: EIGHT, 2: BEST}, [20, 20, 20])
    play(state, (0, Call()), (1, Fold()), (2, Check()))  # pot: 2 + 1 + 2 = 5
    events = stand_pat_all(state)
    while state.phase in ("betting", "draw"):
        events += check_or_call_round(state) + stand_pat_all(state)
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert award == PotAwarded(amount=5, winners=[0, 2], carried=0)
    # Seat 2 comes first from the dealer's left (seat 1 folded): it takes the odd chip.
    assert state.stacks == [20, 19, 21] and state.carry == 0


# ---- timeouts, leaving, the end of the table -------------------------------------------------


def test_timeout_defaults_check_else_fold():
    state = table(THREE, [20, 20, 20])
    assert state.default_action(0) == Fold()  # facing the big blind
    play(state, (0, Call()), (1, Call()))
    assert state.default_action(2) == Check()


def test_players_leave_between_hands_with_their_stacks_and_the_table_ends_with_one_left():
    state = table(THREE, [20, 20, 20])
    with pytest.raises(IllegalAction, match="between hands"):
        state.leave(1)
    play(state, (0, Raise(amount=2)), (1, Fold()), (2, Fold()))
    assert state.leave(1) == 19 and state.leave(2) == 18
    events = state.next_hand()
    assert isinstance(events[-1], MatchEnded) and state.is_over()
    assert state.cash_out() == [23, 0, 0]
