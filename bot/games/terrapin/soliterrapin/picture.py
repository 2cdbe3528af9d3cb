"""The Soliterrapin board as a PNG (Pillow) and as text, drawn from the view alone.

Every shape is drawn here: a card is a rounded rectangle with its rank, its name and a small
glyph per suit (no third-party card art). Above the board: the card to place and the score so
far. Rows and columns show their names (the same the selects use) and running scores at the
edges; Turtle Butt lines are marked in red; open spots show the name to choose them by.
Rendering is CPU work: callers run it off the event loop.
"""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw, ImageFont

from bot.cards.decktet import ACE, CROWN, Suit
from bot.games.terrapin.soliterrapin import SoliterrapinView, column_name, row_name
from bot.i18n import Np_, _, p_
from bot.i18n.pictures import in_picture

CELL_W, CELL_H, GAP = 84, 104, 6
BAND_H = CELL_H + 4 * GAP  # the strip above the board: the card to place and the score
SCORE_BAND_H = 44  # the strip once every card is down: the score alone
MARGIN_LEFT, MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM = 34, 34, 56, 40
TABLE_GREEN = (31, 81, 48)
FELT_LINE = (62, 115, 80)
OPEN_SPOT = (250, 219, 95)
TURTLE_RED = (224, 49, 49)
INK = (33, 37, 41)
PAPER = (248, 249, 250)
SUIT_COLOURS = {
    Suit.MOONS: (59, 91, 219),
    Suit.SUNS: (245, 159, 0),
    Suit.WAVES: (16, 152, 173),
    Suit.LEAVES: (47, 158, 68),
    Suit.WYRMS: (201, 42, 42),
    Suit.KNOTS: (112, 72, 232),
}
# The board's letters for suits and ranks, each said with p_("decktet initial", letter).
SUIT_LETTERS = {
    Suit.MOONS: Np_("decktet initial", "M"),
    Suit.SUNS: Np_("decktet initial", "S"),
    Suit.WAVES: Np_("decktet initial", "W"),
    Suit.LEAVES: Np_("decktet initial", "L"),
    Suit.WYRMS: Np_("decktet initial", "Y"),
    Suit.KNOTS: Np_("decktet initial", "K"),
}


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


INITIAL_CONTEXT = "decktet initial"
RANK_LETTERS = {ACE: Np_("decktet initial", "A"), CROWN: Np_("decktet initial", "C")}


def rank_text(rank: int) -> str:
    letter = RANK_LETTERS.get(rank)
    return str(rank) if letter is None else p_(INITIAL_CONTEXT, letter)


def suit_text(suit: Suit) -> str:
    return p_(INITIAL_CONTEXT, SUIT_LETTERS[suit])


