"""Backhand end to end through the fake Discord: `/backhand new` for chips against a funded
house, bets by button and in words, a timeout pushing a push hand away, the push played,
backhand won and lost, the house holding each bet's win until the hand ends (and the table's
maximum still open after it paid out), players leaving between hands; a wins-only match (a
buy-in refused with it, its board in wins); options out of order refused; `/backhand rules`.
The house's own limits are in test_backhand_house_e2e.py. The driver checks after every step
that chips are conserved (the house included) and that no channel message names a card still
in the stock."""

from bot.games import backhand  # noqa: F401  (registers the game)
from tests.tables_e2e import TableDriver, channel_text

# Dealt off the stock in this order: Alice's first card, Bob's, Alice's second, Bob's second,
# then each player's draws in turn.
HAND_1 = [
    *("Kc", "Kd", "5c", "8d"),  # Alice 15, Bob 18 (a push hand)
    "7s",  # Alice calls backhand: 22, she wins
    *("Qs", "9c"),  # Bob's push is pushed away for him (timeout): 19, a push again
    "2h",  # Bob plays the push: 21, he wins
]
HAND_2 = [
    *("Kh", "9h", "5h", "3c"),  # Alice 15, Bob 12
    "6s",  # Alice calls backhand: 21, no bust, she loses
    "4s",  # Bob hits: 16
    "5s",  # Bob calls backhand: 21, he loses
]  # the house won 20 back
HOUSE = 500


async def bet(driver: TableDriver, seat: int, label: str) -> None:
    await driver.play(label, seat)


async def bet_in_words(driver: TableDriver, seat: int, answer: str):
    member = driver.member(seat)
    opened = await driver.press(member, await driver.controls(member), "Other amount")
    reply = await driver.world.tester.submit_modal(member, opened, {"answer": answer})
    await driver.settle()
    return reply


async def test_a_game_for_chips_from_new_to_payout(world):
    ledger, guild = world.bot.ledger, world.guild.id
    await ledger.fund_house(guild, HOUSE, reason="test", key="k1")
    world.bot.runtime.stacked = [HAND_1, HAND_2]
    driver = TableDriver(world)
    await driver.open("backhand new", world.alice, [world.bob], buy_in=50, min_bet=2, max_bet=10)
    await driver.start(world.alice)
    table = driver.table
    assert await ledger.escrow(guild, table.id) == 100  # the house stakes nothing
    assert await ledger.house_balance(guild) == HOUSE

    # Bets together: Alice by button, Bob in words (a number out of range first). The house
    # holds each bet's win at the table as it is made.
    await bet(driver, 0, "Bet 5")
    assert await ledger.house_balance(guild) == HOUSE - 5
    refused = await bet_in_words(driver, 1, "11")
    assert "Bet from 2 to 10 chips" in refused.text and table.state.phase == "betting"
    await bet_in_words(driver, 1, "7")
    assert await ledger.escrow(guild, table.id) == 100 + 12
    assert "the house holds **12 chips** for this hand" in driver.message().text()
    assert "Alice bets 5 chips." in channel_text(world)
    assert "K♣ 5♣ = **15**" in driver.message().text()

    await driver.play("Call backhand")  # Alice: 7♠ busts 15, she wins
    assert driver.turn() == 1 and "push hand" in driver.message().text()
    await world.bot.runtime.fire_deadline(table.id)  # Bob's timeout pushes it away
    await driver.settle()
    assert "Bob ran out of time" in driver.message().text()
    assert table.state.hands[1].push and table.state.hands[1].total == 19
    await driver.play("Play the push")  # 2♥: 21, he wins
    assert table.state.awaiting_next_hand()
    assert "Bob wins the push (+7 chips)." in channel_text(world)
    summaries = [m for m in world.tester.channel_messages(world.channel) if "over" in m.text()]
    assert "Alice** wins: the backhand card busts · +5 chips" in summaries[-1].text()
    (house_net,) = await world.bot.database.fetch_one(
        "SELECT SUM(chip_net) FROM results WHERE scope = 'house'"
    )
    assert house_net == -12 and table.state.bank == 0  # its hold paid both wins
    assert await ledger.house_balance(guild) == HOUSE - 12

    # Hand 2: the house has paid out, and every bet up to the table's maximum is still open.
    await world.bot.runtime.fire_deadline(table.id)
    await driver.settle()
    assert "bets 2 to 10" in driver.message().text()
    dm = await driver.controls(world.bob)
    labels = ["Bet 2", "Bet 5", "Bet 7", "Bet 10", "Other amount"]
    assert [b["label"] for b in dm.buttons()] == labels
    await bet(driver, 0, "Bet 10")
    await bet(driver, 1, "Bet 10")
    assert await ledger.house_balance(guild) == HOUSE - 12 - 20
    await driver.play("Call backhand")  # Alice: 6♠ makes 21, she loses
    await driver.play("Hit")  # Bob: 16
    await driver.play("Call backhand")  # Bob: 5♠ makes 21, he loses
    assert table.state.stacks == [45, 47] and table.state.bank == 0
    assert await ledger.house_balance(guild) == HOUSE + 8  # its hold back, and both bets

    # Leaving between hands: Alice takes her stack; the table goes on until Bob leaves too.
    _, reply = await driver.leave(world.alice)
    assert "your chips are back" in reply.text
    await driver.settle()
    assert await ledger.balance(guild, world.alice.id) == 995
    assert driver.table_id is not None
    await driver.leave(world.bob)
    await driver.settle()
    assert driver.table_id is None  # everyone left: closed
    assert await ledger.balance(guild, world.bob.id) == 997
    assert await ledger.house_balance(guild) == HOUSE + 8
    totals = await ledger.totals(guild)
    assert totals.consistent and totals.escrows == 0


