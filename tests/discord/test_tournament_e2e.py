"""Tournaments end to end through the fake Discord (issue 52): created with /tournament new,
registered with the message's buttons (buy-ins into the tournament's pool), seated by the
bot in threads, each match finished by a moderator's /table close in its thread (the game
ranks its players by its own rules), the next round drawn from the results, and the pool paid
out; the ledger's audit after every step, and the bot restarted in each phase."""

from __future__ import annotations

import pytest

from bot.store import Ledger
from bot.store.tournaments import TournamentStatus
from tests.e2e import eventually
from tests.fakediscord import User


def tournament_messages(world) -> list:
    return [
        m
        for m in world.tester.channel_messages(world.channel)
        if any("tournament #" in embed.get("title", "") for embed in m.embeds)
    ]


def tournament_message(world):
    found = tournament_messages(world)
    assert found, "no tournament message in the channel"
    return found[-1]


def add_players(world, count: int) -> list[User]:
    return [world.fake.add_member(world.guild, f"Player{n}") for n in range(1, count + 1)]


async def audit(world) -> None:
    """balances + escrows + the house + the pools = minted - burned, now."""
    totals = await Ledger(world.bot.database, starting_chips=0).totals()
    assert totals.consistent, totals


async def balance(world, user: User) -> int:
    return await world.bot.ledger.balance(world.guild.id, user.id)


async def create(world, **options) -> int:
    reply = await world.tester.slash(world.admin, world.channel, "tournament new", **options)
    assert "is open for registration" in reply.text, reply.text
    await world.tester.idle()
    record = (await world.bot.tournament_store.of_guild(world.guild.id, limit=1))[0]
    return record.id


async def register(world, players: list[User]) -> None:
    for player in players:
        reply = await world.tester.click(player, tournament_message(world), "Register")
        assert "You are registered" in reply.text, reply.text
        await audit(world)
    await world.tester.idle()


async def current_matches(world, tournament_id: int):
    progress = await world.bot.tournament_store.progress(tournament_id)
    last = max((m.round for m in progress.matches), default=0)
    return [m for m in progress.matches if m.round == last]


async def wait_for_round(world, tournament_id: int, number: int) -> list:
    async def opened() -> bool:
        matches = await current_matches(world, tournament_id)
        return bool(matches) and matches[0].round == number and all(m.table_id for m in matches)

    await eventually_async(opened, what=f"round {number}'s tables")
    return await current_matches(world, tournament_id)


async def eventually_async(condition, timeout: float = 10.0, what: str = "it") -> None:
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await condition():
        if loop.time() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(0.02)


async def finish_round(world, matches) -> None:
    """A moderator closes every match's table in its thread: the game ranks its players."""
    for match in matches:
        thread = world.fake.channels[match.thread_id]
        reply = await world.tester.slash(world.admin, thread, "table close")
        assert reply.text.startswith("The table is closed"), reply.text
        await audit(world)
    await world.tester.idle()


async def status(world, tournament_id: int) -> TournamentStatus:
    record = await world.bot.tournament_store.load(tournament_id)
    return record.status


@pytest.mark.slow
async def test_an_eight_player_elimination_at_two_seat_tables_is_played_to_its_payout(world):
    players = add_players(world, 8)
    before = {p.id: await balance(world, p) for p in players}
    tournament = await create(
        world, game="bigtwo", format="elimination", buy_in=10, table_size=2, payout="top2"
    )
    await register(world, players[:5])
    await world.stop_bot()  # a restart while registering: nobody's buy-in is lost
    await world.start_bot()
    await register(world, players[5:])
    message = tournament_message(world)
    assert "8/16" in message.text() and "prize pool **80 chips**" in message.text()
    reply = await world.tester.click(world.admin, message, "Start")
    assert "has started" in reply.text, reply.text

    winners: list[set[int]] = [{p.id} for p in players]  # each entry: one of them goes on
    for number, tables in ((1, 4), (2, 2), (3, 1)):
        matches = await wait_for_round(world, tournament, number)
        assert len(matches) == tables
        seated = {member for m in matches for member in m.players}
        assert len(seated) == len(winners)  # a winner of each table of the round before
        assert all(len(seated & won) == 1 for won in winners)
        for match in matches:  # each in a thread of the channel, its players called there
            thread = world.fake.channels[match.thread_id]
            called = world.tester.channel_messages(thread)[0].content
            assert all(f"<@{member}>" in called for member in match.players)
        if number == 2:
            await world.stop_bot()  # a restart with tables in play: they play on
            await world.start_bot()
        await finish_round(world, matches)
        await eventually_async(
            lambda n=number: _recorded(world, tournament, n), what=f"round {number} recorded"
        )
        winners = [await table_winners(world, match) for match in matches]

    await eventually_async(
        lambda: _status_is(world, tournament, TournamentStatus.FINISHED), what="the payout"
    )
    progress = await world.bot.tournament_store.progress(tournament)
    prizes = {e.member_id: e.prize for e in progress.entries}
    champion = next(e for e in progress.entries if e.place == 1)
    assert champion.member_id in winners[0] and champion.prize == 52  # 65% of 80
    assert sum(prizes.values()) == 80 and sorted(prizes.values())[-2:] == [28, 52]
    for player in players:
        assert await balance(world, player) == before[player.id] - 10 + prizes[player.id]
    totals = await Ledger(world.bot.database, starting_chips=0).totals()
    assert totals.tournaments == 0 and totals.consistent
    await world.tester.idle()
    text = tournament_message(world).text()
    assert "Finished" in text and f"1. {champion.name}" in text


