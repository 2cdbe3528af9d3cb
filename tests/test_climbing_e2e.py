"""Big Two and Dou Dizhu end to end through the fake Discord, with the card toggles."""

from bot.cards import french_deck, parse_french
from tests.e2e import World
from tests.fakediscord import Message, User
from tests.tables_e2e import TableDriver


def toggles(message: Message) -> dict[str, dict]:
    return {b["label"]: b for b in message.buttons() if b["custom_id"].startswith("tc:")}


async def tap(world: World, user: User, message: Message, label: str) -> Message:
    reply = await world.tester.click(user, message, label)
    assert reply.response is message, reply.text  # the same DM, redrawn
    return message


async def test_a_four_player_big_two_hand(world):
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [world.bob, world.carol, world.admin], target=10)
    await driver.start(world.alice)
    state = driver.table.state
    assert [len(h) for h in state.hands] == [13, 13, 13, 13]
    assert "13 cards" in driver.message().text() and "First play" in driver.message().text()
    leader = driver.member(driver.turn())
    dm = await driver.controls(leader)
    assert len(toggles(dm)) == 13 and dm.button("Play selected") and dm.button("Clear")
    # An illegal selection is refused with the rules' reason, and nothing changes.
    first, second = [c for c in state.hands[driver.turn()] if c != state.opening][:2]
    if first.rank != second.rank:
        await tap(world, leader, dm, first.label)
        await tap(world, leader, dm, second.label)
        assert "can't be played" in dm.text()
        refused = await world.tester.click(leader, dm, "Play selected")
        assert refused.response.ephemeral and "must" in refused.text
        await tap(world, leader, dm, "Clear")
    # Tap the lowest card and play it.
    await tap(world, leader, dm, state.opening.label)
    assert "ready to play" in dm.text()
    await driver.press(leader, dm, "Play selected")
    await driver.settle()
    assert "plays" in driver.message().text()
    # Then everyone plays their lowest suggestion (or passes) until someone is out.
    turns = 0
    while driver.table.state.phase == "playing":
        seat = driver.turn()
        user = driver.member(seat)
        controls = await driver.controls(user)
        selects = [c for row in controls.components for c in row["components"] if c["type"] == 3]
        if selects:  # the lowest suggested play
            choice = [selects[0]["options"][0]["value"]]
            await world.tester.choose(user, controls, choice, selects[0]["custom_id"])
        else:
            await world.tester.click(user, controls, "Pass")
        await driver.settle()
        turns += 1
        assert turns < 300
    state = driver.table.state
    assert min(len(h) for h in state.hands) == 0 and sum(state.scores) > 0
    assert "Big Two · hand 1 over" in "\n".join(
        m.text() for m in world.tester.channel_messages(world.channel)
    )
    rows = await world.bot.database.fetch_all(
        "SELECT COUNT(*) FROM results WHERE game_id = 'bigtwo'"
    )
    assert rows[0][0] == 4


async def test_a_dou_dizhu_hand_where_a_bomb_doubles_the_pay(world):
    driver = TableDriver(world)
    await driver.open("doudizhu new", world.alice, [world.bob, world.carol], buy_in=50)
    await driver.start(world.alice)
    first = driver.turn()
    await driver.play("Bid 2")
    await driver.play("Pass")
    await driver.play("Pass")
    table = driver.table
    state = table.state
    assert state.landlord == first and state.bid == 2 and len(state.hands[first]) == 20
    # Twenty cards don't fit on one page of toggles: fifteen, then "More cards" for the rest.
    full = (await world.tester.click(driver.member(first), driver.message(), "My hand")).response
    assert len(toggles(full)) == 15
    await tap(world, driver.member(first), full, "More cards")
    assert len(toggles(full)) == 5
    # Fixed cards from here (as a scripted hand would deal them): the landlord holds a bomb.
    farmers = [(first + 1) % 3, (first + 2) % 3]
    hands = {first: "9s 9h 9d 9c 3s", farmers[0]: "4s 5h", farmers[1]: "6s 7h"}
    state.hands = [parse_french(hands[s]) for s in range(3)]
    state.played = [c for c in french_deck(jokers=True) if not any(c in h for h in state.hands)]
    state.widow, state.face_up = [], None
    landlord = driver.member(first)
    dm = (await world.tester.click(landlord, driver.message(), "My hand")).response  # fresh cards
    for label in ("9♠", "9♥", "9♦", "9♣"):
        await tap(world, landlord, dm, label)
    assert "ready to play" in dm.text()
    await driver.press(landlord, dm, "Play selected")
    await driver.settle()
    assert (
        "bomb of 9s" in driver.message().text() and "doubled to 4 chips" in driver.message().text()
    )
    await driver.play("Pass")
    await driver.play("Pass")
    last = (await world.tester.click(landlord, driver.message(), "My hand")).response
    await tap(world, landlord, last, "3♠")
    await driver.press(landlord, last, "Play selected")  # his last card: the hand is over
    await driver.settle()
    balances = {
        m.name: await world.bot.ledger.balance(world.guild.id, m.id)
        for m in (world.alice, world.bob, world.carol)
    }
    escrow = await world.bot.ledger.escrow(world.guild.id, table.id)
    assert table.state.stacks[first] == 50 + 2 * 4 and all(
        table.state.stacks[f] == 46 for f in farmers
    )
    assert sum(balances.values()) + escrow == 3000 and escrow == 150
