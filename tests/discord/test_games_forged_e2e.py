"""Card picker controls (Big Two, Dou Dizhu) forged by a modified client: every custom_id that
doesn't fit the player's hand, turn and table is refused as invalid, with nothing changed and
nothing logged (the world fixture fails the test on any ERROR). The picker's ids are
pc:<table>:<prompt>:<cards>:<selection>:<page>:<group>:<card>, pb:...:<verb> and
ps:<table>:<prompt>:<cards> (bot/discord/picker.py). Then what longer runs of random forged clicks
found: a seat's own controls sent from the table message, a form the bot never opened, ids
past 64 bits."""

import copy

from tests.e2e import World
from tests.fakediscord import Message, User
from tests.tables_e2e import TableDriver

INVALID = "This button is no longer valid."
EXPIRED = "This prompt has expired."


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


def checksum(message: Message) -> str:
    """The checksum of the cards the picker on `message` was drawn for."""
    ids = [b["custom_id"] for b in message.buttons() if b["custom_id"].startswith("pc:")]
    assert ids, "no card buttons"
    return ids[0].split(":")[3]


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
    drawn = f"{table}:{prompt}:{checksum(dm)}"
    beyond = 1 << 13  # the hand has 13 cards: bits 0-12
    for custom_id in (
        f"pc:{drawn}:0:7:0:0",  # a page out of range
        f"pc:{drawn}:0:0:0:13",  # a card past the end of the hand
        f"pc:{drawn}:0:0:0:{10**30}",  # a card far past it
        f"pc:{drawn}:{beyond:x}:0:0:0",  # a selection with a bit past the hand
        f"pc:{drawn}:0:0:1:0",  # a group the picker doesn't have
        f"pb:{drawn}:{beyond | 1:x}:0:0:play",
        f"pb:{drawn}:{'f' * 80}:0:0:clear",
        f"pb:{drawn}:0:3:0:page",  # a page the hand doesn't have
        f"pb:{drawn}:0:0:0:page",  # 13 cards fit on one page: no page button is drawn
        f"pb:{drawn}:0:0:0:group",  # nor a group button
        f"pc:{drawn}:00:0:0:0",  # not the form the bot writes
        f"pc:{drawn}:0:00:0:0",
        f"pc:0{drawn}:0:0:0:0",
        f"pc:{drawn.upper()}:0:0:0:0",
    ):
        assert await forged(world, leader, dm, custom_id) == INVALID, custom_id
    for values in ([], ["0"], ["01"], ["zz"], [f"{beyond:x}"], ["1", "2"]):
        suggested = f"ps:{drawn}"  # the suggestions: one value, a selection the hand has
        assert await forged(world, leader, dm, suggested, values=values) == INVALID, values
    # What a real but old or misplaced button says is unchanged.
    assert await forged(world, leader, dm, f"pc:{table}:{prompt + 1}:{checksum(dm)}:0:0:0:0") == (
        EXPIRED
    )
    other_cards = f"{int(checksum(dm), 16) ^ 1:06x}"  # drawn for other cards
    assert await forged(world, leader, dm, f"pc:{table}:{prompt}:{other_cards}:0:0:0:0") == (
        EXPIRED
    )
    other = driver.member(1 - driver.turn())
    other_dm = await driver.controls(other)
    assert await forged(world, other, other_dm, f"pc:{drawn}:0:0:0:0") == "It is not your turn."
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
        f"pc:{western.table.id}:{prompt}:000000:0:0:0:0",
        f"pb:{western.table.id}:{prompt}:000000:1:0:0:play",
        f"pb:{western.table.id}:{prompt}:000000:0:0:0:page",
        f"pc:{lobby.id}:0:000000:0:0:0:0",
        f"pb:{lobby.id}:0:000000:1:0:0:play",
    ):
        assert await forged(world, player, dm, custom_id) == INVALID, custom_id
    suggested = f"ps:{western.table.id}:{prompt}:000000"
    assert await forged(world, player, dm, suggested, values=["1"]) == INVALID
    carol_hand = (await world.tester.slash(world.carol, lobby_channel, "bigtwo rules")).response
    assert await forged(world, world.carol, carol_hand, f"pc:{lobby.id}:0:000000:0:0:0:0") == (
        INVALID
    )


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
    assert await forged(world, user, auction, f"pc:{table}:{prompt}:000000:0:0:0:0") == INVALID
    await driver.play("Bid 3")
    landlord = driver.member(bidder)
    hand = (await world.tester.click(landlord, driver.message(), "My hand")).response
    prompt = driver.table.seats[bidder].prompt
    drawn = f"{table}:{prompt}:{checksum(hand)}"
    assert len(driver.table.state.hands[bidder]) == 20  # two pages: 15 and 5
    for custom_id in (
        f"pc:{drawn}:0:1:0:14",  # the fifteenth card is on page 0, not 1
        f"pc:{drawn}:0:1:0:20",  # past the hand
        f"pc:{drawn}:0:2:0:30",  # no third page
        f"pb:{drawn}:{1 << 20:x}:1:0:play",
    ):
        assert await forged(world, landlord, hand, custom_id) == INVALID, custom_id
    await world.tester.click(landlord, hand, "More cards")
    fifth = driver.table.state.hands[bidder][19].label
    await world.tester.click(landlord, hand, fifth)
    assert f"Selected {fifth} · ready to play" in world.fake.messages[hand.id].text()


