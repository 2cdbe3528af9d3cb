"""Trick-taking mechanics (bot/games/tricks.py): the winner of a trick with and without trumps,
Calabrasella's follow-suit rule, Botifarra's heading rules case by case (bot/games/botifarra/
rules.md: head the trick, trump and over-trump, the partner-winning exception and the
lowest-card rule), against a brute-force reading of the rules on random deals, and the won piles
counted at the end of full random hands."""

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cards import FrenchCard, Rank, Suit, italian_deck, parse_french, spanish_deck
from bot.games.tricks import Trick, TrickRules, WonPiles, legal_cards, why_illegal

R = Rank
CALABRASELLA_ORDER = (R.THREE, R.TWO, R.ACE, R.KING, R.QUEEN, R.JACK, *map(Rank, (7, 6, 5, 4)))
BOTIFARRA_ORDER = (R.NINE, R.ACE, R.KING, R.QUEEN, R.JACK, *map(Rank, (8, 7, 6, 5, 4, 3, 2)))


def calabrasella_points(card: FrenchCard) -> int:
    return 3 if card.rank == R.ACE else int(card.rank in (R.THREE, R.TWO, R.KING, R.QUEEN, R.JACK))


def botifarra_points(card: FrenchCard) -> int:
    return {R.NINE: 5, R.ACE: 4, R.KING: 3, R.QUEEN: 2, R.JACK: 1}.get(card.rank, 0)


CALABRASELLA = TrickRules(order=CALABRASELLA_ORDER)
BOTIFARRA = TrickRules(
    order=BOTIFARRA_ORDER,
    head=True,
    overtrump=True,
    partner_frees=True,
    card_points=botifarra_points,
)
PARTNERS = {0: [2], 1: [3], 2: [0], 3: [1]}  # Botifarra: partners sit opposite


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def trick(leader: int, text: str, seats: int = 4) -> Trick:
    """A trick whose cards were played in turn from `leader`."""
    played = Trick(leader=leader)
    for index, card in enumerate(cards(text)):
        played.add((leader + index) % seats, card)
    return played


def legal(hand: str, played: Trick, rules=BOTIFARRA, trump=None, seat=None) -> str:
    seat = played.next_seat(range(4)) if seat is None else seat
    found = legal_cards(cards(hand), played, rules, trump=trump, partners=PARTNERS[seat])
    return " ".join(card.code for card in found)


# ---- the trick ----------------------------------------------------------------------------


def test_calabrasella_ranks_3_2_a_k_q_j_7_6_5_4_and_only_the_led_suit_wins():
    order = cards("3h 2h Ah Kh Qh Jh 7h 6h 5h 4h")
    for higher, lower in itertools.pairwise(order):
        assert trick(0, f"{lower.code} {higher.code}", 3).winner(CALABRASELLA) == 1
    # an off-suit card never wins, however high: no trumps in Calabrasella
    assert trick(1, "4h 3s Ac", 3).winner(CALABRASELLA) == 1
    assert trick(2, "Kh 3s 2h", 3).winner(CALABRASELLA) == 1  # 2h (seat 1) beats Kh


def test_botifarra_nine_is_high_and_trumps_beat_the_led_suit():
    assert trick(0, "Ah 9h Kh 2h").winner(BOTIFARRA) == 1
    assert trick(0, "Ah 9h 2s Kh").winner(BOTIFARRA, Suit.SPADES) == 2  # trumped
    assert trick(0, "Ah 2s 3s 9h").winner(BOTIFARRA, Suit.SPADES) == 2  # over-trumped
    assert trick(3, "5c 9h 9d Ac").winner(BOTIFARRA, None) == 2  # botifarra: no trumps
    assert trick(0, "3s 9s 2h Ah").winner(BOTIFARRA, Suit.SPADES) == 1  # trump led


