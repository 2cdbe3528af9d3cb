"""The AI players of Triple Draw Lowball (bot/games/lowball/ai.py) and Backhand
(bot/games/backhand/ai.py): every answer legal over many seeded matches (all AI, and AI
against random players), scripted situations that show their sense (Lowball draws to a smooth
low and bets by strength; Backhand counts the shoe before hitting, calling backhand, pushing a
push hand away or betting), and that each sees only its seat's view: hidden cards moved
around never change a choice."""

import logging
import random
from collections import Counter

import pytest

from bot.cards import french_deck, parse_french
from bot.engine import Policy
from bot.games.backhand import (
    BACKHAND,
    BackhandOptions,
    Bet,
    CallBackhand,
    Hit,
    PlayPush,
    PushAway,
    card_value,
)
from bot.games.backhand.ai import BackhandPolicy, stock_counts
from bot.games.betting import Bet as BetChips
from bot.games.betting import Call, Check, Fold, Raise
from bot.games.lowball import LOWBALL, Draw, LowballOptions, StandPat, describe
from bot.games.lowball.ai import LowballPolicy, draw_variants, is_made, keep
from bot.games.simulate import Seats, play_match

LOWBALL_AI = LowballPolicy()
BACKHAND_AI = BackhandPolicy()


def choice(policy, state, seat: int, seed: int = 0):
    """What `policy` answers for `seat` now, asked directly (no fallback behind it)."""
    decision = next(d for d in state.pending() if d.seat == seat)
    legal = state.legal_actions(seat)
    return policy.choose(seat, state.view(seat), decision, legal, random.Random(seed))


# ---- every answer is legal ---------------------------------------------------------------------

MATCHES = 30


class Counting(Policy):
    """A policy that counts the decisions it is asked for."""

    def __init__(self, policy: Policy) -> None:
        self.policy, self.game_id, self.calls = policy, policy.game_id, 0

    def choose(self, seat, view, decision, legal, rng):
        self.calls += 1
        return self.policy.choose(seat, view, decision, legal, rng)


@pytest.mark.parametrize(
    ("spec", "policy", "players", "options", "hands"),
    [
        (LOWBALL, LOWBALL_AI, 3, LowballOptions(), 2),
        (LOWBALL, LOWBALL_AI, 2, LowballOptions(small_bet=10), 2),  # all-ins, side pots
        (BACKHAND, BACKHAND_AI, 3, BackhandOptions(), 4),
        (BACKHAND, BACKHAND_AI, 2, BackhandOptions(mode="wins", target=3), 4),
    ],
    ids=["lowball-3", "lowball-2-short-stacks", "backhand-chips-3", "backhand-wins-2"],
)
@pytest.mark.slow
def test_every_ai_answer_is_legal_in_self_play_and_against_random_players(
    spec, policy, players, options, hands, caplog
):
    """ai_move warns (or logs an error) whenever it falls back: there must be none."""
    counting = Counting(policy)
    caplog.set_level(logging.WARNING, logger="bot.games.ai")
    for seed in range(MATCHES):
        for against_random in (False, True):
            policies = [None if seat and against_random else counting for seat in range(players)]
            play_match(spec, Seats(policies, seed), seed, options=options, most_hands=hands)
    assert counting.calls > MATCHES * 10
    assert [record.getMessage() for record in caplog.records] == []


# ---- Triple Draw Lowball: scripted hands -------------------------------------------------------
# Heads-up, seat 0 deals: it posts the small blind and acts first before the first draw; seat 1
# draws first and acts first after every draw.


def lowball(hands: dict[int, str], stub: str):
    """A heads-up hand dealt from this deck: one card at a time from seat 1, then the stub."""
    cards = {seat: parse_french(text) for seat, text in hands.items()}
    deal = [cards[seat][index].code for index in range(5) for seat in (1, 0)]
    deck = deal + [card.code for card in parse_french(stub)]
    return LOWBALL.new_match(LowballOptions(small_bet=2), [100, 100], seed=3, stacked=[deck])


def to_the_last_round(state) -> None:
    """Seat 0 completes the blind, seat 1 checks; both stand pat and check to the last round."""
    state.apply(0, Call())
    state.apply(1, Check())
    for _ in range(3):
        state.apply(1, StandPat())
        state.apply(0, StandPat())
        if state.betting_round < 4:
            state.apply(1, Check())
            state.apply(0, Check())


SEVEN_LOW = "7s 5h 4d 3c 2s"
KINGS = "Kd Kc 7h 4s 2c"
PAT_NINE = "9c 8d 6h 4h 3s"


def test_lowball_made_hands_agree_with_the_engines_ranking():
    chooser = random.Random(4)
    deck = french_deck()
    for _ in range(500):
        hand = chooser.sample(deck, 5)
        assert is_made(hand) == (":" not in describe(hand))  # no pair, straight or flush


