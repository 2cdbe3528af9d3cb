"""An elimination tournament's bracket as a PNG (Pillow), from its saved progress alone: a
column per round, a box per table (who went on bright, the others dimmed), lines from each table
to the next round's boxes holding its winners, the champion at the right once the final is over.
`layout` places boxes and lines without drawing, so what the picture says is testable without
reading pixels; `bracket_png` draws it."""

from __future__ import annotations

import functools
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from bot.i18n.pictures import any_script, in_picture
from bot.store.tournaments import Entry, MatchRecord, Progress
from bot.tables.tournament_draws import seeds_and_withdrawn
from bot.tournaments.elimination import advancers
from bot.tournaments.model import Result, Table

# Text of 18 px or more stays legible once Discord scales a wide bracket down on a phone, and
# tapping the picture opens it at full size; 1600 px is the widest we let it grow.
TEXT_PX, TITLE_PX = 18, 20
LINE_H, PAD, BOX_GAP, COL_GAP, MARGIN, HEADER_H = 26, 10, 14, 34, 20, 44
MAX_WIDTH, BOX_W = 1600, 210
Colour = tuple[int, int, int]
BACKGROUND: Colour = (30, 31, 34)  # a shade darker than Discord's dark theme, so it stands out
BOX, EDGE, LINK = (43, 45, 49), (78, 80, 88), (104, 109, 122)
COLOURS: dict[str, Colour] = {
    **dict.fromkeys(("out", "planned"), (128, 132, 142)),
    **dict.fromkeys(("title", "bye"), (181, 186, 193)),
    "on": (242, 243, 245),  # went on
    "seated": (220, 222, 226),  # at a table still playing
    "playing": (240, 178, 50),
    "champion": (250, 204, 70),
}
BOLD = {"on", "champion", "title"}


@dataclass(frozen=True)
class Line:
    text: str
    style: str  # a key of COLOURS


@dataclass(eq=False)
class Box:
    kind: str  # "title", "table", "bye", "planned" (a round not drawn yet) or "champion"
    round: int  # the column's round (the champion's: one past the final)
    number: int  # the table's number; 0 for the other kinds
    members: tuple[int, ...]  # who sits in it: a table's seats, the byes, the champion
    lines: list[Line]
    went_on: frozenset[int] = frozenset()
    x: int = 0
    y: int = 0
    w: int = 0
    h: int = 0

    @property
    def texts(self) -> list[str]:
        return [line.text for line in self.lines]

    @property
    def middle(self) -> int:
        return self.y + self.h // 2


@dataclass(frozen=True)
class Link:
    """A line from a box's right edge to the next column's box holding one of its winners."""

    source: Box
    target: Box
    start: tuple[int, int]
    end: tuple[int, int]
    bend: int  # the x where it turns; lines into different boxes turn apart, to tell them apart


@dataclass
class Layout:
    width: int
    height: int
    boxes: list[Box] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # The font Pillow carries (as the Delphi picture uses): nothing to find on the host.
    return ImageFont.load_default(size=size)