def test_the_trick_knows_the_led_suit_the_turn_and_refuses_wrong_plays():
    counter = Trick(leader=2, plays=[{"seat": 2, "card": "5h"}])
    assert counter.next_seat([3, 2, 1, 0]) == 1  # counter-clockwise play goes on to seat 1
    played = Trick(leader=2)
    assert played.led is None and played.next_seat([0, 1, 2, 3]) == 2
    with pytest.raises(ValueError, match="leads"):
        played.add(3, cards("5h")[0])
    played.add(2, cards("5h")[0])
    played.add(3, cards("Ks")[0])
    assert played.led == Suit.HEARTS and played.next_seat([0, 1, 2, 3]) == 0
    with pytest.raises(ValueError, match="already"):
        played.add(2, cards("6h")[0])
    played.add(0, cards("6h")[0])
    played.add(1, cards("7h")[0])
    assert played.next_seat([0, 1, 2, 3]) is None
    assert Trick.model_validate_json(played.model_dump_json()) == played
    assert '"5h"' in played.model_dump_json()  # cards serialise as their codes


# ---- Calabrasella: follow suit, nothing more ----------------------------------------------


def test_calabrasella_must_follow_suit_but_need_not_beat():
    led = trick(0, "Kh", 3)
    assert legal("4h 3h 2s Ac", led, CALABRASELLA, seat=1) == "4h 3h"
    assert legal("2s Ac 5d", led, CALABRASELLA, seat=1) == "2s Ac 5d"  # void: anything
    assert legal("2s Ac 5d", Trick(leader=1), CALABRASELLA, seat=1) == "2s Ac 5d"  # the lead
    reason = why_illegal(cards("Ac")[0], cards("4h Ac"), led, CALABRASELLA)
    assert reason == "You must follow suit."


# ---- Botifarra: heading the trick, case by case -------------------------------------------


def test_following_you_must_beat_the_winning_card_when_you_can():
    led = trick(0, "Kh")  # an opponent (seat 0) is winning for seat 1
    assert legal("Ah 9h 5h 2s", led, trump=Suit.SPADES) == "Ah 9h"
    reason = why_illegal(cards("5h")[0], cards("Ah 9h 5h 2s"), led, BOTIFARRA, partners=[3])
    assert reason == "You must beat the winning card when you can."


def test_following_without_a_higher_card_any_card_of_the_suit():
    assert legal("Qh 5h 2h 9s", trick(0, "Kh"), trump=Suit.SPADES) == "Qh 5h 2h"


def test_following_a_trick_trumped_by_an_opponent_any_card_of_the_suit():
    played = trick(1, "Kh 2s")  # seat 1 led Kh, seat 2 trumped; seat 3 (1's partner) plays
    assert legal("9h Ah 4h", played, trump=Suit.SPADES) == "9h Ah 4h"


def test_void_you_must_trump_when_an_opponent_wins_with_the_led_suit():
    assert legal("Kc 7s 2s 4d", trick(0, "9h"), trump=Suit.SPADES) == "7s 2s"


def test_void_you_must_over_trump_an_opponents_trump_when_you_can():
    played = trick(3, "Kh 5h 6s")  # seat 1 (an opponent of seat 2) is winning with 6s
    assert legal("Kc 9s 7s 2s", played, trump=Suit.SPADES) == "9s 7s"
    reason = why_illegal(cards("2s")[0], cards("Kc 9s 7s 2s"), played, BOTIFARRA, trump=Suit.SPADES)
    assert reason == "You must trump, beating the winning card, when you can."


def test_void_and_unable_to_over_trump_any_card_no_under_trumping_obligation():
    played = trick(3, "Kh 5h As")
    assert legal("Kc 7s 2s 4d", played, trump=Suit.SPADES) == "Kc 7s 2s 4d"


def test_void_without_trumps_any_card():
    assert legal("Kc 7d 2c", trick(0, "9h"), trump=Suit.SPADES) == "Kc 7d 2c"


def test_botifarra_no_trumps_void_any_card_following_must_beat():
    assert legal("Kc 7d 2s", trick(0, "5h"), trump=None) == "Kc 7d 2s"
    assert legal("Kh 4h 2s", trick(0, "5h"), trump=None) == "Kh"


def test_partner_winning_following_any_point_card_or_your_lowest_of_the_suit():
    played = trick(0, "Kh 5h")  # seat 0 (seat 2's partner) is winning
    assert legal("Ah 8h 6h 3h 2s", played, trump=Suit.SPADES) == "Ah 3h"
    reason = why_illegal(cards("8h")[0], cards("Ah 8h 6h 3h"), played, BOTIFARRA, partners=[0])
    assert reason is not None and "partner is winning" in reason


