"""The web pages in a real browser (headless Chromium, tests/web/browser.py), on a phone's
screen: each page renders with its stylesheet and script (the content security policy lets
them, and nothing logs an error), the replay's First / Prev / Next / End move through its
steps, the skill chart is drawn, no page scrolls sideways, a bad link shows the 404 page, and
no card the channel never saw is anywhere in the DOM."""

from __future__ import annotations

import re

import pytest

from tests.discord.test_history_e2e import labels_of, replayed_hand
from tests.discord.test_lowball_e2e import ALICE
from tests.tables_e2e import names_in
from tests.web.browser import PHONE
from tests.web.site import web_links
from tests.web.test_pages_e2e import closed_lowball_table, history_link, replay_link, serve_pages
from tests.web.test_tournament_page_e2e import play_an_elimination, tournament_message

pytestmark = pytest.mark.browser

SIDEWAYS = "return document.documentElement.scrollWidth - window.innerWidth"
SHOWN_STEPS = "return [...document.querySelectorAll('.step')].filter(s => !s.hidden).map(s => s.id)"
WHERE = "return document.querySelector('.where').textContent"
DOM = "return document.documentElement.outerHTML"
HEADING = "return document.querySelector('h1').textContent"


async def assert_fits_a_phone(browser, url: str) -> str:
    """Opens `url`: it renders with no error logged and no sideways scroll; its heading."""
    await browser.open(url)
    assert await browser.run("return window.innerWidth") == PHONE[0]
    assert await browser.run(SIDEWAYS) <= 0, f"{url} scrolls sideways on a phone"
    assert await browser.run("return getComputedStyle(document.body).backgroundColor") == (
        "rgb(30, 31, 34)"
    ), "the stylesheet was not applied"
    assert await browser.errors() == []
    return await browser.run(HEADING)


async def test_the_pages_on_a_phone_with_the_replay_moving_step_by_step(world, browser):
    site = await serve_pages(world)
    table_id = await closed_lowball_table(world)
    table_url = await history_link(world, site)
    heading = await assert_fits_a_phone(browser, table_url)
    assert heading == f"Triple Draw Lowball · table {table_id}"
    table_page = await browser.run(DOM)

    await assert_fits_a_phone(browser, replay_link(site, table_page))
    steps = len((await replayed_hand(world, table_id)).steps)
    assert await browser.run(SHOWN_STEPS) == ["step-1"]
    assert await browser.run(WHERE) == f"1 / {steps}"
    await browser.click('[data-move="next"]')
    await browser.click('[data-move="next"]')
    assert await browser.run(SHOWN_STEPS) == ["step-3"]
    await browser.click('[data-move="prev"]')
    assert await browser.run(SHOWN_STEPS) == ["step-2"]
    await browser.click('[data-move="end"]')
    assert await browser.run(SHOWN_STEPS) == [f"step-{steps}"]
    assert await browser.run("return document.querySelector('[data-move=\"next\"]').disabled")
    await browser.click('[data-move="first"]')
    assert await browser.run(WHERE) == f"1 / {steps}"
    dom = await browser.run(DOM)
    assert not names_in(re.sub(r"<[^>]+>", " ", dom), labels_of(ALICE)), "alice's folded hand"

    board = await world.tester.slash(world.bob, world.channel, "leaderboard")
    assert await assert_fits_a_phone(browser, site.local(web_links(board.response)[0])) == (
        "Chip leaderboard"
    )
    stats = await world.tester.slash(world.bob, world.channel, "stats")
    assert await assert_fits_a_phone(browser, site.local(web_links(stats.response)[0])) == (
        "Skill ratings of Bob"
    )
    chart = (
        "const c = document.querySelector('svg.chart'); return c && c.getBoundingClientRect().width"
    )
    assert await browser.run(chart) > 300

    await browser.open(table_url.replace(f"/table/{table_id}?", f"/table/{table_id + 1}?"))
    assert await browser.run(HEADING) == "Page not found"


async def test_a_tournaments_bracket_and_a_games_board_on_a_phone(world, browser):
    site = await serve_pages(world)
    tournament = await play_an_elimination(world)
    (link,) = web_links(tournament_message(world))
    heading = await assert_fits_a_phone(browser, site.local(link))
    assert heading == f"Big Two tournament #{tournament}"
    bracket = "return document.querySelector('svg.bracket').getBoundingClientRect().width"
    assert 300 < await browser.run(bracket) <= PHONE[0]
    board = await world.tester.slash(world.admin, world.channel, "leaderboard", game="bigtwo")
    heading = await assert_fits_a_phone(browser, site.local(web_links(board.response)[0]))
    assert heading == "Big Two leaderboard"
    rows = "return document.querySelectorAll('table.board tbody tr').length"
    assert await browser.run(rows) == 4  # the four players' match results
