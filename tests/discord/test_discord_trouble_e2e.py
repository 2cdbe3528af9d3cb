"""Discord's own trouble: a call answered 5xx (discord.py raises a bot call's 503 at once, and
a 500, 502 or 504 after some 25 s of retries) or a connection that fails. What it would have
shown goes again after a pause: a player's prompt by DM, the table message. Nothing is logged
as an error, and no player waits unprompted until their time runs out."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord
import pytest

from bot.discord import dms
from tests.discord.test_table_faults_e2e import open_western
from tests.discord.test_tournament_e2e import create, register, tournament_message
from tests.e2e import eventually

PAUSE = 0.05  # the first pause before trying again (5 s in the bot)


@pytest.fixture
def quick_retries(world):
    world.bot.presenter.hands.retries.first_pause = PAUSE
    world.bot.presenter.messages.retries.first_pause = PAUSE


async def test_a_dm_prompt_discord_failed_is_sent_again(world, quick_retries):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    await world.tester.idle()
    fake = world.fake
    fake.fail_calls(lambda call: call.method == "POST" and fake.dm_channel_of(call), times=2)
    carol_dms = len(world.tester.dms(world.carol))
    await western.press(world.bob, await western.controls(world.bob), "Bet 1")
    await eventually(lambda: len(world.tester.dms(world.carol)) > carol_dms, what="carol's DM")
    await world.tester.idle()
    assert [call.status for call in fake.calls if fake.dm_channel_of(call)][-3:] == [
        503,
        503,
        200,
    ]
    assert len(world.tester.dms(world.carol)) == carol_dms + 1  # once, not once a try
    prompt = await western.controls(world.carol)
    assert "Your move" in prompt.text()
    await western.press(world.carol, prompt, "Call 1")  # and she plays from it
    await world.tester.idle()
    assert western.table.pending_seats() != [2]


async def test_a_table_message_discord_failed_to_edit_is_drawn_again(world, quick_retries):
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    await world.tester.idle()
    fake, message_id = world.fake, western.table.record.message_id
    fake.fail_calls(lambda call: call.method == "PATCH" and str(message_id) in call.path)
    await western.play("Bet 1")
    await eventually(lambda: "Bob bets 1." in western.message().text(), what="the redraw")
    edits = [call.status for call in fake.calls if str(message_id) in call.path]
    assert edits[-2:] == [503, 200]


async def test_a_clicks_answer_discord_failed_is_shown_by_editing_the_message(
    world, quick_retries, monkeypatch
):
    """discord.py gives up on the click's answer only after some 25 s of retries (not waited
    for here): the answer is made to fail as it would then."""
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    await world.tester.idle()
    trouble = discord.DiscordServerError(SimpleNamespace(status=503, reason="down"), "down")

    async def failing(*args, **kwargs) -> None:
        raise trouble

    monkeypatch.setattr(dms, "redraw_clicked", failing)
    clicked = await western.controls(world.bob)
    with pytest.raises(TimeoutError):  # the member sees "This interaction failed"
        await asyncio.wait_for(western.press(world.bob, clicked, "Bet 1"), 1.0)
    await world.tester.idle()
    edits = [c for c in world.fake.calls if c.method == "PATCH" and str(clicked.id) in c.path]
    assert [c.status for c in edits] == [200]
    assert "Your move" not in world.fake.messages[clicked.id].text()  # his answer is shown
    assert western.table.pending_seats() == [2]


async def test_a_tournament_message_discord_failed_to_edit_is_drawn_again(world):
    world.bot.tournament_presenter.retries.first_pause = PAUSE
    await create(world, game="bigtwo", format="elimination", buy_in=10)
    message_id = tournament_message(world).id
    world.fake.fail_calls(lambda call: call.method == "PATCH" and str(message_id) in call.path)
    await register(world, [world.bob])  # the message is redrawn: Discord fails it once
    await eventually(lambda: "Bob" in world.fake.messages[message_id].text(), what="the redraw")
    edits = [c.status for c in world.fake.calls if str(message_id) in c.path]
    assert edits[-2:] == [503, 200]


async def test_a_turn_call_discord_failed_is_made_again(world, quick_retries):
    world.carol.accepts_dms = False  # her decisions are called in the channel
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    await world.tester.idle()
    fake, posts = world.fake, f"/channels/{world.channel.id}/messages"
    fake.fail_calls(lambda call: call.method == "POST" and call.path == posts)
    await western.play("Bet 1")  # bob: carol's turn

    def called() -> list:
        shown = world.tester.channel_messages(world.channel)
        return [m for m in shown if "your move at the table" in m.text()]

    await eventually(lambda: bool(called()), what="carol's call")
    assert [c.status for c in fake.calls if c.method == "POST" and c.path == posts][-2:] == [
        503,
        200,
    ]


async def test_a_turn_call_discord_failed_to_delete_goes_at_the_next_change(world):
    world.carol.accepts_dms = False
    western = await open_western(world, ("bob", "carol"), buy_in=50)
    await western.start(world.alice)
    await western.play("Bet 1")  # bob: carol's turn, called in the channel
    (call,) = [
        m
        for m in world.tester.channel_messages(world.channel)
        if "your move at the table" in m.text()
    ]
    world.fake.fail_calls(lambda c: c.method == "DELETE" and str(call.id) in c.path)
    await western.play("Call 1")  # carol: her call should go, but Discord fails it
    assert not world.fake.messages[call.id].deleted
    await western.play("Call 1")  # alice: the table's next change
    assert world.fake.messages[call.id].deleted
