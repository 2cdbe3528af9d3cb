"""The fishing AIs' part in the Expert search (the ai.py of bot/games/porrazo, totit, turup):
their ranking of the moves begins with the Standard pick and lists the moves best first by the
policy's own scores (Turup's: its playouts' own pick second, three at most), one of each kind
of move alike (one copy of a card for another); the quick
rules played in an Expert's playouts answer legally and only there, so Standard's choices are
the same outside them; and scripted situations show the quick rules' sense."""

import random
from functools import partial

import pytest

from bot.cards import FrenchCard, parse_french
from bot.games.ai import ai_move, rolling_out
from bot.games.captures_ai import best, ranking
from bot.games.expert import Budget, search
from bot.games.porrazo import PORRAZO
from bot.games.porrazo.ai import QuickTable
from bot.games.porrazo.ai import Table as PorrazoTable
from bot.games.porrazo.records import Declare, Play
from bot.games.porrazo.rules import PorrazoState
from bot.games.totit import TOTIT
from bot.games.totit.ai import Table as TotitTable
from bot.games.totit.ai import alike as totit_alike
from bot.games.turup import TURUP, Place, TurupState
from bot.games.turup import Capture as TurupCapture
from bot.games.turup.ai import RANKED, quick_move
from bot.games.turup.ai import Table as TurupTable
from bot.games.turup.ai import alike as turup_alike
from tests.engines.test_ai_levels import blind_and_shaped, states_along_a_match

SPECS = {"totit": TOTIT, "porrazo": PORRAZO, "turup": TURUP}


def decisions(game: str, seeds: range):
    """(state, seat) at every required decision of Standard self-play hands (three players),
    a fresh copy each."""
    spec = SPECS[game]
    assert spec.ai is not None
    for seed in seeds:
        state = spec.new_match(None, [0, 0, 0], seed)
        rng = random.Random(seed)
        while not state.is_over() and not state.awaiting_next_hand():
            decision = state.pending()[0]
            if not decision.optional:
                yield spec.restore(state.snapshot()), decision.seat
            action = ai_move(state, decision.seat, spec.ai, rng)
            state.apply(decision.seat, action) if action else state.close_window()


def ask(game: str, state, seat: int, seed: int, method: str = "choose"):
    policy = SPECS[game].ai
    decision = next(d for d in state.pending() if d.seat == seat)
    legal = state.legal_actions(seat)
    return getattr(policy, method)(seat, state.view(seat), decision, legal, random.Random(seed))


def standard_score(game: str, state, seat: int):
    """The Standard policy's own score of a move (its Table's)."""
    view = state.view(seat)
    table = {"totit": TotitTable, "porrazo": PorrazoTable, "turup": TurupTable}[game]
    return table(view, seat).score


def same_as(game: str):
    return {"totit": totit_alike, "turup": turup_alike}.get(game, id)


@pytest.mark.parametrize("game", SPECS)
def test_the_ranking_begins_with_the_pick_and_lists_legal_moves_best_first(game):
    ranked = 0
    for state, seat in decisions(game, range(2)):
        found = ask(game, state, seat, 7, "ranked")
        if found is None:  # Porrazo's declarations: nothing to weigh
            assert game == "porrazo"
            continue
        assert found[0] == ask(game, state, seat, 7)
        assert all(state.can(seat, action) for action in found)
        score = standard_score(game, state, seat)
        rest = found[1:]
        if game == "turup":  # the playouts' own pick comes second, and only three are kept
            assert len(found) <= RANKED
            quick = turup_alike(quick_move(state.legal_actions(seat)))
            if turup_alike(found[0]) != quick:
                assert turup_alike(found[1]) == quick
                rest = found[2:]
        scores = [score(action) for action in rest]
        assert scores == sorted(scores, reverse=True)
        assert score(found[0]) >= max(scores, default=score(found[0])) - 1e-9
        kinds = [same_as(game)(action) for action in found]
        assert len(set(kinds)) == len(kinds)
        ranked += 1
    assert ranked > 10


def test_ranking_keeps_one_of_each_move_alike_best_first():
    scores = {"a": 1.0, "b": 3.0, "B": 3.0, "c": 2.0}
    assert ranking(list(scores), scores.__getitem__, random.Random(1), same=str.lower) in (
        ["b", "c", "a"],
        ["B", "c", "a"],
    )
    assert ranking(["x", "y"], {"x": 0.0, "y": 1.0}.__getitem__, random.Random(1)) == ["y", "x"]


