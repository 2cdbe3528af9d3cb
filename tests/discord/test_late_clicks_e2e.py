"""Interactions that reach a busy bot late (clicks, answers in words, slash commands), through
the fake Discord, which like Discord refuses an interaction's first answer 3 s after the
interaction was made (10062 "Unknown interaction").

An interaction older than 1.5 s is acknowledged before anything is done and answered after by
an edit (a move's message redrawn, a lobby button's or a command's private "thinking..."
replaced); one too late even for that changes nothing; and a move whose answer Discord refused
is shown all the same, by editing the clicked message or by DM."""

import asyncio

import pytest

from bot.discord.replies import LATE_AFTER
from bot.games import backhand  # noqa: F401  (registers the game)
from tests.e2e import eventually
from tests.fakediscord.server import ANSWER_WITHIN
from tests.fakediscord.tester import NotAnswered
from tests.tables_e2e import TableDriver, play_western_hand


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
    assert newest.embeds and newest.embeds[0] == world.bot.presenter.hands.private_embed(
        western.table, seat
    ).to_dict() | {"type": "rich"}


async def test_a_late_join_is_acknowledged_privately_then_answered(world):
    western = TableDriver(world)
    await western.open("western new", world.alice, [], buy_in=300)

    reply = await world.tester.click(world.bob, western.message(), "Join", age=LATE_AFTER + 0.3)

    assert reply.response_type == 5  # "thinking...", for Bob alone
    await world.tester.idle()
    assert reply.response.ephemeral and reply.response.text() == "You joined the table."
    assert western.table.seat_of(world.bob.id) is not None


async def test_a_join_too_late_to_acknowledge_seats_nobody(world):
    western = TableDriver(world)
    await western.open("western new", world.alice, [], buy_in=300)

    with pytest.raises(NotAnswered):
        await world.tester.click(world.bob, western.message(), "Join", age=ANSWER_WITHIN + 0.5)
    await eventually(lambda: world.fake.too_late, what="the bot's refused acknowledgement")
    await world.tester.idle()

    assert western.table.seat_of(world.bob.id) is None
    assert await world.bot.ledger.balance(world.guild.id, world.bob.id) == 1000


async def test_a_late_answer_in_words_is_acknowledged_then_its_message_redrawn(world):
    await world.bot.ledger.fund_house(world.guild.id, 500, reason="test", key="k1")
    driver = TableDriver(world)
    await driver.open("backhand new", world.alice, [world.bob], buy_in=50, min_bet=2, max_bet=10)
    await driver.start(world.alice)
    member = driver.member(1)
    opened = await driver.press(member, await driver.controls(member), "Other amount")
    before = custom_ids(opened.source)

    reply = await world.tester.submit_modal(member, opened, {"answer": "7"}, age=LATE_AFTER + 0.3)

    assert reply.response_type == 6
    await driver.settle()
    assert driver.table.state.hands[1].bet == 7
    assert custom_ids(world.fake.messages[opened.source.id]) != before


async def test_a_late_refusal_replaces_the_thinking_message(world):
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob], buy_in=300)
    in_time = await world.tester.click(world.bob, western.message(), "Start")

    late = await world.tester.click(world.bob, western.message(), "Start", age=LATE_AFTER + 0.3)

    assert late.response_type == 5
    await western.settle()
    assert "can start it" in in_time.text and late.response.text() == in_time.text
    assert late.response.ephemeral and not late.followups


async def test_a_late_move_on_a_table_message_is_acknowledged_then_the_board_redrawn(world):
    await world.tester.slash(world.alice, world.channel, "soliterrapin play")
    await world.tester.idle()
    (table,) = world.bot.runtime.tables.values()
    board = world.fake.messages[table.record.message_id]
    select = next(i for row in board.components for i in row["components"] if i["type"] == 3)
    before, version = board.attachments, table.record.version

    reply = await world.tester.choose(
        world.alice, board, [select["options"][0]["value"]], select["custom_id"], age=1.8
    )

    assert reply.response_type == 6
    # The picture is drawn off the event loop, where the tester's idle can't see it at work.
    await eventually(
        lambda: world.fake.messages[board.id].attachments != before, what="the new picture"
    )
    assert table.record.version > version
    assert calls(world, "PATCH", f"/webhooks/{world.fake.application_id}/{reply.token}/")


async def test_a_late_command_is_acknowledged_privately_then_answered(world):
    reply = await world.tester.slash(
        world.alice, world.channel, "western new", buy_in=300, age=LATE_AFTER + 0.3
    )

    assert reply.response_type == 5
    await world.tester.idle()
    assert reply.response.ephemeral
    assert reply.response.text().startswith("Your Western Terrapin table is open")
    assert world.bot.runtime.in_channel(world.channel.id) is not None


async def test_a_late_command_answered_in_public_is_shown_to_its_member_alone(world):
    reply = await world.tester.slash(world.alice, world.channel, "daily", age=LATE_AFTER + 0.3)

    assert reply.response_type == 5
    await world.tester.idle()
    assert reply.response.ephemeral and "You collected 100 chips" in reply.response.text()
    assert await world.bot.ledger.balance(world.guild.id, world.alice.id) == 1100


async def test_a_command_too_late_to_acknowledge_does_nothing(world):
    with pytest.raises(NotAnswered):
        await world.tester.slash(world.alice, world.channel, "daily", age=ANSWER_WITHIN + 0.5)
    await eventually(lambda: world.fake.too_late, what="the bot's refused acknowledgement")
    await world.tester.idle()

    again = await world.tester.slash(world.alice, world.channel, "daily")  # not collected yet
    assert "You collected 100 chips" in again.text


async def test_a_late_leaderboard_page_is_acknowledged_then_drawn(world):
    for member in (world.alice, world.bob):
        await world.tester.slash(member, world.channel, "daily")
    players = [world.fake.add_member(world.guild, f"Player {i}") for i in range(12)]
    for player in players:
        await world.tester.slash(player, world.channel, "daily")
    board = (await world.tester.slash(world.alice, world.channel, "leaderboard")).response

    reply = await world.tester.click(world.bob, board, "Next", age=LATE_AFTER + 0.3)

    assert reply.response_type == 6
    await world.tester.idle()
    assert world.fake.messages[board.id].embeds[0]["footer"]["text"].startswith("Page 2")


async def test_every_command_sent_late_is_acknowledged_then_answered(world):
    """Each command, sent 1.8 s old with no options (as a modified client could), in a channel
    whose table is in play with a hand behind it: acknowledged at once, then its "thinking..."
    replaced by its answer, and no error logged (the world fixture). Random commands found
    /table close (of a table in play) and /table history answering a second time, which
    discord.py refuses: their members saw "thinking..." for good."""
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob, world.carol], buy_in=1000)
    await western.start(world.alice)
    await play_western_hand(western)
    paths = list(world.tester.commands())
    assert {"table close", "table history", "daily"} <= set(paths)
    paths.remove("table close")
    for path in [*paths, "table close"]:  # the close last: the other commands find the table
        reply = await world.tester.slash(
            world.admin, world.channel, path, checked=False, age=LATE_AFTER + 0.3
        )
        await world.tester.idle()
        assert reply.response_type == 5, path
        answer = reply.response
        assert answer.ephemeral and (answer.text() or answer.embeds), path
    assert world.bot.runtime.in_channel(world.channel.id) is None
