"""AI levels at a table, through the fake Discord: Add AI asks the host which level (and says
what each does), the seat shows its level and keeps it across a restart, and an Expert's
search runs off the bot's event loop while the table plays on (here in a thread, to spy on
it; tests/discord/test_search_pool.py runs it in its process)."""

from __future__ import annotations

import asyncio
import threading

from bot.discord.commands import ai_note
from bot.engine import registry
from bot.games import expert
from bot.games.expert import Budget
from bot.tables import search_pool
from tests.tables_e2e import TableDriver, add_ai

LEVELS = ["Beginner", "Standard", "Expert"]


async def settle_ai(driver: TableDriver) -> None:
    runtime = driver.world.bot.runtime
    await driver.settle()
    while runtime.ai_turns:
        await asyncio.gather(*list(runtime.ai_turns))
        await driver.settle()


async def test_the_host_picks_each_ai_players_level_and_an_expert_searches_off_the_loop(
    world, monkeypatch
):
    searched_in: list[int] = []
    search = expert.expert_move

    def spied(*args, **kwargs):
        searched_in.append(threading.get_ident())
        return search(*args, **kwargs)

    monkeypatch.setattr(expert, "expert_move", spied)
    small = Budget(worlds=2, seconds=None, candidates=3)
    monkeypatch.setattr(search_pool, "searches", search_pool.SearchPool(small, processes=False))
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [], ai_delay=0)
    refused = await world.tester.click(world.bob, driver.message(), "Add AI")
    assert refused.text.startswith("Only the member who opened the table"), refused.text
    asked = await world.tester.click(world.alice, driver.message(), "Add AI")
    assert [button["label"] for button in asked.response.buttons()] == LEVELS
    assert asked.response.ephemeral and "**Expert** plays out many deals" in asked.text
    reply = await world.tester.click(world.alice, asked.response, "Expert")
    assert reply.text == "🤖 AI 1 · Expert sits down."
    reply = await add_ai(world, world.alice, driver.message(), "Beginner")
    assert reply.text == "🤖 AI 2 · Beginner sits down."
    assert "🤖 AI 1 · Expert" in driver.message().text()
    levels = await world.bot.database.fetch_all(
        "SELECT member_id, ai_level FROM table_seats WHERE ai <> 0 ORDER BY seat"
    )
    assert [tuple(row) for row in levels] == [(-1, "expert"), (-2, "beginner")]

    await driver.start(world.alice)
    table_id = driver.table.id
    for _ in range(40):  # alice's turns time out; the AI seats play theirs
        await settle_ai(driver)
        if driver.table_id is None or driver.table.state.hand > 1:
            break
        await world.bot.runtime.fire_deadline(table_id)
    assert searched_in, "the Expert never searched"
    assert threading.get_ident() not in searched_in  # in a thread, never on the loop

    await world.stop_bot()
    await world.start_bot()
    resumed = world.bot.runtime.tables[table_id]  # a new hand: the table plays on
    assert [seat.ai_level for seat in resumed.seats] == [None, "expert", "beginner"]


async def test_an_ai_player_takes_the_seat_of_a_player_leaving_a_points_match(world):
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [world.bob, world.carol], ai_delay=0)
    await driver.start(world.alice)
    assert "Add AI" not in {b["label"] for b in driver.message().buttons()}  # no seat free
    asked = await world.tester.click(world.bob, driver.message(), "Leave")
    leaving = await world.tester.click(world.bob, asked.response, "Leave now")
    assert leaving.text.startswith("You will leave when this hand ends"), leaving.text
    await driver.settle()
    assert "Add AI" in {b["label"] for b in driver.message().buttons()}
    refused = await add_ai(world, world.carol, driver.message(), "Expert")
    assert refused.text.startswith("Only the member who opened the table"), refused.text
    reply = await add_ai(world, world.alice, driver.message(), "Expert")
    assert reply.text == "🤖 AI 1 · Expert sits down.", reply.text
    await settle_ai(driver)
    bob_seat = driver.table.seats[1]
    assert (bob_seat.member_id, bob_seat.ai, bob_seat.ai_level) == (-1, True, "expert")
    assert not bob_seat.leaving and driver.table.record.has_ai
    said = "🤖 AI 1 · Expert takes Bob's seat: this table has an AI player from now on"
    assert said in driver.message().text()
    assert "Add AI" not in {b["label"] for b in driver.message().buttons()}
    forged = f"tb:{driver.table.id}:ai_expert"  # a modified client asks for another one
    again = await world.tester.forge(world.alice, world.channel, forged, message=driver.message())
    assert again.text.startswith("No seat is free for an AI player"), again.text
    # The hand ends and the match plays on (with bob gone it would have ended): the AI's seat
    # is played, and the hand's results are marked as with an AI player (not rated).
    table_id = driver.table.id
    for _ in range(60):
        await settle_ai(driver)
        if driver.table_id is None or driver.table.state.hand > 1:
            break
        await world.bot.runtime.fire_deadline(table_id)
    assert driver.table_id == table_id and driver.table.state.hand == 2
    rows = await world.bot.database.fetch_all(
        "SELECT member_id, with_ai FROM results WHERE table_id = ? AND scope = 'hand'", table_id
    )
    assert {row[0] for row in rows} == {world.alice.id, -1, world.carol.id}
    assert all(row[1] for row in rows)


def test_the_rules_say_where_expert_deals_the_hidden_cards_as_the_play_implies():
    shaped = "dealt as the play so far suggests"
    for game in ("botifarra", "calabrasella", "liars", "bigtwo", "doudizhu"):
        assert shaped in ai_note(registry.get(game))
    for game in ("lowball", "western"):  # their own Expert, weighing bets against the ranges
        assert "share of the pot" in ai_note(registry.get(game))
        assert "dealt as the draws and bets so far suggest" in ai_note(registry.get(game))
    assert "share of the pot" not in ai_note(registry.get("temptation"))
    assert shaped not in ai_note(registry.get("crash"))  # the others set in secret
    assert "weighs out" in ai_note(registry.get("crash"))
    assert "weighs out" in ai_note(registry.get("provincial"))  # its fists chosen again
    assert shaped not in ai_note(registry.get("provincial"))  # ... its cards dealt at random
    assert "weighs out" in ai_note(registry.get("delphi"))  # its own Expert
    assert "Expert plays as Standard does" in ai_note(registry.get("backhand"))
    assert "same rules weighed its own way" in ai_note(registry.get("lastone"))  # no search