def test_totit_ranking_drops_the_other_copy_of_a_card():
    state = TOTIT.new_match(None, [0, 0, 0], seed=3)
    state.table = parse_french("5s 5s#2 3d")
    state.hands[0] = parse_french("5h 8d 9c")
    state.turn, state.turns = 0, [1, 1, 1]
    found = ask("totit", state, 0, 1, "ranked")
    assert len(state.legal_actions(0)) == 2  # 5♥ takes either 5♠: the same move
    assert len(found) == 1


@pytest.mark.parametrize("game", ["porrazo", "turup"])
def test_the_quick_rule_is_legal_and_played_only_in_rollouts(game):
    differs = 0
    for state, seat in decisions(game, range(2)):
        with rolling_out():
            quick = ask(game, state, seat, 3)
        assert state.can(seat, quick)
        standard = ask(game, state, seat, 3)
        differs += quick != standard
    assert differs > 0  # the playouts play their own rule


@pytest.mark.parametrize("game", SPECS)
def test_standard_choices_are_the_policy_scores_best_outside_rollouts(game):
    """Outside a playout the policy plays its Standard sense, whatever the rollout rule."""
    for state, seat in decisions(game, range(2)):
        chosen = ask(game, state, seat, 11)
        if isinstance(chosen, Declare):
            continue
        score = standard_score(game, state, seat)
        legal = state.legal_actions(seat)
        moves = TurupTable(state.view(seat), seat).moves() if game == "turup" else legal
        assert chosen == best(moves, score, random.Random(11))


# ---- the quick rules' sense ------------------------------------------------------------------


def turup(pile: str, hand: str) -> TurupState:
    state = TURUP.new_match(None, [0, 0, 0], seed=5)
    state.pile, state.hands[1] = parse_french(pile), parse_french(hand)
    state.turn = 1
    return state


def quick(state: TurupState):
    return quick_move(state.legal_actions(1))


def test_turup_quick_rule_takes_the_biggest_listed_capture():
    state = turup("As 2h 3d 4c", "10s 4h Kd")
    assert quick(state) == TurupCapture(
        card=FrenchCard.from_code("10s"), cards=parse_french("As 2h 3d 4c")
    )


def test_turup_quick_rule_places_its_lowest_card_when_nothing_is_taken():
    state = turup("7s Kh 8d", "Jc 9c 3h")
    assert quick(state) == Place(card=FrenchCard.from_code("3h"))


def test_turup_quick_rule_takes_a_small_capture_rather_than_place():
    state = turup("2s 5h 3d", "2h 9c")
    assert quick(state) == TurupCapture(card=FrenchCard.from_code("2h"), cards=parse_french("2s"))


def test_porrazo_quick_rule_plays_without_weighing_the_next_player():
    state, seat = next(
        (state, seat)
        for state, seat in decisions("porrazo", range(3))
        if len([a for a in state.legal_actions(seat) if isinstance(a, Play)]) > 3
    )
    view = state.view(seat)
    assert QuickTable(view, seat).offered(list(view.table), [], None) == 0.0
    assert PorrazoTable(view, seat).play is not None  # the Standard sense keeps its lookahead


@pytest.mark.parametrize("game", SPECS)
def test_an_expert_search_plays_a_legal_move(game):
    spec = SPECS[game]
    for index, (state, seat) in enumerate(decisions(game, range(1))):
        if index % 5:
            continue
        move, _ = search(spec, state, seat, random.Random(index), Budget(worlds=4, seconds=None))
        assert move is None or state.can(seat, move)


def declared_by_another() -> tuple[PorrazoState, int]:
    """A Porrazo state where a seat other than the one deciding has declared a set whose
    cards are all still in hand (hidden from the decider)."""
    for seed in range(30):
        for state in states_along_a_match(PORRAZO, seed, 400):
            assert isinstance(state, PorrazoState)
            seat = state.pending()[0].seat
            hidden = state.hidden_from(seat)
            if any(d.seat != seat and set(d.cards) <= hidden for d in state.declared):
                return state, seat
    raise AssertionError("nobody declared in 30 matches")


def holds_what_it_declared(world: PorrazoState, seat: int) -> bool:
    return all(
        len({card.rank for card in d.cards}) == 1 and set(d.cards) <= set(world.hands[d.seat])
        for d in world.declared
        if d.seat != seat
    )


def test_porrazo_worlds_deal_a_declarer_the_set_it_declared():
    """A ronda's rank stays hidden, but its declarer holds a pair: worlds dealt at random
    rarely say so, shaped ones always, the seat's view and the cards unchanged."""
    state, seat = declared_by_another()
    fits = partial(holds_what_it_declared, seat=seat)
    blind, fitting = blind_and_shaped(PORRAZO, state, seat, fits, 100, random.Random(5))
    assert fitting == 100 and blind < 50, (fitting, blind)
