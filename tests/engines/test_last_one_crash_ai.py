"""The AI players of Last One (bot/games/last_one/ai.py) and Crash (bot/games/crash/ai.py):
every answer legal over whole self-play matches (all seats AI, and the AI against random legal
players), the sense of their choices in scripted deals, and that they see only their seat's
view (states differing only in cards hidden from the seat get the same answer)."""

import random

import pytest

from bot.cards import FrenchCard, Rank, Suit, parse_french
from bot.engine import GameSpec, GameState
from bot.games.ai import ai_move, random_move
from bot.games.crash import CRASH, Arrange, CrashOptions, DeclareSixPairs, hand_name
from bot.games.crash.ai import CrashPolicy
from bot.games.last_one import (
    LAST_ONE,
    Call,
    Continue,
    Draw,
    LastOneOptions,
    LastOneState,
    NameCard,
    NameSuit,
    Play,
    sort_cards,
)
from bot.games.last_one.ai import LastOnePolicy
from bot.games.simulate import Seats, play_match

C = Suit.CLUBS
LAST_ONE_AI, CRASH_AI = LastOnePolicy(), CrashPolicy()


def card(code: str) -> FrenchCard:
    return parse_french(code)[0]


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


# ---- every answer is legal --------------------------------------------------------------------


def answer(state: GameState, seat: int, policy, rng: random.Random):
    """The policy's answer, asked as `ai_move` asks it, checked legal (no fallback hides it)."""
    decision = next(d for d in state.pending() if d.seat == seat)
    legal = state.legal_actions(seat)
    action = policy.choose(seat, state.view(seat), decision, legal, rng)
    if action is None:
        assert decision.optional, f"{decision.kind}: no answer to a required decision"
    else:
        assert state.can(seat, action), f"{decision.kind}: illegal {action!r}"
    return action


class CheckedSeats(Seats):
    """Seats whose AI answers are checked before they are played."""

    answers = 0

    def move(self, state: GameState, seat: int):
        policy = self.policies[seat]
        if policy is None:
            return random_move(state, seat, self.rng)
        CheckedSeats.answers += 1
        return answer(state, seat, policy, self.rng)


def self_play(spec: GameSpec, policy, options, matches: int, players: list[int]) -> None:
    before = CheckedSeats.answers
    for seed in range(matches):
        count = players[seed % len(players)]
        everyone = [policy] * count
        against_random = [policy] + [None] * (count - 1)
        for policies in (everyone, against_random):
            play_match(spec, CheckedSeats(policies, seed), seed, options=options)
    assert CheckedSeats.answers - before > matches * 4


@pytest.mark.slow
def test_last_one_ai_answers_are_always_legal():
    self_play(LAST_ONE, LAST_ONE_AI, LastOneOptions(threshold=40), 24, [2, 3, 4, 5, 6])


def test_crash_ai_answers_are_always_legal():
    self_play(CRASH, CRASH_AI, CrashOptions(target=5), 24, [2, 3, 4])


# ---- Last One: scripted deals -----------------------------------------------------------------


def deal(hands: dict[int, str], upcard: str, stock: str = "", seed: int = 1):
    """A first hand (seat 0 deals, seat 1 plays first) with these hands, the upcard and the
    top of the stock. Hands are dealt filled up to the longest; the filling then goes to the
    bottom of the stock."""
    seats = len(hands)
    size = max(4, *(len(cards(text)) for text in hands.values()))
    order = [(1 + index) % seats for index in range(seats)]
    named = {c.code for c in cards(" ".join([*hands.values(), upcard, stock]))}
    filler = iter(c.code for c in LAST_ONE.deck() if c.code not in named)
    blocks = {seat: cards(text) for seat, text in hands.items()}
    stacked = []
    for seat in order:
        codes = [c.code for c in blocks[seat]]
        stacked += codes + [next(filler) for _ in range(size - len(codes))]
    stacked += [upcard, *stock.split()]
    options = LastOneOptions(hand_size=size)
    state = LAST_ONE.new_match(options, [0] * seats, seed, stacked=[stacked])
    for seat, held in blocks.items():
        state.stock[:0] = [c for c in state.hands[seat] if c not in held]
        state.hands[seat] = sort_cards(held)
    return state


def ai(state, seat: int):
    return answer(state, seat, LAST_ONE_AI, random.Random(0))


def test_plays_rather_than_draws_and_keeps_its_8_while_a_natural_card_goes():
    state = deal({1: "8s 5h Kh 6h 9c", 2: "Qd Qs Qc Jd 2s", 0: "10d 10s 10c 9d 9s"}, "5d")
    assert ai(state, 1) == Play(card=card("5h"))
    state = deal({1: "8s Kh 6h 9c", 2: "Qd Qs Qc Jd", 0: "10d 10s 10c 9d"}, "5d")
    assert ai(state, 1) == Play(card=card("8s"))  # nothing else goes: the 8, not a draw
    state = deal({1: "Kh 6h 9c", 2: "Qd Qs Qc", 0: "10d 10s 10c"}, "5d")
    assert ai(state, 1) == Draw()


