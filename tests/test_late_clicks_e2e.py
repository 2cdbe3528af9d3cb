"""Clicks that reach a busy bot late, through the fake Discord, which like Discord refuses an
interaction's first answer 3 s after the interaction was made (10062 "Unknown interaction").

A click older than 1.5 s is acknowledged before anything is done and its message edited after;
one too late even for that changes nothing; and a move whose answer Discord refused is shown
all the same, by editing the clicked message or by DM."""

import asyncio

import pytest

from bot.discord.replies import LATE_AFTER
from tests.e2e import eventually
from tests.fakediscord.server import ANSWER_WITHIN
from tests.fakediscord.tester import NotAnswered
from tests.tables_e2e import TableDriver


async def western_started(world) -> TableDriver:
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob], buy_in=300)
    await western.start(world.alice)
    return western


def custom_ids(message) -> list[str]:
    return [item["custom_id"] for row in message.components for item in row["components"]]


def slow_moves(world, monkeypatch, seconds: float) -> None:
    """Every move takes `seconds` longer inside the bot, as behind a long queue."""
    act = world.bot.runtime.act

    async def slow_act(*args, **kwargs):
        await asyncio.sleep(seconds)
        return await act(*args, **kwargs)

    monkeypatch.setattr(world.bot.runtime, "act", slow_act)


def calls(world, method: str, prefix: str) -> list[str]:
    return [c.path for c in world.fake.calls if c.method == method and c.path.startswith(prefix)]


async def test_a_late_click_is_acknowledged_first_then_its_message_redrawn(world):
    western = await western_started(world)
    user = western.member(western.turn())
    dm = await western.controls(user)
    before, version = custom_ids(dm), western.table.record.version
    label = dm.buttons()[0]["label"]

    reply = await world.tester.click(user, dm, label, age=LATE_AFTER + 0.3)

    assert reply.response_type == 6  # a deferred update: "acknowledged, the edit follows"
    await western.settle()
    assert western.table.record.version > version
    assert custom_ids(world.fake.messages[dm.id]) != before
    token = reply.token
    assert calls(world, "PATCH", f"/webhooks/{world.fake.application_id}/{token}/messages/")
    assert not world.fake.too_late


async def test_a_click_in_time_is_answered_by_its_redraw_alone(world):
    western = await western_started(world)
    user = western.member(western.turn())
    dm = await western.controls(user)

    reply = await world.tester.click(user, dm, dm.buttons()[0]["label"], age=LATE_AFTER - 0.5)

    assert reply.response_type == 7  # the message redrawn in the answer itself
    await western.settle()
    assert not calls(world, "PATCH", "/webhooks/")


async def test_a_click_too_late_to_acknowledge_changes_nothing(world):
    western = await western_started(world)
    seat = western.turn()
    user = western.member(seat)
    dm = await western.controls(user)
    before, version = custom_ids(dm), western.table.record.version
    label = dm.buttons()[0]["label"]

    with pytest.raises(NotAnswered):
        await world.tester.click(user, dm, label, age=ANSWER_WITHIN + 0.5)
    await eventually(lambda: world.fake.too_late, what="the bot's refused acknowledgement")
    await western.settle()

    assert western.table.record.version == version
    assert western.turn() == seat
    assert custom_ids(world.fake.messages[dm.id]) == before
    again = await world.tester.click(user, dm, label)  # the member tries again: it plays
    assert again.response_type == 7
    await western.settle()
    assert western.table.record.version > version


async def test_a_move_whose_answer_came_too_late_is_shown_by_editing_its_dm(world, monkeypatch):
    western = await western_started(world)
    user = western.member(western.turn())
    dm = await western.controls(user)
    before, version = custom_ids(dm), western.table.record.version
    slow_moves(world, monkeypatch, 2.3)

    with pytest.raises(NotAnswered):  # in time for no acknowledgement, too slow to answer
        await world.tester.click(user, dm, dm.buttons()[0]["label"], age=1.0)
    await eventually(lambda: custom_ids(world.fake.messages[dm.id]) != before, what="an edit")
    await western.settle()

    assert len(world.fake.too_late) == 1
    assert western.table.record.version > version
    assert calls(world, "PATCH", f"/channels/{dm.channel_id}/messages/{dm.id}")


async def test_a_move_answered_too_late_on_my_hand_sends_the_hand_by_dm(world, monkeypatch):
    western = await western_started(world)
    seat = western.turn()
    user = western.member(seat)
    hand = (await world.tester.click(user, western.message(), "My hand")).response
    assert hand.ephemeral
    dms_before, version = len(world.tester.dms(user)), western.table.record.version
    slow_moves(world, monkeypatch, 2.3)

    with pytest.raises(NotAnswered):
        await world.tester.click(user, hand, hand.buttons()[0]["label"], age=1.0)
    await eventually(lambda: len(world.tester.dms(user)) > dms_before, what="a DM")
    await western.settle()

    assert len(world.fake.too_late) == 1
    assert western.table.record.version > version
    newest = world.tester.dms(user)[-1]
    assert newest.embeds and newest.embeds[0] == world.bot.presenter.private_embed(
        western.table, seat
    ).to_dict() | {"type": "rich"}
