"""The Terrapin AI policies (Western, Provincial, Temptation, Liar's): every answer legal over
many self-play and AI-against-random matches, scripted situations that show their sense, and
choices that depend only on what the seat sees."""

import random

import pytest

from bot.cards.decktet import DECK, Suit, card, parse
from bot.games.betting import Bet, Call, Fold, Raise
from bot.games.poker import Muck
from bot.games.simulate import Seats, play_match
from bot.games.terrapin import ai
from bot.games.terrapin.liars import LIARS, Accept, Challenge, Claim, DiscardOne, Draw
from bot.games.terrapin.liars.ai import LiarsPolicy
from bot.games.terrapin.provincial import (
    CALL,
    PROVINCIAL,
    Discard,
    Fist,
    ProvincialOptions,
    SetStake,
)
from bot.games.terrapin.provincial.ai import ProvincialPolicy
from bot.games.terrapin.table import hand_value
from bot.games.terrapin.temptation import TEMPTATION, Buy, Decline
from bot.games.terrapin.temptation.ai import TemptationPolicy
from bot.games.terrapin.western import WESTERN, Stand, Take
from bot.games.terrapin.western.ai import WesternPolicy

POLICIES = {
    "western": (WESTERN, WesternPolicy()),
    "provincial": (PROVINCIAL, ProvincialPolicy()),
    "temptation": (TEMPTATION, TemptationPolicy()),
    "liars": (LIARS, LiarsPolicy()),
}


def choice(policy, state, seat: int, seed: int = 0):
    """What the policy answers for `seat` now, from that seat's view only."""
    decision = next(d for d in state.pending() if d.seat == seat)
    legal = state.legal_actions(seat)
    return policy.choose(seat, state.view(seat), decision, legal, random.Random(seed))


def rig(state, hands: dict[int, str], shared: str | None = None, draws: str = ""):
    """Give seats fixed private cards (and shared cards); `draws` come off the deck first."""
    for seat, cards in hands.items():
        state.hands[seat] = parse(cards)
    if shared is not None:
        state.shared, state.set_aside = parse(shared), []
    top = parse(draws)
    used = {c for hand in state.hands for c in hand} | set(state.shared) | set(top)
    state.deck = [c for c in DECK if c not in used] + top[::-1]
    return state


# ---- the shared helpers ---------------------------------------------------------------------


def test_the_fast_hand_value_agrees_with_the_table_scoring():
    sampler = random.Random(7)
    for _ in range(3000):
        hand = sampler.sample(range(len(DECK)), sampler.randint(0, 11))
        assert ai.value(hand) == hand_value([DECK[i] for i in hand])


def test_a_draw_that_brings_the_sixth_suit_leaves_no_share():
    five_suits = parse("Sailor, Ace of Wyrms, Ace of Moons, Huntress, Mountain")  # no Knots
    pool = ai.unseen(five_suits)
    table = ai.Showdown(best=(0,), ties=(1,))  # a single rival who scores 0
    knots = [c for c in pool if Suit.KNOTS in ai.card_at(c).suits]
    assert len(knots) == 10 and len(pool) == 31
    assert table.share_after_draw(ai.ids(five_suits), pool) == 21 / 31


def test_a_showdown_share_splits_ties_and_gives_turtle_butt_nothing():
    table = ai.Showdown(best=(0, 5, 5, 9), ties=(1, 1, 2, 1))
    assert table.share(ai.TURTLE_BUTT) == 0
    assert table.share(5) == (1 + 1 / 2 + 1 / 3) / 4
    assert table.share(10) == 1


@pytest.mark.parametrize("seed", range(40))
def test_the_sampled_showdown_values_each_deal_as_hand_value_does(seed):
    """Each sampled deal of the rivals' hidden cards, taken as `deal` takes them, is valued as
    the table values a hand; kept only where `keep` says so, `tries` dealt at most."""
    chooser = random.Random(seed)
    pool = list(range(len(DECK)))
    chooser.shuffle(pool)
    shared = [pool.pop() for _ in range(chooser.randint(0, 4))]
    rivals = [
        ai.Rival(chooser.randint(1, 3), tuple(pool.pop() for _ in range(chooser.randint(0, 2))))
        for _ in range(chooser.randint(1, 3))
    ]
    keep = (lambda values: max(values) > 4) if seed % 2 else None
    table = ai.dealt_showdown(shared, rivals, pool, random.Random(seed), 30, 60, keep)
    cards, rng, rows = list(pool), random.Random(seed), []
    for _ in range(60):
        dealt = ai.deal(cards, sum(rival.hidden for rival in rivals), rng)
        values = []
        for rival in rivals:
            hand = [*rival.known, *shared, *dealt[: rival.hidden]]
            dealt = dealt[rival.hidden :]
            values.append(hand_value([ai.card_at(index) for index in hand]))
        if keep is None or keep(values):
            rows.append((max(values), values.count(max(values))))
        if len(rows) == 30:
            break
    rows.sort()
    assert (table.best, table.ties) == (tuple(r[0] for r in rows), tuple(r[1] for r in rows))


