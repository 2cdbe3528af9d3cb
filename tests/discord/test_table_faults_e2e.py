"""What testing the bot as players and moderators found, each as a regression test through the
fake Discord: deleted messages and channels, restarts with away players, racing clicks, forged
components, commands from DMs, close payouts in the results, standings, and DM prompts."""

import asyncio
import copy
import sqlite3

from bot.discord.controls import TableButton
from bot.store.records import TableRecord
from tests.e2e import eventually
from tests.fakediscord import Message
from tests.tables_e2e import TableDriver, balances, channel_text

NO_LONGER_VALID = "This button is no longer valid."


async def open_western(world, guests=("bob",), buy_in=300) -> TableDriver:
    western = TableDriver(world)
    members = [getattr(world, name) for name in guests]
    await western.open("western new", world.alice, members, buy_in=buy_in)
    return western


# ---- 1. a deleted lobby or table message; /table close and /table show ---------------------


async def test_a_deleted_lobby_message_is_posted_again_and_the_table_closes_by_command(world):
    western = await open_western(world)
    lobby = western.message()
    await world.fake.delete_message(lobby)
    await eventually(lambda: western.table.record.message_id != lobby.id, what="a new lobby")
    await world.tester.idle()
    again = western.message()
    assert [b["label"] for b in again.buttons()] == [
        "Join",
        "Leave",
        "Start",
        "Cancel",
        "Add AI",
        "Remove AI",
    ]
    refused = await world.tester.slash(world.bob, world.channel, "table close")
    assert "Only the member who opened the table" in refused.text
    closed = await world.tester.slash(world.alice, world.channel, "table close")
    assert closed.text == "The table is closed; every buy-in went back."
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None
    assert await balances(world, world.alice, world.bob) == [1000, 1000]
    nothing = await world.tester.slash(world.alice, world.channel, "table close")
    assert nothing.text == "No table is open in this channel."


async def test_a_deleted_table_message_mid_game_is_posted_again(world):
    western = await open_western(world)
    await western.start(world.alice)
    old = western.message()
    await world.fake.delete_message(old)
    await eventually(lambda: western.table.record.message_id != old.id, what="a new message")
    await world.tester.idle()
    assert {"My hand", "Leave"} <= {b["label"] for b in western.message().buttons()}
    await western.play("Bet 1")  # the game goes on from the new message's controls


async def test_table_show_posts_the_table_message_again(world):
    western = await open_western(world)
    await western.start(world.alice)
    old_id = western.table.record.message_id
    reply = await world.tester.slash(world.bob, world.channel, "table show")
    assert reply.response.ephemeral
    await world.tester.idle()
    assert western.table.record.message_id != old_id
    assert world.fake.messages[old_id].deleted and not western.message().deleted
    assert "Western Terrapin" in western.message().text()


async def test_a_manager_closes_a_game_in_play_and_everyone_is_paid(world):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    await western.play("Bet 2")  # bob: chips in the pot when the table closes
    table_id = western.table.id
    closed = await world.tester.slash(world.admin, world.channel, "table close")
    assert closed.text.startswith("The table is closed: the hand in play was finished")
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None
    assert await world.bot.ledger.escrow(world.guild.id, table_id) == 0
    assert sum(await balances(world, world.alice, world.bob, world.carol)) == 3000
    totals = await world.bot.ledger.totals(world.guild.id)
    assert totals.consistent


# ---- 2. the channel is deleted mid-game -----------------------------------------------------


async def test_a_deleted_channel_closes_the_table_pays_out_and_tells_players_by_dm(world):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    await western.play("Bet 2")
    table_id = western.table.id
    await world.fake.delete_channel(world.channel)
    await eventually(lambda: table_id not in world.bot.runtime.tables, what="the close")
    await world.tester.idle()
    assert await world.bot.ledger.escrow(world.guild.id, table_id) == 0
    assert sum(await balances(world, world.alice, world.bob, world.carol)) == 3000
    for member in (world.alice, world.bob, world.carol):
        told = world.tester.dms(member)[-1].text()
        assert told.startswith("The channel of your Western Terrapin table was deleted"), told
        assert "went back to your balance" in told


