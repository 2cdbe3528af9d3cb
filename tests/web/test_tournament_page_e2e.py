"""A tournament's web page: a four-player Big Two elimination at two-seat tables played to its
payout through the fake Discord (tests/discord/test_tournament_e2e.py's helpers), then opened
from the tournament message's link: every round, the result, the bracket drawn as SVG."""

from __future__ import annotations

import re

from bot.store.tournaments import TournamentStatus
from tests.discord.test_tournament_e2e import (
    _recorded,
    _status_is,
    add_players,
    create,
    eventually_async,
    finish_round,
    register,
    tournament_message,
    wait_for_round,
)
from tests.web.site import page_text, serve_pages, web_links


async def play_an_elimination(world, site=None) -> int:
    """Four players' Big Two elimination at two-seat tables, played to its payout (its page
    checked while registering, when `site` is given). The tournament's id."""
    players = add_players(world, 4)
    tournament = await create(
        world, game="bigtwo", format="elimination", buy_in=10, table_size=2, payout="winner"
    )
    await register(world, players)
    if site is not None:
        (link,) = web_links(tournament_message(world))
        status, html, _headers = await site.get(site.local(link))
        assert status == 200 and "Registration open" in page_text(html)
        assert "Player1, Player2, Player3, Player4" in page_text(html)
    reply = await world.tester.click(world.admin, tournament_message(world), "Start")
    assert "has started" in reply.text, reply.text
    for number in (1, 2):
        matches = await wait_for_round(world, tournament, number)
        await finish_round(world, matches)
        await eventually_async(lambda n=number: _recorded(world, tournament, n))
    await eventually_async(lambda: _status_is(world, tournament, TournamentStatus.FINISHED))
    await world.tester.idle()
    return tournament


async def test_a_finished_elimination_shows_its_rounds_result_and_bracket(world):
    site = await serve_pages(world)
    tournament = await play_an_elimination(world, site)
    (link,) = web_links(tournament_message(world))
    status, html, _headers = await site.get(site.local(link))
    assert status == 200
    text = page_text(html)
    assert f"Big Two tournament #{tournament}" in text and "Finished." in text
    assert "Round 1" in text and "Round 2" in text and "Result" in text
    progress = await world.bot.tournament_store.progress(tournament)
    champion = next(e for e in progress.entries if e.place == 1)
    assert re.search(rf"Result 1\. {champion.name} · 40 chips", text), text
    svg = re.search(r'<svg class="bracket".*?</svg>', html, re.S)
    assert svg and svg[0].count('class="box table') == 3  # two tables, then the final
    assert 'class="box champion' in svg[0] and champion.name in svg[0]
