"""Expert's worlds in the climbing games follow the others' play (`shape_world`): a player who
passed holds cards the Standard AI would have passed with, a Dou Dizhu bidder cards it would
have bid so with, and in Big Two for three no card below the lowest dealt lies in a hand."""

import random

import pytest

from bot.cards import parse_french
from bot.engine import GameState, registry
from bot.games.big_two import ai as big_two_ai
from bot.games.big_two import value
from bot.games.climbing_ai import deal_to_fit, fits_pass, passes_seen
from bot.games.dou_dizhu import ai as dou_dizhu_ai
from bot.games.expert import Worlds, shaped, shapes_worlds
from bot.games.simulate import Seats, policies_for, step

PLAYERS = 3


def tables_at(game_id: str, state: GameState):
    if game_id == "bigtwo":
        return big_two_ai.table_at
    return dou_dizhu_ai.table_maker(state.landlord)


MODULES = {"bigtwo": big_two_ai, "doudizhu": dou_dizhu_ai}


def playing_states(game_id: str, matches: int, every: int = 1):
    """Every `every`-th state of Standard matches where a seat plays, after a pass."""
    spec = registry.get(game_id)
    found = 0
    for seed in range(matches):
        state = spec.new_match(spec.options_model(), [50] * PLAYERS, seed)
        seats = Seats(policies_for(spec, PLAYERS, "ai"), seed)
        while state.pending() and not state.awaiting_next_hand():
            playing = state.pending()[0].kind == "play"  # (a climb only once bids are done)
            if playing and any(not cards for _, cards in state.climbing.history()):
                found += 1
                if found % every == 0:
                    yield spec.restore(state.snapshot()), state.pending()[0].seat
            step(state, seats)


def passes_fitted(game_id: str, world: GameState, seat: int) -> tuple[int, int]:
    """How many of the others' passes the world's hands fit, of how many."""
    module = MODULES[game_id]
    others = [s for s in range(PLAYERS) if s != seat]
    counts = [len(hand) for hand in world.hands]
    seen = passes_seen(world.climbing, counts, others, tables_at(game_id, world))
    fitted = sum(
        fits_pass(module.SENSE, passed, world.hands[passed.table.seat], module.legal_for)
        for passed in seen
    )
    return fitted, len(seen)


@pytest.mark.parametrize("game_id", MODULES)
def test_the_true_hands_fit_every_pass_the_standard_ai_made(game_id):
    """The table each pass was made at is read back exactly from the hand's moves."""
    fitted = total = 0
    for state, seat in playing_states(game_id, 4):
        found, of = passes_fitted(game_id, state, seat)
        fitted, total = fitted + found, total + of
    assert total > 200 and fitted == total


@pytest.mark.parametrize("game_id", MODULES)
def test_shaped_worlds_fit_the_passes_more_often_than_blind_ones(game_id):
    spec = registry.get(game_id)
    assert shapes_worlds(spec)
    blind = shaped_fits = total = 0
    for index, (state, seat) in enumerate(playing_states(game_id, 6, every=6)):
        worlds, rng = Worlds(state, seat), random.Random(index)
        for _ in range(3):
            world = worlds.sample(rng)
            reshaped = spec.restore(shaped(spec, world, seat, rng))
            assert reshaped.view(seat) == state.view(seat)  # the seat's view is kept
            found, of = passes_fitted(game_id, spec.restore(world), seat)
            blind, total = blind + found, total + of
            shaped_fits += passes_fitted(game_id, reshaped, seat)[0]
    assert total > 200
    assert shaped_fits > blind + 0.05 * total


def bidding_states(matches: int):
    """States of Standard Dou Dizhu deals where a seat bids after another has."""
    spec = registry.get("doudizhu")
    for seed in range(matches):
        state = spec.new_match(spec.options_model(), [50] * PLAYERS, seed)
        seats = Seats(policies_for(spec, PLAYERS, "ai"), seed)
        while state.phase == "bidding":
            if state.auction:
                yield spec.restore(state.snapshot()), state.pending()[0].seat
            step(state, seats)