# ---- every answer legal ---------------------------------------------------------------------


class CheckedSeats(Seats):
    """Seats whose AI answers are asked of the policy directly and must all be legal."""

    answers = 0

    def move(self, state, seat: int):
        policy = self.policies[seat]
        if policy is None:
            return super().move(state, seat)
        decision = next(d for d in state.pending() if d.seat == seat)
        action = policy.choose(
            seat, state.view(seat), decision, state.legal_actions(seat), self.rng
        )
        assert action is not None and state.can(seat, action), (decision, action)
        CheckedSeats.answers += 1
        return action


@pytest.mark.parametrize("game", POLICIES)
@pytest.mark.slow
def test_every_ai_answer_is_legal_in_self_play_and_against_random(game):
    spec, policy = POLICIES[game]
    CheckedSeats.answers = 0
    for seed in range(15):
        players = 2 + seed % 3
        everyone = [policy] * players
        against_random = [policy] + [None] * (players - 1)
        for seats in (everyone, against_random):
            play_match(spec, CheckedSeats(seats, seed), seed, most_hands=2)
    assert CheckedSeats.answers > 150


@pytest.mark.parametrize("game", POLICIES)
def test_a_full_table_of_seven_plays_legally(game):
    spec, policy = POLICIES[game]
    CheckedSeats.answers = 0
    play_match(spec, CheckedSeats([policy] * 7, 3), 3, most_hands=2)
    assert CheckedSeats.answers > 10


# ---- Western ------------------------------------------------------------------------------

WEST_SHARED = "Ace of Moons, Huntress, Mountain"  # Moons, Suns: A, 4, Crown


def western_round_two(hands: dict[int, str], draws: str = ""):
    """Three seats; round 1 bet through; shared cards out; seat 1 bets 3 in round 2."""
    state = WESTERN.new_match(None, [30, 30, 30], seed=1)
    rig(state, hands, shared="", draws=WEST_SHARED + (", " + draws if draws else ""))
    state.shared = []
    for seat, action in ((1, Bet(amount=1)), (2, Call()), (0, Call()), (1, Bet(amount=3))):
        state.apply(seat, action)
    assert state.betting_round == 2 and state.pending()[0].seat == 2
    return state


def test_western_folds_turtle_butt_and_raises_a_strong_hand():
    turtle = western_round_two({1: "Sailor, Betrayal", 2: "Sailor, Soldier"})
    assert choice(WesternPolicy(), turtle, 2) == Fold()
    strong = western_round_two({1: "Sailor, Betrayal", 2: "Ace of Suns, Bard"})  # 10 points
    assert isinstance(choice(WesternPolicy(), strong, 2), Raise)


def test_western_takes_a_card_with_little_risk_and_stands_on_five_suits():
    state = western_round_two({2: "Author, Journey", 0: "Sailor, Ace of Wyrms"})
    for seat, action in ((2, Call()), (0, Call())):
        state.apply(seat, action)
    state.apply(1, Take())
    assert state.phase == "draw" and state.pending()[0].seat == 2
    # A-2-3-4 (6 points), four suits: one card in 31 (Savage) brings Turtle Butt.
    assert choice(WesternPolicy(), state, 2) == Take()
    state.apply(2, Stand())
    # Two pairs (10 points), five suits: every Knots card (10 in 31) brings Turtle Butt.
    assert choice(WesternPolicy(), state, 0) == Stand()


def test_western_mucks_a_hand_that_cant_win():
    state = western_round_two({1: "Ace of Suns, Bard", 2: "Sailor, Soldier", 0: "Author, Desert"})
    state.phase, state.showdown_queue = "showdown", [2]
    assert choice(WesternPolicy(), state, 2) == Muck()


# ---- Provincial ---------------------------------------------------------------------------

NINES = "Pact, Merchant"  # the rule text's example shares the two 9s
FIVE_SUITS = "Journey, Mountain, Forest"  # 3, 4, 5 + 9, 9: 9 points with five suits
PAIR_OF_ACES = "Ace of Suns, Ace of Knots, Huntress"  # + 9s: 12 points
WEAK = "Author, Battle, Soldier"  # 2, 4, 5 + 9, 9: a pair of 9s and nothing else


def provincial(hands: dict[int, str]):
    state = PROVINCIAL.new_match(ProvincialOptions(stake_limit=5), [30, 30, 30], seed=5)
    return rig(state, hands, shared=NINES)


def test_provincial_dealer_stakes_high_on_a_strong_hand_and_low_on_a_weak_one():
    strong = provincial({0: PAIR_OF_ACES, 1: WEAK, 2: FIVE_SUITS})
    assert choice(ProvincialPolicy(), strong, 0) == SetStake(chips=5)
    weak = provincial({0: "Author, Sailor, Lunatic", 1: PAIR_OF_ACES, 2: FIVE_SUITS})
    assert choice(ProvincialPolicy(), weak, 0) == SetStake(chips=1)