async def test_a_seats_card_taps_sent_from_the_table_message_are_refused(world):
    """A modified client sends the controls of a player's DM (card taps, Play) from the table
    message, which the whole channel sees: answered, the click would redraw that message with
    the player's hand. Each is refused, the table message and the game unchanged; the same
    controls still work where they were drawn. (Random forged clicks found this.)"""
    driver, leader, dm, _prompt = await open_big_two(world)
    for button in dm.buttons():
        custom_id = button["custom_id"]
        assert await forged(world, leader, driver.message(), custom_id) == INVALID, custom_id
    tapped = await world.tester.press_id(leader, dm, dm.buttons()[0]["custom_id"])
    assert tapped.response is dm and "Selected" in dm.text()


async def test_a_seats_bet_sent_from_the_table_message_is_refused(world):
    """The same for a listed action (Lowball's Call): refused on the table message, played
    from the DM it was drawn in."""
    driver = TableDriver(world)
    await driver.open("lowball new", world.alice, [world.bob], buy_in=50, small_bet=2)
    await driver.start(world.alice)
    seat = driver.turn()
    player = driver.member(seat)
    bets = await driver.controls(player)
    (call,) = [b["custom_id"] for b in bets.buttons() if b["label"].startswith("Call")]
    assert await forged(world, player, driver.message(), call) == INVALID
    await world.tester.press_id(player, bets, call)
    await driver.settle()
    assert driver.turn() != seat


async def test_a_form_the_bot_never_opened_is_answered_as_not_valid(world):
    """A modified client submits a form (a modal) with a custom_id that fits no table's form:
    it is answered, with nothing changed, rather than left to time out."""
    driver, leader, dm, _prompt = await open_big_two(world)
    before = driver.table.state.snapshot()
    for channel in (world.channel, world.fake.channels[dm.channel_id]):
        for custom_id in ("tm:1", "tm:x:y", "anything", f"tm:{driver.table.id}:0:0"):
            reply = await world.tester.forge_form(leader, channel, custom_id, "5")
            assert reply.text == INVALID and reply.response.ephemeral, custom_id
    assert driver.table.state.snapshot() == before


async def test_numbers_past_any_id_are_answered_like_ids_of_nothing(world):
    """Ids too large for the database (past 64 bits) in a control's custom_id: each click is
    answered as for an id that names nothing, not failed in its query with an error logged
    (the world fixture fails on one). Random forged clicks found the tournament's, the
    replay's and, on two processes, the routing of a DM's click by its table's id."""
    _driver, leader, dm, prompt = await open_big_two(world)
    past = 2**63
    answers = {
        f"tourney:register:{past}": "There is no such tournament.",
        f"tourney:register:{10**30}": "There is no such tournament.",
        f"tb:{past}:join": "This table is closed.",
        f"ta:{past}:{prompt}:pass": "This table is closed.",
        f"pc:{past}:{prompt}:{checksum(dm)}:0:0:0:0": INVALID,  # not as the bot writes it
        f"hist:next:{past}:1:0:{leader.id}": "That hand wasn't played in this channel.",
    }
    channel = world.fake.channels[dm.channel_id]
    for custom_id, answer in answers.items():
        reply = await world.tester.forge(leader, channel, custom_id, message=dm)
        text = reply.text or (await reply.followup()).text()
        assert answer in text, (custom_id, text)


async def test_an_answer_in_words_from_my_hand_in_the_channel_is_played(world):
    """The refusal above is for messages the whole channel sees: a form opened from a My hand
    answer (ephemeral, in the channel) is a seat's own and its answer is played."""
    await world.bot.ledger.fund_house(world.guild.id, 500, reason="test", key="fund")
    world.bob.accepts_dms = False
    driver = TableDriver(world)
    await driver.open("backhand new", world.alice, [world.bob], buy_in=50, min_bet=2, max_bet=10)
    await driver.start(world.alice)
    hand = await driver.controls(world.bob)
    assert hand.ephemeral and hand.channel_id == world.channel.id
    opened = await driver.press(world.bob, hand, "Other amount")
    await world.tester.submit_modal(world.bob, opened, {"answer": "7"})
    await driver.settle()
    assert driver.table.state.hands[driver.table.seat_of(world.bob.id).seat].bet == 7
