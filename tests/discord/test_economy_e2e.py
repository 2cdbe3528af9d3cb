"""Every economy command end to end: the real discord.py client against the fake Discord."""

from datetime import timedelta

import pytest

from bot.store import Ledger
from tests.fakediscord import DiscordClientRefuses


async def balance_of(world, user) -> int:
    return await world.bot.ledger.balance(world.guild.id, user.id)


async def assert_conserved(world, total: int) -> None:
    totals = await world.bot.ledger.totals(world.guild.id)
    assert totals.consistent and totals.balances + totals.escrows == total


async def test_balance_starts_with_the_starting_chips_in_one_rest_call(world):
    before = len(world.fake.calls)
    reply = await world.tester.slash(world.alice, world.channel, "balance")
    assert reply.text == "You have 1,000 chips."
    assert not reply.response.ephemeral
    await world.tester.idle()
    assert len(world.fake.calls) - before == 1  # just the interaction callback


async def test_balance_of_another_member_and_of_a_bot(world):
    reply = await world.tester.slash(world.alice, world.channel, "balance", member=world.bob)
    assert reply.text == f"{world.bob.mention} has 1,000 chips."
    refused = await world.tester.slash(world.alice, world.channel, "balance", member=world.robot)
    assert refused.response.ephemeral and refused.text == "Bots don't hold chips."


@pytest.mark.both_backends
async def test_daily_once_per_utc_day(world):
    first = await world.tester.slash(world.alice, world.channel, "daily")
    midnight = int((world.clock.now.replace(hour=0) + timedelta(days=1)).timestamp())
    assert (
        first.text
        == f"You collected 100 chips and now have 1,100 chips. Come back <t:{midnight}:R>."
    )
    again = await world.tester.slash(world.alice, world.channel, "daily")
    assert again.response.ephemeral
    assert (
        again.text
        == f"You already collected today's chips. The next ones are ready <t:{midnight}:R>."
    )
    assert await balance_of(world, world.alice) == 1100
    world.clock.now += timedelta(hours=9)  # 00:00 UTC the next day
    await world.tester.slash(world.alice, world.channel, "daily")
    assert await balance_of(world, world.alice) == 1200
    await assert_conserved(world, 1200)


async def test_give_moves_chips(world):
    reply = await world.tester.slash(
        world.alice, world.channel, "give", member=world.bob, amount=250
    )
    assert (
        reply.text
        == f"{world.alice.mention} gave 250 chips to {world.bob.mention}. You have 750 chips left."
    )
    assert [await balance_of(world, m) for m in (world.alice, world.bob)] == [750, 1250]
    await assert_conserved(world, 2000)


@pytest.mark.both_backends
async def test_give_more_than_you_have_is_refused_and_changes_nothing(world):
    reply = await world.tester.slash(
        world.alice, world.channel, "give", member=world.bob, amount=5000
    )
    assert reply.response.ephemeral
    assert reply.text == "You have 1,000 chips; 5,000 are needed."
    assert [await balance_of(world, m) for m in (world.alice, world.bob)] == [1000, 1000]


@pytest.mark.parametrize(
    ("target", "message"),
    [("alice", "You can't give chips to yourself."), ("robot", "Bots don't hold chips.")],
)
async def test_give_to_yourself_or_a_bot_is_refused(world, target, message):
    reply = await world.tester.slash(
        world.alice, world.channel, "give", member=world.members[target], amount=5
    )
    assert reply.response.ephemeral and reply.text == message
    assert await balance_of(world, world.alice) == 1000


@pytest.mark.parametrize("amount", [0, -5, 1_000_000_001])
async def test_out_of_range_amounts_cannot_even_be_sent(world, amount):
    # The command declares min 1 / max 1e9, so Discord's client refuses before the bot sees it.
    with pytest.raises(DiscordClientRefuses, match="amount must be in"):
        await world.tester.slash(
            world.alice, world.channel, "give", member=world.bob, amount=amount
        )


async def test_admin_grants_chips(world):
    reply = await world.tester.slash(
        world.admin, world.channel, "chips grant", member=world.bob, amount=500
    )
    assert reply.text == f"Granted 500 chips to {world.bob.mention}, who now has 1,500 chips."
    await assert_conserved(world, 2500)  # minted: the admin's and bob's start, and the grant


