"""A tournament's Start and /tournament cancel are answered within Discord's 3 s however long
their work takes. Start answers once the first round is drawn, its tables opening after (a
thread, a message and its players called, per table, under Discord's limits): a 64-player
field's Start, its 32 tables opened before the answer, went unanswered ("This interaction
failed") though the tournament started. A cancel of a tournament in play is acknowledged
before its tables close, each finishing its hand."""

import asyncio

from bot.store.tournaments import TournamentStatus
from tests.discord.test_tournament_e2e import (
    add_players,
    audit,
    balance,
    big_two_in_play,
    create,
    register,
    status,
    tournament_message,
    wait_for_round,
)
from tests.fakediscord.server import ANSWER_WITHIN

SLOWER_THAN_AN_ANSWER = ANSWER_WITHIN + 0.5


async def test_start_is_answered_while_the_first_rounds_tables_open(world, monkeypatch):
    players = add_players(world, 4)
    tournament = await create(world, game="bigtwo", format="elimination", buy_in=20)
    await register(world, players)
    presenter = world.bot.tournament_presenter
    make_thread = presenter.match_channel

    async def slow_thread(*args):  # as a large field's threads come under Discord's limits
        monkeypatch.setattr(presenter, "match_channel", make_thread)  # the first one only
        await asyncio.sleep(SLOWER_THAN_AN_ANSWER)
        return await make_thread(*args)

    monkeypatch.setattr(presenter, "match_channel", slow_thread)
    reply = await world.tester.click(world.admin, tournament_message(world), "Start")

    assert "has started" in reply.text, reply.text
    assert await status(world, tournament) == TournamentStatus.PLAYING
    matches = await wait_for_round(world, tournament, 1)
    assert sorted(p for m in matches for p in m.players) == sorted(p.id for p in players)
    await world.tester.idle(timeout=2 * SLOWER_THAN_AN_ANSWER)
    assert all(world.fake.channels[m.thread_id].parent_id == world.channel.id for m in matches)


async def test_a_cancel_in_play_is_acknowledged_before_its_tables_close(world, monkeypatch):
    tournament, players, matches = await big_two_in_play(world)
    lobby = world.bot.tournaments.lobby
    close = lobby.close

    async def slow_close(*args, **kwargs):  # as many tables each finishing a hand
        monkeypatch.setattr(lobby, "close", close)  # the first one only
        await asyncio.sleep(SLOWER_THAN_AN_ANSWER)
        return await close(*args, **kwargs)

    monkeypatch.setattr(lobby, "close", slow_close)
    reply = await world.tester.slash(world.admin, world.channel, "tournament cancel")

    assert reply.response_type == 5  # "thinking...", then the answer
    await world.tester.idle(timeout=3 * SLOWER_THAN_AN_ANSWER)
    assert reply.response.ephemeral
    assert (
        reply.response.text() == f"Tournament #{tournament} is cancelled; every buy-in went back."
    )
    assert all(m.table_id not in world.bot.runtime.core.tables for m in matches)
    assert [await balance(world, p) for p in players] == [1000] * 4
    await audit(world)