@pytest.mark.parametrize(
    ("hand", "draws_left", "kept"),
    [
        ("8h 7d 5c 3s 2d", 3, "8h 7d 5c 3s 2d"),  # a made eight stands pat
        ("9d 7c 5s 3h 2c", 3, "9d 7c 5s 3h 2c"),  # so does a nine, three draws to come
        ("10d 7c 5s 3h 2c", 3, "7c 5s 3h 2c"),  # a ten is broken early...
        ("10d 7c 5s 3h 2c", 1, "10d 7c 5s 3h 2c"),  # ...and kept on the last draw
        ("Jd 7c 5s 3h 2c", 1, "7c 5s 3h 2c"),  # a jack never stands pat
        (KINGS, 3, "7h 4s 2c"),  # both kings go
        ("4d 4c 8s 5h 2c", 3, "4d 8s 5h 2c"),  # one of a pair goes: the club, as two are clubs
        ("6s 5h 4d 3c 2s", 3, "5h 4d 3c 2s"),  # a straight is broken at its top
        ("As 5d 4c 3h 2s", 3, "5d 4c 3h 2s"),  # aces are high in deuce-to-seven
    ],
)
def test_lowball_draws_to_a_smooth_low(hand, draws_left, kept):
    assert set(keep(parse_french(hand), draws_left)) == set(parse_french(kept))


def test_lowball_throws_the_kings_in_a_real_draw():
    state = lowball({0: KINGS, 1: PAT_NINE}, stub="8c 6c 5d")
    state.apply(0, Call())
    state.apply(1, Check())
    state.apply(1, StandPat())
    thrown = choice(LOWBALL_AI, state, 0)
    assert isinstance(thrown, Draw) and set(thrown.cards) == set(parse_french("Kd Kc"))


def test_lowball_completes_the_small_blind_with_a_draw_rather_than_folding():
    state = lowball({0: KINGS, 1: PAT_NINE}, stub="")
    assert state.pending()[0].seat == 0 and Fold() in state.legal_actions(0)
    assert choice(LOWBALL_AI, state, 0) == Call()


def test_lowball_raises_the_best_hand_when_a_pat_hand_bets_into_it():
    state = lowball({0: SEVEN_LOW, 1: PAT_NINE}, stub="")
    to_the_last_round(state)
    state.apply(1, BetChips(amount=4))
    assert choice(LOWBALL_AI, state, 0) == Raise(amount=4)


def test_lowball_folds_a_pair_to_a_bet_from_a_player_who_stood_pat():
    state = lowball({0: KINGS, 1: PAT_NINE}, stub="")
    to_the_last_round(state)
    state.apply(1, BetChips(amount=4))
    assert choice(LOWBALL_AI, state, 0) == Fold()


def test_lowball_checks_a_weak_hand_when_checking_is_free_and_bets_a_strong_one():
    weak = lowball({0: KINGS, 1: PAT_NINE}, stub="")
    to_the_last_round(weak)
    weak.apply(1, Check())
    assert choice(LOWBALL_AI, weak, 0) == Check()
    strong = lowball({0: SEVEN_LOW, 1: PAT_NINE}, stub="")
    to_the_last_round(strong)
    strong.apply(1, Check())
    assert choice(LOWBALL_AI, strong, 0) == BetChips(amount=4)


# ---- Backhand: scripted hands ------------------------------------------------------------------


def backhand(cards: str, **options):
    """One player (seat 0) for wins, dealt these cards off the top of the stock."""
    options = {"mode": "wins", **options}
    stacks = [0] if options["mode"] == "wins" else [50]
    return BACKHAND.new_match(BackhandOptions(**options), stacks, seed=2, stacked=[cards.split()])


def leave_in_stock(state, most: dict[int, int]) -> None:
    """Keep in the stock at most `most[value]` cards of each value (none of a value not
    named) and move the rest to the discards, as after many pushes."""
    kept, aside = [], []
    for card in state.stock:
        wanted = sum(card_value(other) == card_value(card) for other in kept)
        (kept if wanted < most.get(card_value(card), 0) else aside).append(card)
    state.stock = kept
    state.hands[0].discarded += aside


EVERY = 16  # no more of a value than that


def test_backhand_hits_a_low_total_and_calls_backhand_on_a_high_one_from_a_full_shoe():
    assert choice(BACKHAND_AI, backhand("8c 5d"), 0) == Hit()  # 13: 38% to bust
    assert choice(BACKHAND_AI, backhand("Kc 5d"), 0) == CallBackhand()  # 15: 54% to bust


def test_backhand_counts_the_shoe():
    """15 hits when no card left can bust it; 13 calls backhand when only busting cards
    are left."""
    fifteen = backhand("Kc 5d")
    leave_in_stock(fifteen, dict.fromkeys(range(1, 7), EVERY))
    assert choice(BACKHAND_AI, fifteen, 0) == Hit()
    thirteen = backhand("8c 5d")
    leave_in_stock(thirteen, {9: EVERY, 10: EVERY})
    assert choice(BACKHAND_AI, thirteen, 0) == CallBackhand()


