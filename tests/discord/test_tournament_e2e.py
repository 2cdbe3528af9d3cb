"""Tournaments end to end through the fake Discord (issue 52): created with /tournament new,
registered with the message's buttons (buy-ins into the tournament's pool), seated by the
bot in threads, each match finished by a moderator's /table close in its thread (the game
ranks its players by its own rules), the next round drawn from the results, and the pool paid
out; the ledger's audit after every step, and the bot restarted in each phase."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from PIL import Image

from bot.discord.tournament_picture import layout
from bot.store import Ledger
from bot.store.tournaments import TournamentStatus
from tests.e2e import eventually
from tests.fakediscord import User

pytestmark = pytest.mark.both_backends  # the tournament's store on SQLite and PostgreSQL


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
        world,
        game="bigtwo",
        format="elimination",
        buy_in=10,
        table_size=2,
        payout="top2",
        start=60,
    )
    await register(world, players[:5])
    await world.stop_bot()  # a restart while registering: nobody's buy-in is lost
    await world.start_bot()
    await register(world, players[5:])
    message = tournament_message(world)
    assert "8/16" in message.text() and "prize pool **80 chips**" in message.text()
    assert not message.attachments  # no bracket before the first round is drawn
    reply = await world.tester.click(world.admin, message, "Start")  # before its time
    assert "has started" in reply.text, reply.text
    await world.tester.idle()
    assert [e["status"] for e in world.fake.events_of(world.guild)] == [2]  # active

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
    assert [e["status"] for e in world.fake.events_of(world.guild)] == [3]  # completed
    (attachment,) = tournament_message(world).attachments  # the bracket, drawn to the end
    assert attachment["filename"] == "bracket.png"
    picture = Image.open(io.BytesIO(world.fake.uploads[attachment["id"]]))
    assert picture.format == "PNG"
    assert picture.size == (layout(progress, 3).width, layout(progress, 3).height)
    champion_box = layout(progress).boxes[-1]
    assert champion_box.kind == "champion" and champion_box.members == (champion.member_id,)


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
    listed = await world.tester.slash(world.bob, world.channel, "tournament list")
    assert f"#{tournament} Totit, swiss, buy-in 25 chips: cancelled" in listed.text
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
    for action, refusal in (
        ("register", "Registration has closed: registration is only open before the start."),
        ("unregister", "The tournament has started: registration is only open before the start."),
    ):  # a modified client sends the buttons the message no longer shows
        forged = await world.tester.forge(
            world.alice, world.channel, f"tourney:{action}:{tournament}", message=message
        )
        assert forged.text == refusal
    elsewhere = await world.tester.forge(
        world.carol, world.channel, f"tourney:register:{tournament + 1}", message=message
    )
    assert elsewhere.text == "There is no such tournament."
    assert await balance(world, world.alice) == 400 and await balance(world, world.carol) == 500
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


def points(placings: list[int], place: int) -> int:
    """README's Swiss points for a place at a table, ties sharing the mean of their places'
    points rounded down (written here again from README, not taken from the bot)."""
    size = len(placings)
    tied = [p for p in range(place, place + placings.count(place))]
    return sum(3 * (size - p) // (size - 1) for p in tied) // len(tied)


async def table_points(world, match) -> dict[int, int]:
    rows = await world.bot.database.fetch_all(
        "SELECT member_id, \"placing\" FROM results WHERE table_id = ? AND scope = 'match'",
        match.table_id,
    )
    placings = [row[1] for row in rows]
    return {row[0]: points(placings, row[1]) for row in rows}


@pytest.mark.slow
async def test_a_nine_player_three_round_swiss_at_three_seat_tables_is_played_to_its_payout(
    world,
):
    players = add_players(world, 9)
    before = {p.id: await balance(world, p) for p in players}
    tournament = await create(
        world, game="totit", format="swiss", buy_in=10, table_size=3, rounds=3, payout="top3"
    )
    await register(world, players)
    await world.tester.click(world.admin, tournament_message(world), "Start")
    leaver = None
    totals: dict[int, int] = {p.id: 0 for p in players}
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        matches = await wait_for_round(world, tournament, number)
        seated = [member for m in matches for member in m.players]
        assert all(len(m.players) in (2, 3) for m in matches)
        assert leaver not in seated and len(seated) == len(set(seated))
        pairs = {frozenset((a, b)) for m in matches for a in m.players for b in m.players if a < b}
        if number == 2:
            assert not pairs & met  # nobody meets an opponent of round 1 again
            await world.stop_bot()  # a restart with the round's tables in play
            await world.start_bot()
        met |= pairs
        if number == 1:  # one player leaves: their match finishes with them away
            leaver = matches[0].players[0]
            left = await world.tester.slash(
                world.fake.users[leaver], world.channel, "tournament leave"
            )
            assert left.text.startswith("You left the tournament"), left.text
        await finish_round(world, matches)
        await eventually_async(
            lambda n=number: _recorded(world, tournament, n), what=f"round {number} recorded"
        )
        for match in matches:
            for member, won in (await table_points(world, match)).items():
                totals[member] += won
        progress = await world.bot.tournament_store.progress(tournament)
        for member in progress.byes.get(number, ()):
            totals[member] += 3
        await world.tester.idle()
        assert "Standings" in tournament_message(world).text()
        assert not tournament_message(world).attachments  # a swiss has a table, no bracket

    await eventually_async(
        lambda: _status_is(world, tournament, TournamentStatus.FINISHED), what="the payout"
    )
    progress = await world.bot.tournament_store.progress(tournament)
    ranked = sorted(progress.entries, key=lambda e: e.place)
    staying = [e for e in ranked if e.member_id != leaver]
    assert ranked[-1].member_id == leaver and ranked[-1].prize == 0  # forfeited the rest
    by_points = [totals[e.member_id] for e in staying]
    assert by_points == sorted(by_points, reverse=True)  # places follow the points
    assert [e.prize for e in staying[:3]] == [45, 27, 18]  # 50/30/20 of 90
    for entry in progress.entries:
        assert await balance(world, world.fake.users[entry.member_id]) == (
            before[entry.member_id] - 10 + entry.prize
        )
    await audit(world)
    stats = await world.tester.slash(world.fake.users[staying[0].member_id], world.channel, "stats")
    assert "1st of 9 at Totit" in stats.text
    rated = await world.bot.database.fetch_all(
        "SELECT COUNT(*) FROM ratings WHERE game_id = 'totit' AND matches > 0"
    )
    assert rated[0][0] == 9  # every match rated its players, as at any table


async def test_a_deleted_match_thread_ends_the_match_as_it_stood(world):
    tournament = await create(world, game="bigtwo", format="elimination", table_size=2)
    await register(world, [world.alice, world.bob])
    await world.tester.click(world.admin, tournament_message(world), "Start")
    (match,) = await wait_for_round(world, tournament, 1)
    await world.tester.idle()
    await world.fake.delete_channel(world.fake.channels[match.thread_id])
    await eventually_async(
        lambda: _status_is(world, tournament, TournamentStatus.FINISHED), what="the end"
    )
    await world.tester.idle()
    told = world.tester.dms(world.alice)[-1].content
    assert told == "The thread of your Big Two match was deleted, so the match ended as it stood."
    winners = await table_winners(world, match)
    progress = await world.bot.tournament_store.progress(tournament)
    assert next(e for e in progress.entries if e.place == 1).member_id in winners


async def test_a_chip_match_ends_after_its_hands_and_a_late_one_when_its_time_is_up(world):
    players = add_players(world, 4)
    tournament = await create(
        world,
        game="lowball",
        format="elimination",
        table_size=2,
        hands_per_match=1,
        match_minutes=5,
        table_chips=100,
    )
    await register(world, players)
    await world.tester.click(world.admin, tournament_message(world), "Start")
    first, second = await wait_for_round(world, tournament, 1)
    # Nobody at the first table shows: every turn times out, each seat is played for as away
    # after its second, to the hand's end.
    for _ in range(100):
        if first.table_id not in world.bot.runtime.core.tables:
            break
        await world.bot.runtime.fire_deadline(first.table_id)
        await world.tester.idle()
    assert first.table_id not in world.bot.runtime.core.tables  # closed after its one hand
    seats = await world.bot.database.fetch_all(
        "SELECT away FROM table_seats WHERE table_id = ?", first.table_id
    )
    assert [bool(row[0]) for row in seats] == [True, True]  # who never showed was played for
    thread = world.fake.channels[first.thread_id]
    assert any(
        "The match is over (it has played its hands)" in m.text()
        for m in world.tester.channel_messages(thread)
    )
    await world.stop_bot()
    world.clock.now += timedelta(minutes=6)  # the second table ran out of time meanwhile
    await world.start_bot()
    await eventually_async(lambda: _recorded(world, tournament, 1), what="both matches ended")
    await wait_for_round(world, tournament, 2)
    await world.tester.idle()
    late = world.tester.channel_messages(world.fake.channels[second.thread_id])
    assert any("The match is over (its time ran out)" in m.text() for m in late)
    hands = await world.bot.database.fetch_all(
        "SELECT COUNT(*) FROM results WHERE table_id = ? AND scope = 'hand' AND chip_net != 0",
        first.table_id,
    )
    assert hands[0][0] == 2  # tournament chips changed hands: no chips won on the board
    board = await world.bot.leaderboards.game_standings(world.guild.id, "lowball", 0, 10)
    assert board == []
    await audit(world)


class Crash(Exception):
    """The process dies here: nothing after this point of the step happens."""


def crash_on_call(world, owner, name: str, call: int, logged: str) -> None:
    """`owner.name` dies on its `call`th call (counting from 1); the bot logs it as `logged`
    (where a process would have died)."""
    real, calls = getattr(owner, name), []

    async def dying(*args, **kwargs):
        calls.append(1)
        if len(calls) == call:
            raise Crash(name)
        return await real(*args, **kwargs)

    setattr(owner, name, dying)
    world.expect_error_log(logged)


async def test_a_crash_while_seating_a_round_seats_it_once_after_the_restart(world):
    players = add_players(world, 4)
    tournament = await create(world, game="bigtwo", format="elimination", table_size=2)
    await register(world, players)
    presenter = world.bot.tournament_presenter
    crash_on_call(world, presenter, "match_channel", 2, "tournament work failed")
    await world.tester.click(world.admin, tournament_message(world), "Start")
    await world.tester.idle()
    opened = [m for m in await current_matches(world, tournament) if m.table_id]
    assert len(opened) == 1  # the second table's thread was being made when it died
    await world.stop_bot()
    await world.start_bot()
    matches = await wait_for_round(world, tournament, 1)
    assert matches[0].table_id == opened[0].table_id  # the first match kept its table
    seated = sorted(member for m in matches for member in m.players)
    assert seated == sorted(p.id for p in players)
    rows = await world.bot.database.fetch_all(
        "SELECT COUNT(*) FROM game_tables WHERE tournament_id = ?", tournament
    )
    assert rows[0][0] == 2  # a table a match, none twice
    await audit(world)


async def test_a_crash_while_paying_out_pays_once_after_the_restart(world):
    players = add_players(world, 2)
    before = {p.id: await balance(world, p) for p in players}
    tournament = await create(world, game="bigtwo", format="elimination", buy_in=50)
    await register(world, players)
    crash_on_call(world, world.bot.tournament_store, "finish", 1, "tournament work failed")
    await world.tester.click(world.admin, tournament_message(world), "Start")
    await finish_round(world, await wait_for_round(world, tournament, 1))
    await eventually_async(lambda: _recorded(world, tournament, 1), what="the final recorded")
    await world.tester.idle()
    assert await status(world, tournament) == TournamentStatus.PLAYING  # died paying out
    await audit(world)
    await world.stop_bot()
    await world.start_bot()
    await eventually_async(
        lambda: _status_is(world, tournament, TournamentStatus.FINISHED), what="the payout"
    )
    after = [await balance(world, p) for p in players]
    assert sorted(a - before[p.id] for a, p in zip(after, players, strict=True)) == [-50, 50]
    await world.stop_bot()  # and again: nothing is paid twice
    await world.start_bot()
    await world.tester.idle()
    assert [await balance(world, p) for p in players] == after
    await audit(world)


async def test_without_threads_or_events_the_matches_play_in_the_channel(world):
    world.fake.forbid_threads(world.channel)
    world.fake.forbid_events(world.guild)
    tournament = await create(world, game="bigtwo", format="elimination", start=10)
    assert world.fake.events_of(world.guild) == []  # no Manage Events: no reminder, no error
    await register(world, [world.alice, world.bob])
    await world.tester.click(world.admin, tournament_message(world), "Start")
    (match,) = await wait_for_round(world, tournament, 1)
    assert match.thread_id == world.channel.id
    await world.tester.idle()
    called = [m for m in world.tester.channel_messages(world.channel) if "starts now" in m.content]
    assert f"<@{world.alice.id}>" in called[0].content
    shown = await world.tester.slash(world.bob, world.channel, "tournament show")
    assert shown.text == "Here it comes, at the bottom of the channel."
    await world.tester.idle()
    assert world.tester.channel_messages(world.channel)[-1].id == tournament_message(world).id


async def big_two_in_play(world) -> tuple[int, list[User], list]:
    """A Big Two tournament of four, buy-in 20, its first round's tables in play: its id, its
    players and its matches."""
    players = add_players(world, 4)
    tournament = await create(world, game="bigtwo", format="elimination", buy_in=20)
    await register(world, players)
    await world.tester.click(world.admin, tournament_message(world), "Start")
    matches = await wait_for_round(world, tournament, 1)
    await world.tester.idle()
    return tournament, players, matches


async def test_cancelling_a_tournament_in_play_closes_its_tables_and_refunds(world):
    tournament, players, matches = await big_two_in_play(world)
    reply = await world.tester.slash(world.admin, world.channel, "tournament cancel")
    assert reply.text == f"Tournament #{tournament} is cancelled; every buy-in went back."
    await world.tester.idle()
    assert all(m.table_id not in world.bot.runtime.core.tables for m in matches)
    assert [await balance(world, p) for p in players] == [1000] * 4
    assert await status(world, tournament) == TournamentStatus.CANCELLED
    await audit(world)


async def rate(world, member: User, mu: float, sigma: float) -> None:
    async def write(tx) -> None:
        await tx.run(
            "INSERT INTO ratings (guild_id, game_id, member_id, mu, sigma, matches, wins)"
            " VALUES (?, 'bigtwo', ?, ?, ?, 5, 2)",
            world.guild.id,
            member.id,
            mu,
            sigma,
        )

    await world.bot.database.step(write)


async def test_players_are_seeded_by_skill_and_the_top_seeds_meet_last(world):
    players = add_players(world, 4)
    await rate(world, players[3], 30.0, 2.0)  # skill 24: the first seed
    await rate(world, players[2], 25.0, 3.0)  # skill 16: the second
    tournament = await create(world, game="bigtwo", format="elimination")
    await register(world, players)
    await world.tester.click(world.admin, tournament_message(world), "Start")
    matches = await wait_for_round(world, tournament, 1)
    seeds = {e.member_id: e.seed_rank for e in (await world.bot.tournament_store.progress(
        tournament)).entries}  # fmt: skip
    assert seeds[players[3].id] == 1 and seeds[players[2].id] == 2
    assert sorted(sorted(seeds[m] for m in match.players) for match in matches) == [
        [1, 4],
        [2, 3],
    ]


async def test_a_timed_start_begins_by_itself_or_cancels_with_too_few_players(world):
    players = add_players(world, 2)
    enough = await create(world, game="bigtwo", format="elimination", start=1)
    await register(world, players)
    lonely = await create(world, game="bigtwo", format="elimination", buy_in=40, start=1)
    await world.tester.click(world.alice, tournament_message(world), "Register")
    await world.stop_bot()
    world.clock.now += timedelta(minutes=2)  # both starts came while the bot was down
    await world.start_bot()
    await wait_for_round(world, enough, 1)
    await eventually_async(
        lambda: _status_is(world, lonely, TournamentStatus.CANCELLED), what="the cancel"
    )
    record = await world.bot.tournament_store.load(lonely)
    assert record.note == "too_few:1"  # kept as a code, said in the message in its language
    assert await balance(world, world.alice) == 1000
    await world.tester.idle()
    assert "Too few players to start" in tournament_message(world).text()
    await audit(world)
