"""The bracket picture: PNGs that open at sane sizes, and a layout that says the right things."""

from __future__ import annotations

import io
from itertools import pairwise

from PIL import Image

from bot.discord.tournament_picture import (
    BOX_W,
    MAX_WIDTH,
    TEXT_PX,
    Box,
    Layout,
    bracket_png,
    fit,
    font,
    layout,
)
from bot.store.tournaments import Entry, MatchRecord, Progress


def entries(count: int) -> list[Entry]:
    return [Entry(m, f"Player {m}", m, seed_rank=m) for m in range(1, count + 1)]


def knockout(count: int, rounds_to_play: int | None = None) -> Progress:
    """Heads-up elimination of `count` (a power of two): seeds 1 v 2, 3 v 4, ... the
    first seat always wins; `rounds_to_play` rounds are finished, the next one drawn only."""
    field, matches, number = list(range(1, count + 1)), [], 1
    while len(field) > 1:
        played = rounds_to_play is None or number <= rounds_to_play
        pairs = [tuple(field[i : i + 2]) for i in range(0, len(field), 2)]
        for table, pair in enumerate(pairs, 1):
            matches.append(MatchRecord(number, table, pair, 1, placings=(1, 2) if played else None))
        if not played:
            break
        field, number = [pair[0] for pair in pairs], number + 1
    return Progress(entries(count), {}, matches)


def six_with_a_bye() -> Progress:
    """Six players at three tables; three go on, so seed 1 has a bye in round 2."""
    matches = [
        MatchRecord(1, 1, (1, 6), 1, placings=(1, 2)),
        MatchRecord(1, 2, (2, 5), 1, placings=(2, 1)),  # 5 beats 2
        MatchRecord(1, 3, (3, 4), 1, placings=(1, 2)),
        MatchRecord(2, 1, (3, 5), 1, placings=(1, 2)),
        MatchRecord(3, 1, (1, 3), 1, placings=(2, 1)),  # 3 beats 1 in the final
    ]
    return Progress(entries(6), {2: (1,)}, matches)


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image


def boxes(plan: Layout, kind: str) -> list[Box]:
    return [box for box in plan.boxes if box.kind == kind]


def champion_texts(progress: Progress) -> list[str]:
    return [" ".join(box.texts) for box in boxes(layout(progress), "champion")]


def test_eight_players_fully_played_make_a_sane_picture() -> None:
    image = opened(bracket_png(knockout(8)))
    # Three rounds and the champion side by side, each column about a box wide.
    assert 3 * BOX_W < image.width <= MAX_WIDTH
    assert 300 < image.height < 1200


def test_columns_are_titled_by_round_with_the_final_last() -> None:
    titles = [box.texts[0] for box in boxes(layout(knockout(8)), "title")]
    assert titles == ["Round 1", "Round 2", "Final"]


def test_the_champion_is_named_once_the_final_is_played() -> None:
    assert champion_texts(knockout(8)) == ["Champion: (1) Player 1"]
    assert champion_texts(six_with_a_bye()) == ["Champion: (3) Player 3"]


def test_no_champion_while_the_final_is_playing() -> None:
    progress = knockout(8, rounds_to_play=2)
    assert champion_texts(progress) == []
    final = boxes(layout(progress), "table")[-1]
    assert final.texts[-1] == "playing"


def test_a_bye_is_listed_under_its_round() -> None:
    plan = layout(six_with_a_bye())
    (bye,) = boxes(plan, "bye")
    assert bye.texts == ["bye: (1) Player 1"]
    title = next(box for box in boxes(plan, "title") if box.round == 2)
    assert bye.x == title.x  # in round 2's column
    opened(bracket_png(six_with_a_bye()))


def test_each_link_goes_to_the_next_round_box_holding_a_winner() -> None:
    for progress in (knockout(8), six_with_a_bye(), knockout(16, rounds_to_play=2)):
        plan = layout(progress)
        for link in plan.links:
            assert link.target.round == link.source.round + 1
            assert link.source.went_on & set(link.target.members)
            assert link.start == (link.source.x + link.source.w, link.source.middle)
            assert link.end == (link.target.x, link.target.middle)
            assert link.start[0] < link.bend < link.end[0]
        # Every table that finished before the last round links on.
        finished = [b for b in boxes(plan, "table") if b.went_on]
        assert {id(box) for box in finished} <= {id(link.source) for link in plan.links}