async def test_a_failed_channel_write_still_prompts_the_next_player(world):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    world.channel.hidden_from.add(world.fake.bot_user.id)  # the bot loses the channel
    carol_dms = len(world.tester.dms(world.carol))
    bob = await western.controls(world.bob)
    await western.press(world.bob, bob, "Bet 1")
    await world.tester.idle()
    assert len(world.tester.dms(world.carol)) == carol_dms + 1  # carol is prompted by DM
    assert western.table.pending_seats() == [2]


async def test_a_write_to_a_vanished_channel_closes_its_table(world):
    """The channel went while the bot was away (no CHANNEL_DELETE): the first failed write
    finds out and closes the table."""
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    table_id = western.table.id
    del world.fake.channels[world.channel.id]
    world.guild.channels.remove(world.channel)
    await western.press(world.bob, await western.controls(world.bob), "Bet 1")
    await eventually(lambda: table_id not in world.bot.runtime.tables, what="the close")
    await world.tester.idle()
    assert await world.bot.ledger.escrow(world.guild.id, table_id) == 0
    assert sum(await balances(world, world.alice, world.bob, world.carol)) == 3000


# ---- 3. a restart plays at once for away and leaving players --------------------------------


async def test_after_a_restart_a_leaving_player_is_played_for_at_once(world):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    table_id = western.table.id
    assert western.turn() == 1
    await world.stop_bot()
    # A crash right after bob's Leave was saved, before his turn was played for him.
    with sqlite3.connect(world.settings.database_path) as database:
        database.execute(
            "UPDATE table_seats SET leaving = 1, away = 1 WHERE table_id = ? AND seat = 1",
            (table_id,),
        )
    client = await world.start_bot()
    await world.tester.idle()
    table = client.runtime.get(table_id)
    assert table.pending_seats() == [2], "bob's turn should have been played at once"
    assert "Bob ran out of time" not in western.message().text()


# ---- 4. Cancel and Leave at the same moment --------------------------------------------------


async def test_cancel_and_leave_at_the_same_moment_and_clicks_after_a_cancel(world):
    western = await open_western(world)
    lobby = copy.deepcopy(western.message())  # what a slow client still shows after the Cancel
    cancel, leave = await asyncio.gather(
        world.tester.click(world.alice, lobby, "Cancel"),
        world.tester.click(world.bob, lobby, "Leave"),
    )
    assert "every buy-in went back" in cancel.text
    assert leave.text in (
        "This table is closed.",
        "You left the table; your buy-in is back in your balance.",
    )
    for label in ("Cancel", "Join", "Start"):
        late = await world.tester.click(world.carol, lobby, label)
        assert late.text == "This table is closed.", (label, late.text)
    assert await balances(world, world.alice, world.bob) == [1000, 1000]


async def test_a_leave_pressed_while_start_is_saved_waits_and_asks_as_in_a_game(world, monkeypatch):
    """The host presses Start as a guest presses Leave: the Leave waits for the Start, then
    asks the guest as in a game in play (who stays seated until they confirm)."""
    western = await open_western(world, ("bob", "carol"))
    lobby = western.message()
    store, saved, release = world.bot.runtime.store, asyncio.Event(), asyncio.Event()
    save_start = store.start

    async def start_held(*args, **kwargs):  # the table is saved playing, Start not yet done
        await save_start(*args, **kwargs)
        saved.set()
        await release.wait()

    leave_pressed, run = asyncio.Event(), TableButton.run

    async def noting(self, interaction, bot):
        if self.verb == "leave":
            leave_pressed.set()
        await run(self, interaction, bot)

    monkeypatch.setattr(store, "start", start_held)
    monkeypatch.setattr(TableButton, "run", noting)
    start = asyncio.create_task(world.tester.click(world.alice, lobby, "Start"))
    await saved.wait()
    leave = asyncio.create_task(world.tester.click(world.bob, lobby, "Leave"))
    await leave_pressed.wait()
    release.set()
    started, asked = await asyncio.gather(start, leave)

    assert "started" in started.text, started.text
    assert asked.text.startswith("Leave the table? You leave when this hand ends"), asked.text
    await western.settle()
    assert western.table.seat_of(world.bob.id).seat == 1 and western.turn() == 1


# ---- 6. guild commands from a DM ---------------------------------------------------------------


