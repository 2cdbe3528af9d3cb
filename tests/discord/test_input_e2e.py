"""What a modified client can send that Discord's own client never does: every slash command
re-checks its options against its declaration, with one sentence back and nothing changed."""

import pytest

GIVE_AMOUNT = "amount must be a whole number from 1 to 1,000,000,000."


async def chips_of(world, *users) -> list[int]:
    return [await world.bot.ledger.balance(world.guild.id, user.id) for user in users]


async def ledger_rows(world) -> int:
    return (await world.bot.database.fetch_one("SELECT COUNT(*) FROM ledger"))[0]


async def refused(world, user, command: str, **options) -> str:
    """Send `/command` unchecked; assert that it was refused privately; return the sentence."""
    reply = await world.tester.slash(user, world.channel, command, checked=False, **options)
    assert reply.response.ephemeral
    return reply.text


def declared_option(world, command: str, option: str) -> dict:
    """An option as the bot declared it to Discord (its Range is the one source of bounds)."""
    top, *path = command.split()
    holder = next(c for c in world.fake.commands[None] if c["name"] == top)
    for name in path:
        holder = next(o for o in holder["options"] if o["name"] == name)
    return next(o for o in holder["options"] if o["name"] == option)


# ---- a user who is not a member -----------------------------------------------------------


async def test_give_to_someone_who_left_the_server_is_refused(world):
    await chips_of(world, world.alice, world.bob)
    world.fake.remove_member(world.guild, world.bob)
    text = await refused(world, world.alice, "give", member=world.bob, amount=5)
    assert text == "That user is not a member of this server."
    assert await chips_of(world, world.alice, world.bob) == [1000, 1000]


async def test_balance_of_someone_who_left_the_server_is_refused(world):
    world.fake.remove_member(world.guild, world.bob)
    text = await refused(world, world.alice, "balance", member=world.bob)
    assert text == "That user is not a member of this server."
    assert await world.bot.leaderboards.member_count(world.guild.id) == 0  # nothing opened


async def test_a_grant_to_someone_who_left_the_server_is_refused(world):
    world.fake.remove_member(world.guild, world.bob)
    text = await refused(world, world.admin, "chips grant", member=world.bob, amount=5)
    assert text == "That user is not a member of this server."
    assert await ledger_rows(world) == 0


# ---- values out of type or range ----------------------------------------------------------


@pytest.mark.parametrize("amount", [2.5, 5.0, 0, -5, 1_000_000_001, 10**18, 2**63, "5", True])
async def test_give_refuses_an_amount_that_is_not_a_whole_number_in_range(world, amount):
    await chips_of(world, world.alice, world.bob)
    rows = await ledger_rows(world)
    text = await refused(world, world.alice, "give", member=world.bob, amount=amount)
    assert text == GIVE_AMOUNT
    assert await chips_of(world, world.alice, world.bob) == [1000, 1000]
    assert await ledger_rows(world) == rows


async def test_give_refuses_a_missing_amount_or_member(world):
    assert await refused(world, world.alice, "give", member=world.bob) == "amount is required."
    assert await refused(world, world.alice, "give", amount=5) == "member is required."
    assert await ledger_rows(world) == 0


async def test_an_amount_at_the_declared_bounds_is_accepted(world):
    await world.tester.slash(
        world.admin, world.channel, "chips grant", member=world.alice, amount=1
    )
    reply = await world.tester.slash(
        world.admin, world.channel, "chips grant", checked=False, member=world.bob, amount=10**9
    )
    assert reply.text.startswith("Granted 1,000,000,000 chips")
    assert await chips_of(world, world.alice, world.bob) == [1001, 1_000_001_000]


@pytest.mark.parametrize("amount", [2.5, 0, -5, 10**18, 2**63, "lots"])
async def test_chips_grant_refuses_an_amount_out_of_type_or_range(world, amount):
    text = await refused(world, world.admin, "chips grant", member=world.bob, amount=amount)
    assert text == GIVE_AMOUNT
    assert await ledger_rows(world) == 0


async def test_chips_grant_refuses_a_missing_option(world):
    assert await refused(world, world.admin, "chips grant", amount=5) == "member is required."
    assert await ledger_rows(world) == 0


async def test_a_game_option_outside_its_choices_is_refused(world):
    text = await refused(world, world.alice, "leaderboard", game="poker")
    assert text.startswith("game must be one of: ") and "Western Terrapin" in text
    assert world.tester.channel_messages(world.channel) == []


@pytest.mark.parametrize("buy_in", ["below", 0, -5, 2.5, "text", 2**63])
async def test_western_new_refuses_a_buy_in_out_of_type_or_range(world, buy_in):
    declared = declared_option(world, "western new", "buy_in")
    low, high = declared["min_value"], declared["max_value"]
    value = low - 5 if buy_in == "below" else buy_in
    text = await refused(world, world.alice, "western new", buy_in=value)
    assert text == f"buy_in must be a whole number from {low:,} to {high:,}."
    assert await chips_of(world, world.alice) == [1000]
    tables = await world.bot.database.fetch_one("SELECT COUNT(*) FROM game_tables")
    assert tables[0] == 0


async def test_a_boolean_option_must_be_a_boolean(world):
    text = await refused(world, world.alice, "western new", allow_check="yes")
    assert text == "allow_check must be True or False."
    tables = await world.bot.database.fetch_one("SELECT COUNT(*) FROM game_tables")
    assert tables[0] == 0


async def test_a_server_command_sent_from_direct_messages_is_refused(world):
    dm = world.fake._open_dm(world.alice.id)
    reply = await world.tester.slash(world.alice, dm, "daily")
    assert reply.text == "This command works only in a server."
    assert await ledger_rows(world) == 0