def test_the_bye_links_to_the_table_its_player_sits_at() -> None:
    plan = layout(six_with_a_bye())
    (bye,) = boxes(plan, "bye")
    first = boxes(plan, "table")[0]  # seed 1 won it, then had the bye
    assert first.members == (1, 6) and first.went_on == {1}
    assert [link.target for link in plan.links if link.source is first] == [bye]
    targets = [link.target for link in plan.links if link.source is bye]
    assert [(box.round, box.members) for box in targets] == [(3, (1, 3))]


def test_winners_are_bright_and_the_others_dimmed() -> None:
    table = next(box for box in boxes(layout(six_with_a_bye()), "table") if box.members == (2, 5))
    assert [(line.text, line.style) for line in table.lines] == [
        ("(2) Player 2", "out"),
        ("(5) Player 5", "on"),
    ]


def test_a_bracket_mid_round() -> None:
    progress = knockout(8, rounds_to_play=1)
    progress.matches[4].placings = (2, 1)  # round 2, table 1 is over; table 2 still playing
    plan = layout(progress)
    live = [box for box in boxes(plan, "table") if box.texts[-1] == "playing"]
    assert [(box.round, box.number) for box in live] == [(2, 2)]
    assert not live[0].went_on
    assert champion_texts(progress) == []
    opened(bracket_png(progress))


def test_planned_rounds_get_columns_before_they_are_drawn() -> None:
    plan = layout(knockout(8, rounds_to_play=0), rounds_planned=3)
    assert [box.texts[0] for box in boxes(plan, "title")] == ["Round 1", "Round 2", "Final"]
    assert [box.round for box in boxes(plan, "planned")] == [2, 3]
    opened(bracket_png(knockout(8, rounds_to_play=0), rounds_planned=3))


def test_a_result_changes_the_picture() -> None:
    playing = knockout(8, rounds_to_play=2)
    finished = knockout(8)
    assert bracket_png(playing) != bracket_png(finished)


def test_a_member_who_left_is_marked() -> None:
    progress = knockout(8)
    progress.entries[7].withdrawn = True  # seed 8, out in round 1
    texts = [text for box in boxes(layout(progress), "table") for text in box.texts]
    assert "(8) Player 8 (left)" in texts


def test_sixty_four_players_grow_tall_but_not_too_wide() -> None:
    small, large = opened(bracket_png(knockout(8))), opened(bracket_png(knockout(64)))
    assert large.width <= MAX_WIDTH
    assert large.height > 4 * small.height
    assert large.width > small.width  # three more columns


def test_boxes_in_a_column_never_overlap() -> None:
    plan = layout(knockout(64))
    columns: dict[int, list[Box]] = {}
    for box in plan.boxes:
        columns.setdefault(box.x, []).append(box)
    for column in columns.values():
        column.sort(key=lambda box: box.y)
        for upper, lower in pairwise(column):
            assert upper.y + upper.h <= lower.y
    assert all(box.x + box.w <= plan.width for box in plan.boxes)


def test_unicode_and_long_names_are_cut_to_fit() -> None:
    progress = knockout(8)
    progress.entries[0].name = "🃏🂡 王者 ✨ Ångström\u200d👩‍👩‍👧 " * 6
    progress.entries[1].name = "x" * 300
    progress.entries[2].name = "line\nbreak\x00"
    plan = layout(progress)
    texts = [text for box in plan.boxes for text in box.texts]
    assert any(text.startswith("(2) xxx") and text.endswith("…") for text in texts)
    assert "(3) line break" in texts
    assert any(text.startswith("(1) 🃏🂡 王者 ✨ Angstrom") for text in texts)  # no accents
    table = boxes(plan, "table")[0]
    for text in table.texts:
        assert font(TEXT_PX).getlength(text) <= table.w
    opened(bracket_png(progress))


def test_nothing_drawn_yet_still_makes_a_picture() -> None:
    progress = Progress(entries(4))
    assert [box.texts for box in layout(progress).boxes] == [["Final"], ["to be drawn"]]
    opened(bracket_png(progress))


def test_fit_leaves_short_text_alone_and_cuts_long_text() -> None:
    assert fit("Ann", 200) == "Ann"
    cut = fit("Bartholomew the Magnificent", 80)
    assert cut.endswith("…") and len(cut) < 20
    assert not fit("ab\u0301" * 20, 40).endswith("\u0301…")  # never half a letter