def test_backhand_counts_the_cards_a_low_stock_is_refilled_with():
    """With too few cards left for the next play, the engine shuffles the cards out of play
    back in first: three tens left do not make 13 a sure backhand."""
    state = backhand("8c 5d")
    hand = state.hands[0]
    tens = [card for card in state.stock if card_value(card) == 10][:3]
    hand.discarded += [card for card in state.stock if card not in tens]
    state.stock = tens
    counts = stock_counts(state.view(0))
    assert sum(counts) == 50 and counts[9] == 16
    assert choice(BACKHAND_AI, state, 0) == Hit()


def test_backhand_pushes_a_push_hand_away_unless_the_shoe_plays_it():
    state = backhand("Kc 7d")
    assert state.hands[0].push
    assert choice(BACKHAND_AI, state, 0) == PushAway()  # 17: a fresh hand beats 32%
    leave_in_stock(state, {1: 4, 2: 4, 3: 4, 4: 4, 10: 4})
    assert choice(BACKHAND_AI, state, 0) == PlayPush()  # 80% to stay 21 or less: more than
    # a fresh hand, which the tens bust more often than that


def test_backhand_bets_the_most_it_may_as_the_counted_game_favours_it():
    state = backhand("Kc 7d", mode="chips", max_bet=10)
    assert choice(BACKHAND_AI, state, 0) == Bet(chips=10)
    capped = BACKHAND.new_match(BackhandOptions(max_bet=10), [6], seed=1)
    assert choice(BACKHAND_AI, capped, 0) == Bet(chips=6)  # all its stack


# ---- only the seat's view ----------------------------------------------------------------------


def ai_decisions(spec, options, players: int, seed: int):
    """Every state where seat 0 (the AI) decides, over a few hands with random opponents."""
    state = spec.new_match(options, [100] * players, seed)
    chooser = random.Random(seed)
    policy = LOWBALL_AI if spec is LOWBALL else BACKHAND_AI
    for _ in range(400):
        if state.is_over():
            return
        if state.awaiting_next_hand():
            if state.hand >= 4:
                return
            state.next_hand()
            continue
        seat = state.pending()[0].seat
        if seat == 0:
            yield state
            state.apply(0, choice(policy, state, 0))
        else:
            state.apply(seat, state.sample(seat, chooser))


def lowball_shuffled_unseen(state, chooser: random.Random):
    """The same table for seat 0 with the cards it can't see dealt differently: the stub,
    the discards and the hidden hands of its opponents."""
    other = state.model_copy(deep=True)
    hidden = [s for s in range(1, state.seat_count) if not state.shown[s]]
    pool = other.stub + other.discards + [card for s in hidden for card in other.hands[s]]
    chooser.shuffle(pool)
    for seat in hidden:
        size = len(other.hands[seat])
        other.hands[seat], pool = pool[:size], pool[size:]
    other.stub, other.discards = pool[: len(state.stub)], pool[len(state.stub) :]
    return other


def backhand_shuffled_unseen(state, chooser: random.Random):
    other = state.model_copy(deep=True)
    chooser.shuffle(other.stock)
    return other


@pytest.mark.parametrize(
    ("spec", "options", "players", "shuffle", "policy"),
    [
        (LOWBALL, LowballOptions(), 3, lowball_shuffled_unseen, LOWBALL_AI),
        (BACKHAND, BackhandOptions(), 2, backhand_shuffled_unseen, BACKHAND_AI),
    ],
    ids=["lowball", "backhand"],
)
def test_hidden_cards_never_change_a_choice(spec, options, players, shuffle, policy):
    chooser = random.Random(11)
    checked = 0
    for seed in range(6):
        for state in ai_decisions(spec, options, players, seed):
            other = shuffle(state, chooser)
            assert Counter(other.all_cards()) == Counter(state.all_cards())
            assert other.view(0) == state.view(0)
            assert choice(policy, other, 0, seed) == choice(policy, state, 0, seed)
            checked += 1
    assert checked > 30


def test_backhands_count_of_the_stock_is_exact():
    """From the view alone, the values left in the stock, at every AI decision."""
    checked = 0
    for seed in range(10):
        for state in ai_decisions(BACKHAND, BackhandOptions(mode="wins"), 3, seed):
            view = state.view(0)
            if view.stock >= 7 * 3:  # not about to be refilled
                values = Counter(card_value(card) for card in state.stock)
                assert stock_counts(view) == tuple(values[value] for value in range(1, 11))
                checked += 1
    assert checked > 30


def test_lowball_ranks_its_own_draw_first_then_the_nearest_ones():
    hand = parse_french("2c 4d 7h 9s Kc")
    assert draw_variants(hand, 3) == [
        Draw(cards=parse_french("9s Kc")),  # the AI's own: keep the low cards up to an eight
        Draw(cards=parse_french("Kc")),  # keeping the nine as well
        Draw(cards=parse_french("7h 9s Kc")),  # throwing the seven too
        StandPat(),
    ]
    made = parse_french("2c 3d 4h 5s 7c")
    assert draw_variants(made, 1) == [StandPat(), Draw(cards=parse_french("7c"))]