def test_turns_play_to_its_long_suit():
    state = deal({1: "7h 7c 2c Kc 9c", 2: "Qd Qs Qh Jd 2s", 0: "10d 10s 10h 9d 9s"}, "7d")
    assert ai(state, 1) == Play(card=card("7c"))


def test_an_8_names_its_longest_suit_and_a_joker_the_card_its_hand_follows():
    state = deal({1: "8s 4c 9c Kc 2h", 2: "Qd Qh Qc Jd 2s", 0: "10d 10s 10h 9d 9s"}, "5s")
    state.apply(1, ai(state, 1))
    assert ai(state, 1) == NameSuit(suit=C)
    state = deal({1: "BJ 7c 7h 9c Kc", 2: "Qd Qh Qs Jd 2s", 0: "10d 10s 10h 9d 9s"}, "5d")
    assert ai(state, 1) == Play(card=card("BJ"))
    state.apply(1, Play(card=card("BJ")))
    assert ai(state, 1) == NameCard(rank=Rank.SEVEN, suit=C)  # 7♣ 9♣ K♣ and 7♥ follow it


def test_a_3_and_the_last_card_go_out_in_one_turn():
    state = deal({1: "3h Kc", 2: "Qd Qh Qs Jd", 0: "10d 10s 10h 9d"}, "5h")
    state.apply(1, ai(state, 1))
    assert state.phase == "free"
    assert ai(state, 1) == Play(card=card("Kc"))  # not calling: going out wins the hand
    state.apply(1, Play(card=card("Kc")))
    assert state.phase == "between" and state.last_points[1] == 0


def test_calls_last_one_at_once_and_plays_its_last_card_when_it_goes():
    state = deal({1: "7c 9s", 2: "Qc Qh Jd Jh", 0: "Qs 10s 10h 9d"}, "7d")
    state.apply(1, ai(state, 1))
    assert state.hands[1] == [card("9s")]
    assert ai(state, 1) == Call()
    state.apply(1, Call())
    state.apply(2, Play(card=card("Qc")))
    state.apply(0, Play(card=card("Qs")))
    assert ai(state, 1) == Play(card=card("9s"))


def test_a_2_for_the_next_player_close_to_going_out():
    hands = {1: "2h 9h 9c 9s 9d", 2: "Jd 5s", 0: "10d 10s 10h 8d 7s"}
    state = deal(hands, "5h")
    assert ai(state, 1) == Play(card=card("2h"))
    hands[2] = "Jd 5s 6s 7c 6c"  # nobody close: the 9, which four cards follow
    state = deal(hands, "5h")
    assert ai(state, 1) == Play(card=card("9h"))


def test_in_a_melee_the_defender_goes_on_and_a_bystander_with_the_king():
    state = deal({1: "4h 9c Kc", 2: "5h 9d Qd", 0: "Kh 6s 6d"}, "Qh", "9s 8d 7d 6c 5d")
    state.apply(1, Play(card=card("4h")))
    assert state.melee.defender == 2
    assert ai(state, 2) == Continue(card=card("5h"), rank=Rank.FIVE)
    state = deal({1: "4h 9c 3c", 2: "5h 9d Qd", 0: "Kh 6s 6d"}, "Qh", "9s 8d 7d 6c 5d")
    state.apply(1, Play(card=card("4h")))
    state.melee.rank = Rank.QUEEN  # as if the melee had come up to the Queen
    state.hands[1] = sort_cards([card("Kh"), *state.hands[1]])
    state.hands[0].remove(card("Kh"))
    state.melee.defender, state.melee.aggressor = 0, 2
    assert ai(state, 1) == Continue(card=card("Kh"), rank=Rank.KING)


def test_a_bystander_keeps_out_of_a_melee_it_would_likely_defend():
    state = deal({1: "4h 9c 3c", 2: "6d 9d Qd", 0: "10h 6s 9s"}, "Qh", "9h 8d 7d 6c 5d")
    state.apply(1, Play(card=card("4h")))
    state.melee.rank, state.melee.aggressor, state.melee.defender = Rank.NINE, 2, 1
    assert [d.seat for d in state.pending()] == [0]
    assert ai(state, 0) == Continue(card=card("10h"), rank=Rank.TEN)  # J♥: likely in the stock
    state.stock = state.stock[-2:]  # few unseen cards outside the hands: J♥ is likely held
    assert ai(state, 0) is None


