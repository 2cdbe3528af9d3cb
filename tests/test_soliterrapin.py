"""Soliterrapin: placement legality, scoring finished grids, the daily deck."""

import random

import pytest

from bot.cards import decktet
from bot.engine import HandEnded, IllegalAction
from bot.games.terrapin.soliterrapin import (
    SOLITERRAPIN,
    Abandon,
    Cell,
    Place,
    SoliterrapinOptions,
)


def new(seed: int = 1, daily: str | None = None):
    return SOLITERRAPIN.new_match(SoliterrapinOptions(daily=daily), [0], seed)


def place_all(state, spots):
    for row, col in spots:
        state.apply(0, Place(row=row, col=col))


def test_the_first_card_goes_down_by_itself_and_the_next_must_touch_it():
    state = new()
    assert [(c.row, c.col) for c in state.cells] == [(0, 0)] and len(state.deck) == 35
    assert state.legal_spots() == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    with pytest.raises(IllegalAction, match="must touch another card"):
        state.apply(0, Place(row=2, col=0))
    with pytest.raises(IllegalAction, match="already has a card"):
        state.apply(0, Place(row=0, col=0))


@pytest.mark.parametrize(
    ("step", "blocked"),
    [((0, 1), (0, -1)), ((0, -1), (0, 1)), ((1, 0), (-1, 0)), ((-1, 0), (1, 0))],
)
def test_the_box_grows_in_any_direction_until_a_line_has_six(step, blocked):
    state = new()
    dr, dc = step
    place_all(state, [(dr * i, dc * i) for i in range(1, 6)])  # six in a line
    assert (5 * dr + dr, 5 * dc + dc) not in state.legal_spots()  # can't grow further ahead...
    assert blocked not in state.legal_spots()  # ...nor behind the first card
    side = (dc, dr)  # sideways the box may still grow
    assert side in state.legal_spots()


def test_a_fixed_box_keeps_every_card_inside_six_by_six():
    state = new(seed=3)
    rng = random.Random(3)
    while state.deck:
        row, col = rng.choice(state.legal_spots())
        state.apply(0, Place(row=row, col=col))
    top, bottom, left, right = state.bounds()
    assert (bottom - top, right - left) == (5, 5) and len(state.cells) == 36
    assert state.is_over()


def reference_grid():
    """The deck in reference order, row by row: every row is Turtle Butt."""
    cards = decktet.deck()
    return [Cell(row=i // 6, col=i % 6, card=card) for i, card in enumerate(cards)]


def test_scoring_a_finished_grid_by_hand():
    # Rows: six Aces; 2s and 3s; 4s and 5s; 6s and 7s; 8s and 9s; six Crowns: all six suits
    # in each, so every row is Turtle Butt and scores 0.
    # Columns: A-2-4-6-8-Crown (the first three) score the A-2 straight = 2 each; A-3-5-7-9-
    # Crown (the last three) score the 9-Crown straight = 2 each; none is Turtle Butt.
    state = new()
    state.cells, state.deck = reference_grid(), []
    rows, cols = state.lines()
    assert [r.turtle_butt for r in rows] == [True] * 6 and [r.score for r in rows] == [0] * 6
    assert [c.turtle_butt for c in cols] == [False] * 6 and [c.score for c in cols] == [2] * 6
    assert state.total() == 12


def test_a_row_from_the_rule_text_scores_six_in_the_grid():
    state = new()
    row = decktet.parse("Mountain, Lunatic, Forest, Journey, Diplomat, Pact")  # 4-6-5-3-8-9
    state.cells = [Cell(row=0, col=i, card=card) for i, card in enumerate(row)]
    rows, cols = state.lines()
    top = state.window()[0]  # the window shows a row of room above the grid
    assert rows[0 - top].score == 6 and not rows[0 - top].turtle_butt
    assert all(c.score == 0 for c in cols)  # single cards score nothing


def test_the_final_score_is_recorded_with_its_variant():
    state = new(daily="2026-11-22")
    rng = random.Random(5)
    events = []
    while state.deck:
        row, col = rng.choice(state.legal_spots())
        events += state.apply(0, Place(row=row, col=col))
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.scores == [state.total()] and ended.variant == "daily:2026-11-22"
    assert ended.players == [0]


def test_abandoning_ends_the_game_without_a_score():
    state = new()
    events = state.apply(0, Abandon())
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert state.is_over() and ended.players == [] and state.default_action(0) == Abandon()


def test_the_daily_deck_is_the_same_for_everyone_and_new_each_day():
    first = new(seed=1, daily="2026-11-22")
    second = new(seed=999, daily="2026-11-22")  # another player: another table seed
    tomorrow = new(seed=1, daily="2026-11-23")
    assert first.deck == second.deck and first.cells == second.cells
    assert first.deck != tomorrow.deck
    assert new(seed=1).deck != new(seed=2).deck  # free play: random decks


def test_the_view_labels_spots_within_the_window_and_shows_the_next_card():
    state = new()
    view = state.view(None)
    assert (view.rows, view.cols) == (3, 3)  # the first card plus room on each side
    assert sorted(spot.label for spot in view.legal) == ["A2", "B1", "B3", "C2"]
    assert view.next_card == state.deck[-1]
    assert state.deck[-1] not in state.hidden_from(None) and state.deck[0] in state.hidden_from(
        None
    )
