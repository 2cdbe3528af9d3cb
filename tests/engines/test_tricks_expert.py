"""The trick AIs' part in the Expert search (bot/games/tricks_expert.py): their ranking of the
moves begins with the Standard pick and lists legal moves, the cards best first by the trick
sense's own scores; the quick card play is legal and is played only in an Expert's playouts,
so Standard's choices are the same outside them; scripted situations show its sense; and the
worlds the search deals fit what the play proves."""

import dataclasses
import random

import pytest

from bot.cards import Suit, parse_french, spanish_deck
from bot.games.ai import ai_move, rolling_out
from bot.games.botifarra import BOTIFARRA
from bot.games.botifarra import RULES as BOTIFARRA_RULES
from bot.games.botifarra import PlayCard as BotifarraCard
from bot.games.botifarra.ai import MARGIN, BotifarraPolicy, fits_the_choice
from bot.games.botifarra.ai import table_for as botifarra_table
from bot.games.calabrasella import CALABRASELLA
from bot.games.calabrasella import PlayCard as CalabrasellaCard
from bot.games.calabrasella.ai import CalabrasellaPolicy
from bot.games.calabrasella.ai import table_for as calabrasella_table
from bot.games.expert import Budget, Worlds, playout, search
from bot.games.tricks_ai import choose_card, follow_score, read_play
from bot.games.tricks_expert import play_alike, quick_card
from tests.engines.test_botifarra import last_trick_state
from tests.engines.test_tricks_ai import (
    botifarra_at_play,
    last_over_an_opponents_jack,
    leading_after_choosing_clubs,
    partner_takes_a_sure_trick,
    void_under_a_nine,
)

C = Suit.CLUBS
GAMES = {"botifarra": (BOTIFARRA, 4), "calabrasella": (CALABRASELLA, 3)}


def table_of(game: str, state, seat: int):
    view = state.view(seat)
    return botifarra_table(view) if game == "botifarra" else calabrasella_table(view, seat)


def decisions(game: str, seeds: range):
    """(state, seat) at every decision of Standard self-play hands, a fresh copy each."""
    spec, players = GAMES[game]
    assert spec.ai is not None
    for seed in seeds:
        state = spec.new_match(None, [300] * players if spec.uses_chips else [0] * players, seed)
        rng = random.Random(seed)
        while not state.is_over() and not state.awaiting_next_hand():
            seat = state.pending()[0].seat
            yield spec.restore(state.snapshot()), seat
            state.apply(seat, ai_move(state, seat, spec.ai, rng))


def ask(policy, state, seat: int, seed: int, method: str = "choose"):
    decision = next(d for d in state.pending() if d.seat == seat)
    legal = state.legal_actions(seat)
    return getattr(policy, method)(seat, state.view(seat), decision, legal, random.Random(seed))


@pytest.mark.parametrize("game", GAMES)
def test_the_ranking_begins_with_the_pick_and_lists_legal_moves_best_first(game):
    spec, _ = GAMES[game]
    policy = spec.ai
    scored = 0
    for state, seat in decisions(game, range(3)):
        ranking = ask(policy, state, seat, 7, "ranked")
        assert ranking, "every decision of these games is ranked"
        assert ranking[0] == ask(policy, state, seat, 7)
        assert len(ranking) == len({action.model_dump_json() for action in ranking})
        assert all(state.can(seat, action) for action in ranking)
        table = table_of(game, state, seat) if state.phase in ("play", "playing") else None
        if table is not None and len(table.hand) > table.endgame_cards:
            kinds = {play_alike(table, card) for card in table.legal}  # one card of each
            assert len(ranking) == len(kinds) == len({play_alike(table, a.card) for a in ranking})
            scores = [follow_score(table, action.card) for action in ranking[1:]]
            assert scores == sorted(scores, reverse=True)
            scored += 1
    assert scored > 20


def test_the_ranking_keeps_one_of_the_cards_that_play_alike():
    state = leading_after_choosing_clubs()  # seat 0 holds 8♦ 7♦ and 5♣ 4♣, nothing between
    ranked = {action.card.code for action in ask(BotifarraPolicy(), state, 0, 7, "ranked")}
    assert len(ranked & {"8d", "7d"}) == 1 and len(ranked & {"5c", "4c"}) == 1
    assert {"Ks", "8s", "2s", "Kh", "Qh", "9c", "Ac"} <= ranked  # the others all differ


def test_cards_play_alike_only_with_no_other_players_card_between_them():
    # Botifarra: seat 3 led the 5♥, which lies between seat 0's 6♥ and 4♥.
    state = botifarra_at_play(
        {
            0: "6h 4h As Ks 2s 7c 6c 5c 4c 2c 3d 2d",
            1: "9s Qs 3s 4s 9h Ah Kh Qh 2h 8d 7d 3c",
            2: "Js 8s 7s 6s 5s Jh 8h 7h 9c Ac 8c 4d",
            3: "Ad Kd Qd Jd 9d 6d 5d Kc Qc Jc 3h",
        },
        trump=None,
        dealer=2,
        leader=3,
        played="5h",
    )
    table = botifarra_table(state.view(0))
    six, four = parse_french("6h 4h")
    assert play_alike(table, six) != play_alike(table, four)  # the 6♥ takes the trick
    once_taken = dataclasses.replace(table, trick=[])  # had the 5♥ gone in a finished trick
    assert play_alike(once_taken, six) == play_alike(once_taken, four)
    assert play_alike(table, parse_french("7c")[0]) == play_alike(table, parse_french("5c")[0])
    assert play_alike(table, parse_french("As")[0]) != play_alike(table, parse_french("Ks")[0])