async def test_a_wins_only_match_moves_no_chips(world):
    world.bot.runtime.stacked = [["Kc", "5c", "7s"]]
    driver = TableDriver(world)
    reply = await world.tester.slash(
        world.alice, world.channel, "backhand new", mode="wins", target=1
    )
    assert "buy-in" not in reply.text
    await world.tester.idle()
    await driver.start(world.alice)
    assert "first to 1 win takes the match" in driver.message().text()
    await driver.play("Call backhand")
    assert driver.table_id is None
    assert "Backhand: Alice wins!" in channel_text(world)
    assert "Alice · 1 win\n" in channel_text(world) + "\n"  # wins, not points
    assert await world.bot.ledger.balance(world.guild.id, world.alice.id) == 1000
    assert await world.bot.ledger.house_balance(world.guild.id) == 0
    board = await world.tester.slash(world.bob, world.channel, "leaderboard", game="backhand")
    lines = board.response.embeds[0]["description"].splitlines()
    assert lines == [f"**1.** <@{world.alice.id}> · 1 win in 1 hand"]  # wins, no chips


async def test_a_wins_only_table_refuses_a_buy_in(world):
    reply = await world.tester.slash(
        world.alice, world.channel, "backhand new", mode="wins", buy_in=50
    )
    assert reply.response.ephemeral
    assert reply.text == "A table for wins plays no chips, so it takes no buy-in: leave buy_in out."
    assert world.bot.runtime.in_channel(world.channel.id) is None
    await world.bot.ledger.fund_house(world.guild.id, HOUSE, reason="test", key="fund")
    reply = await world.tester.slash(world.alice, world.channel, "backhand new", buy_in=50)
    assert "with a buy-in of 50 chips" in reply.text  # for chips, it is the buy-in


async def test_options_out_of_order_are_refused(world):
    reply = await world.tester.slash(
        world.alice, world.channel, "backhand new", min_bet=20, max_bet=10
    )
    assert "can't be more than the maximum bet" in reply.text
    assert world.bot.runtime.in_channel(world.channel.id) is None


async def test_the_rules_state_every_rule_and_house_decision(world):
    reply = await world.tester.slash(world.alice, world.channel, "backhand rules")
    text = reply.text
    for phrase in (
        "replacement ace is kept",
        "Push away",
        "Play the push",
        "Call backhand",
        "five cards",
        "House decisions",
        "On timeout",
    ):
        assert phrase in text, phrase


async def test_a_buy_in_below_the_minimum_bet_and_an_empty_house_are_refused(world):
    reply = await world.tester.slash(
        world.alice, world.channel, "backhand new", buy_in=10, min_bet=20, max_bet=50
    )
    assert "needs at least 20 chips: raise the buy-in to 20" in reply.text
    reply = await world.tester.slash(world.alice, world.channel, "backhand new", buy_in=100)
    assert "The house has 0 chips and this table needs 10" in reply.text
    assert world.bot.runtime.in_channel(world.channel.id) is None
    assert await world.bot.ledger.balance(world.guild.id, world.alice.id) == 1000


async def test_backhand_house_reports_balance_per_day_and_per_game(world):
    ledger, guild = world.bot.ledger, world.guild.id
    await ledger.fund_house(guild, HOUSE, reason="test", key="fund")
    world.bot.runtime.stacked = [["Kc", "5c", "7s"]]  # Alice 15, calls backhand on a 7: wins
    driver = TableDriver(world)
    await driver.open("backhand new", world.alice, [], buy_in=50, min_bet=5, max_bet=5)
    await driver.start(world.alice)
    await bet(driver, 0, "Bet 5")
    held = await world.tester.slash(world.admin, world.channel, "backhand house")
    assert "**held at tables now:** 5 chips" in held.text
    await driver.play("Call backhand")
    assert await ledger.house_balance(guild) == HOUSE - 5  # it paid the win from its hold
    await driver.leave(world.alice)
    await driver.settle()
    assert driver.table_id is None
    report = await world.tester.slash(world.admin, world.channel, "backhand house")
    text = report.text
    assert report.response.ephemeral
    assert f"Balance:** {HOUSE - 5} chips" in text
    assert "Backhand** · 1 hand · -5 chips" in text
    (day,) = await world.bot.database.fetch_one("SELECT substr(created_at, 1, 10) FROM results")
    assert f"{day} · 1 hand · -5" in text
    refused = await world.tester.slash(world.bob, world.channel, "backhand house")
    assert "Manage Server" in refused.text
