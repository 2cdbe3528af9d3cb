"""The web pages speak the language of the member the link was given to (their Discord app's,
or their /language choice): every word of every page comes from the catalogs, as the tests'
pseudo-language shows (tests/pseudo.py), and a Spanish member's link opens Spanish pages. The
404 page, which knows no link, speaks the browser's language."""

from __future__ import annotations

import re

import pytest

from bot.i18n import _, speaking
from tests.pseudo import english_in, installed
from tests.web.site import page_text, serve_pages, web_links
from tests.web.test_pages_e2e import closed_lowball_table, history_link, replay_link

BRAND = "Card Table"  # the product's name, in every language
LINKED = re.compile(r'href="(/[0-9]+/[^"?]+\?[^"]+)"')


@pytest.fixture
def pseudo():
    with installed() as code:
        yield code


async def test_every_word_of_every_page_comes_from_the_catalogs(pseudo, world):
    site = await serve_pages(world)
    table_id = await closed_lowball_table(world)  # played in English
    await world.bot.speakers.store.set_server(world.guild.id, pseudo)
    world.bob.locale = "en-GB"  # bob's Discord app speaks the pseudo-language
    table_page = await history_link(world, site)
    assert "l=qps" in table_page
    board = await world.tester.slash(world.bob, world.channel, "leaderboard")
    stats = await world.tester.slash(world.bob, world.channel, "stats")
    pages = [table_page, *(site.local(web_links(r.response)[0]) for r in (board, stats))]
    _status, html, _headers = await site.get(table_page)
    pages.append(replay_link(site, html))
    _status, html, _headers = await site.get(pages[1])
    pages += [site.base + link.replace("&amp;", "&") for link in LINKED.findall(html)[:3]]
    names = [member.name for member in world.members.values()]
    for page in pages:
        status, html, _headers = await site.get(page)
        assert status == 200, page
        assert 'lang="qps"' in html
        left = english_in(page_text(html).replace(BRAND, " "), names)
        assert not left, f"{page} has words no catalog wrote: {left}"
    assert table_id


async def test_a_spanish_members_link_opens_spanish_pages_and_a_bad_one_the_browsers_404(world):
    site = await serve_pages(world)
    world.bob.locale = "es-ES"
    board = await world.tester.slash(world.bob, world.channel, "leaderboard")
    (link,) = web_links(board.response)
    with speaking("es"):
        label, title, missing = _("Open on the web"), _("Chip leaderboard"), _("Page not found")
    assert board.response.button(label)
    status, html, _headers = await site.get(site.local(link))
    assert status == 200 and 'lang="es"' in html and f"<h1>{title}</h1>" in html
    status, html, _headers = await site.get(
        site.base + "/1/board/chips", **{"Accept-Language": "de-CH;q=0.5, es-419, en;q=0.8"}
    )
    assert status == 404 and f"<h1>{missing}</h1>" in html and 'lang="es"' in html