async def test_game_commands_are_guild_only_and_refused_in_a_dm(world):
    table_group = next(c for c in world.fake.commands[None] if c["name"] == "table")
    temptation = next(c for c in world.fake.commands[None] if c["name"] == "temptation")
    for group in (table_group, temptation):
        assert group.get("contexts") == [0] or group.get("dm_permission") is False, group
    dm = world.fake._open_dm(world.alice.id)
    reply = await world.tester.slash(world.alice, dm, "temptation new")
    assert reply.text == "This command works only in a server."
    assert await balances(world, world.alice) == [1000]


async def test_a_failed_insert_is_never_reported_as_an_open_table(world):
    store = world.bot.runtime.store
    record = TableRecord(0, None, 1, "western", "lobby", world.alice.id, 10, "{}", 60)
    try:
        await store.create(record, "Alice", "open:dm")
    except Exception as error:
        assert "already open" not in str(error)
        assert type(error).__name__ == "IntegrityError"
    else:
        raise AssertionError("a table without a guild was stored")


# ---- 7. and 9. forged components -----------------------------------------------------------


async def test_forged_and_malformed_table_components_are_refused_without_errors(world):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    tid = western.table.id
    bob_dm = world.tester.dms(world.bob)[-1]
    prompt = western.table.seats[1].prompt
    cases = [
        (f"tb:{tid}:explode", None),  # no such verb
        (f"ts:{tid}:{prompt}:bet:0", []),  # a select with no value
        (f"pc:{tid}:{prompt}:000000:ff:0:0:0", None),  # a card picker's tap, on Western
        ("garbage", None),
    ]
    for custom_id, values in cases:
        reply = await world.tester.forge(
            world.bob, world.channel, custom_id, values=values, message=bob_dm
        )
        assert reply.text in (NO_LONGER_VALID, "That move is not available any more."), (
            custom_id,
            reply.text,
        )
    unknown = await world.tester.forge(world.bob, world.channel, "tb:1:join")  # on no message
    assert unknown.text == NO_LONGER_VALID
    assert western.table.pending_seats() == [1]


async def test_a_forged_join_from_a_dm_or_a_hidden_channel_seats_nobody(world):
    western = await open_western(world)
    tid = western.table.id
    outsider = world.fake.add_member(world.guild, "Outsider")
    dm = world.fake._open_dm(outsider.id)
    dm_message = Message(1, dm.id, world.fake.bot_user, {"id": "1", "components": []})
    from_dm = await world.tester.forge(outsider, dm, f"tb:{tid}:join", message=dm_message)
    assert from_dm.text == NO_LONGER_VALID
    world.fake.forbid_channel(world.guild, outsider, world.channel)
    hidden = await world.tester.forge(
        outsider, world.channel, f"tb:{tid}:join", message=western.message()
    )
    assert hidden.text == NO_LONGER_VALID
    assert western.table.seat_of(outsider.id) is None
    assert await balances(world, outsider) == [1000]


# ---- 10. chips paid at a close are results too -----------------------------------------------


async def test_a_carried_pot_paid_at_the_close_counts_in_the_results(world):
    provincial = TableDriver(world)
    await provincial.open("provincial new", world.alice, [world.bob, world.carol], buy_in=30)
    await provincial.start(world.alice)
    runtime, tid = world.bot.runtime, provincial.table.id
    for hand in range(3):  # everyone folds: the antes stay in the pot
        await runtime.fire_deadline(tid)  # the stake
        await runtime.fire_deadline(tid)  # every fist empty
        await provincial.settle()
        assert provincial.table.state.carry == 3 * (hand + 1)
        if hand < 2:
            await runtime.fire_deadline(tid)  # the next deal
            await provincial.settle()
    asked, _ = await provincial.leave(world.bob)
    assert "pot of 9 chips" in asked.text, asked.text
    await provincial.leave(world.carol)
    await runtime.fire_deadline(tid)  # the next deal finds one player: the table closes
    await world.tester.idle()
    assert runtime.in_channel(world.channel.id) is None
    assert await balances(world, world.alice, world.bob, world.carol) == [1006, 997, 997]
    rows = await world.bot.database.fetch_all(
        "SELECT member_id, SUM(chip_net) FROM results WHERE table_id = ?"
        " AND scope IN ('hand', 'settle') GROUP BY member_id",
        tid,
    )
    nets = {row[0]: row[1] for row in rows}
    assert nets == {world.alice.id: 6, world.bob.id: -3, world.carol.id: -3}
    match = await world.bot.database.fetch_all(
        "SELECT member_id, placing, chip_net FROM results WHERE table_id = ? AND scope = 'match'"
        " ORDER BY seat",
        tid,
    )
    assert [tuple(row) for row in match] == [
        (world.alice.id, 1, 6),
        (world.bob.id, 2, -3),
        (world.carol.id, 2, -3),
    ]