async def table_winners(world, match) -> set[int]:
    """Who placed first at the match's table, by the game's own standings (its match
    results): the one who goes on, or those tied, of whom the better seed goes on."""
    rows = await world.bot.database.fetch_all(
        "SELECT member_id FROM results WHERE table_id = ? AND scope = 'match' AND \"placing\" = 1",
        match.table_id,
    )
    return {row[0] for row in rows}


async def _recorded(world, tournament: int, number: int) -> bool:
    progress = await world.bot.tournament_store.progress(tournament)
    return all(m.placings for m in progress.matches if m.round == number)


async def _status_is(world, tournament: int, wanted: TournamentStatus) -> bool:
    return await status(world, tournament) == wanted


async def test_a_cancelled_tournament_gives_every_buy_in_back(world):
    players = add_players(world, 3)
    before = {p.id: await balance(world, p) for p in players}
    tournament = await create(
        world, game="totit", format="swiss", buy_in=25, table_size=3, start=30
    )
    (event,) = world.fake.events_of(world.guild)  # Discord reminds members of the start
    assert event["status"] == 1 and event["name"] == f"Totit tournament #{tournament}"
    await register(world, players)
    assert [await balance(world, p) for p in players] == [before[p.id] - 25 for p in players]
    refused = await world.tester.slash(world.alice, world.channel, "tournament cancel")
    assert "Only the member who created the tournament" in refused.text
    reply = await world.tester.slash(world.admin, world.channel, "tournament cancel")
    assert "cancelled; every buy-in went back" in reply.text
    assert [await balance(world, p) for p in players] == [before[p.id] for p in players]
    assert await status(world, tournament) == TournamentStatus.CANCELLED
    await audit(world)
    await world.tester.idle()
    message = tournament_message(world)
    assert "Cancelled" in message.text() and not message.buttons()
    assert [e["status"] for e in world.fake.events_of(world.guild)] == [4]  # cancelled too


async def test_every_bad_registration_gets_one_sentence_and_changes_nothing(world):
    tournament = await create(
        world, game="bigtwo", format="elimination", buy_in=600, table_size=2, max_players=2
    )
    refused = await world.tester.slash(
        world.alice, world.channel, "tournament new", game="bigtwo", format="swiss"
    )
    assert "needs Manage Server or Manage Events" in refused.text
    message = tournament_message(world)
    await world.tester.click(world.alice, message, "Register")
    twice = await world.tester.click(world.alice, message, "Register")
    assert twice.text == "You are registered already."
    await world.tester.click(world.bob, message, "Register")  # 1,000 - 600: 400 left
    full = await world.tester.click(world.carol, message, "Register")
    assert full.text == "The tournament is full (2 players)."
    not_in = await world.tester.click(world.carol, message, "Unregister")
    assert not_in.text == "You are not registered."
    await world.tester.click(world.bob, message, "Unregister")
    await world.tester.click(world.bob, message, "Unregister")
    assert await balance(world, world.bob) == 1000
    await world.bot.ledger.transfer(world.guild.id, world.carol.id, world.bob.id, 500, key="t")
    poor = await world.tester.click(world.carol, tournament_message(world), "Register")
    assert poor.text == "You have 500 chips; 600 are needed."
    await world.tester.click(world.bob, tournament_message(world), "Register")
    not_host = await world.tester.click(world.bob, tournament_message(world), "Start")
    assert "Only the member who created the tournament" in not_host.text
    await world.tester.click(world.admin, tournament_message(world), "Start")
    await wait_for_round(world, tournament, 1)
    await world.tester.idle()
    late = await world.tester.slash(world.carol, world.channel, "tournament leave")
    assert late.text == "You are not playing in this tournament."
    message = tournament_message(world)
    assert [b["label"] for b in message.buttons()] == ["Leave tournament"]
    await audit(world)


async def test_a_deleted_tournament_message_is_posted_again(world):
    await create(world, game="totit", format="swiss", table_size=3)
    first = tournament_message(world)
    await world.fake.delete_message(first)
    await eventually(lambda: tournament_messages(world), what="the message posted again")
    assert tournament_message(world).id != first.id
    assert "Register" in [b["label"] for b in tournament_message(world).buttons()]
