"""AI seats end to end through the fake Discord, with the test-only Banker game (a chip game
against the house) and a simple policy: the host seats and unseats AI players in the lobby,
their buy-ins come from and go back to the house, they act by themselves (never by DM), their
results are kept apart from the leaderboards and the humans' are marked, a server can turn AI
seats off, and an AI that answers wrongly or fails gets the default action."""

import asyncio
import itertools

import pytest

from tests.fakediscord.ratelimits import RateLimits
from tests.framework_cogs import load_framework_games
from tests.framework_games import BANKER
from tests.tables_e2e import TableDriver, add_ai

POLICY = BANKER.ai  # the largest bet; `fail` makes it raise


@pytest.fixture
async def games(world):
    await load_framework_games(world)
    POLICY.fail = False
    await world.bot.ledger.fund_house(world.guild.id, 1000, reason="test", key="fund")
    return world


async def settle(world) -> None:
    """Until every AI seat that may act has acted."""
    runtime = world.bot.runtime
    await world.tester.idle()
    while runtime.ai_turns:
        await asyncio.gather(*list(runtime.ai_turns))
        await world.tester.idle()


async def open_with_two_ai(world) -> TableDriver:
    driver = TableDriver(world)
    await driver.open("fwbanker new", world.alice, [], buy_in=20, hands=2, ai_delay=0)
    for _ in range(2):
        reply = await add_ai(world, world.alice, driver.message())
        assert "sits down" in reply.text
    driver.total_chips = await totals(world)
    return driver


async def totals(world) -> int:
    found = await world.bot.ledger.totals(world.guild.id)
    return found.held


@pytest.mark.both_backends
async def test_the_host_seats_ai_players_who_play_by_themselves(games):
    world = games
    ledger, guild = world.bot.ledger, world.guild.id
    driver = await open_with_two_ai(world)
    lobby = driver.message().text()
    assert "🤖 AI 1" in lobby and "🤖 AI 2" in lobby
    assert await ledger.house_balance(guild) == 1000 - 2 * 20  # their buy-ins
    refused = await add_ai(world, world.bob, driver.message())
    assert refused.text.startswith("Only the member who opened the table")
    await driver.start(world.alice)
    await settle(world)
    # Both AI seats bet at once, by themselves; only Alice is asked, by DM.
    state = driver.table.state
    assert state.bets[1] == state.bets[2] == 3 and state.bets[0] is None
    assert world.tester.dms(world.alice)
    for _ in range(2):
        await driver.press(world.alice, await driver.controls(world.alice), "Bet 1")
        await settle(world)
        if driver.table_id is not None:
            await world.bot.runtime.fire_deadline(driver.table.id)  # the pause between hands
            await settle(world)
    assert driver.table_id is None  # two hands played, the table closed
    assert (await ledger.totals(guild)).escrows == 0
    assert await totals(world) == driver.total_chips  # every chip back where it belongs
    rows = await world.bot.database.fetch_all(
        "SELECT member_id, with_ai FROM results WHERE scope = 'hand'"
    )
    assert {row[0] for row in rows} == {world.alice.id, -1, -2}
    assert all(row[1] == 1 for row in rows)  # every result of the table is marked
    board = await world.bot.leaderboards.game_standings(guild, BANKER.id, 0, 10)
    assert [standing.member_id for standing in board] == [world.alice.id]  # no AI ranked


async def test_remove_ai_and_a_server_that_turns_ai_off(games):
    world = games
    ledger, guild = world.bot.ledger, world.guild.id
    driver = await open_with_two_ai(world)
    reply = await world.tester.click(world.alice, driver.message(), "Remove AI")
    assert reply.text == "🤖 AI 2 · Standard left the table."
    assert await ledger.house_balance(guild) == 1000 - 20
    refused = await world.tester.slash(world.bob, world.channel, "table ai", allowed=False)
    assert "Manage Server" in refused.text
    done = await world.tester.slash(world.admin, world.channel, "table ai", allowed=False)
    assert "turned off" in done.text
    refused = await add_ai(world, world.alice, driver.message())
    assert refused.text == "AI players are turned off on this server."
    await world.tester.slash(world.admin, world.channel, "table ai", allowed=True)
    reply = await add_ai(world, world.alice, driver.message())
    assert reply.text == "🤖 AI 2 · Standard sits down."


async def test_an_ai_that_fails_plays_the_default(games):
    world = games
    driver = await open_with_two_ai(world)
    POLICY.fail = True
    for _ in range(2):
        world.expect_error_log("fw_banker AI failed; the default action is played")
    await driver.start(world.alice)
    await settle(world)
    state = driver.table.state
    default = state.default_action(1).chips
    assert state.bets[1] == state.bets[2] == default  # the AI never blocks the table


