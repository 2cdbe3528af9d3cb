"""Dou Dizhu: every combination and the rule texts' examples (bot/games/dou_dizhu/rules.md), legal
plays, the auction, and the payment doubled by bombs."""

import pytest

from bot.cards import french_deck, parse_french
from bot.engine import HandEnded, HandStarted, IllegalAction
from bot.games.climbing import Pass, Play
from bot.games.dou_dizhu import DOU_DIZHU, Bid, classify, legal_plays, order


def combo(text: str):
    return classify(parse_french(text))


def beats(a: str, b: str) -> bool:
    return combo(a).beats(combo(b))


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("7s", "single"),
        ("7s 7h", "pair"),
        ("7s 7h 7d", "trio"),
        ("7s 7h 7d 5c", "trio+single"),  # 7-7-7-5
        ("7s 7h 7d 5c 5d", "trio+pair"),  # 7-7-7-5-5
        ("3s 4h 5d 6c 7d", "straight:5"),
        ("3s 4h 5d 6c 7d 8s 9s 10s Js Qs Ks As", "straight:12"),
        ("3s 3h 4d 4c 5d 5s", "pairs:3"),  # 3-3-4-4-5-5
        ("3s 3h 3d 4c 4d 4s", "airplane:2:plain"),  # 3-3-3-4-4-4
        ("3s 3h 3d 4c 4d 4s 9h Jh", "airplane:2:single"),  # 3-3-3-4-4-4-9-J
        ("4s 4h 4d 5c 5d 5s 7h 7c Qh Qc", "airplane:2:pair"),  # rules.md's reading
        ("5s 5h 5d 5c 8h Kh", "four+2singles"),  # 5-5-5-5-8-K
        ("5s 5h 5d 5c 8h 8c Kh Kc", "four+2pairs"),  # 5-5-5-5-8-8-K-K
        ("9s 9h 9d 9c", "bomb"),
        ("BJ RJ", "rocket"),
        ("2s 2h 2d Ac", "trio+single"),  # 2s may be trios
        ("7s 7h 7d BJ", "trio+single"),  # a joker may be a kicker
    ],
)
def test_combinations(text, shape):
    assert combo(text).shape == shape


@pytest.mark.parametrize(
    "text",
    [
        "4s 4h 4d 8c 8d 8s 7h 7c Qh Qc",  # 4 and 8 are not consecutive (rules.md)
        "3s 3h 3d 4c 4d 4s 9h 9c",  # one pair for two trios
        "Js Qh Kd Ac 2d",  # no 2s in a straight
        "Qs Qh Kd Kc As Ah 2s 2h",  # no 2s in a pair chain
        "3s 4h 5d 6c",  # a straight has at least five cards
        "3s 3h 4d 4c",  # a pair chain has at least three pairs
        "7s 7h 7d 7c BJ RJ",  # the two jokers never both serve as kickers
        "5s 5h 5d 5c 8h 8c",  # four with two needs different ranks
        "7s 7h 7d 7c 3h",  # four with one card is no combination
        "3s 3h 3d 4c 4d 4s 3c 5h",  # a kicker can't share a trio's rank
        "7s 8h",
    ],
)
def test_what_is_not_a_combination(text):
    with pytest.raises(IllegalAction):
        combo(text)


def test_ranking():
    assert beats("7s 7h 7d 5c", "4s 4h 4d Ac")  # the rule text's example: kickers don't count
    assert not combo("7s 7h 7d 5c 5d").beats(combo("4s 4h 4d Ac"))  # another shape
    assert not beats("4s 5h 6d 7c 8d 9s", "3s 4h 5d 6c 7d")  # straights must match in length
    assert beats("2s", "Ah") and beats("BJ", "2s") and beats("RJ", "BJ")
    assert beats("3s 3h 3d 3c", "As Ah Ad Kc Kd") and beats("3s 3h 3d 3c", "2s 2h")  # bombs
    assert beats("4s 4h 4d 4c", "3s 3h 3d 3c") and not beats("3s 3h 3d 3c", "4s 4h 4d 4c")
    assert beats("BJ RJ", "2s 2h 2d 2c") and not combo("2s 2h 2d 2c").beats(combo("BJ RJ"))


def test_legal_plays_beat_the_combination_or_bomb_it():
    hand = parse_french("7s 7h 7d 5c 9s 9h 9d 9c Kh BJ")
    plays = [set(p) for p in legal_plays(hand, parse_french("4s 4h 4d Ac"))]
    assert set(parse_french("7s 7h 7d 5c")) in plays and set(parse_french("9s 9h 9d Kh")) in plays
    assert set(parse_french("9s 9h 9d 9c")) in plays  # a bomb beats anything
    assert all(len(p) == 4 for p in plays)  # trio+single or a bomb: nothing else beats it
    free = legal_plays(hand, None)
    assert all(classify(p) for p in free) and len({tuple(p) for p in free}) == len(free)