def test_provincial_calls_with_a_strong_hand():
    state = provincial({0: WEAK, 1: PAIR_OF_ACES, 2: FIVE_SUITS})
    state.apply(0, SetStake(chips=1))
    assert choice(ProvincialPolicy(), state, 1) == Fist(chips=CALL)


def test_provincial_drops_a_straight_card_rather_than_draw_into_turtle_butt():
    """The rule text's example: 3, 4, 5, 9, 9 with five suits, someone has called: discard
    the 3 or the 5 (7 points left) rather than draw and risk the sixth suit."""
    state = provincial({0: WEAK, 1: FIVE_SUITS, 2: PAIR_OF_ACES})
    state.apply(0, SetStake(chips=1))
    for seat, chips in ((0, 0), (1, 1), (2, 2)):
        state.apply(seat, Fist(chips=chips))
    assert state.phase == "exchange" and state.pending()[0].seat == 1
    assert choice(ProvincialPolicy(), state, 1) in (
        Discard(card=card("Journey")),
        Discard(card=card("Forest")),
    )


# ---- Temptation ---------------------------------------------------------------------------


def temptation(hands: dict[int, str]):
    state = TEMPTATION.new_match(None, [30, 30, 30], seed=2)
    return rig(state, hands, shared=WEST_SHARED)


def test_temptation_buys_a_cheap_card_with_little_risk_and_not_into_turtle_butt():
    state = temptation({1: "Author, Journey", 2: "Sailor, Ace of Wyrms"})
    assert choice(TemptationPolicy(), state, 1) == Buy()
    state.apply(1, Buy())
    assert choice(TemptationPolicy(), state, 2) == Decline()


def test_temptation_pays_for_a_card_only_while_its_price_is_worth_the_gain():
    state = temptation({1: "Lunatic, Darkness"})  # 6 and 9: 2 points, rarely the best
    assert choice(TemptationPolicy(), state, 1) == Buy()
    state.price, state.pot = 9, 9
    assert choice(TemptationPolicy(), state, 1) == Decline()


# ---- Liar's -------------------------------------------------------------------------------


def liars(hand: str):
    state = LIARS.new_match(None, [20, 20, 20], seed=9)
    state.discards = []
    return rig(state, {state.holder: hand})


def test_liars_claims_the_true_score_when_it_is_enough():
    state = liars("Ace of Suns, Ace of Knots, Bard, Huntress")  # 10
    assert choice(LiarsPolicy(), state, 0) == Claim(points=10)


def test_liars_bluffs_the_least_claim_with_turtle_butt_and_draws_a_weak_hand():
    assert choice(LiarsPolicy(), liars("Author, Desert, Origin"), 0) == Claim(points=1)
    assert choice(LiarsPolicy(), liars("Ace of Moons, Forest, Huntress"), 0) == Draw()


def test_liars_challenges_an_unlikely_claim_and_accepts_a_likely_one():
    state = liars("Ace of Moons, Forest, Huntress")
    state.apply(0, Claim(points=20))  # three cards scoring 20: hardly ever
    assert choice(LiarsPolicy(), state, 1) == Challenge()
    state = liars("Ace of Moons, Forest, Huntress")
    state.apply(0, Claim(points=2))
    assert choice(LiarsPolicy(), state, 1) == Accept()


def test_liars_mends_a_turtle_butt_hand_by_discarding():
    state = liars("Author, Desert, Origin, Journey")  # all six suits
    state.apply(0, Claim(points=1))
    state.apply(1, Accept())
    action = choice(LiarsPolicy(), state, 1)
    assert isinstance(action, DiscardOne)
    rest = [c for c in state.hands[1] if c != action.card]
    assert hand_value(rest) >= 0


# ---- only the seat's view -------------------------------------------------------------------


def swap_hidden(state, seat: int) -> None:
    """Give every other seat different hidden cards of the same number, from the deck, and
    turn the deck over."""
    deck = list(state.deck)
    for other, hand in enumerate(state.hands):
        if other != seat and hand:
            fresh = [deck.pop(0) for _ in hand]
            deck += hand
            state.hands[other] = fresh
    state.deck = deck[::-1]


@pytest.mark.parametrize("game", POLICIES)
def test_choices_depend_only_on_the_seats_view(game):
    """Two states that differ only in cards the seat can't see give the same answers."""
    spec, policy = POLICIES[game]
    for seed in range(6):
        state = spec.new_match(spec.options_model(), [30, 30, 30], seed)
        steps = random.Random(seed)
        for _ in range(steps.randint(0, 6)):  # a few moves in, somewhere in the hand
            if state.awaiting_next_hand() or state.is_over():
                break
            decision = state.pending()[0]
            state.apply(decision.seat, state.sample(decision.seat, steps))
        if state.awaiting_next_hand() or state.is_over():
            continue
        seat = state.pending()[0].seat
        other = state.model_copy(deep=True)
        swap_hidden(other, seat)
        assert (other.hands, other.deck) != (state.hands, state.deck)
        assert other.view(seat) == state.view(seat)
        assert choice(policy, other, seat, seed) == choice(policy, state, seat, seed)
