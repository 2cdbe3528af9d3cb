"""A member's skill over their rated results, as an SVG line chart drawn on the server: no
script, no image request, and it scales to the page's width on a phone."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

from bot.i18n import decimal

WIDTH, HEIGHT = 360, 150
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 24  # room for the value labels and the axis


def skill_chart(skills: Sequence[float], label: str) -> Markup:
    """The skill after each rated result, oldest first; `label` names the chart for screen
    readers (its <title>). A single result is drawn as a point."""
    low, high = min(skills), max(skills)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(len(skills) - 1, 1)

    def y(value: float) -> float:
        return TOP + (high - value) / (high - low) * plot_h

    points = " ".join(f"{LEFT + i * step:.1f},{y(v):.1f}" for i, v in enumerate(skills))
    last_x, last_y = LEFT + (len(skills) - 1) * step, y(skills[-1])
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        f' xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}"'
        f' y2="{TOP + plot_h}"/>',
        f'<text class="tick" x="{LEFT - 6}" y="{TOP + 4}">{escape(decimal(high))}</text>',
        f'<text class="tick" x="{LEFT - 6}" y="{TOP + plot_h}">{escape(decimal(low))}</text>',
        f'<polyline class="line" points="{points}"/>',
        f'<circle class="last" cx="{last_x:.1f}" cy="{last_y:.1f}" r="3.5"/>',
        "</svg>",
    ]
    return Markup("".join(parts))