# ---- 12. final standings ------------------------------------------------------------------------


async def test_a_chip_game_announces_its_final_standings(world):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    await western.play("Fold")  # bob
    await western.play("Fold")  # carol: alice wins the blinds
    await world.tester.slash(world.alice, world.channel, "table close")
    await world.tester.idle()
    standings = next(
        m for m in world.tester.channel_messages(world.channel) if "Final standings" in m.text()
    )
    text = standings.text()
    assert "Alice wins!" in text and "**1.** Alice · +2 chips" in text
    assert "**2.** Bob · -1 chip" in text


async def test_a_player_who_left_ranks_by_the_chips_they_won(world):
    """Alice won a hand and left: the table closed with Bob alone, his stack the only one left.
    At a chip game the standings go by chips won, so Alice, +1, is first."""
    western = await open_western(world, ("bob",), buy_in=50)
    await western.start(world.alice)
    assert western.member(western.turn()) == world.bob
    await western.play("Fold")  # bob: alice takes his blind
    await western.leave_one_player(world.alice)
    standings = next(
        m for m in world.tester.channel_messages(world.channel) if "Final standings" in m.text()
    )
    text = standings.text()
    assert "Alice wins!" in text and "**1.** Alice · +1 chip" in text, text
    assert "**2.** Bob · -1 chip" in text, text


async def test_the_closed_table_message_shows_the_close_and_the_standings(world):
    """Even when the channel's edits are paced and the close waits its turn to be drawn."""
    world.bot.presenter.messages.edit_seconds = 0.3
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    message = western.message()
    await western.play("Fold")  # bob
    await western.play("Fold")  # carol: alice wins the blinds
    await world.tester.slash(world.alice, world.channel, "table close")
    await world.tester.idle()
    text = world.fake.messages[message.id].text()
    assert "the table is closed" in text and "Back to balances: Alice 52, Bob 49, Carol 49" in text
    assert "Alice wins!" in text and "**1.** Alice · +2 chips" in text
    assert "**2.** Bob · -1 chip" in text and world.fake.messages[message.id].buttons() == []


async def test_a_table_closed_as_the_bot_died_is_drawn_closed_with_its_standings(world):
    """The close was saved, then the bot died before drawing it: the table message still
    showed the hand with My hand and Leave. The next start draws it closed."""
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    message = western.message()
    await western.play("Fold")  # bob
    await western.play("Fold")  # carol: alice wins the blinds

    class DiesBeforeDrawing:
        async def table_changed(self, table, events) -> None:
            await asyncio.Event().wait()

    world.bot.runtime.listener = DiesBeforeDrawing()
    world.bot.runtime.render_grace = 0.01
    closed = await world.tester.slash(world.alice, world.channel, "table close")
    assert closed.text.startswith("The table is closed"), closed.text
    await world.stop_bot()
    assert {"My hand", "Leave"} <= {b["label"] for b in world.fake.messages[message.id].buttons()}
    standings_before = len(channel_text(world).split("Final standings")) - 1

    await world.start_bot()
    await world.tester.idle()

    drawn = world.fake.messages[message.id]
    assert drawn.buttons() == [] and "the table is closed" in drawn.text()
    assert "Back to balances: Alice 52, Bob 49, Carol 49" in drawn.text()
    assert "**1.** Alice · +2 chips" in drawn.text() and "**2.** Bob · -1 chip" in drawn.text()
    assert len(channel_text(world).split("Final standings")) - 1 == standings_before + 1
    await world.stop_bot()
    await world.start_bot()  # drawn once: not again
    await world.tester.idle()
    assert len(channel_text(world).split("Final standings")) - 1 == standings_before + 1


async def test_a_points_game_lobby_shows_no_buy_in(world):
    reply = await world.tester.slash(world.alice, world.channel, "bigtwo new")
    assert "chips" not in reply.text
    await world.tester.idle()
    lobby = world.fake.messages[world.bot.runtime.in_channel(world.channel.id).record.message_id]
    assert "Buy-in" not in lobby.text()