@pytest.mark.parametrize("game", GAMES)
def test_the_quick_play_is_legal_and_only_played_in_rollouts(game):
    spec, _ = GAMES[game]
    policy = spec.ai
    differ = played = 0
    for state, seat in decisions(game, range(3)):
        if state.phase not in ("play", "playing"):
            continue
        table = table_of(game, state, seat)
        standard = ask(policy, state, seat, 3)
        assert standard.card == choose_card(table, random.Random(3))
        with rolling_out():
            quick = ask(policy, state, seat, 3)
        assert quick.card == quick_card(table) and quick.card in table.legal
        assert state.can(seat, quick)
        differ += quick != standard
        played += 1
    assert played > 50 and differ > 0  # the quick play is a play of its own


@pytest.mark.parametrize("game", GAMES)
def test_an_expert_search_compares_the_ranked_moves(game):
    spec, _ = GAMES[game]
    searched = 0
    for state, seat in decisions(game, range(1)):
        move, worlds = search(spec, state, seat, random.Random(1), Budget(worlds=6, seconds=None))
        assert move is None or state.can(seat, move)
        searched += worlds > 0
        if searched > 5:
            break
    assert searched > 5


def test_the_endgame_is_left_to_the_policys_own_search():
    """With the endgame's few cards the ranking is the pick alone: Expert plays it."""
    spec, _ = GAMES["botifarra"]
    for state, seat in decisions("botifarra", range(1)):
        table = table_of("botifarra", state, seat) if state.phase == "play" else None
        if table is not None and len(table.hand) <= table.endgame_cards:
            assert ask(spec.ai, state, seat, 1, "ranked") == [ask(spec.ai, state, seat, 1)]
            assert search(spec, state, seat, random.Random(1), Budget(seconds=None))[1] == 0


# ---- the quick play: scripted situations (Botifarra, clubs trumps) ---------------------------


def quick(state) -> str:
    seat = state.pending()[0].seat
    with rolling_out():
        action = ask(BotifarraPolicy(), state, seat, 0)
    assert isinstance(action, BotifarraCard)
    return action.card.code


def test_the_quick_play_loads_points_on_its_partners_sure_trick():
    assert quick(partner_takes_a_sure_trick()) == "Kh"


def test_the_quick_play_takes_the_trick_last_with_its_cheapest_winner():
    assert quick(last_over_an_opponents_jack()) == "Qh"


def test_the_quick_play_throws_its_cheapest_card_when_it_cannot_win():
    played = quick(void_under_a_nine())
    assert BOTIFARRA_RULES.card_points(parse_french(played)[0]) == 0


def test_the_quick_play_draws_trumps_with_its_master_trump():
    assert quick(leading_after_choosing_clubs()) == "9c"


def test_the_quick_play_keeps_its_master_off_a_poor_trick_its_partner_may_take():
    # Botifarra: seat 3 led the 2♦ (no points); seat 0 holds the 9♦, the top diamond, and
    # its partner plays last: the 5♦ goes, the 9♦ waits for a trick worth taking.
    state = botifarra_at_play(
        {
            0: "9d 5d As Ks 2s 7c 6c 5c 4c 2c 6h 4h",
            1: "9s Qs 3s 4s 9h Ah Kh Qh 2h 8d 7d 3c",
            2: "Js 8s 7s 6s 5s Jh 8h 7h 9c Ac 8c 4d",
            3: "Ad Kd Qd Jd 3d 6d 5h Kc Qc Jc 3h",
        },
        trump=None,
        dealer=2,
        leader=3,
        played="2d",
    )
    assert quick(state) == "5d"


def test_the_quick_play_cashes_a_master_of_a_suit_the_others_still_follow():
    # The opponents chose clubs; seat 0 holds no trump, the 9♥ and nine hearts are unseen.
    state = botifarra_at_play(
        {
            0: "9h 4h 3h 7s 6s 5s 8d 7d 6d 5d 4d 2d",
            1: "Ah Kh Qh Jh 8h 9s As Ks Qs 9c Ac Kc",
            2: "7h 6h 5h 2h Js 8s 4s 3s 2s Qc Jc 8c",
            3: "9d Ad Kd Qd Jd 3d 7c 6c 5c 4c 3c 2c",
        },
        trump=C,
        dealer=1,
        leader=0,
    )
    assert quick(state) == "9h"