async def test_the_table_closes_when_only_ai_players_are_left(games):
    world = games
    driver = await open_with_two_ai(world)
    await driver.start(world.alice)
    await settle(world)
    await driver.press(world.alice, await driver.controls(world.alice), "Bet 1")
    await settle(world)
    await driver.leave(world.alice)  # between hands: she leaves, and so do the AI players
    await settle(world)
    assert driver.table_id is None
    assert (await world.bot.ledger.totals(world.guild.id)).escrows == 0
    assert await totals(world) == driver.total_chips


async def test_a_human_and_three_ai_players_play_crash_to_the_end_within_discords_pace(world):
    """The real Crash AI: three AI seats set their hands at once, without delay; the table's
    message is edited no more than once a second (Discord allows about five edits in five
    seconds), the burst shown by one later edit."""
    world.bot.presenter.messages.edit_seconds = 1.0
    message_id = await crash_with_three_ai(world)
    assert "Crash" in world.tester.channel_messages(world.channel)[-1].text()  # standings
    edits = [
        call.at
        for call in world.fake.calls
        if call.method == "PATCH" and call.path.endswith(f"/messages/{message_id}")
    ]
    assert len(edits) >= 2
    gaps = [later - earlier for earlier, later in itertools.pairwise(edits)]
    assert min(gaps) >= 0.95, gaps


@pytest.mark.both_backends
async def test_ai_players_go_on_after_a_restart(world):
    driver = TableDriver(world)
    await driver.open("crash new", world.alice, [], ai_delay=10)
    await add_ai(world, world.alice, driver.message())
    await driver.start(world.alice)
    assert world.bot.runtime.ai_turns  # the AI is thinking (for ten seconds)
    await world.stop_bot()
    await world.start_bot()
    await world.tester.idle()
    runtime = world.bot.runtime
    assert runtime.ai_turns  # after the restart it thinks again
    table = driver.table
    table.record.ai_delay = 0
    for turn in list(runtime.ai_turns):
        turn.cancel()
    runtime.scheduler.arm(table)  # its deadline as it was, and the AI woken again at once
    await settle(world)
    assert table.state.sets[1] is not None and table.state.sets[0] is None  # the AI has set


async def crash_with_three_ai(world) -> int:
    """Alice and three AI players at a one-hand Crash table, played to the end (Alice times
    out: her default set); returns the table message's id."""
    driver = TableDriver(world)
    await driver.open("crash new", world.alice, [], target=1, ai_delay=0)
    for _ in range(3):
        await add_ai(world, world.alice, driver.message())
    message_id = driver.table.record.message_id
    await driver.start(world.alice)
    while driver.table_id is not None:
        await settle(world)
        if driver.table_id is not None and driver.table.required_seats() == [0]:
            await world.bot.runtime.fire_deadline(driver.table.id)
    await settle(world)
    return message_id


async def test_ai_players_acting_at_once_draw_no_429_from_a_rate_limited_discord(world):
    """With Discord's limits enforced by the fake, the paced table message never hits them."""
    limits = world.enforce_discords_limits()
    world.bot.presenter.messages.edit_seconds = 1.0
    await crash_with_three_ai(world)
    assert limits.limited == []


def test_the_fake_enforces_five_edits_in_five_seconds_per_channel():
    limits = RateLimits()
    edit = ["channels", "7", "messages", "9"]
    answers = [limits.check("PATCH", edit) for _ in range(5)]
    assert [wait for wait, _ in answers] == [None] * 5
    assert [headers["X-RateLimit-Remaining"] for _, headers in answers] == list("43210")
    wait, headers = limits.check("PATCH", edit)
    assert 4.9 < wait <= 5  # the sixth edit waits for the window to reset
    assert "X-RateLimit-Global" not in headers
    assert limits.check("POST", ["channels", "7", "messages"])[0] is None  # its own bucket
    assert limits.check("PATCH", ["channels", "8", "messages", "1"])[0] is None


def test_the_fake_enforces_fifty_calls_a_second_in_all():
    limits = RateLimits()
    answers = [limits.check("GET", ["channels", str(n)]) for n in range(50)]
    assert all(wait is None for wait, _ in answers)
    wait, headers = limits.check("PATCH", ["channels", "99", "messages", "1"])
    assert 0.9 < wait <= 1 and headers["X-RateLimit-Global"] == "true"
