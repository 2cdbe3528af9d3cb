"""The web pages end to end, over HTTP: a Triple Draw Lowball hand played through the fake
Discord (alice folds, bob and carol show down; tests/discord/test_history_e2e.py), the table
closed, then its pages opened by the links the bot gives in /table history, /leaderboard and
/stats. A bad link of any kind answers the same 404; a page holds no card the channel never
saw; names are escaped; every answer carries its security headers; a greedy client is slowed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from bot.web.links import Links
from tests.discord.test_history_e2e import labels_of, play_to_the_showdown, replayed_hand, state_at
from tests.discord.test_lowball_e2e import ALICE
from tests.tables_e2e import card_names, names_in
from tests.web.site import SECRET, page_text, serve_pages, web_links

STEP = re.compile(
    r'<li class="step" id="step-([0-9]+)">(.*?)</li>\s*(?=<li class="step"|</ol>)', re.S
)
REPLAY = re.compile(r'href="(/[0-9]+/hand/[^"]+)"')


async def closed_lowball_table(world) -> int:
    table_id = await play_to_the_showdown(world)
    closed = await world.tester.slash(world.alice, world.channel, "table close")
    assert "The table is closed" in closed.text, closed.text
    return table_id


async def history_link(world, site) -> str:
    listed = await world.tester.slash(world.bob, world.channel, "table history")
    links = web_links(listed.response)
    assert len(links) == 1, listed.response.buttons()
    return site.local(links[0])


def replay_link(site, table_page: str) -> str:
    found = REPLAY.search(table_page)
    assert found, table_page
    return site.base + found[1].replace("&amp;", "&")


@pytest.mark.both_backends  # the pages' reads on SQLite and PostgreSQL
async def test_a_closed_tables_page_lists_its_hands_and_how_to_verify_them(world):
    site = await serve_pages(world)
    table_id = await closed_lowball_table(world)
    status, html, _headers = await site.get(await history_link(world, site))
    assert status == 200, html
    text = page_text(html)
    assert f"Triple Draw Lowball · table {table_id}" in text
    assert "hand 1 : Bob won · Alice ±0 chips, Bob +2 chips, Carol -2 chips" in text
    record = await world.bot.runtime.store.load(table_id)
    assert record.deal_seed and record.deal_seed in text and record.deal_commitment in text


async def test_the_replay_shows_every_step_as_the_channel_saw_it_and_no_hidden_card(world):
    site = await serve_pages(world)
    table_id = await closed_lowball_table(world)
    _status, table_page, _headers = await site.get(await history_link(world, site))
    status, html, _headers = await site.get(replay_link(site, table_page))
    assert status == 200, html
    hand = await replayed_hand(world, table_id)
    steps = STEP.findall(html)
    assert [int(number) for number, _step in steps] == list(range(1, len(hand.steps) + 1))
    for number, step in steps:
        text = page_text(step)
        assert f"step {number} of {len(hand.steps)}" in text
        hidden = {
            name
            for card in state_at(hand, int(number) - 1).hidden_from(None)
            for name in card_names(card)
        }
        assert not names_in(text, hidden), f"step {number} shows hidden cards: {text}"
    whole = page_text(html)
    assert not names_in(whole, labels_of(ALICE)), "alice's folded hand is on the page"
    # The showdown shows bob's and carol's hands, as the channel saw them.
    assert "Carol shows K♥ K♣ 8♣ 6♠ 3♦" in whole and "Bob shows" in whole
    assert "Bob wins 4 chips." in whole


async def test_an_altered_expired_unsigned_or_other_servers_link_answers_the_same_404(world):
    site = await serve_pages(world)
    await closed_lowball_table(world)
    good = await history_link(world, site)
    status, _html, _headers = await site.get(good)
    assert status == 200
    path, query = good.split("?")
    fields = dict(part.split("=") for part in query.split("&"))
    other = world.fake.add_guild()
    someone_elses = Links(SECRET.encode(), site.base).url(other.id, "/table/1", "en", world.clock())
    forged = Links(b"another secret, not the bot's", site.base)
    bad = {
        "unsigned": f"{path}?l=en&x={fields['x']}",
        "signature altered": good[:-1] + ("A" if good[-1] != "A" else "B"),
        "language altered": good.replace("l=en", "l=es"),
        "expiry altered": good.replace(f"x={fields['x']}", f"x={int(fields['x']) + 60}"),
        "table altered": good.replace("/table/1?", "/table/2?"),
        "other server's table": someone_elses,
        "signed with another secret": forged.url(world.guild.id, "/table/1", "en", world.clock()),
        "unknown page": Links(SECRET.encode(), site.base).url(
            world.guild.id, "/tables", "en", world.clock()
        ),
        "nothing": site.base + "/",
    }
    answers = {what: await site.get(link) for what, link in bad.items()}
    not_found = answers["nothing"][1]
    assert "This page does not exist, or its link has expired." in not_found
    for what, (status, html, headers) in answers.items():
        assert (status, html) == (404, not_found), what
        assert "default-src 'none'" in headers["Content-Security-Policy"], what
    world.clock.now += timedelta(days=7, seconds=1)
    assert (await site.get(good))[:2] == (404, not_found), "a week-old link still opens"


async def test_a_server_manager_turns_the_pages_off_and_on(world):
    site = await serve_pages(world)
    await closed_lowball_table(world)
    link = await history_link(world, site)
    refused = await world.tester.slash(world.bob, world.channel, "table web", allowed=False)
    assert "Manage Server" in refused.text, refused.text
    assert (await site.get(link))[0] == 200
    off = await world.tester.slash(world.admin, world.channel, "table web", allowed=False)
    assert "web pages are off" in off.text, off.text
    assert (await site.get(link))[0] == 404
    listed = await world.tester.slash(world.bob, world.channel, "table history")
    assert web_links(listed.response) == []
    board = await world.tester.slash(world.bob, world.channel, "leaderboard")
    assert web_links(board.response) == []
    await world.tester.slash(world.admin, world.channel, "table web", allowed=True)
    assert (await site.get(link))[0] == 200


async def test_member_names_are_escaped_on_every_page(world):
    site = await serve_pages(world)
    world.carol.name = '<script>alert("carol")</script>&amp;'
    await closed_lowball_table(world)
    _status, table_page, _headers = await site.get(await history_link(world, site))
    _status, replay, _headers = await site.get(replay_link(site, table_page))
    board = await world.tester.slash(world.carol, world.channel, "leaderboard")
    _status, chips, _headers = await site.get(site.local(web_links(board.response)[0]))
    for html in (table_page, replay, chips):
        assert (
            "<script>" not in html
            and "&lt;script&gt;alert(&#34;carol&#34;)&lt;/script&gt;&amp;amp;" in html
        )


@pytest.mark.both_backends
async def test_the_boards_and_a_members_page_with_the_skill_chart(world):
    site = await serve_pages(world)
    await closed_lowball_table(world)
    board = await world.tester.slash(world.alice, world.channel, "leaderboard")
    status, html, _headers = await site.get(site.local(web_links(board.response)[0]))
    assert status == 200
    assert re.search(r"1 Bob 1,002 chips 2 Alice 1,000 chips 3 Carol 998 chips", page_text(html))
    lowball = re.search(r'href="(/[0-9]+/board/lowball\?[^"]+)"', html)
    assert lowball, html
    status, html, _headers = await site.get(site.base + lowball[1].replace("&amp;", "&"))
    assert "Triple Draw Lowball leaderboard" in page_text(html)
    assert "Triple Draw Lowball skill ratings" in page_text(html)
    stats = await world.tester.slash(world.alice, world.channel, "stats", member=world.bob)
    status, html, _headers = await site.get(site.local(web_links(stats.response)[0]))
    assert status == 200 and "Skill ratings of Bob" in page_text(html)
    chart = re.search(r'<svg class="chart".*?<polyline class="line" points="([^"]+)"', html, re.S)
    assert chart and len(chart[1].split()) == 1  # one rated hand: one point
    assert "1st: skill" in page_text(html)


async def test_every_answer_carries_its_security_headers_and_a_greedy_client_is_slowed(world):
    site = await serve_pages(world)
    board = await world.tester.slash(world.alice, world.channel, "leaderboard")
    link = site.local(web_links(board.response)[0])
    status, _html, headers = await site.get(link)
    assert status == 200
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    statuses = [(await site.get(link))[0] for _ in range(40)]
    assert 429 in statuses and statuses.count(200) < 40, statuses
    # Another client, behind the same reverse proxy on this host, is not slowed with it.
    status, _html, _headers = await site.get(link, **{"X-Forwarded-For": "198.51.100.7"})
    assert status == 200