# ---- Crash: scripted deals --------------------------------------------------------------------


def crash_deal(hands: dict[int, str]):
    seats = len(hands)
    order = [c.code for i in range(seats) for c in cards(hands[(1 + i) % seats])]
    return CRASH.new_match(CrashOptions(), [0] * seats, 1, stacked=[order])


def crash_ai(state, seat: int):
    return answer(state, seat, CRASH_AI, random.Random(0))


def names(action: Arrange) -> list[str]:
    return [hand_name(hand) for hand in action.hands]


def test_crash_sets_the_engines_best_arrangement():
    # The hands of test_crash.py: the prial of 3s rather than two runs and two flushes.
    state = crash_deal(
        {
            0: "3s 3h 3d 9s 10h Jd 7s 7h 2c 5s 5h 4c Kd",
            1: "As Ah Ad 9d 10s Jh 8s 8h 2d Kc Qc 6d 4d",
        }
    )
    assert names(crash_ai(state, 0)) == ["prial of 3s", "run J-10-9", "pair of 7s", "pair of 5s"]
    assert crash_ai(state, 1) == state.default_action(1)


def test_crash_uses_a_four_of_a_kind_in_full_for_the_bonus():
    state = crash_deal(
        {
            0: "Ac Kc Qs Js Jd Jc 9c 8c 7c 3s 3h 3d 3c",
            1: "As Ah Ad 9d 10s Jh 8s 8h 2d Kd Qc 6d 4d",
        }
    )
    # The planner's first choice sets the run A-K-Q and discards the fourth 3.
    assert names(state.default_action(0))[-1] == "run A-K-Q"
    chosen = crash_ai(state, 0)
    assert names(chosen) == ["prial of 3s", "prial of Js", "running flush 9-8-7", "A-high flush"]
    assert card("3c") in [c for hand in chosen.hands for c in hand]


def test_crash_declares_weak_six_pairs_and_plays_strong_ones():
    weak = crash_deal(
        {0: "2s 2h 3s 3h 5s 5h 7s 7h 9s 9h Js Jh Kd", 1: "As Ah Ad 9d 10s Jd 8c 8h 2d Kc Qc 6d 4d"}
    )
    assert crash_ai(weak, 0) == DeclareSixPairs()
    strong = crash_deal(
        {
            0: "Qs Qh Ks Kh As Ah Js Jh 10s 10h 9s 9h 2c",
            1: "Ad Ac 2s 9d 10d Jd 8c 8h 2d Kc Qc 6d 4d",
        }
    )
    assert names(crash_ai(strong, 0)) == ["running flush A-K-Q"] * 2 + ["running flush J-10-9"] * 2


def test_crash_reveals_a_thirteen_card_straight():
    state = crash_deal(
        {0: "As Kh Qd Jc 10s 9h 8d 7c 6s 5h 4d 3c 2s", 1: "Ah Ad Ac Ks Kd Kc Qs Qh Qc Js Jh Jd 10h"}
    )
    assert crash_ai(state, 0).kind == "straight"


# ---- only the seat's view ---------------------------------------------------------------------


def reshuffled_hidden(state: GameState, seat: int, seed: int) -> GameState:
    """The same state with every card hidden from `seat` dealt anew among the places that hold
    them, each keeping its count (other hands, the stock, the undealt cards)."""
    other = type(state).model_validate_json(state.snapshot())
    piles = [hand for index, hand in enumerate(other.hands) if index != seat]
    piles.append(other.stock if isinstance(other, LastOneState) else other.undealt)
    pool = [c for pile in piles for c in pile]
    random.Random(seed).shuffle(pool)
    for pile in piles:
        size = len(pile)
        pile[:], pool = pool[:size], pool[size:]
    assert other.view(seat) == state.view(seat) and other.snapshot() != state.snapshot()
    return other


@pytest.mark.parametrize("spec, policy", [(LAST_ONE, LAST_ONE_AI), (CRASH, CRASH_AI)])
def test_the_ai_sees_only_its_own_view(spec, policy):
    seen = 0
    for seed in range(12):
        state = spec.new_match(None, [0, 0, 0], seed)
        for _ in range(30):  # move by move: every pending seat's answer
            if state.is_over():
                break
            if state.awaiting_next_hand():
                state.next_hand()
                continue
            for decision in state.pending():
                other = reshuffled_hidden(state, decision.seat, seed)
                mine = ai_move(state, decision.seat, policy, random.Random(seed))
                assert ai_move(other, decision.seat, policy, random.Random(seed)) == mine
                seen += 1
            required = [d for d in state.pending() if not d.optional]
            if required:
                state.apply(required[0].seat, state.default_action(required[0].seat))
            else:
                state.close_window()
    assert seen > 100