def test_legal_plays_are_exactly_the_valid_plays_of_a_small_hand():
    # Brute force over every subset of a 9-card hand (suits don't matter: compare by ranks).
    from itertools import combinations

    hand = parse_french("3s 3h 3d 4c 4d 4s 5h BJ RJ")
    brute = set()
    for size in range(1, len(hand) + 1):
        for cards in combinations(hand, size):
            try:
                classify(list(cards))
                brute.add(tuple(sorted(order(c) for c in cards)))
            except IllegalAction:
                pass
    listed = {tuple(sorted(order(c) for c in p)) for p in legal_plays(hand, None)}
    assert listed == brute


def rigged(seed: int = 3):
    return DOU_DIZHU.new_match(None, [50, 50, 50], seed)


def test_the_face_up_card_chooses_the_first_bidder_and_everyone_sees_it():
    state = rigged()
    holder = state.pending()[0].seat
    assert state.face_up in state.hands[holder]
    assert (
        state.face_up not in state.hidden_from(None) and state.view(None).face_up_holder == holder
    )
    assert [len(h) for h in state.hands] == [17, 17, 17] and len(state.widow) == 3


def test_the_auction():
    state = rigged()
    first = state.pending()[0].seat
    second, third = (first + 1) % 3, (first + 2) % 3
    state.apply(first, Bid(chips=0))
    state.apply(second, Bid(chips=1))
    assert state.legal_actions(third) == [Bid(chips=0), Bid(chips=2), Bid(chips=3)]
    state.apply(third, Bid(chips=0))
    state.apply(first, Bid(chips=2))  # bidding again after passing
    state.apply(second, Bid(chips=0))
    events = state.apply(third, Bid(chips=0))  # two passes after a bid: first is landlord
    assert events[-1].kind == "landlord_chosen" and state.landlord == first and state.bid == 2
    assert len(state.hands[first]) == 20 and state.pending()[0].seat == first


def test_the_widow_is_turned_face_up_for_everyone_as_the_landlord_takes_it():
    """The rule text only says the landlord takes it; players of the game expect to see it
    (DECISIONS.md is silent; the rules command says so)."""
    state = rigged()
    landlord = state.pending()[0].seat
    widow = list(state.widow)
    assert set(widow) <= state.hidden_from((landlord + 1) % 3)  # face down in the auction
    (chosen,) = [e for e in state.apply(landlord, Bid(chips=3)) if e.kind == "landlord_chosen"]
    assert chosen.widow == widow and chosen.public
    for viewer in (None, 0, 1, 2):
        assert state.view(viewer).widow == widow
        assert not set(widow) & state.hidden_from(viewer)
    farmer, partner = (landlord + 1) % 3, (landlord + 2) % 3
    unseen = set(state.hands[landlord]) - set(widow) | set(state.hands[partner])
    assert state.hidden_from(farmer) == unseen - {state.face_up}


def test_a_bid_of_three_ends_the_auction_and_no_bid_means_a_redeal():
    state = rigged()
    first = state.pending()[0].seat
    state.apply(first, Bid(chips=3))
    assert state.landlord == first and state.phase == "playing"
    again = rigged(seed=4)
    dealer, deck_before = again.dealer, list(again.hands[0])
    for _ in range(3):
        events = again.apply(again.pending()[0].seat, Bid(chips=0))
    assert any(e.kind == "redeal" for e in events) and again.phase == "bidding"
    (started,) = [e for e in events if isinstance(e, HandStarted)]  # the engine's own event
    assert started.hand == 1 and started.first_bidder == again.pending()[0].seat
    assert again.dealer == (dealer + 1) % 3 and again.hands[0] != deck_before


def test_before_anyone_bids_a_player_may_leave_or_the_table_close_as_between_hands():
    """Passes alone would deal again for ever: nothing is at stake until a bid (the rules
    command's Closing paragraph)."""
    state = rigged()
    first = state.pending()[0].seat
    state.apply(first, Bid(chips=0))
    assert state.can_close_mid_hand() and state.can_leave_now(first)
    state.apply((first + 1) % 3, Bid(chips=1))
    assert not state.can_close_mid_hand() and not state.can_leave_now(first)
    with pytest.raises(IllegalAction):
        state.leave(first)
    fresh = rigged()
    assert fresh.leave(first) == 50 and fresh.is_over()


def test_payment_is_the_bid_doubled_for_each_bomb_and_rocket():
    state = rigged()
    landlord = state.pending()[0].seat
    farmers = [(landlord + 1) % 3, (landlord + 2) % 3]
    state.apply(landlord, Bid(chips=2))
    state.apply(farmers[0], Bid(chips=0))
    state.apply(farmers[1], Bid(chips=0))
    deck = french_deck(jokers=True)
    state.hands = [[] for _ in range(3)]
    state.hands[landlord] = parse_french("9s 9h 9d 9c 3s")
    state.hands[farmers[0]] = parse_french("4s 5h")
    state.hands[farmers[1]] = parse_french("6s 7h")
    state.played = [c for c in deck if not any(c in h for h in state.hands)]
    state.widow = []
    events = state.apply(landlord, Play(cards=parse_french("9s 9h 9d 9c")))  # a bomb: x2
    state.apply(farmers[0], Pass())
    state.apply(farmers[1], Pass())
    events = state.apply(landlord, Play(cards=parse_french("3s")))
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert state.doublings == 1 and ended.winners == [landlord]
    assert ended.net_chips[landlord] == 2 * (2 * 2) and ended.net_chips[farmers[0]] == -4


