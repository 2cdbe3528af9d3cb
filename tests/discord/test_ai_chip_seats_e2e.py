"""AI players taking the seat of a player who left a chip game in play (issue 55, point 4):
the host adds one between hands or during a hand; it is bought in from the house with the
table's buy-in, dealt in from the next hand, logged so that a replay takes it again, and the
table's results are unrated from then on."""

from __future__ import annotations

import pytest

from bot.engine import registry
from bot.store.history import HistoryStore
from bot.tables.history import final_state
from tests.tables_e2e import TableDriver, add_ai, channel_text


def labels(driver: TableDriver) -> set[str]:
    return {button["label"] for button in driver.message().buttons()}


async def play_to_hand(driver: TableDriver, hand: int, limit: int = 200) -> None:
    """Let turns and pauses run out (each deadline fired) until `hand` is being played."""
    for _ in range(limit):
        if driver.table.state.hand >= hand and not driver.table.state.awaiting_next_hand():
            return
        await driver.world.bot.runtime.fire_deadline(driver.table.id)
        await driver.settle()
    raise AssertionError(f"hand {hand} was never dealt")


async def house(world) -> int:
    return await world.bot.ledger.house_balance(world.guild.id)


@pytest.mark.both_backends
async def test_an_ai_player_takes_a_seat_a_player_left_in_a_chip_game(world):
    driver = TableDriver(world)
    await driver.open(
        "lowball new", world.alice, [world.bob, world.carol], buy_in=50, small_bet=2, ai_delay=0
    )
    await driver.start(world.alice)
    table_id = driver.table.id
    await driver.leave(world.bob)  # in the hand: bob leaves when it ends
    await driver.settle()
    assert "Add AI" not in labels(driver)  # his seat is still his until then
    forged = f"tb:{table_id}:ai_expert"  # a modified client asks all the same
    early = await world.tester.forge(world.alice, world.channel, forged, message=driver.message())
    assert early.text == "No seat is free for an AI player: one opens when a player has left."
    await play_to_hand(driver, 2)
    assert driver.table.seats[1].left and "Add AI" in labels(driver)
    refused = await add_ai(world, world.carol, driver.message(), "Expert")
    assert refused.text.startswith("Only the member who opened the table"), refused.text

    short = await add_ai(world, world.alice, driver.message(), "Expert")  # the house is empty
    assert short.text.startswith("The house has 0 chips and can't buy an AI player in for 50")
    await driver.settle()
    assert driver.table.seats[1].left and not driver.table.state.seated[1]  # nothing changed
    await world.bot.ledger.fund_house(world.guild.id, 200, reason="test", key="fund")
    driver.total_chips += 200
    before = await house(world)
    reply = await add_ai(world, world.alice, driver.message(), "Expert")
    assert reply.text == "🤖 AI 1 · Expert sits down.", reply.text
    await driver.settle()  # the chips are conserved, the escrow is the game's chips
    seat = driver.table.seats[1]
    assert (seat.member_id, seat.ai, seat.ai_level, seat.left) == (-1, True, "expert", False)
    state = driver.table.state
    assert state.seated[1] and state.stacks[1] == 50 and 1 not in state.players
    assert await house(world) == before - 50
    said = "🤖 AI 1 · Expert sits in the empty seat with 50 chips from the house"
    assert said in channel_text(world)
    assert "Add AI" not in labels(driver)
    again = await world.tester.forge(world.alice, world.channel, forged, message=driver.message())
    assert again.text.startswith("No seat is free for an AI player"), again.text

    await world.stop_bot()  # what was written is whole: the seat, the state, the buy-in
    await world.start_bot()
    await driver.settle()
    seat = driver.table.seats[1]
    expected = (-1, "🤖 AI 1 · Expert", "expert", False)
    assert (seat.member_id, seat.name, seat.ai_level, seat.left) == expected
    assert driver.table.state.stacks[1] == 50

    await play_to_hand(driver, 3)  # the AI is dealt in and plays its turns
    assert 1 in driver.table.state.players
    rows = await world.bot.database.fetch_all(
        "SELECT member_id, with_ai FROM results WHERE table_id = ? AND scope = 'hand'"
        " AND op_key = ?",
        table_id,
        f"hand:{table_id}:2",
    )
    assert rows and all(with_ai for _member, with_ai in rows)

    closed = await world.tester.slash(world.alice, world.channel, "table close")
    assert closed.response is not None, closed.text
    await driver.settle()
    for _ in range(100):  # the hand in play is finished for everyone, then the table closes
        if driver.table_id is None:
            break
        await world.bot.runtime.fire_deadline(table_id)
        await world.tester.idle()
    assert driver.table_id is None
    assert await world.bot.ledger.escrow(world.guild.id, table_id) == 0
    totals = await world.bot.ledger.totals(world.guild.id)
    assert totals.consistent and totals.held == driver.total_chips
    # Each seat's results add up to what it took away: the AI's (a settle row for its stack
    # at the close) are its own, not mixed with those of Bob, who sat there before.
    nets = dict(
        await world.bot.database.fetch_all(
            "SELECT member_id, CAST(SUM(chip_net) AS BIGINT) FROM results WHERE table_id = ?"
            " AND scope IN ('hand', 'settle') GROUP BY member_id",
            table_id,
        )
    )
    assert nets[-1] == await house(world) - before  # what the house won or lost through it
    assert sum(nets.values()) == 0  # every chip won was lost by someone
    log = await HistoryStore(world.bot.database).table_log(table_id)
    assert log is not None
    assert final_state(registry.get("lowball"), log).snapshot() == log.state  # replayed alike
