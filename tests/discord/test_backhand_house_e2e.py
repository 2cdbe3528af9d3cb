"""Backhand's house covers each hand from its balance on the server (issue 38.4, DECISIONS.md):
a bet brings its even-money win from the house's account to the table in the step that makes
it, and the hand's end takes the house's chips back in the step that settles it. So a table's
maximum stays open after the house has paid out, the table goes on while the house can cover
the bets, a bet it can't cover is refused (naming /chips bankroll) with nothing changed, and a
timed-out bet it can't cover closes the table with every bet given back. A restart mid-hand
keeps the hold, and a write that fails in the middle of a step moves none of the house's chips.
The driver checks after every step that balances, escrows and the house add up."""

import re

import pytest

from bot.games.backhand import Bet
from bot.store import TableStore
from bot.tables import action_token
from tests import ROOT
from tests.tables_e2e import TableDriver, add_ai, channel_text

pytestmark = pytest.mark.both_backends

# Dealt off the stock: Alice's first card, Bob's, Alice's second, Bob's second, then draws.
BOTH_WIN = ["Kc", "Kd", "5c", "5d", "7s", "8s"]  # 15 each; both backhand cards bust
BOTH_LOSE = ["Kc", "Kd", "5c", "5d", "6s", "2s"]  # 15 each; neither backhand card busts


async def open_table(world, house: int, decks: list[list[str]]) -> TableDriver:
    """Alice and Bob at a 1-10 table (buy-in 50) against a house funded with `house` chips."""
    await world.bot.ledger.fund_house(world.guild.id, house, reason="test", key="fund")
    world.bot.runtime.stacked = decks
    driver = TableDriver(world)
    await driver.open("backhand new", world.alice, [world.bob], buy_in=50, min_bet=1, max_bet=10)
    await driver.start(world.alice)
    return driver


async def bet(driver: TableDriver, seat: int, chips: int):
    return await driver.play(f"Bet {chips}", seat)


async def both_call_backhand(driver: TableDriver) -> None:
    await driver.play("Call backhand")
    await driver.play("Call backhand")


async def chips_at(world, table_id: int) -> tuple[int, int]:
    """(the house's balance, the table's escrow)."""
    ledger, guild = world.bot.ledger, world.guild.id
    return await ledger.house_balance(guild), await ledger.escrow(guild, table_id)


async def test_after_paying_out_the_house_still_covers_the_maximum_and_refuses_what_it_cant(
    world,
):
    driver = await open_table(world, 22, [BOTH_WIN, BOTH_LOSE])
    table = driver.table
    await bet(driver, 0, 10)
    await bet(driver, 1, 1)
    assert await chips_at(world, table.id) == (22 - 11, 100 + 11)  # each bet's win held
    await both_call_backhand(driver)
    assert await chips_at(world, table.id) == (11, 111)  # it paid 11 from its hold

    # Hand 2: the house has paid out 11, and a bet of 10 is still open to Alice.
    await world.bot.runtime.fire_deadline(table.id)
    await driver.settle()
    assert table.state.phase == "betting" and table.state.hands[0].cap == 10
    await bet(driver, 0, 10)
    assert await chips_at(world, table.id) == (1, 121)

    # Bob's 10 would need 10 more of the house: refused, and nothing changes.
    before = (table.state.snapshot(), table.record.version, await chips_at(world, table.id))
    refused = await bet(driver, 1, 10)
    assert refused.response.ephemeral
    assert refused.text == (
        "The house can't cover this bet: it needs 10 chips and has 1. Bet less, or wait: "
        "a server manager can add chips with /chips bankroll."
    )
    after = (table.state.snapshot(), table.record.version, await chips_at(world, table.id))
    assert after == before and "Bob bets 10" not in channel_text(world)
    await bet(driver, 1, 1)  # what the house can cover
    await both_call_backhand(driver)
    assert table.state.stacks == [50, 50] and driver.table_id == table.id  # still open
    assert await chips_at(world, table.id) == (22, 100)  # its hold back, and both bets


def readme_backhand_paragraph() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("At a **Backhand** table")
    return " ".join(text[start : text.index("\n\n", start)].split())


async def test_the_readme_backhand_paragraph_says_what_the_bot_does(world):
    """README's example, played: a 1-10 table whose house holds 12 chips (short of two players'
    maximum bets) starts, and the bet the house can't cover gets README's sentence."""
    paragraph = readme_backhand_paragraph()
    example = re.search(
        r"a 1-10 table whose house holds (\d+) chips, after Alice bets (\d+), "
        r"Bob's (\d+) gets \"([^\"]+)\"",
        paragraph,
    )
    assert example, paragraph
    house, first, second, sentence = example.groups()
    assert "/chips bankroll" in sentence
    driver = await open_table(world, int(house), [BOTH_WIN])
    assert int(house) < 2 * 10 and driver.table.state.phase == "betting"
    await bet(driver, 0, int(first))
    refused = await bet(driver, 1, int(second))
    assert refused.text == sentence
    assert driver.table.state.hands[1].bet is None