def test_partner_winning_when_every_card_of_the_suit_scores_all_are_allowed():
    assert legal("Ah Jh 2s", trick(0, "Kh 5h"), trump=Suit.SPADES) == "Ah Jh"


def test_partner_winning_void_you_need_not_trump_point_cards_or_the_lowest_of_each_suit():
    played = trick(0, "Kh 5h")
    assert legal("Qs 7s 4s 8c 2c Jd", played, trump=Suit.SPADES) == "Qs 4s 2c Jd"


def test_partner_winning_by_trumping_frees_you_too():
    played = trick(3, "Kh 5s 2h")  # seat 0 trumped; seat 1 (opponent) followed; seat 2 plays
    assert legal("9h Ah 7h 4h", played, trump=Suit.SPADES) == "9h Ah 4h"


def test_a_partner_beaten_since_gives_no_exception():
    played = trick(0, "Kh 9h")  # seat 0 (partner of 2) led, seat 1 (opponent) took it over
    assert legal("Ah 7h", played, trump=None) == "Ah 7h"  # cannot beat the 9: any heart
    assert legal("Ah 7h 2c", trick(0, "Kh 5h 7c", 4)) == "Ah"  # seat 3: opponent winning


def test_the_second_player_and_the_leader():
    assert legal("Ah 5h", trick(0, "Kh")) == "Ah"  # nobody's partner is winning yet
    assert legal("Ah 5h 2s", Trick(leader=0)) == "Ah 5h 2s"


def test_the_obligations_are_chosen_one_by_one():
    head_only = TrickRules(order=BOTIFARRA_ORDER, head=True)
    trump_only = TrickRules(order=BOTIFARRA_ORDER, overtrump=True)
    assert legal("Ah 5h", trick(0, "Kh"), head_only) == "Ah"
    assert legal("Kc 7s", trick(0, "9h"), head_only, trump=Suit.SPADES) == "Kc 7s"
    assert legal("Ah 5h", trick(0, "Kh"), trump_only) == "Ah 5h"
    assert legal("Kc 7s", trick(0, "9h"), trump_only, trump=Suit.SPADES) == "7s"
    no_follow = TrickRules(order=BOTIFARRA_ORDER, follow=False)
    assert legal("Ah 5c", trick(0, "Kh"), no_follow) == "Ah 5c"
    plain_partner = TrickRules(order=BOTIFARRA_ORDER, head=True, partner_frees=True)
    assert legal("Ah 8h 3h", trick(0, "Kh 5h"), plain_partner) == "Ah 8h 3h"


# ---- properties against a brute-force reading of the rules --------------------------------


def brute_legal(hand, played, rules, trump, seat, partners) -> list[FrenchCard]:
    """Legality read straight from the rule texts, by trying each card: follow suit; head the
    trick if any allowed card would leave you winning it (unless your partner is winning); with
    your partner winning, a card worth nothing must be your lowest of its suit."""
    if played.led is None:
        return list(hand)
    follow = [c for c in hand if c.suit == played.led] if rules.follow else []
    allowed = follow or list(hand)

    def wins_with(card) -> bool:
        after = played.model_copy(deep=True)
        after.add(seat, card)
        return after.winner(rules, trump) == seat

    if rules.partner_frees and played.winner(rules, trump) in partners:
        points = rules.card_points or (lambda _: 1)

        def lowest(card) -> bool:
            same = [c for c in allowed if c.suit == card.suit]
            return card == min(same, key=lambda c: -rules.order.index(c.rank))

        return [c for c in allowed if points(c) > 0 or lowest(c)]
    if (rules.head if follow else rules.overtrump) and any(map(wins_with, allowed)):
        return [c for c in allowed if wins_with(c)]
    return allowed


situations = st.tuples(
    st.sampled_from(["calabrasella", "botifarra"]),
    st.randoms(use_true_random=False),
    st.integers(0, 3),  # cards already in the trick
    st.sampled_from([None, *Suit]),
    st.integers(1, 12),  # hand size
)


