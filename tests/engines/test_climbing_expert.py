"""The climbing AIs (Big Two, Dou Dizhu) as the Expert search uses them: their ranking of
moves, and the quicker strength readings its playouts rely on, checked against the plain
definitions they replace."""

import random
from collections import Counter

import pytest

from bot.cards import FrenchCard, french_deck
from bot.engine import GameState, registry
from bot.games.ai import rolling_out
from bot.games.big_two import ai as big_two_ai
from bot.games.big_two import value
from bot.games.climbing import Pass, Play
from bot.games.climbing_ai import LIKELY_FOLLOWS, likely_moves, score
from bot.games.dou_dizhu import Bid, order
from bot.games.dou_dizhu import ai as dou_dizhu_ai
from bot.games.dou_dizhu.combos import BLACK_JOKER, RED_JOKER
from bot.games.expert import candidates_for
from bot.games.simulate import Seats, policies_for, step

GAMES = {"bigtwo": big_two_ai, "doudizhu": dou_dizhu_ai}


def decisions(game_id: str, matches: int, kind: str = "play"):
    """States along Standard matches where a seat must choose among several moves of `kind`."""
    spec = registry.get(game_id)
    for seed in range(matches):
        state = spec.new_match(spec.options_model(), [50, 50, 50], seed)
        seats = Seats(policies_for(spec, 3, "ai"), seed)
        while state.pending() and not state.awaiting_next_hand():
            decision = state.pending()[0]
            if decision.kind == kind and len(state.legal_actions(decision.seat)) > 1:
                yield spec, state, decision
            step(state, seats)


def judged(game_id: str, state: GameState, seat: int) -> list:
    """The moves the policy weighs (Dou Dizhu's leaves out kickers it would never pick)."""
    legal = state.legal_actions(seat)
    if game_id == "doudizhu":
        return dou_dizhu_ai.worth_trying(legal, state.hands[seat])
    return legal


def scores_of(game_id: str, state: GameState, seat: int, moves: list) -> list[float]:
    module = GAMES[game_id]
    table = module.table_for(seat, state.view(seat))
    sense = module.SENSE
    hand = sorted(sense.key(card) for card in table.hand)
    base = sense.plan_cost(tuple(hand))
    tops = sense.unseen_tops([*hand, *map(sense.key, table.played)])
    return [score(sense, table, move, base, hand, tops) for move in moves]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_ranking_is_every_move_weighed_best_first_from_the_pick(game_id):
    seen = 0
    for spec, state, decision in decisions(game_id, 4):
        seat = decision.seat
        view, legal = state.view(seat), state.legal_actions(seat)
        for seed in range(3):  # ties are drawn alike
            ranking = spec.ai.ranked(seat, view, decision, legal, random.Random(seed))
            assert ranking[0] == spec.ai.choose(seat, view, decision, legal, random.Random(seed))
        weighed = judged(game_id, state, seat)
        assert sorted(map(str, ranking)) == sorted(map(str, weighed))
        scores = scores_of(game_id, state, seat, ranking)
        assert scores[0] <= min(scores) + 1e-9
        assert scores[1:] == sorted(scores[1:])
        seen += 1
    assert seen > 50


def test_dou_dizhu_ranks_the_bids_nearest_its_own_first():
    found = 0
    for spec, state, decision in decisions("doudizhu", 6, kind="bid"):
        seat = decision.seat
        view, legal = state.view(seat), state.legal_actions(seat)
        ranking = spec.ai.ranked(seat, view, decision, legal, random.Random(0))
        own = spec.ai.choose(seat, view, decision, legal, random.Random(0))
        assert ranking[0] == own and sorted(map(str, ranking)) == sorted(map(str, legal))
        gaps = [abs(bid.chips - own.chips) for bid in ranking if isinstance(bid, Bid)]
        assert gaps == sorted(gaps)
        found += 1
    assert found > 5


@pytest.mark.parametrize("game_id", GAMES)
def test_the_expert_compares_the_pick_and_the_moves_ranked_next(game_id):
    spec, state, decision = next(
        (spec, state, decision)
        for spec, state, decision in decisions(game_id, 3)
        if len(judged(game_id, state, decision.seat)) > 4
    )
    seat, legal = decision.seat, state.legal_actions(decision.seat)
    ranking = spec.ai.ranked(seat, state.view(seat), decision, legal, random.Random(0))
    standard = ranking[0]
    found = candidates_for(spec, state, seat, standard, random.Random(0), 4)
    assert found == ranking[:4]


# ---- the quicker readings, against the plain definitions --------------------------------------


