"""The betting games' own Experts (bot/games/poker_expert.py, lowball/expert.py,
terrapin/western/expert.py): a bet chosen by its expected chips at the seat's equity, the
equity estimated against the hands the others' draws or bets imply."""

from __future__ import annotations

import random

import bot.games  # noqa: F401  (registers every game)
from bot.cards import french_deck, parse_french
from bot.cards.decktet import DECK
from bot.engine import registry
from bot.games.betting import Bet, Call, Check, Fold, Raise
from bot.games.lowball import expert as lowball
from bot.games.lowball.ai import PAT_TOP, RAISE_EDGE, chance_against_one, keep
from bot.games.lowball.rules import in_hand_order, low_strength
from bot.games.poker_expert import Table, by_expected_value
from bot.games.terrapin import ai as terrapin
from bot.games.terrapin.western import expert as western
from tests.engines.test_ai_levels import states_along_a_match

FACING_A_BET = [Fold(), Call(), Raise(amount=2)]


def test_expert_folds_below_the_pot_odds_and_calls_above():
    table = Table(pot=10, to_call=5, opponents=1)  # a call needs a third of the pot: 5 of 15
    assert by_expected_value(0.30, table, FACING_A_BET) == Fold()
    assert by_expected_value(0.36, table, FACING_A_BET) == Call()


def test_expert_bets_and_raises_only_well_above_an_even_share():
    facing = Table(pot=10, to_call=2, opponents=2)  # an even share: a third
    assert by_expected_value(0.45, facing, FACING_A_BET) == Call()  # a raise needs 0.2 more
    assert by_expected_value(0.55, facing, FACING_A_BET) == Raise(amount=2)
    capped = Table(pot=10, to_call=2, opponents=2, may_raise=False)
    assert by_expected_value(0.9, capped, FACING_A_BET) == Call()
    free = [Fold(), Check(), Bet(amount=1), Bet(amount=5)]
    opening = Table(pot=6, to_call=0, opponents=2)  # opening the betting needs 0.08 more
    assert by_expected_value(0.0, opening, free) == Check()  # never a fold where checking is free
    assert by_expected_value(0.40, opening, free) == Check()
    assert by_expected_value(0.45, opening, free) == Bet(amount=5)


def test_a_required_bet_is_the_least_and_only_when_worth_it():
    must_bet = [Fold(), Bet(amount=1), Bet(amount=2)]
    table = Table(pot=3, to_call=0, opponents=2)
    assert by_expected_value(0.30, table, must_bet) == Bet(amount=1)
    assert by_expected_value(0.10, table, must_bet) == Fold()


def ints(*codes: str) -> tuple[int, ...]:
    return tuple(lowball.card_int(card) for card in parse_french(" ".join(codes)))


def test_lowball_hands_on_ints_rank_and_draw_as_pokerkit_and_the_standard_ai_do():
    rng, deck = random.Random(3), french_deck()
    for _ in range(400):
        one, other = rng.sample(deck, 5), rng.sample(deck, 5)
        mine = [lowball.card_int(card) for card in one]
        theirs = [lowball.card_int(card) for card in other]
        compared = (lowball.low_key(mine) > lowball.low_key(theirs)) - (
            lowball.low_key(mine) < lowball.low_key(theirs)
        )
        assert compared == (low_strength(other) > low_strength(one)) - (
            low_strength(other) < low_strength(one)
        )
        hand = in_hand_order(one)
        for left in (1, 2, 3):
            kept = sorted(lowball.card_int(card) for card in keep(hand, left))
            assert sorted(lowball.keep_ints(sorted(mine, reverse=True), left)) == kept


def test_a_lowball_opponent_holds_hands_like_their_draws():
    rng = random.Random(1)
    pat = kept_four = 0
    for _ in range(200):
        stub = list(range(52))
        rng.shuffle(stub)
        hand = lowball.implied_hand((3, 0), stub, rng)
        assert len(hand) == 5 and len(stub) == 47
        pat += lowball.is_made(hand) and lowball.value(max(hand)) <= PAT_TOP[2]
        one_card = lowball.implied_hand((1,), stub, rng)
        low_ranks = {card >> 2 for card in one_card if lowball.value(card) <= 8}
        kept_four += len(low_ranks) >= 4
    assert pat >= 185, pat  # now and then any hand: a snow or a misjudged draw
    assert kept_four >= 185, kept_four


