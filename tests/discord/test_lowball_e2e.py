"""Triple Draw Lowball end to end through the fake Discord: `/lowball new`, the blinds, a
draw picked card by card in a DM, a timed-out draw, the fixed-limit rounds, the showdown where
every hand still in is shown, the payout and each player's net in the hand's result;
`/lowball rules`; leaving between hands until the table closes. The driver checks after every
step that chips are conserved and that no channel message names a hidden card (hands, draws,
the stub, the discards, a folded hand).

Seats: alice 0 (opens and deals first), bob 1 (small blind), carol 2 (big blind)."""

from bot.cards import parse_french
from bot.games import lowball  # noqa: F401  (registers the game)
from tests.tables_e2e import TableDriver, balances, channel_text

BOB = "Ks 9d 5h 4d 2s"  # throws K♠ 9♦ and draws Q♥ J♥: Q-J-5-4-2
CAROL = "Kc Kh 8c 6s 3d"  # a pair of kings; stands pat when her time runs out
ALICE = "10d 7s 5c 3h 2c"  # throws 10♦ and draws 4♠: 7-5-4-3-2, the best hand
STUB = "Qh Jh 4s"


def deal() -> list[str]:
    """Dealt one card at a time from the dealer's left (bob, carol, alice), then the stub."""
    hands = [parse_french(text) for text in (BOB, CAROL, ALICE)]
    dealt = [hand[index].code for index in range(5) for hand in hands]
    return dealt + [card.code for card in parse_french(STUB)]


async def open_table(world) -> TableDriver:
    world.bot.runtime.stacked = [deal()]
    driver = TableDriver(world)
    await driver.open("lowball new", world.alice, [world.bob, world.carol], buy_in=50, small_bet=2)
    await driver.start(world.alice)
    return driver


async def throw(driver: TableDriver, user, labels: list[str]) -> None:
    """`user` taps these cards in their DM's picker, then throws them."""
    dm = await driver.controls(user)
    for label in labels:
        reply = await driver.world.tester.click(user, dm, label)
        assert reply.response is dm, reply.text
    assert "ready to play" in dm.text()
    await driver.press(user, dm, "Throw selected and draw")
    await driver.settle()


async def test_a_hand_from_new_to_the_payout(world):
    driver = await open_table(world)
    text = driver.message().text()
    assert "**Bob** · 49 chips · 5 cards · small blind, bet 1" in text
    assert "**Carol** · 48 chips · 5 cards · big blind, bet 2" in text
    assert "Betting round 1 of 4" in text and "Alice: 2 to call" in text
    bob_hand = world.tester.dms(world.bob)[-1].embeds[0]["title"]
    assert bob_hand.startswith("Your Triple Draw Lowball hand")
    await driver.play("Call 2")  # alice
    await driver.play("Call 1")  # bob
    await driver.play("Check")  # carol, the big blind
    # The first draw, from the dealer's left: bob picks his throw card by card.
    assert driver.table.state.phase == "draw" and driver.turn() == 1
    bob_dm = await driver.controls(world.bob)
    refused = await world.tester.click(world.bob, bob_dm, "Throw selected and draw")
    assert refused.response.ephemeral and "Pick 1 to 5 cards" in refused.text
    await throw(driver, world.bob, ["K♠", "9♦"])
    assert "Bob draws 2 cards." in driver.message().text()
    assert "You draw Q♥ J♥." in bob_dm.text()  # told in the DM he threw in
    assert "Q♥" not in channel_text(world)
    # Carol's time runs out: she stands pat.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = driver.message().text()
    assert "Carol ran out of time: Stand pat." in text and "Carol stands pat." in text
    await throw(driver, world.alice, ["10♦"])
    assert driver.table.state.betting_round == 2 and driver.turn() == 1
    await driver.play("Bet 2")  # bob
    await driver.play("Fold")  # carol
    await driver.play("Call 2")  # alice
    await driver.play("Stand pat")  # bob, draw 2
    await driver.play("Stand pat")  # alice
    assert "4 of 4 bets" not in driver.message().text()
    assert "Betting round 3 of 4 · 4 chips a bet" in driver.message().text()
    await driver.play("Bet 4")  # bob: the big bet from round 3
    await driver.play("Call 4")  # alice
    await driver.play("Stand pat")  # bob, draw 3
    await driver.play("Stand pat")  # alice
    await driver.play("Check")  # bob
    await driver.play("Bet 4")  # alice
    await driver.play("Call 4")  # bob
    # Alice bet last: she shows first; bob's Q-J-5-4-2 can't win, and is shown all the same.
    text = driver.message().text()
    assert "Alice shows 7♠ 5♣ 4♠ 3♥ 2♣: 7-5-4-3-2." in text
    assert "Bob shows Q♥ J♥ 5♥ 4♦ 2♠: Q-J-5-4-2." in text and "Muck" not in text
    state = driver.table.state
    assert state.awaiting_next_hand() and state.stacks == [50 + 14, 50 - 12, 50 - 2]
    assert "Alice wins 26 chips." in driver.message().text()
    summary = channel_text(world)
    assert "Triple Draw Lowball · hand 1 result" in summary
    assert "Won: Alice +14 chips (took the pot of 26)" in summary
    assert "Lost: Bob -12 chips, Carol -2 chips" in summary
    rows = await world.bot.database.fetch_all("SELECT chip_net FROM results ORDER BY seat")
    assert [row[0] for row in rows] == [14, -12, -2]
    # The next hand: the deal passes to bob, so carol posts the small blind.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    assert "Bob deals; Carol posts the small blind (1), Alice the big blind (2)." in (
        driver.message().text()
    )


async def test_rules_state_the_house_decisions_and_the_table_options(world):
    await open_table(world)
    reply = await world.tester.slash(world.bob, world.channel, "lowball rules")
    text = reply.text
    assert reply.response.ephemeral
    rules = ["deuce-to-seven", "Heads-up", "three raises", "new stub", "odd chips", "net chips"]
    rules += ["none is mucked", "asked to call it (up to the all-in amount) or fold"]
    for rule in rules:
        assert rule in text, rule
    assert "buy-in 50 · turn time 120 s · small bet 2 (blinds 1/2, bets 2 then 4)" in text


async def test_players_leave_between_hands_and_the_last_one_takes_the_table(world):
    driver = await open_table(world)
    await driver.play("Fold")  # alice
    await driver.play("Fold")  # bob: carol wins the blinds
    await driver.leave_one_player(world.alice, world.bob)
    assert await balances(world, world.alice, world.bob, world.carol) == [1000, 999, 1001]
