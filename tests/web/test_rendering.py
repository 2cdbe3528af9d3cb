"""What the pages draw without the store: Discord's markdown made safe HTML, the skill chart,
the bracket, and the rate limit and client address the server goes by."""

from __future__ import annotations

import re

from bot.discord.tournament_picture import layout
from bot.i18n import speaking
from bot.i18n.pictures import drawn_by_a_browser
from bot.store.tournaments import Entry, MatchRecord, Progress
from bot.web.bracket import bracket_svg
from bot.web.chart import skill_chart
from bot.web.markdown import to_html
from bot.web.server import BURST, RateLimit
from tests.pseudo import english_in, installed


def test_markdown_becomes_tags_and_nothing_else_does():
    html = to_html("**Bob** wins *4* chips · `K♠` <@12> at <t:1796500000:f>\n~~gone~~", {12: "Eve"})
    assert html == (
        "<strong>Bob</strong> wins <em>4</em> chips · <code>K♠</code>"
        ' <span class="who">@Eve</span> at <time datetime="2026-12-05T19:46:40+00:00">'
        "2026-12-05 19:46 UTC</time><br>\n<s>gone</s>"
    )
    hostile = to_html('<script>alert(1)</script> <img src=x onerror="y"> **<b>**', {})
    assert "<script>" not in hostile and "<img" not in hostile and "<b>" not in hostile
    assert "&lt;script&gt;" in hostile and "<strong>&lt;b&gt;</strong>" in hostile
    named = to_html("<@5>", {5: "<i>Mallory</i>"})
    assert named == '<span class="who">@&lt;i&gt;Mallory&lt;/i&gt;</span>'
    assert to_html("`**not bold**`", {}) == "<code>**not bold**</code>"


def test_the_skill_chart_has_a_point_per_result_and_its_range():
    svg = skill_chart([1.0, 4.5, 2.25], "Bob's skill at Big Two")
    points = re.search(r'points="([^"]+)"', svg)[1].split()
    assert len(points) == 3
    ys = [float(point.split(",")[1]) for point in points]
    assert ys[1] < ys[2] < ys[0]  # higher skill is higher up
    assert "<title>Bob&#39;s skill at Big Two</title>" in svg
    assert ">4.5<" in svg and ">1.0<" in svg
    assert len(re.search(r'points="([^"]+)"', skill_chart([3.0], "x"))[1].split()) == 1


def test_the_bracket_is_the_pictures_layout_with_names_escaped():
    entries = [Entry(1, "<Ann>", 1, seed_rank=1), Entry(2, "Bo", 2, seed_rank=2)]
    progress = Progress(entries, matches=[MatchRecord(1, 1, (1, 2), 1, placings=(1, 2))])
    plan = layout(progress, 1)
    svg = bracket_svg(plan, "The bracket")
    assert svg.count("<rect") == sum(box.kind != "title" for box in plan.boxes)
    assert "&lt;Ann&gt;" in svg and "<Ann>" not in svg
    assert svg.count("<polyline") == len(plan.links)


def test_a_client_gets_its_burst_then_one_request_per_half_second():
    now = [100.0]
    limit = RateLimit(clock=lambda: now[0])
    assert all(limit.allow("a") for _ in range(BURST))
    assert not limit.allow("a") and limit.allow("b")
    now[0] += 0.5
    assert limit.allow("a") and not limit.allow("a")


def test_the_web_bracket_speaks_any_language_and_keeps_names_as_written():
    entries = [Entry(1, "José", 1, seed_rank=1), Entry(2, "小明", 2, seed_rank=2)]
    progress = Progress(entries, matches=[MatchRecord(1, 1, (1, 2), 1, placings=(1, 2))])
    with installed() as code, speaking(code):
        pictured = "\n".join(text for box in layout(progress, 1).boxes for text in box.texts)
        with drawn_by_a_browser():
            browsed = "\n".join(text for box in layout(progress, 1).boxes for text in box.texts)
    assert "Champion" in pictured and "Jose" in pictured  # Pillow's font: ASCII only
    assert not english_in(browsed, ["José", "小明"]) and "José" in browsed and "小明" in browsed