def big_two_strength_plainly(cards: list[FrenchCard], seen: frozenset[FrenchCard]) -> float:
    """Big Two's strength as first written: classified, and the unseen cards grouped anew."""
    combo = big_two_ai.classify(list(cards))
    values = [value(card) for card in cards]
    unseen = [value(card) for card in french_deck() if card not in seen]
    if combo.size <= 3:
        by_rank: dict[int, list[int]] = {}
        for card in unseen:
            by_rank.setdefault(card // 4, []).append(card)
        top = max(values)
        if not any(len(o) >= len(values) and max(o) > top for o in by_rank.values()):
            return 1.0
        return big_two_ai.single_strength(values[0]) if combo.size == 1 else max(values) / 51
    return big_two_ai.FIVE_CARD_STRENGTHS[combo.category](combo.key[0])


def dou_dizhu_strength_plainly(cards: list[FrenchCard], seen: frozenset[FrenchCard]) -> float:
    counts = Counter(order(card) for card in cards)
    widest = max(counts.values())
    main = [rank for rank, count in counts.items() if count == widest]
    ranks = set(counts)
    if (len(cards) == 4 and len(ranks) == 1) or ranks == {BLACK_JOKER, RED_JOKER}:
        return 1.0
    if len(main) > 1 and widest < 4:
        return dou_dizhu_ai.chain_strength(max(main))
    unseen = Counter(order(card) for card in french_deck(jokers=True) if card not in seen)
    if not any(n >= widest for rank, n in unseen.items() if rank > main[0]):
        return 1.0
    strength = dou_dizhu_ai.single_strength if len(cards) == 1 else dou_dizhu_ai.set_strength
    return strength(main[0])


@pytest.mark.parametrize(
    ("game_id", "plainly"),
    [("bigtwo", big_two_strength_plainly), ("doudizhu", dou_dizhu_strength_plainly)],
)
def test_a_plays_strength_reads_as_its_plain_definition(game_id, plainly):
    module = GAMES[game_id]
    sense = module.SENSE
    checked = 0
    for _spec, state, decision in decisions(game_id, 3):
        seat = decision.seat
        table = module.table_for(seat, state.view(seat))
        seen = frozenset(table.hand) | frozenset(table.played)
        tops = sense.unseen_tops([sense.key(card) for card in seen])
        for move in state.legal_actions(seat):
            if isinstance(move, Play):
                keys = tuple(sense.key(card) for card in move.cards)
                assert sense.strength(keys, tops) == pytest.approx(plainly(move.cards, seen))
                checked += 1
    assert checked > 300


def test_dou_dizhu_reads_bombs_and_the_rocket():
    assert dou_dizhu_ai.SENSE.is_bomb((5, 5, 5, 5))
    assert dou_dizhu_ai.SENSE.is_bomb((BLACK_JOKER, RED_JOKER))
    assert not dou_dizhu_ai.SENSE.is_bomb((5, 5, 5, 6))
    assert not dou_dizhu_ai.SENSE.is_bomb((BLACK_JOKER,))


# ---- the playouts' quicker player -----------------------------------------------------------


def test_a_playout_weighs_a_few_legal_moves_the_pass_and_lowest_card_among_them():
    shortened = 0
    for game_id, module in GAMES.items():
        for _spec, state, decision in decisions(game_id, 4):
            seat, legal = decision.seat, state.legal_actions(decision.seat)
            table = module.table_for(seat, state.view(seat))
            likely = likely_moves(module.SENSE, table, legal)
            assert likely and all(move in legal for move in likely)
            if len(legal) <= LIKELY_FOLLOWS + 2:
                assert likely == legal
                continue
            shortened += len(likely) < len(legal)
            if table.free_lead:
                low = min(table.hand, key=module.SENSE.key)
                whole = len(table.hand)
                assert all(low in move.cards or len(move.cards) == whole for move in likely)
            else:
                lowest = legal[1 : LIKELY_FOLLOWS + 1]
                assert likely[0] == Pass() and likely[1:] == [*lowest, legal[-1]]
    assert shortened > 20


@pytest.mark.parametrize("game_id", GAMES)
def test_only_a_playout_plays_the_quicker_rule(game_id):
    """Outside a playout the policy weighs every move (Standard's choice is its own); inside,
    the likely few, and always legally."""
    module = GAMES[game_id]
    differed = 0
    for spec, state, decision in decisions(game_id, 8):
        seat, legal = decision.seat, state.legal_actions(decision.seat)
        view = state.view(seat)
        standard = spec.ai.choose(seat, view, decision, legal, random.Random(0))
        assert standard == spec.ai.ranked(seat, view, decision, legal, random.Random(0))[0]
        with rolling_out():
            quick = spec.ai.choose(seat, view, decision, legal, random.Random(0))
        assert state.can(seat, quick)
        table = module.table_for(seat, view)
        likely = likely_moves(module.SENSE, table, judged(game_id, state, seat))
        assert quick in likely
        differed += quick != standard
    assert differed > 0  # the rule is in force in playouts