def test_calabrasella_plays_its_quick_rule_in_rollouts_only():
    played = 0
    for state, seat in decisions("calabrasella", range(2)):
        if state.phase != "playing":
            continue
        with rolling_out():
            action = ask(CalabrasellaPolicy(), state, seat, 0)
        assert isinstance(action, CalabrasellaCard)
        assert action.card == quick_card(calabrasella_table(state.view(seat), seat))
        assert action.card == quick_card(calabrasella_table(state.view(seat), seat, quick=True))
        played += 1
    assert played > 20


# ---- the Expert's worlds fit what the play proves --------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_shaped_world_deals_no_seat_a_suit_it_showed_void_in(game):
    """Worlds dealt at random often give a seat a suit it did not follow; shaped, never (but
    for the rare world no fitting deal is found for, left as it was), and the searching seat
    sees the same as in the real state."""
    spec, _ = GAMES[game]
    policy = spec.ai
    shaped = fixed = left = 0
    for state, seat in decisions(game, range(3)):
        if state.phase not in ("play", "playing") or len(state.view(seat).played) < 12:
            continue
        table = table_of(game, state, seat)
        reading = read_play(table)
        world = Worlds(state, seat)
        for draw in range(3):
            rng = random.Random(draw)
            dealt = spec.restore(world.sample(rng))
            before, cards = misplaced(dealt, seat, reading, table), hidden_cards(dealt)
            unshaped = dealt.snapshot()
            policy.shape_world(dealt, seat, rng)
            assert dealt.view(seat) == state.view(seat)
            assert hidden_cards(dealt) == cards  # the same cards, only dealt otherwise
            if misplaced(dealt, seat, reading, table):  # no fitting deal found: left as it was
                assert dealt.snapshot() == unshaped
                left += 1
            fixed += before > 0
            shaped += 1
    assert shaped > 20 and fixed > 0 and left < shaped / 10


def misplaced(world, seat: int, reading, table) -> int:
    """Cards in the other seats' hands that the play proves they cannot hold."""
    return sum(
        not reading.may_hold(other, card, table.power(card)) and card not in table.known
        for other in range(len(world.hands))
        if other != seat
        for card in world.hands[other]
    )


def hidden_cards(world) -> list[str]:
    aside = getattr(world, "discards", [])
    return sorted(card.code for hand in [*world.hands, aside] for card in hand)


def test_botifarra_worlds_deal_hands_that_would_have_named_the_trumps_named():
    """Once trumps are named, a world's hidden hands (each with the cards it has played) are
    mostly hands the Standard AI would have made the same choice with, where random worlds
    often are not; the searching seat sees the same as in the real state."""
    fit_blind = fit_shaped = worlds = 0
    for state, seat in decisions("botifarra", range(3)):
        if state.phase not in ("double", "play") or state.chooser == seat:
            continue
        world = Worlds(state, seat)
        rng = random.Random(worlds)
        dealt = BOTIFARRA.restore(world.sample(rng))
        fits, cards = fits_the_choice(dealt, seat), hidden_cards(dealt)
        fit_blind += fits(others_hands(dealt, seat))
        BotifarraPolicy().shape_world(dealt, seat, rng)
        assert dealt.view(seat) == state.view(seat) and hidden_cards(dealt) == cards
        fit_shaped += fits(others_hands(dealt, seat))
        worlds += 1
    assert worlds > 50
    assert fit_shaped > 0.65 * worlds and fit_blind < 0.5 * worlds, (fit_shaped, fit_blind)


def others_hands(world, seat: int) -> dict:
    return {other: list(hand) for other, hand in enumerate(world.hands) if other != seat}


def test_a_botifarra_playout_is_worth_its_win_and_a_little_for_the_trick_points():
    """A hand won or lost is worth the generic value (2/3 a winning seat, -1/6 a losing one),
    and the side's trick points over 36 add a little (`MARGIN` for all 36), so that moves
    tying on the win part by the points; the narrowest win is still worth more than any loss."""
    # Seats 0 & 2 won the rest of the deck but 9s As Ks Qs and end with 49 points to 23.
    last = {0: "2s", 1: "3s", 2: "4s", 3: "5s"}
    won_by_b = ["9s", "As", "Ks", "Qs"]
    rest = [c.code for c in spanish_deck() if c.code not in {*last.values(), *won_by_b}]
    state = last_trick_state(" ".join(rest), " ".join(won_by_b), last, trump=Suit.HEARTS)
    state.piles.tricks = [3, 8]
    lead = BotifarraCard(card=parse_french("2s")[0])
    leader = playout(BOTIFARRA, BOTIFARRA.restore(state.snapshot()), 0, lead, seed=1, most=9)
    follower = playout(BOTIFARRA, BOTIFARRA.restore(state.snapshot()), 1, None, seed=1, most=9)
    assert leader == pytest.approx(2 / 3 + MARGIN * 13 / 36)
    assert follower == pytest.approx(-1 / 6 - MARGIN * 13 / 36)
    assert 2 / 3 + MARGIN * 1 / 36 > -1 / 6 + MARGIN
