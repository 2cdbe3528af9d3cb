"""An elimination tournament's bracket as SVG: the boxes and lines the PNG's layout places
(bot/discord/tournament_picture.py), drawn by the browser, so it scales to a phone's width."""

from __future__ import annotations

from markupsafe import Markup, escape

from bot.discord.tournament_picture import LINE_H, PAD, Layout


def bracket_svg(plan: Layout, label: str) -> Markup:
    parts = [
        f'<svg class="bracket" viewBox="0 0 {plan.width} {plan.height}" role="img"'
        f' xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>'
    ]
    for link in plan.links:
        (x1, y1), (x2, y2), bend = link.start, link.end, link.bend
        parts.append(
            f'<polyline class="link" points="{x1},{y1} {bend},{y1} {bend},{y2} {x2},{y2}"/>'
        )
    for box in plan.boxes:
        if box.kind != "title":
            playing = " playing" if box.lines[-1].style == "playing" else ""
            parts.append(
                f'<rect class="box {box.kind}{playing}" x="{box.x}" y="{box.y}" width="{box.w}"'
                f' height="{box.h}" rx="8"/>'
            )
        inset = 0 if box.kind == "title" else PAD
        for index, line in enumerate(box.lines):
            y = box.y + inset + index * LINE_H + LINE_H // 2
            parts.append(
                f'<text class="{line.style}" x="{box.x + inset}" y="{y}">{escape(line.text)}</text>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))