def lowball_spot(mine: tuple[int, ...], *opponents: lowball.Opponent) -> lowball.Spot:
    """A decision in the last betting round but one: one draw to come."""
    return lowball.Spot(mine=mine, my_last=2, opponents=opponents, draws_left=1)


def test_lowball_equity_reads_a_pat_opponent():
    """A three-card draw with one draw to come is far behind a player who stood pat, and
    ahead of one who broke his hand to draw three: the draws, not any five cards, say so."""
    drawing = ints("2c", "4d", "7h", "Ks", "Qd")
    pat = lowball_spot(drawing, lowball.Opponent(draws=(2, 0), raised=False))
    three = lowball_spot(drawing, lowball.Opponent(draws=(3, 3), raised=False))
    against_pat = lowball.equity(pat, random.Random(7), samples=400)
    against_three = lowball.equity(three, random.Random(7), samples=400)
    assert against_pat < 0.2 < 0.4 < against_three
    table = Table(pot=12, to_call=4, opponents=1)  # a call needs a quarter of the pot
    assert by_expected_value(against_pat, table, FACING_A_BET) == Fold()
    assert by_expected_value(against_three, table, FACING_A_BET) != Fold()


def test_lowball_equity_reads_a_bet():
    """A drawing player who bet this round holds a hand the Standard AI bets with (a made
    low already, mostly): a rough made ten is then behind, ahead of the same player checking."""
    ten = ints("Tc", "8d", "6h", "4s", "3d")
    checked = lowball_spot(ten, lowball.Opponent(draws=(2, 1), raised=False))
    bet = lowball_spot(ten, lowball.Opponent(draws=(2, 1), raised=True))
    against_check = lowball.equity(checked, random.Random(3), samples=400)
    against_bet = lowball.equity(bet, random.Random(3), samples=400)
    assert against_bet < 0.5 < against_check
    strong = 1 / 2 + RAISE_EDGE
    hands = [bet.deal(random.Random(seed))[1] for seed in range(200)]
    chances = [lowball.standard_chance(hand, 1, [2]) for hand in hands]
    assert sum(chance >= strong for chance in chances) < 60  # the bettor's hands, unweighed


def test_lowball_chance_on_ints_is_the_standard_ais():
    rng, deck = random.Random(5), french_deck()
    for _ in range(300):
        hand = rng.sample(deck, 5)
        mine = [lowball.card_int(card) for card in hand]
        for left, last in ((0, 0), (0, 1), (0, 3), (1, None), (2, 2), (3, 0)):
            assert lowball.chance_against_one_ints(mine, left, last) == chance_against_one(
                in_hand_order(hand), left, last
            )


def test_western_bettors_hold_what_their_bets_imply():
    """Dealt as the betting implies, the bettor holds the hands it bets with, so a middling
    hand's share against it is smaller than against any hand."""
    rng = random.Random(4)
    shared, mine = [0, 9, 20], [3, 30]
    pool = [card for card in range(len(DECK)) if card not in shared + mine]
    rivals = [terrapin.Rival(hidden=2)]
    blind = western.implied_showdown(shared, rivals, pool, rng)
    strong = 10  # made-up: a bettor holds 10 points or more
    read = western.implied_showdown(
        shared, rivals, pool, rng, (0, lambda points: float(points >= strong))
    )
    assert min(read.best) >= strong > min(blind.best)
    middling = terrapin.value([*mine, *shared])
    assert read.share(middling) < blind.share(middling)


def test_a_western_raise_reads_as_the_standard_ais_raising_bar():
    """Only a bet above the least says something (the least is what staying in costs)."""
    western_spec = registry.get("western")
    for state in states_along_a_match(western_spec, 2, 400):
        seat = state.pending()[0].seat
        view = state.view(seat)
        bettor = western.bettor_in(view, seat)
        if view.shared and bettor is not None:
            break
    else:
        raise AssertionError("nobody raised in the match")
    assert view.seats[bettor].bet > 1
    likely = western.strong_hands(view, seat, bettor, random.Random(1))
    assert likely(0) == western.BLUFFS and likely(60) == 1.0