def render_board(view: SoliterrapinView) -> bytes:
    board = draw_board(view)
    band = BAND_H if view.next_card is not None else SCORE_BAND_H
    image = Image.new("RGB", (board.width, band + board.height), TABLE_GREEN)
    image.paste(board, (0, band))
    draw_band(ImageDraw.Draw(image), view, band)
    # A 64-colour palette keeps the PNG small (~20 KB) and quick to encode (~30 ms).
    palette = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def draw_board(view: SoliterrapinView) -> Image.Image:
    """The grid with its cards, open spots, line names and running line scores."""
    width = MARGIN_LEFT + view.cols * (CELL_W + GAP) + MARGIN_RIGHT
    height = MARGIN_TOP + view.rows * (CELL_H + GAP) + MARGIN_BOTTOM
    image = Image.new("RGB", (width, height), TABLE_GREEN)
    draw = ImageDraw.Draw(image)
    small, label = font(14), font(18)
    for index, name in enumerate(column_names(view)):
        x = cell_x(index) + CELL_W // 2
        draw.text((x, MARGIN_TOP // 2), name, fill=PAPER, font=label, anchor="mm")
    for index, name in enumerate(row_names(view)):
        y = cell_y(index) + CELL_H // 2
        draw.text((MARGIN_LEFT // 2, y), name, fill=PAPER, font=label, anchor="mm")
    for row in range(view.rows):
        for col in range(view.cols):
            box = (cell_x(col), cell_y(row), cell_x(col) + CELL_W, cell_y(row) + CELL_H)
            draw.rounded_rectangle(box, radius=8, outline=FELT_LINE, width=1)
    for spot in view.legal:
        box = cell_box(view, spot.row, spot.col)
        draw.rounded_rectangle(box, radius=8, outline=OPEN_SPOT, width=3)
        centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
        draw.text(centre, spot.label, fill=OPEN_SPOT, font=label, anchor="mm")
    for cell in view.cells:
        draw_card(draw, cell_box(view, cell.row, cell.col), cell.card, small)
    for line in view.row_scores:
        y = cell_y(line.index) + CELL_H // 2
        draw_score(draw, (width - MARGIN_RIGHT // 2 - 2, y), line, label)
    for line in view.col_scores:
        x = cell_x(line.index) + CELL_W // 2
        draw_score(draw, (x, height - MARGIN_BOTTOM // 2), line, label)
    return image


def column_names(view: SoliterrapinView) -> list[str]:
    """The names of the columns shown, left to right (a spot's name is column then row)."""
    return [column_name(view.left + index) for index in range(view.cols)]


def row_names(view: SoliterrapinView) -> list[str]:
    return [row_name(view.top + index) for index in range(view.rows)]


def score_line(view: SoliterrapinView) -> str:
    if view.abandoned:
        return in_picture("Abandoned: no score")
    if view.next_card:
        return in_picture("Score so far: {score}", score=view.total)
    return in_picture("Final score: {score}", score=view.total)


def turtle_butt_mark(*, drawn: bool = False) -> str:
    """A Turtle Butt line's score, in two letters (in English where a picture can't draw
    the language's: bot/i18n/pictures.py)."""
    mark = p_("Turtle Butt, in two letters", "TB")
    return "TB" if drawn and not mark.isascii() else mark


def draw_band(draw: ImageDraw.ImageDraw, view: SoliterrapinView, height: int) -> None:
    """Above the board: the card to place, drawn like the cards on the board, and the score,
    so a phone shows everything needed to choose in one picture."""
    text_x, middle = MARGIN_LEFT, height // 2
    if view.next_card is not None:
        box = (MARGIN_LEFT, middle - CELL_H // 2, MARGIN_LEFT + CELL_W, middle + CELL_H // 2)
        draw_card(draw, box, view.next_card, font(14))
        text_x += CELL_W + 14
        title = in_picture("Card to place")
        draw.text((text_x, middle - 16), title, fill=OPEN_SPOT, font=font(18), anchor="lm")
        middle += 16
    draw.text((text_x, middle), score_line(view), fill=PAPER, font=font(22), anchor="lm")


def cell_x(col: int) -> int:
    return MARGIN_LEFT + col * (CELL_W + GAP)


def cell_y(row: int) -> int:
    return MARGIN_TOP + row * (CELL_H + GAP)


def cell_box(view: SoliterrapinView, row: int, col: int) -> tuple[int, int, int, int]:
    x, y = cell_x(col - view.left), cell_y(row - view.top)
    return x, y, x + CELL_W, y + CELL_H


def draw_score(draw: ImageDraw.ImageDraw, at: tuple[int, int], line, face) -> None:
    text, colour = (
        (turtle_butt_mark(drawn=True), TURTLE_RED) if line.turtle_butt else (str(line.score), PAPER)
    )
    draw.text(at, text, fill=colour, font=face, anchor="mm")


def draw_card(draw: ImageDraw.ImageDraw, box, card, face) -> None:
    left, top, right, bottom = box
    draw.rounded_rectangle(box, radius=8, fill=PAPER, outline=INK, width=2)
    # The letter as its code writes it: the picture's font draws ASCII only (bot/i18n/pictures)
    drawn_rank = RANK_LETTERS.get(card.rank, str(card.rank))
    draw.text((left + 8, top + 4), drawn_rank, fill=INK, font=font(24))
    count = len(card.suits)
    for index, suit in enumerate(card.suits):
        cx = left + (right - left) * (index + 1) // (count + 1)
        draw_suit(draw, suit, (cx, top + 56), 15)
    name = card.name if len(card.name) <= 10 else card.name.split()[-1]
    draw.text(((left + right) // 2, bottom - 12), name, fill=INK, font=face, anchor="mm")


def draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, centre: tuple[int, int], r: int) -> None:
    """A small glyph per suit, drawn from plain shapes."""
    x, y = centre
    colour = SUIT_COLOURS[suit]
    points: list[tuple[float, float]]  # the outline of waves, leaves or wyrms
    if suit is Suit.MOONS:  # a crescent: a disc with a paper disc bitten out of it
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        draw.ellipse((x - r + 7, y - r - 2, x + r + 5, y + r - 4), fill=PAPER)
    elif suit is Suit.SUNS:  # a disc with eight rays
        for step in range(8):
            angle = step * math.pi / 4
            draw.line(
                (x, y, x + r * math.cos(angle), y + r * math.sin(angle)), fill=colour, width=3
            )
        draw.ellipse((x - r + 6, y - r + 6, x + r - 6, y + r - 6), fill=colour)
    elif suit is Suit.WAVES:  # three wavy lines
        for offset in (-8, 0, 8):
            points = [(x - r + i, y + offset + 3 * math.sin(i / 3)) for i in range(0, 2 * r + 1, 2)]
            draw.line(points, fill=colour, width=3)
    elif suit is Suit.LEAVES:  # a leaf: a pointed oval with its vein
        points = [
            (x + r * math.cos(t / 10) * 0.9, y + r * math.sin(t / 10) ** 3 * 0.6) for t in range(63)
        ]
        draw.polygon([(px, py - (px - x) * 0.6) for px, py in points], fill=colour)
        draw.line((x - r, y + r * 0.6, x + r * 0.8, y - r * 0.5), fill=PAPER, width=2)
    elif suit is Suit.WYRMS:  # a serpent: a thick zigzag
        points = [
            (x - r, y + r),
            (x - r / 2, y - r / 2),
            (x, y + r / 2),
            (x + r / 2, y - r / 2),
            (x + r, y - r),
        ]
        draw.line(points, fill=colour, width=4, joint="curve")
    else:  # Knots: two linked rings
        draw.ellipse((x - r, y - r / 2, x + 2, y + r / 2), outline=colour, width=3)
        draw.ellipse((x - 2, y - r / 2, x + r, y + r / 2), outline=colour, width=3)


def text_board(view: SoliterrapinView) -> str:
    """The same board as text (for screen readers and when images are off): each card as its
    rank and suit initials (M S W L Y(wyrms) K), `+` an open spot, `·` an empty one."""
    grid = {(c.row, c.col): c.card for c in view.cells}
    spots = {(s.row, s.col) for s in view.legal}
    header = "    " + "".join(f"{name:<5}" for name in column_names(view))
    lines = [header]
    for name, line in zip(row_names(view), view.row_scores, strict=True):
        row = view.top + line.index
        cells = []
        for col in range(view.left, view.left + view.cols):
            card = grid.get((row, col))
            if card:
                cells.append(
                    f"{rank_text(card.rank)}{''.join(suit_text(s) for s in card.suits):<4}"
                )
            else:
                cells.append(f"{'+' if (row, col) in spots else '·':<5}")
        score = turtle_butt_mark() if line.turtle_butt else str(line.score)
        lines.append(f"{name:>2}  {''.join(cells)} {score}")
    columns = " ".join(
        turtle_butt_mark() if c.turtle_butt else str(c.score) for c in view.col_scores
    )
    lines.append(_("columns: {scores}", scores=columns))
    return "\n".join(lines)