@given(situations)
def test_legal_cards_match_the_brute_force_reading_never_empty_and_from_the_hand(situation):
    game, rnd, count, trump, size = situation
    if game == "calabrasella":
        rules, deck, seats, trump, count = CALABRASELLA, italian_deck(), 3, None, min(count, 2)
    else:
        rules, deck, seats = BOTIFARRA, spanish_deck(), 4
    rnd.shuffle(deck)
    leader = rnd.randrange(seats)
    played = Trick(leader=leader)
    for index in range(count):
        played.add((leader + index) % seats, deck.pop())
    seat = (leader + count) % seats
    partners = [(seat + 2) % 4] if seats == 4 else []
    hand = deck[:size]
    found = legal_cards(hand, played, rules, trump=trump, partners=partners)
    assert found, "a non-empty hand always has a legal card"
    assert set(found) <= set(hand)
    assert found == brute_legal(hand, played, rules, trump, seat, partners)
    for card in hand:
        reason = why_illegal(card, hand, played, rules, trump=trump, partners=partners)
        assert (reason is None) == (card in found)


def play_out(deck, seats, rules, trump, sides, rnd) -> WonPiles:
    """A whole hand of random legal plays; returns the won piles."""
    hands = [deck[i::seats][:12] for i in range(seats)]
    piles = WonPiles(sides=sides)
    leader = rnd.randrange(seats)
    for _ in range(12):
        played = Trick(leader=leader)
        for step in range(seats):
            seat = (leader + step) % seats
            options = legal_cards(
                hands[seat], played, rules, trump=trump, partners=piles.partners(seat)
            )
            card = rnd.choice(options)
            hands[seat].remove(card)
            played.add(seat, card)
        leader = played.winner(rules, trump)
        piles.take(leader, played.cards)
    assert not any(hands)
    return piles


@pytest.mark.parametrize("seed", range(20))
def test_every_botifarra_hand_is_worth_72_between_the_partnerships(seed):
    rnd = random.Random(seed)
    deck = spanish_deck()
    rnd.shuffle(deck)
    trump = rnd.choice([None, *Suit])
    piles = play_out(deck, 4, BOTIFARRA, trump, [[0, 2], [1, 3]], rnd)
    points = piles.points(botifarra_points, per_trick=1)
    assert sum(points) == 72 and sum(piles.tricks) == 12
    assert sorted(len(c) for c in piles.cards) == sorted(4 * t for t in piles.tricks)


@pytest.mark.parametrize("seed", range(20))
def test_every_calabrasella_hand_is_worth_35_with_the_widow_to_the_last_trick(seed):
    rnd = random.Random(seed)
    deck = italian_deck()
    rnd.shuffle(deck)
    declarer = rnd.randrange(3)
    sides = [[declarer], [seat for seat in range(3) if seat != declarer]]
    piles = play_out(deck, 3, CALABRASELLA, None, sides, rnd)
    piles.add(piles.last, deck[36:])  # calabrasella/rules.md: discards and widow to the last trick
    points = piles.points(calabrasella_points, last_trick=3)
    assert sum(points) == 35 and sum(len(c) for c in piles.cards) == 40


# ---- won piles ----------------------------------------------------------------------------


def test_won_piles_count_cards_tricks_and_the_last_trick_per_side():
    piles = WonPiles(sides=[[1], [0, 2]])
    assert piles.side_of(2) == 1 and piles.partners(0) == [2] and piles.partners(1) == []
    assert piles.take(0, cards("Ah 3h 4h")) == 1
    assert piles.take(1, cards("2s 5s Ks")) == 0
    piles.add(0, cards("Ac"))
    assert piles.tricks == [1, 1] and piles.last == 0
    assert piles.points(calabrasella_points) == [1 + 1 + 3, 3 + 1]
    assert piles.points(calabrasella_points, per_trick=2, last_trick=3) == [5 + 2 + 3, 4 + 2]
    assert WonPiles.model_validate_json(piles.model_dump_json()) == piles
    assert WonPiles.solo(3).sides == [[0], [1], [2]]
    with pytest.raises(ValueError, match="disjoint"):
        WonPiles(sides=[[0, 1], [1, 2]])