def bracket_png(progress: Progress, rounds_planned: int | None = None) -> bytes:
    """The bracket as drawn so far (with empty columns up to `rounds_planned`), as PNG bytes."""
    plan = layout(progress, rounds_planned)
    image = Image.new("RGB", (plan.width, plan.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for link in plan.links:  # beneath the boxes, so a line never crosses a name
        draw_link(draw, link)
    for box in plan.boxes:
        draw_box(draw, box)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def layout(progress: Progress, rounds_planned: int | None = None) -> Layout:
    """Every box and line of the bracket, placed."""
    by_round: dict[int, list[MatchRecord]] = {}
    for match in sorted(progress.matches, key=lambda m: (m.round, m.number)):
        by_round.setdefault(match.round, []).append(match)
    drawn = max([*by_round, *progress.byes, 0])
    rounds = max(drawn, rounds_planned or 0, 1)
    # Only a final seats everyone left at one table (elimination.best_step).
    final_drawn = len(by_round.get(drawn, ())) == 1 and not progress.byes.get(drawn)
    champion = _champion(progress, by_round[drawn][0]) if final_drawn and drawn == rounds else None
    columns = rounds + (champion is not None)
    # A column with its gap: as wide as suits a name, narrower to keep within 1600 px.
    pitch = min(BOX_W + COL_GAP, (MAX_WIDTH - 2 * MARGIN + COL_GAP) // columns)
    names = _Names(progress.entries, pitch - COL_GAP - 2 * PAD)
    plan = Layout(width=0, height=0)
    previous: list[Box] = []
    for number in range(1, rounds + 1):
        final = number == rounds and (number > drawn or final_drawn)  # planned, or drawn
        heading = Line(
            in_picture("Final") if final else in_picture("Round {round}", round=number), "title"
        )
        _place(plan, Box("title", number, 0, (), [heading]), number, pitch)
        column = _column(progress, by_round, number, names)
        previous = _place_column(plan, previous, column, number, pitch)
    if champion is not None:
        # Two lines: the box is a column wide, and the name matters more than the word.
        lines = [Line(in_picture("Champion:"), "champion"), names.line(champion, "champion")]
        box = Box("champion", rounds + 1, 0, (champion,), lines)
        _place_column(plan, previous, [box], rounds + 1, pitch)
    plan.width = 2 * MARGIN + columns * pitch - COL_GAP
    plan.height = max(box.y + box.h for box in plan.boxes) + MARGIN
    return plan


def _champion(progress: Progress, final: MatchRecord) -> int | None:
    winners = _advancers(progress, final) if final.placings is not None else []
    return winners[0] if winners else None


def _advancers(progress: Progress, match: MatchRecord) -> list[int]:
    """A finished table's players going on, as the rules choose them (placing, then seed)."""
    assert match.placings is not None  # asked of a finished table only
    seeds, withdrawn = seeds_and_withdrawn(progress)
    seeds += [member for member in match.players if member not in seeds]  # never raise
    table = Table(match.players, match.advance)
    return advancers(table, Result(match.players, match.placings), seeds, withdrawn)


def _column(
    progress: Progress, by_round: dict[int, list[MatchRecord]], number: int, names: _Names
) -> list[Box]:
    """A round's boxes: its tables, then its byes; a round not drawn yet gets a placeholder."""
    matches, byes = by_round.get(number, []), progress.byes.get(number, ())
    if not matches and not byes:
        return [Box("planned", number, 0, (), [Line(in_picture("to be drawn"), "planned")])]
    seated_next = {m for match in by_round.get(number + 1, []) for m in match.players}
    seated_next |= set(progress.byes.get(number + 1, ()))
    boxes = [_table(progress, match, seated_next, names) for match in matches]
    if byes:
        lines = [names.line(member, "bye", bye=True) for member in byes]
        boxes.append(Box("bye", number, 0, tuple(byes), lines, frozenset(byes)))
    return boxes


def _table(progress: Progress, match: MatchRecord, seated_next: set[int], names: _Names) -> Box:
    if match.placings is None:
        went_on: frozenset[int] = frozenset()
    elif seated_next:  # the next round is drawn: who sits in it is who went on
        went_on = frozenset(seated_next.intersection(match.players))
    else:
        went_on = frozenset(_advancers(progress, match))
    finished = match.placings is not None
    lines = [
        names.line(member, "on" if member in went_on else "out" if finished else "seated")
        for member in match.players
    ]
    if not finished:
        lines.append(Line(in_picture("playing"), "playing"))
    return Box("table", match.round, match.number, match.players, lines, went_on)


def _place(plan: Layout, box: Box, column: int, pitch: int, y: int = MARGIN) -> None:
    box.x, box.y, box.w = MARGIN + (column - 1) * pitch, y, pitch - COL_GAP
    box.h = HEADER_H - MARGIN if box.kind == "title" else 2 * PAD + LINE_H * len(box.lines)
    plan.boxes.append(box)


def _place_column(
    plan: Layout, previous: list[Box], body: list[Box], column: int, pitch: int
) -> list[Box]:
    """Stacks the column's boxes, each as near the middle of its feeders as room allows."""
    feeders = {id(box): _feeders(box, previous) for box in body}
    wanted = {id(box): _middle(feeders[id(box)] or previous) for box in body}
    # Boxes nobody feeds (a first round's, the byes) go below those placed by their feeders.
    body = sorted(body, key=lambda box: (not feeders[id(box)], wanted[id(box)], box.number))
    top, lane, reach = MARGIN + HEADER_H, 0, 0
    for box in body:
        _place(plan, box, column, pitch, top)
        if feeders[id(box)] or box.kind == "planned":
            box.y = max(top, wanted[id(box)] - box.h // 2)
        top = box.y + box.h + BOX_GAP
        span = [box.middle] + [source.middle for source in feeders[id(box)]]
        # Where these lines' upright would run beside the last box's, it takes another lane.
        lane, reach = (lane + 1) % 3 if min(span) < reach else 0, max(span)
        bend = box.x - COL_GAP + COL_GAP * (2, 1, 3)[lane] // 4
        end = (box.x, box.middle)
        plan.links += [
            Link(source, box, (source.x + source.w, source.middle), end, bend)
            for source in feeders[id(box)]
        ]
    return body


def _feeders(box: Box, previous: list[Box]) -> list[Box]:
    """The previous column's boxes whose winners sit in this one."""
    return [source for source in previous if source.went_on.intersection(box.members)]


def _middle(boxes: Sequence[Box]) -> int:
    return sum(box.middle for box in boxes) // len(boxes) if boxes else 0


class _Names:
    """Members' labels: seed before the name, " (left)" after, "bye: " before a bye's, the
    name cut to fit a box."""

    def __init__(self, entries: Sequence[Entry], width: int) -> None:
        self.entries = {entry.member_id: entry for entry in entries}
        self.width = width

    def line(self, member: int, style: str = "on", *, bye: bool = False) -> Line:
        entry = self.entries.get(member)
        withdrawn = entry is not None and entry.withdrawn

        def label(name: str) -> str:
            said = in_picture("{name} (left)", name=name) if withdrawn else name
            return in_picture("bye: {name}", name=said) if bye else said

        if entry is None:  # a seat whose member is not registered: show it, don't fail
            return Line(label("?"), style)
        seed = f"({entry.seed_rank}) " if entry.seed_rank else ""
        room = self.width - _length(label(seed), style)  # the label without the name
        return Line(label(seed + fit(clean(entry.name), room, style)), style)


def clean(name: str) -> str:
    """A display name on one line (a newline would break the box), control characters gone,
    accents off: the font Pillow carries has ASCII only, and "Jose" reads better than "Jos▯"
    (a browser draws them all: `any_script`)."""
    plain = (lambda ch: ch) if any_script() else _plain
    spaced = "".join(" " if ch.isspace() else plain(ch) for ch in name)
    return "".join(ch for ch in spaced if unicodedata.category(ch) != "Cc").strip() or "?"


def _plain(ch: str) -> str:
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return base if base.isascii() and base.strip() else ch  # CJK, emoji...: kept, as boxes


def fit(text: str, width: int, style: str = "on") -> str:
    """The text, or as much of it as fits in `width` px with "…" after it."""
    if _length(text, style) <= width:
        return text
    cut = text
    # Shortened until it fits, and never ending on half a character: a joiner, a variation
    # selector or an accent without its letter.
    while cut and (
        _length(cut + "…", style) > width or unicodedata.category(cut[-1]) in ("Mn", "Me", "Cf")
    ):
        cut = cut[:-1]
    return cut.rstrip() + "…"


def _length(text: str, style: str) -> int:
    bold = 2 if style in BOLD else 0  # the stroke that makes text bold widens it
    size = TITLE_PX if style == "title" else TEXT_PX
    return int(font(size).getlength(text)) + bold


def draw_box(draw: ImageDraw.ImageDraw, box: Box) -> None:
    if box.kind != "title":
        outline = {"champion": COLOURS["champion"], "planned": BOX}.get(box.kind, EDGE)
        outline = COLOURS["playing"] if box.lines[-1].style == "playing" else outline
        fill = BACKGROUND if box.kind == "planned" else BOX
        corners = (box.x, box.y, box.x + box.w, box.y + box.h)
        draw.rounded_rectangle(corners, radius=8, fill=fill, outline=outline, width=2)
    inset = 0 if box.kind == "title" else PAD
    for index, line in enumerate(box.lines):
        colour = COLOURS[line.style]
        size = TITLE_PX if line.style == "title" else TEXT_PX
        stroke = 1 if line.style in BOLD else 0  # the one face Pillow carries has no bold
        at = (box.x + inset, box.y + inset + index * LINE_H + LINE_H // 2)
        draw.text(at, line.text, colour, font(size), "lm", stroke_width=stroke, stroke_fill=colour)


def draw_link(draw: ImageDraw.ImageDraw, link: Link) -> None:
    """Out from the right edge, down or up in the gap, into the left edge."""
    (x1, y1), (x2, y2), bend = link.start, link.end, link.bend
    draw.line([(x1, y1), (bend, y1), (bend, y2), (x2, y2)], fill=LINK, width=2, joint="curve")