async def test_granting_opens_the_admins_own_account_so_they_are_ranked(world):
    await world.tester.slash(world.admin, world.channel, "chips grant", member=world.bob, amount=5)
    assert await world.bot.leaderboards.standing(world.guild.id, world.admin.id) is not None
    board = await world.tester.slash(world.carol, world.channel, "leaderboard")
    assert f"<@{world.admin.id}> · 1,000 chips" in board.response.embeds[0]["description"]


async def test_a_member_without_manage_server_cannot_grant(world):
    chips = next(c for c in world.fake.commands[None] if c["name"] == "chips")
    assert chips["default_member_permissions"] == 32  # hidden from non-admins in Discord too
    reply = await world.tester.slash(
        world.alice, world.channel, "chips grant", member=world.alice, amount=500
    )
    assert reply.response.ephemeral
    assert reply.text == "You need the Manage Server permission to do that."
    assert await balance_of(world, world.alice) == 1000


async def seat_players(world, count: int) -> list:
    players = [world.fake.add_member(world.guild, f"Player {i}") for i in range(count)]
    for index, player in enumerate(players):
        await world.bot.ledger.grant(
            world.guild.id, player.id, (index + 1) * 10, reason="test", key=f"seed:{index}"
        )
    return players


@pytest.mark.both_backends
async def test_leaderboard_pages_and_shows_your_rank(world):
    players = await seat_players(world, 12)  # chips 1010, 1020, ... 1120
    reply = await world.tester.slash(world.alice, world.channel, "leaderboard")
    embed = reply.response.embeds[0]
    lines = embed["description"].splitlines()
    assert len(lines) == 10 and lines[0] == f"**1.** <@{players[-1].id}> · 1,120 chips"
    assert embed["footer"]["text"] == "Page 1 of 2"
    assert reply.response.button("Previous")["disabled"] is True
    page_two = await world.tester.click(world.bob, reply.response, "Next")
    embed = page_two.response.embeds[0]
    assert embed["footer"]["text"] == "Page 2 of 2"
    assert embed["description"].splitlines() == [
        f"**11.** <@{players[1].id}> · 1,020 chips",
        f"**12.** <@{players[0].id}> · 1,010 chips",
        f"**13.** <@{world.alice.id}> · 1,000 chips",
    ]
    # The rank shown is the one who turned the page (Bob, who has no chips yet), not Alice's.
    assert (
        embed["fields"][0]["value"]
        == f"<@{world.bob.id}> has no chips here yet: /balance opens an account."
    )
    assert page_two.response.button("Next")["disabled"] is True


async def test_turning_a_page_of_someone_elses_board_shows_your_own_rank(world):
    await seat_players(world, 12)
    await world.tester.slash(world.alice, world.channel, "give", member=world.bob, amount=500)
    board = await world.tester.slash(world.alice, world.channel, "leaderboard")
    mine = f"<@{world.alice.id}> is #14 with 500 chips."
    assert board.response.embeds[0]["fields"][0]["value"] == mine
    page_two = await world.tester.click(world.bob, board.response, "Next")
    bobs = f"<@{world.bob.id}> is #1 with 1,500 chips."
    assert page_two.response.embeds[0]["fields"][0]["value"] == bobs
    back = await world.tester.click(world.alice, page_two.response, "Previous")
    assert back.response.embeds[0]["fields"][0]["value"] == mine


async def test_leaderboard_buttons_work_after_a_restart(world):
    await seat_players(world, 12)
    reply = await world.tester.slash(world.alice, world.channel, "leaderboard")
    await world.stop_bot()
    await world.start_bot()
    page_two = await world.tester.click(world.carol, reply.response, "Next")
    assert page_two.response.embeds[0]["footer"]["text"] == "Page 2 of 2"


async def test_an_unexpected_error_is_logged_and_the_user_told_nothing_changed(world, monkeypatch):
    async def broken(*_args, **_kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Ledger, "transfer", broken)
    world.expect_error_log("unexpected error in /give")
    reply = await world.tester.slash(world.alice, world.channel, "give", member=world.bob, amount=5)
    assert reply.response.ephemeral
    assert reply.text == "Something went wrong, nothing was changed. Please try again."
    monkeypatch.undo()
    assert await balance_of(world, world.alice) == 1000
