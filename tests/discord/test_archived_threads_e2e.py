"""A table in a thread that gets archived: by a moderator, or by Discord itself once the thread
has had no new message for its `auto_archive_duration` (a lobby waiting, a long match whose
table message is only edited). An archived thread leaves the channel list and its messages
take no edit (docs/discord-testing.md), so the table message would stay frozen on an old
state while the game goes on by DM. The bot posts it anew, which unarchives the thread; a
thread a moderator locked is left as they left it."""

from __future__ import annotations

import logging

from tests.discord.test_tournament_e2e import create, register, tournament_message
from tests.e2e import eventually
from tests.tables_e2e import TableDriver, balances


async def western_in_a_thread(world) -> tuple[TableDriver, object]:
    """A Western table in play in a thread Alice started: the driver and the thread."""
    thread = world.fake.add_thread(world.channel, "Games night", owner=world.alice)
    world.channel = thread  # the driver and the commands go there
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob, world.carol], buy_in=50)
    await western.start(world.alice)
    await world.tester.idle()
    return western, thread


async def test_an_archived_thread_gets_its_table_message_anew_and_comes_back(world):
    western, thread = await western_in_a_thread(world)
    old = western.message()
    await world.fake.archive_thread(thread)
    await eventually(lambda: western.table.record.message_id != old.id, what="a new message")
    await world.tester.idle()
    assert not thread.thread.archived  # the new message brought the thread back
    assert world.fake.messages[old.id].deleted
    await western.play("Bet 1")
    await world.tester.idle()
    assert "Bob bets 1." in western.message().text()  # edited again, as the game goes on


async def test_a_thread_archived_unseen_gets_its_table_message_anew_at_the_next_change(
    world, caplog
):
    """Archived while the bot was away or its THREAD_UPDATE was missed: the next edit is
    refused (50083), and the table message is posted anew instead of being logged stale."""
    western, thread = await western_in_a_thread(world)
    old = western.message()
    thread.thread.archived = True  # no event reaches the bot
    with caplog.at_level(logging.WARNING, logger="bot"):
        await western.play("Bet 1")
        await world.tester.idle()
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert not thread.thread.archived and world.fake.messages[old.id].deleted
    assert "Bob bets 1." in western.message().text()


async def test_a_locked_thread_is_left_locked_and_its_table_plays_on_by_dm(world):
    western, thread = await western_in_a_thread(world)
    old_id = western.table.record.message_id
    await world.fake.archive_thread(thread, locked=True)
    await world.tester.idle()
    assert thread.thread.archived and western.table.record.message_id == old_id
    carol_dms = len(world.tester.dms(world.carol))
    await western.press(world.bob, await western.controls(world.bob), "Bet 1")
    await world.tester.idle()
    assert len(world.tester.dms(world.carol)) == carol_dms + 1  # carol is prompted by DM
    assert thread.thread.archived and thread.thread.locked
    table_id = western.table.id
    closed = await world.tester.slash(world.admin, thread, "table close")
    assert closed.text.startswith("The table is closed"), closed.text
    await world.tester.idle()
    assert await world.bot.ledger.escrow(world.guild.id, table_id) == 0
    assert sum(await balances(world, world.alice, world.bob, world.carol)) == 3000


async def test_a_tournament_registering_in_an_archived_thread_is_posted_anew(world):
    """Registration may outlast a thread's quiet time: the tournament message is posted anew
    when the thread is archived, and again when an edit finds it archived unseen."""
    thread = world.fake.add_thread(world.channel, "Cup", owner=world.admin)
    world.channel = thread
    tournament = await create(world, game="bigtwo", format="elimination", buy_in=10)
    first = tournament_message(world)
    await world.fake.archive_thread(thread)
    await eventually(lambda: tournament_message(world).id != first.id, what="a new message")
    await world.tester.idle()
    assert not thread.thread.archived and world.fake.messages[first.id].deleted
    second = tournament_message(world)
    thread.thread.archived = True  # no event reaches the bot
    await register(world, [world.bob])  # the message is redrawn: refused, so posted anew
    third = tournament_message(world)
    assert third.id != second.id and not thread.thread.archived
    assert "Bob" in third.text() and world.fake.messages[second.id].deleted
    record = await world.bot.tournament_store.load(tournament)
    assert record.message_id == third.id