# ---- 13. DM prompts ----------------------------------------------------------------------------


async def test_a_timed_out_prompt_loses_its_buttons(world):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    bob_prompt = world.tester.dms(world.bob)[-1]
    assert bob_prompt.components
    await world.bot.runtime.fire_deadline(western.table.id)  # bob times out
    await western.settle()
    assert bob_prompt.components == []
    assert world.tester.dms(world.carol)[-1].components  # carol's turn now, by a new DM


async def test_a_click_forged_into_another_members_dms_is_refused(world):
    """A modified client places Bob's own move in Alice's DMs, on her message: refused, and
    nothing changes: the table, her message, and where Bob's prompts go (his own DMs)."""
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    version = western.table.record.version
    alices = world.tester.dms(world.alice)[-1]
    alices_text = alices.text()
    (bets,) = [
        c
        for row in world.tester.dms(world.bob)[-1].components
        for c in row["components"]
        if c["type"] == 3
    ]
    bet_2 = next(o["value"] for o in bets["options"] if o["label"] == "Bet 2")

    forged = await world.tester.forge(
        world.bob,
        world.fake.channels[alices.channel_id],
        bets["custom_id"],
        values=[bet_2],
        message=alices,
    )

    assert forged.text == NO_LONGER_VALID
    assert western.table.record.version == version and western.turn() == 1
    assert world.fake.messages[alices.id].text() == alices_text
    hand = (await world.tester.click(world.bob, western.message(), "My hand")).response
    await western.press(world.bob, hand, "Bet 2")  # bob plays from My hand (in the channel)
    await western.settle()
    await western.play("Raise by 1 (put in 3)")  # carol
    await western.play("Call 3")  # alice
    assert western.turn() == 1
    assert "Call 1" in [b["label"] for b in world.tester.dms(world.bob)[-1].buttons()]
    assert not [m for m in world.tester.dms(world.alice) if "Call 1" in m.text()]


async def test_dms_that_failed_are_tried_again_at_the_next_hand(world):
    world.bob.accepts_dms = False
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    assert world.tester.dms(world.bob) == []
    world.bob.accepts_dms = True
    await western.play("Fold", seat=1)  # bob, through My hand
    await western.play("Fold")  # carol: the hand ends
    await world.bot.runtime.fire_deadline(western.table.id)  # the next deal
    await western.settle()
    assert world.tester.dms(world.bob), "bob's DMs work again and the new hand was sent there"


async def test_a_watcher_is_told_whose_board_it_is(world):
    await world.tester.slash(world.alice, world.channel, "soliterrapin play")
    await world.tester.idle()
    board = next(m for m in world.tester.channel_messages(world.channel) if m.components)
    select = next(c for row in board.components for c in row["components"] if c["type"] == 3)
    refused = await world.tester.choose(
        world.bob, board, [select["options"][0]["value"]], select["custom_id"]
    )
    assert refused.text == "Only Alice can play this board."


async def test_a_points_game_names_its_winner(world):
    """A Big Two match ends (by the target, or a player leaving between hands): the channel
    is told the final standings in points, and the placings are recorded."""
    big_two = TableDriver(world)
    await big_two.open("bigtwo new", world.alice, [world.bob, world.carol], target=10)
    await big_two.start(world.alice)
    runtime, tid = world.bot.runtime, big_two.table.id
    while tid in runtime.tables and not runtime.tables[tid].state.awaiting_next_hand():
        await runtime.fire_deadline(tid)  # timeouts play the hand out
        await big_two.settle()
    if tid in runtime.tables:  # the target wasn't reached: a player leaves
        await big_two.leave(world.bob)
    await world.tester.idle()
    assert tid not in runtime.tables
    standings = next(
        m.text()
        for m in world.tester.channel_messages(world.channel)
        if "Final standings" in m.text()
    )
    assert ("wins!" in standings or "share first place" in standings) and "points" in standings
    assert "chips" not in standings
    rows = await world.bot.database.fetch_all(
        "SELECT placing, score FROM results WHERE table_id = ? AND scope = 'match'", tid
    )
    best = min(row[1] for row in rows)
    assert {row[1] for row in rows if row[0] == 1} == {best}  # the lowest score is first