async def test_a_timed_out_bet_the_house_cant_cover_closes_the_table_with_every_bet_back(world):
    driver = await open_table(world, 10, [BOTH_WIN])
    table_id = driver.table.id
    await bet(driver, 0, 10)  # the house's last 10 chips held
    await world.bot.runtime.fire_deadline(table_id)  # Bob's minimum bet: 1 more
    await driver.settle()
    assert driver.table_id is None
    assert (
        "Match over: The house can't cover this bet: it needs 1 chip and has 0, so it closes "
        "the table; a server manager can add chips with /chips bankroll." in channel_text(world)
    )
    ledger, guild = world.bot.ledger, world.guild.id
    assert await chips_at(world, table_id) == (10, 0)
    assert await ledger.balance(guild, world.alice.id) == 1000
    assert await ledger.balance(guild, world.bob.id) == 1000


async def test_a_restart_mid_hand_keeps_the_houses_hold(world):
    driver = await open_table(world, 100, [BOTH_WIN])
    table_id = driver.table.id
    await bet(driver, 0, 5)
    await bet(driver, 1, 2)
    await world.stop_bot()
    await world.start_bot()
    await world.tester.idle()
    table = world.bot.runtime.get(table_id)
    assert table.state.house_bank() == 7 and table.state.phase == "play"
    assert await chips_at(world, table_id) == (93, 107)
    await driver.settle()  # the escrow holds the game's chips, the hold included
    await both_call_backhand(driver)
    assert await chips_at(world, table_id) == (93, 107)  # it paid 7 from its hold of 7
    assert table.state.stacks == [55, 52] and table.state.house_bank() == 0


@pytest.mark.parametrize("step", ["the bet", "the hand's end"])
async def test_a_step_whose_write_fails_midway_moves_none_of_the_houses_chips(
    world, monkeypatch, step
):
    """The house's chips move in the transaction of the step that makes the bet or ends the
    hand (both bets lost: the hold and the bets go back): when that transaction fails after
    moving them, none of the step is kept."""
    driver = await open_table(world, 100, [BOTH_LOSE])
    table, runtime = driver.table, world.bot.runtime
    await bet(driver, 0, 5)
    if step == "the hand's end":
        await bet(driver, 1, 2)
        await driver.play("Call backhand")
    seat = table.pending_seats()[0]
    legal = table.legal_actions(seat)
    token = action_token(legal[-1] if step == "the bet" else legal[1])  # Bet 10, backhand
    execute = TableStore._execute

    async def power_cut_after_the_house(store, conn, record, operation):
        await execute(store, conn, record, operation)
        if operation.kind == "house_cover":
            raise OSError("power cut")

    before = (table.state.snapshot(), table.record.version, await chips_at(world, table.id))
    member = table.seats[seat].member_id
    with monkeypatch.context() as patch, pytest.raises(OSError):
        patch.setattr(TableStore, "_execute", power_cut_after_the_house)
        await runtime.act(table.id, member, table.seats[seat].prompt, token)
    after = (table.state.snapshot(), table.record.version, await chips_at(world, table.id))
    assert after == before
    assert (await world.bot.ledger.totals(world.guild.id)).consistent
    await runtime.act(table.id, member, table.seats[seat].prompt, token)  # play goes on
    await driver.settle()
    house, _ = await chips_at(world, table.id)
    assert house == (100 - 5 - 10 if step == "the bet" else 100 + 7)


async def test_an_ai_whose_bet_the_house_cant_cover_bets_the_minimum_instead(world, monkeypatch):
    """An AI seat's bet is its own move: refused, it takes the safe default (the minimum)
    rather than sitting out the betting until its deadline."""
    await world.bot.ledger.fund_house(world.guild.id, 50 + 11, reason="test", key="fund")
    world.bot.runtime.stacked = [BOTH_WIN]
    driver = TableDriver(world)
    await driver.open("backhand new", world.alice, [], buy_in=50, min_bet=1, max_bet=10)
    driver.table.record.ai_delay = 3600  # the AI moves when the test says
    await add_ai(world, world.alice, driver.message())  # its buy-in: the house's
    await driver.start(world.alice)
    table = driver.table
    await bet(driver, 0, 10)  # the house holds 10 of its last 11
    monkeypatch.setattr("bot.tables.clock.ai_move", lambda state, seat, policy, rng: Bet(chips=10))
    async with table.lock:
        await world.bot.runtime.scheduler.ai_step(table)
    await driver.settle()
    assert table.state.hands[1].bet == 1 and await chips_at(world, table.id) == (0, 100 + 11)
