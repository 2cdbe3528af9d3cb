"""Soliterrapin: placement legality, scoring finished grids, the daily deck."""

import io
import random

import pytest
from PIL import Image, ImageDraw

from bot.cards import decktet
from bot.engine import HandEnded, IllegalAction
from bot.games.terrapin.soliterrapin import (
    SOLITERRAPIN,
    Abandon,
    Cell,
    Place,
    SoliterrapinOptions,
    spot_name,
)
from bot.games.terrapin.soliterrapin.picture import (
    column_names,
    render_board,
    row_names,
    text_board,
)
from bot.games.terrapin.soliterrapin.ui import SoliterrapinUI


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


def test_the_view_names_spots_around_the_first_card_and_shows_the_next_card():
    state = new()
    view = state.view(None)
    assert (view.rows, view.cols) == (3, 3)  # the first card plus room on each side
    assert sorted(spot.label for spot in view.legal) == ["E6", "F5", "F7", "G6"]  # first: F6
    assert view.next_card == state.deck[-1]
    assert state.deck[-1] not in state.hidden_from(None) and state.deck[0] in state.hidden_from(
        None
    )


def spot_names(state) -> dict[tuple[int, int], str]:
    return {(spot.row, spot.col): spot.label for spot in state.view(None).legal}


def test_names_stay_when_the_grid_grows_left_and_up():
    state = new()
    before = spot_names(state)
    placed = state.apply(0, Place(row=0, col=-1))  # left of the first card
    placed += state.apply(0, Place(row=-1, col=-1))  # then up
    assert [e.label for e in placed] == ["E6", "E5"]
    after = spot_names(state)
    assert after[(0, 1)] == before[(0, 1)] == "G6" and after[(1, 0)] == before[(1, 0)] == "F7"
    assert after[(-1, -2)] == "D5" and after[(-2, -1)] == "E4"
    header, *rows = text_board(state.view(None)).splitlines()
    assert header.split() == ["D", "E", "F", "G"]  # the first card's column is still F
    assert [row.split()[0] for row in rows[:-1]] == ["4", "5", "6", "7"]


def test_the_frame_reaches_five_lines_from_the_first_card_every_way():
    state = new()
    events = []
    for row, col in [(0, -i) for i in range(1, 6)] + [(-i, -5) for i in range(1, 6)]:
        events += state.apply(0, Place(row=row, col=col))  # left to the edge, then up to it
    assert [e.label for e in events if e.kind == "placed"][-1] == "A1"
    assert spot_name(5, 5) == "K11"  # the far corner the other way
    assert all(len(label) <= 3 for label in spot_names(state).values())


def drawn_texts(monkeypatch, view) -> list[str]:
    """Every text the picture draws, and the picture itself (a valid PNG)."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def record(self, xy, text, *args, **kwargs):
        texts.append(text)
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    png = render_board(view)
    Image.open(io.BytesIO(png)).verify()
    return texts


def test_the_picture_names_lines_and_spots_as_the_select_does(monkeypatch):
    state = new(seed=4)
    rng = random.Random(4)
    place_all(state, [(0, -1), (-1, -1), (-1, -2)])  # grown left and up
    for _ in range(5):
        place_all(state, [rng.choice(state.legal_spots())])
    view = state.view(None)
    texts = drawn_texts(monkeypatch, view)
    ui = SoliterrapinUI()
    for spot in view.legal:
        label = ui.action_label(view, Place(row=spot.row, col=spot.col))
        column, row = label[0], label[1:]
        assert label in texts and column in texts and row in texts
        assert column == column_names(view)[spot.col - view.left]
        assert row == row_names(view)[spot.row - view.top]


def test_the_picture_shows_the_card_to_place_and_the_score(monkeypatch):
    state = new(seed=2)
    view = state.view(None)
    texts = drawn_texts(monkeypatch, view)
    assert "Card to place" in texts and f"Score so far: {view.total}" in texts
    assert view.next_card.name in texts  # the card to place is drawn, named as on the board
    other = view.model_copy(update={"total": view.total + 7})
    assert render_board(other) != render_board(view)
    state.apply(0, Abandon())
    after = drawn_texts(monkeypatch, state.view(None))
    assert "Abandoned: no score" in after and "Card to place" not in after