@pytest.mark.slow
def test_dou_dizhu_worlds_deal_hands_that_bid_as_the_bidders_did():
    spec = registry.get("doudizhu")
    blind = shaped_fits = total = 0
    found = [*playing_states("doudizhu", 8, every=8), *bidding_states(30)]
    assert sum(state.phase == "bidding" for state, _ in found) > 20
    for index, (state, seat) in enumerate(found):
        others = [s for s in range(PLAYERS) if s != seat]
        worlds, rng = Worlds(state, seat), random.Random(index)
        for _ in range(3):
            world = worlds.sample(rng)
            for label, dealt in (("blind", world), ("shaped", shaped(spec, world, seat, rng))):
                restored = spec.restore(dealt)
                for bidder, bid, chips in dou_dizhu_ai.bids_seen(restored, others):
                    played = dou_dizhu_ai.played_cards(restored, bidder)
                    hand = dou_dizhu_ai.bid_hand(restored, bidder, played)
                    fits = dou_dizhu_ai.choose_bid_with(hand, bid) == chips
                    if label == "blind":
                        blind, total = blind + fits, total + 1
                    else:
                        shaped_fits += fits
    assert total > 100
    assert shaped_fits > blind + 0.1 * total


def test_a_landlords_bid_is_judged_without_the_widow_it_took():
    spec = registry.get("doudizhu")
    state, _seat = next(playing_states("doudizhu", 4))
    landlord = state.landlord
    hand = dou_dizhu_ai.bid_hand(state, landlord, dou_dizhu_ai.played_cards(state, landlord))
    assert len(hand) == 17 and not set(hand) & set(state.kitty)
    assert spec.restore(state.snapshot()).kitty == state.kitty


def test_big_two_for_three_deals_no_card_below_the_lowest_dealt():
    spec = registry.get("bigtwo")
    blind = shaped_lows = 0
    for index, (state, seat) in enumerate(playing_states("bigtwo", 10, every=5)):
        floor = min(map(value, state.climbing.history()[0][1]))
        worlds, rng = Worlds(state, seat), random.Random(index)
        for _ in range(3):
            world = worlds.sample(rng)
            for label, dealt in (("blind", world), ("shaped", shaped(spec, world, seat, rng))):
                hands = spec.restore(dealt).hands
                lows = sum(value(card) < floor for hand in hands for card in hand)
                if label == "blind":
                    blind += lows
                else:
                    shaped_lows += lows
    assert blind > 10 and shaped_lows == 0  # blind: a few in a hundred worlds


def deal(
    cards: list, sizes: list[int], wanted: dict[int, object], seed: int, always: int = 0
) -> list[list]:
    """`cards` dealt in piles of `sizes` (the last one undealt, as Big Two's for three) to fit
    a play that shows each `wanted` card in the seat's pile (seat: its pile's index); a seat
    with none wanted misfits `always`. The first deal fits nothing."""
    piles, at = [], 0
    for size in sizes:
        piles.append(list(cards[::-1][at : at + size]))
        at += size
    seats = list(range(len(sizes) - 1))

    def relabel(mapping):
        for pile in piles:
            pile[:] = [mapping.get(card, card) for card in pile]

    def misfits(seat: int, most: int) -> int:
        card = wanted.get(seat)
        return always if card is None else int(card not in piles[seat])

    hidden_of = lambda seat: piles[-1 if seat is None else seat]  # noqa: E731
    deal_to_fit(seats, hidden_of, relabel, misfits, random.Random(seed))
    assert sorted(str(card) for pile in piles for card in pile) == sorted(map(str, cards))
    return piles


def test_a_deal_that_fits_is_kept_else_the_one_that_fitted_best():
    """Blind, the 3c lies in the first of two piles one deal in two."""
    cards = parse_french("3c 4c 5c 6c 7c 8c")
    fits = sum(cards[0] in deal(cards, [3, 3, 0], {0: cards[0]}, seed)[0] for seed in range(100))
    best = sum(
        cards[0] in deal(cards, [3, 3, 0], {0: cards[0]}, seed, always=1)[0] for seed in range(100)
    )
    assert fits > 65 and best > 85


def test_hands_are_dealt_to_fit_seat_by_seat():
    """Each seat's wanted card lies in its pile (a third of the deals, blind); the first
    seat's hand is dealt first, the second's from what is left with the undealt cards."""
    cards = parse_french("3c 4c 5c 6c 7c 8c 9c 10c 2d")
    wanted = {0: cards[0], 1: cards[1]}
    both = sum(
        all(card in piles[seat] for seat, card in wanted.items())
        for piles in (deal(cards, [3, 3, 3], wanted, seed) for seed in range(100))
    )
    assert both > 35  # blind: one deal in nine (and the first seat may take the 4c)
