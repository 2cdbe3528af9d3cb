"""Temptation, Provincial and Liar's Terrapin end to end through the fake Discord. The driver
checks after every step that chips are conserved and no channel message names a hidden card.
Seats: alice 0 (opens, deals first), bob 1, carol 2. The deal is seeded (tests/e2e.py)."""

import asyncio

import pytest

from bot.games.terrapin.table import hand_value
from tests.tables_e2e import TableDriver, balances, channel_text


@pytest.fixture
async def three(world):
    async def open_table(command: str) -> TableDriver:
        driver = TableDriver(world)
        await driver.open(command, world.alice, [world.bob, world.carol], buy_in=30)
        await driver.start(world.alice)
        return driver

    return open_table


# ---- Temptation --------------------------------------------------------------------------------


async def test_temptation_buying_rounds_and_showdown(three, world):
    table = await three("temptation new")
    assert "Buying round 1" in table.message().text()
    await table.play("Buy a card (1 chip)")  # bob
    await table.play("No thanks")  # carol
    await table.play("Buy a card (1 chip)")  # alice
    assert "Buying round 2" in table.message().text()
    await table.play("No thanks")  # bob
    await table.play("Buy a card (2 chips)")  # carol: she may buy although she passed before
    await table.play("No thanks")  # alice
    for _ in range(3):  # round 3: nobody buys, so the hand ends
        await table.play("No thanks")
    state = table.table.state
    assert state.awaiting_next_hand() and [len(h) for h in state.hands] == [3, 3, 3]
    assert "Temptation Terrapin · hand 1 result" in channel_text(world)


async def test_temptation_timeout_declines(three, world):
    table = await three("temptation new")
    await world.bot.runtime.fire_deadline(table.table.id)
    await table.settle()
    assert "Bob ran out of time: No thanks." in table.message().text()
    assert table.turn() == 2 and len(table.table.state.hands[1]) == 2


# ---- Provincial --------------------------------------------------------------------------------


async def test_provincial_simultaneous_fists_stay_secret_until_the_reveal(three, world):
    table = await three("provincial new")
    await table.play("Stake 2")  # alice deals and sets the stake
    assert sorted(table.table.pending_seats()) == [0, 1, 2]
    bob, carol = await asyncio.gather(  # two players choose at the same moment
        table.controls(world.bob), table.controls(world.carol)
    )
    pressed = await asyncio.gather(
        table.press(world.bob, bob, "One chip (pay 2 to play)"),
        table.press(world.carol, carol, "Two chips (call: pay 4)"),
    )
    # Both were taken: each answer edits that player's own DM (an error would be ephemeral).
    assert [reply.response for reply in pressed] == [bob, carol]
    await table.settle()
    assert table.message().text().count("fist closed") == 2
    secrets = ("pays to play", "calls", "One chip", "Two chips", "(pay", "call:")
    alice_sees = (await table.controls(world.alice)).text()
    for secret in secrets:
        assert secret not in channel_text(world), secret
        assert secret not in alice_sees, secret
    await table.play("Empty fist (fold)", seat=0)  # the last fist: all open at once
    text = table.message().text()
    assert "Fists open: Alice folds, Bob pays to play (2), Carol calls (4)." in text
    assert "**Alice** · 29 chips · 3 cards · dealer, folded" in text
    await table.play("Draw from the deck")  # bob paid to play: he must draw or discard
    state = table.table.state
    assert state.awaiting_next_hand() and len(state.hands[1]) == 4
    result = channel_text(world)
    assert "Provincial Terrapin · hand 1 result" in result and "Carol shows" in result


async def test_provincial_timeouts_fold_and_a_pot_nobody_wins_stays(three, world):
    table = await three("provincial new")
    runtime, tid = world.bot.runtime, table.table.id
    await runtime.fire_deadline(tid)  # the dealer's stake: 1
    await table.settle()
    assert (
        table.table.state.stake == 1 and "Alice ran out of time: Stake 1." in table.message().text()
    )
    await runtime.fire_deadline(tid)  # every fist: empty
    await table.settle()
    state = table.table.state
    assert state.awaiting_next_hand() and state.carry == 3  # the antes stay in the pot
    assert "Alice folds, Bob folds, Carol folds" in table.message().text()


# ---- Liar's ------------------------------------------------------------------------------------


async def test_liars_a_lost_and_a_won_challenge_end_the_game(three, world):
    table = await three("liars new")
    state = table.table.state
    assert state.pot == 6 and hand_value(state.hands[0]) == 5  # the seeded deal: a pair of 6s
    await table.play("Claim 2")  # alice
    await table.play("Accept")  # bob takes the hand in private
    assert table.table.state.holder == 1
    await table.play("Done discarding")
    await table.play("Claim 5")  # bob: true
    await table.play("Challenge")  # carol loses her challenge: she is out
    state = table.table.state
    assert not state.alive[2] and state.stacks == [28 + 1, 28 + 1, 28] and state.pot == 4
    assert "Carol is out." in channel_text(world)
    await world.bot.runtime.fire_deadline(table.table.id)  # next hand: the player after carol
    await table.settle()
    state = table.table.state
    assert state.holder == 0
    assert hand_value(state.hands[0]) < 24
    await table.play("Claim 24")  # alice bluffs
    await table.play("Challenge")  # bob wins his challenge: alice is out, bob takes the rest
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None
    paid = [1000 - 2 + 1, 1000 - 2 + 1 + 1 + 3, 1000 - 2]
    assert await balances(world, world.alice, world.bob, world.carol) == paid
    assert "Alice is out." in channel_text(world)


async def test_liars_timeouts_claim_the_least_and_accept(three, world):
    table = await three("liars new")
    runtime, tid = world.bot.runtime, table.table.id
    await runtime.fire_deadline(tid)
    await table.settle()
    assert (
        table.table.state.claim == 1 and "Alice ran out of time: Claim 1." in table.message().text()
    )
    await runtime.fire_deadline(tid)
    await table.settle()
    assert (
        table.table.state.holder == 1
        and "Bob accepts and takes the hand." in table.message().text()
    )


async def test_liars_leaving_the_last_two_ends_the_game_and_pays_out(three, world):
    table = await three("liars new")
    await table.play("Claim 5")  # alice: true (a pair of 6s)
    await table.play("Challenge")  # bob is out; alice and carol take a chip each
    tid = table.table.id
    _, reply = await table.leave(world.carol)
    assert "your chips are back" in reply.text
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None  # alice is the last one in
    # Carol's leaving pays alice a chip, and alice takes the rest of the pot (6 - 2 - 1 = 3).
    paid = [1000 - 2 + 1 + 1 + 3, 1000 - 2, 1000 - 2 + 1]
    assert await balances(world, world.alice, world.bob, world.carol) == paid
    assert await world.bot.ledger.escrow(world.guild.id, tid) == 0
