"""Big Two and Dou Dizhu end to end through the fake Discord, with the card picker."""

from bot.cards import parse_french
from tests.e2e import World
from tests.fakediscord import Message, User
from tests.tables_e2e import TableDriver


def toggles(message: Message) -> dict[str, dict]:
    return {b["label"]: b for b in message.buttons() if b["custom_id"].startswith("pc:")}


async def tap(world: World, user: User, message: Message, label: str) -> Message:
    reply = await world.tester.click(user, message, label)
    assert reply.response is message, reply.text  # the same DM, redrawn
    return message


async def pick(world: World, user: User, message: Message, labels: list[str]) -> None:
    """Tap each card, turning the pages until it shows; the pick holds across the pages."""
    for label in labels:
        for _ in range(3):
            if label in toggles(message):
                break
            await tap(world, user, message, "More cards")
        await tap(world, user, message, label)


# Dealt first, so to whoever the deal reaches first: 3♦ (that player leads) and, after it, two
# cards of different ranks.
LEADER_HAND = "3d 4c 5h 6s 7d 8c 9h 10s Jd Qc Kh As 2d"


async def test_a_four_player_big_two_hand(world):
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [world.bob, world.carol, world.admin], target=10)
    world.bot.runtime.stacked = [LEADER_HAND.split()]
    await driver.start(world.alice)
    state = driver.table.state
    assert [len(h) for h in state.hands] == [13, 13, 13, 13]
    assert "13 cards" in driver.message().text() and "First play" in driver.message().text()
    leader = driver.member(driver.turn())
    # The first deal is announced like every later one.
    assert f"Hand 1: {leader.name} holds the lowest card and leads." in driver.message().text()
    dm = await driver.controls(leader)
    assert len(toggles(dm)) == 13 and dm.button("Play selected") and dm.button("Clear")
    # An illegal selection is refused with the rules' reason, and nothing changes.
    assert [card.code for card in state.hands[driver.turn()]] == LEADER_HAND.split()
    first, second = [c for c in state.hands[driver.turn()] if c != state.opening][:2]
    assert first.rank != second.rank
    await tap(world, leader, dm, first.label)
    await tap(world, leader, dm, second.label)
    assert "can't be played" in dm.text()
    before = state.snapshot()
    refused = await world.tester.click(leader, dm, "Play selected")
    assert refused.response.ephemeral and "must" in refused.text
    assert driver.table.state.snapshot() == before
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


def dou_dizhu_deck(hands: list[str], widow: str) -> list[str]:
    """A stacked Dou Dizhu deck that deals these three hands (17 cards each, one at a time to
    each player in turn) and this widow."""
    cards = [hand.split() for hand in hands]
    assert [len(hand) for hand in cards] == [17, 17, 17] and len(widow.split()) == 3
    return [cards[k % 3][k // 3] for k in range(51)] + widow.split()


# The hand holding the bomb of 9s takes the widow: with it, four trios in a row (3s to 6s) with
# 7, 8, 10 and J as kickers, which goes out in one play.
BOMB_HAND = "9s 9h 9d 9c 3s 3h 3d 4s 4h 4d 5s 5h 5d 6s 6h 6d 7s"
WIDOW = "8s 10s Js"
FARMERS = (
    "3c 4c 5c 6c 7h 7d 7c 8h 8d 8c 10h 10d 10c Jh Jd Jc Qs",
    "Qh Qd Qc Ks Kh Kd Kc As Ah Ad Ac 2s 2h 2d 2c BJ RJ",
)


async def test_a_dou_dizhu_hand_where_a_bomb_doubles_the_pay(world):
    driver = TableDriver(world)
    await driver.open("doudizhu new", world.alice, [world.bob, world.carol], buy_in=50)
    world.bot.runtime.stacked = [dou_dizhu_deck([BOMB_HAND, *FARMERS], WIDOW)]
    await driver.start(world.alice)
    table = driver.table
    nines = parse_french("9s")[0]
    first = next(seat for seat in range(3) if nines in table.state.hands[seat])
    # The holder of the bomb bids 2 (whenever the auction reaches them), the others pass.
    while table.state.phase == "bidding":
        await driver.play("Bid 2" if driver.turn() == first else "Pass")
    state = table.state
    assert state.landlord == first and state.bid == 2 and len(state.hands[first]) == 20
    await driver.settle()
    assert "Widow 8♠ 10♠ J♠" in driver.message().text()  # turned face up for all
    # Twenty cards don't fit on one page of toggles: fifteen, then "More cards" for the rest.
    landlord = driver.member(first)
    full = (await world.tester.click(landlord, driver.message(), "My hand")).response
    assert len(toggles(full)) == 15
    await tap(world, landlord, full, "More cards")
    assert len(toggles(full)) == 5
    await tap(world, landlord, full, "More cards")  # back to the first fifteen
    await pick(world, landlord, full, ["9♠", "9♥", "9♦", "9♣"])  # on both pages
    assert "Selected 9♠ 9♥ 9♦ 9♣ · ready to play" in full.text()
    await driver.press(landlord, full, "Play selected")
    await driver.settle()
    assert (
        "bomb of 9s" in driver.message().text() and "doubled to 4 chips" in driver.message().text()
    )
    await driver.play("Pass")
    await driver.play("Pass")
    last = (await world.tester.click(landlord, driver.message(), "My hand")).response
    rest = [card.label for card in table.state.hands[first]]
    assert len(rest) == 16 and len(toggles(last)) == 15
    await pick(world, landlord, last, rest)
    assert "ready to play" in last.text()
    await driver.press(landlord, last, "Play selected")  # his last cards: the hand is over
    await driver.settle()
    balances = {
        m.name: await world.bot.ledger.balance(world.guild.id, m.id)
        for m in (world.alice, world.bob, world.carol)
    }
    escrow = await world.bot.ledger.escrow(world.guild.id, table.id)
    farmers = [(first + 1) % 3, (first + 2) % 3]
    assert table.state.stacks[first] == 50 + 2 * 4 and all(
        table.state.stacks[f] == 46 for f in farmers
    )
    assert sum(balances.values()) + escrow == 3000 and escrow == 150