# ---- the generator against the old one: every play classified, then filtered ------------------


def reference_legal_plays(hand, to_beat):
    """The old generator, kept as the reference: every play by ranks, classified, filtered."""
    from itertools import combinations

    by_rank = {}
    for card in sorted(hand, key=order):
        by_rank.setdefault(order(card), []).append(card)
    have = {rank: len(cards) for rank, cards in by_rank.items()}
    ranks = sorted(have)

    def runs(eligible, least):
        found = []
        for i in range(len(eligible)):
            for j in range(i + least, len(eligible) + 1):
                run = eligible[i:j]
                if run[-1] > 11 or run[-1] - run[0] != len(run) - 1:
                    break
                found.append(run)
        return found

    def with_kickers(base, count):
        out = []
        for size in (1, 2):
            pool = [r for r in ranks if r not in base and have[r] >= size]
            for picks in combinations(pool, count):
                if not (size == 1 and {13, 14} <= set(picks)):
                    out.append({**base, **dict.fromkeys(picks, size)})
        return out

    candidates = [{r: k} for r in ranks for k in (1, 2, 3, 4) if have[r] >= k]
    if 13 in have and 14 in have:
        candidates.append({13: 1, 14: 1})
    for width, least in ((1, 5), (2, 3), (3, 2)):
        for run in runs([r for r in ranks if have[r] >= width and r <= 11], least):
            candidates.append(dict.fromkeys(run, width))
            if width == 3:
                candidates += with_kickers(dict.fromkeys(run, 3), len(run))
    for r in ranks:
        if have[r] >= 3:
            candidates += with_kickers({r: 3}, 1)
        if have[r] == 4:
            candidates += with_kickers({r: 4}, 2)
    target = classify(to_beat) if to_beat else None
    plays = []
    for counts in candidates:
        cards = [c for r, k in sorted(counts.items()) for c in by_rank[r][:k]]
        found = classify(cards)
        if target is None or found.beats(target):
            plays.append((found.power, len(cards), found.shape, found.rank, cards))
    plays.sort(key=lambda p: p[:4])
    return [p[-1] for p in plays]


def test_legal_plays_are_the_reference_generators_in_the_same_order():
    import random

    rng = random.Random(18)
    deck = french_deck(jokers=True)
    shapes_seen = set()
    for _ in range(120):
        cards = rng.sample(deck, len(deck))
        hand = cards[: rng.choice([6, 10, 17, 20])]
        assert legal_plays(hand, None) == reference_legal_plays(hand, None)
        # A target of every shape the other cards make.
        by_shape = {}
        for play in legal_plays(cards[34:], None):
            by_shape.setdefault(classify(play).shape, []).append(play)
        for plays in by_shape.values():
            for to_beat in rng.sample(plays, 1):
                shapes_seen.add(classify(to_beat).shape)
                assert legal_plays(hand, to_beat) == reference_legal_plays(hand, to_beat)
    assert {"single", "pair", "straight:5", "airplane:2:single", "bomb", "rocket"} <= shapes_seen


@pytest.mark.parametrize(
    "text",
    [
        # Airplanes of three to five trios: kickers chosen three or more at a time, both jokers
        # among the candidates but never both kept.
        "3s 3h 3d 4s 4h 4d 5s 5h 5d 6s 6h 6d 7s 7h 7d BJ RJ 2s 2h 9c",
        "3s 3h 3d 4s 4h 4d 5s 5h 5d 6s 7s 8s BJ RJ 2s 9h 9d Tc Th Jd",
        # Bombs with two singles or two pairs, kickers on both sides of the four.
        "3s 3h 3d 3c 4s 4h 4d 4c 5s 5h 5d 5c BJ RJ 2s 9h 9d Tc Th Jd",
        "9s 9h 9d Ts Th Td Js Jh Jd Qs Qh Qd Ks Kh Kd As Ah Ad BJ RJ",
    ],
)
def test_legal_plays_of_long_airplanes_and_bombs_are_the_reference_generators(text):
    hand = parse_french(text)
    free = legal_plays(hand, None)
    assert free == reference_legal_plays(hand, None)
    assert len({id(play) for play in free}) == len(free)  # no play shares its list
    for to_beat in free[:: max(1, len(free) // 40)]:
        assert legal_plays(hand, to_beat) == reference_legal_plays(hand, to_beat)
