"""Card controls of the climbing games (Big Two, Dou Dizhu) forged by a modified client: every
custom_id that doesn't fit the player's hand, turn and table is refused as invalid, with
nothing changed and nothing logged (the world fixture fails the test on any ERROR)."""

import copy

from tests.e2e import World
from tests.fakediscord import Message, User
from tests.tables_e2e import TableDriver

INVALID = "This button is no longer valid."


async def forged(world: World, user: User, where: Message, custom_id: str, values=None):
    """Send `custom_id` from `where` (a player's DM or hand) and check it changed nothing."""
    table = world.bot.runtime.tables
    before = {tid: t.state.snapshot() if t.state else None for tid, t in table.items()}
    shown = copy.deepcopy(world.fake.messages[where.id].payload)
    channel = world.fake.channels[where.channel_id]
    reply = await world.tester.forge(user, channel, custom_id, values=values, message=where)
    assert reply.response is not None and reply.response.ephemeral, reply.text
    after = {tid: t.state.snapshot() if t.state else None for tid, t in table.items()}
    assert after == before and world.fake.messages[where.id].payload == shown
    return reply.text


async def open_big_two(world: World) -> tuple[TableDriver, User, Message, int]:
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [world.bob])
    await driver.start(world.alice)
    seat = driver.turn()
    leader = driver.member(seat)
    return driver, leader, await driver.controls(leader), driver.table.seats[seat].prompt


async def test_card_controls_that_do_not_fit_the_hand_are_refused(world):
    driver, leader, dm, prompt = await open_big_two(world)
    table = driver.table.id
    beyond = 1 << 13  # the hand has 13 cards: bits 0-12
    for custom_id in (
        f"tc:{table}:{prompt}:0:0:7",  # a page digit out of range
        f"tc:{table}:{prompt}:0:13:0",  # a card past the end of the hand
        f"tc:{table}:{prompt}:0:{10**30}:0",  # a card far past it
        f"tc:{table}:{prompt}:{beyond:x}:0:0",  # a mask with a bit past the hand
        f"tp:{table}:{prompt}:{beyond | 1:x}:0:play",
        f"tp:{table}:{prompt}:{'f' * 80}:0:clear",
        f"tp:{table}:{prompt}:0:3:more",  # a page the hand doesn't have
        f"tc:{table}:{prompt}:00:0:0",  # not the form the bot writes
        f"tc:0{table}:{prompt}:0:0:0",
    ):
        assert await forged(world, leader, dm, custom_id) == INVALID, custom_id
    suggested = f"ts:{table}:{prompt}:suggested:0"
    assert await forged(world, leader, dm, suggested, values=[]) == INVALID  # a select, no value
    # What a real but old or misplaced button says is unchanged.
    assert await forged(world, leader, dm, f"tc:{table}:{prompt + 1}:0:0:0") == (
        "This prompt has expired."
    )
    other = driver.member(1 - driver.turn())
    other_dm = await driver.controls(other)
    assert await forged(world, other, other_dm, f"tc:{table}:{prompt}:0:0:0") == (
        "It is not your turn."
    )
    # The real toggles still work.
    opening = driver.table.state.opening.label
    await world.tester.click(leader, dm, opening)
    assert "ready to play" in world.fake.messages[dm.id].text()


async def test_climbing_controls_sent_to_a_lobby_or_a_western_table_are_refused(world):
    lobby_channel = world.fake.add_channel(world.guild, "lobby")
    await world.tester.slash(world.carol, lobby_channel, "bigtwo new")
    lobby = world.bot.runtime.in_channel(lobby_channel.id)
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob])
    await western.start(world.alice)
    seat = western.turn()
    player = western.member(seat)
    dm = await western.controls(player)
    prompt = western.table.seats[seat].prompt
    for custom_id in (
        f"tc:{western.table.id}:{prompt}:0:0:0",
        f"tp:{western.table.id}:{prompt}:1:0:play",
        f"tp:{western.table.id}:{prompt}:0:0:more",
        f"tc:{lobby.id}:0:0:0:0",
        f"tp:{lobby.id}:0:1:0:play",
    ):
        assert await forged(world, player, dm, custom_id) == INVALID, custom_id
    carol_hand = (await world.tester.slash(world.carol, lobby_channel, "bigtwo rules")).response
    assert await forged(world, world.carol, carol_hand, f"tc:{lobby.id}:0:0:0:0") == INVALID


async def test_dou_dizhu_toggles_fit_the_auction_and_the_pages(world):
    driver = TableDriver(world)
    await driver.open("doudizhu new", world.alice, [world.bob, world.carol], buy_in=50)
    await driver.start(world.alice)
    table = driver.table.id
    bidder = driver.turn()
    user = driver.member(bidder)
    auction = await driver.controls(user)
    prompt = driver.table.seats[bidder].prompt
    # No card controls are made during the auction: a toggle there was forged.
    assert await forged(world, user, auction, f"tc:{table}:{prompt}:0:0:0") == INVALID
    await driver.play("Bid 3")
    landlord = driver.member(bidder)
    hand = (await world.tester.click(landlord, driver.message(), "My hand")).response
    prompt = driver.table.seats[bidder].prompt
    assert len(driver.table.state.hands[bidder]) == 20  # two pages: 15 and 5
    for custom_id in (
        f"tc:{table}:{prompt}:0:14:1",  # the fifteenth card is on page 0, not 1
        f"tc:{table}:{prompt}:0:20:1",  # past the hand
        f"tc:{table}:{prompt}:0:30:2",  # no third page
        f"tp:{table}:{prompt}:{1 << 20:x}:1:play",
    ):
        assert await forged(world, landlord, hand, custom_id) == INVALID, custom_id
    await world.tester.click(landlord, hand, "More cards")
    fifth = driver.table.state.hands[bidder][19].label
    await world.tester.click(landlord, hand, fifth)
    assert f"Selected {fifth} · ready to play" in world.fake.messages[hand.id].text()
