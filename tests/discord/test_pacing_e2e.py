"""The bot paces its own REST calls under Discord's global limit (bot/discord/pacing.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import discord

from bot.discord.pacing import EDIT, URGENT, RequestPacer
from tests.fakediscord.ratelimits import RateLimits
from tests.tables_e2e import TableDriver, play_western_hand


async def send_to_many_channels(world, count: int, *, refused: bool = False) -> list:
    """`count` sends at once, one to each new channel. With `refused`, discord.py may give up
    on some (after its retries, each refused again): they come back as exceptions."""
    channels = [world.fake.add_channel(world.guild, f"room-{i}") for i in range(count)]
    sends = (world.bot.get_partial_messageable(c.id).send("hello") for c in channels)
    results = await asyncio.gather(*sends, return_exceptions=refused)
    given_up = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(r, discord.HTTPException) and r.status == 429 for r in given_up), given_up
    return channels


def strict_discord(world, per_second: int) -> RateLimits:
    limits = RateLimits()
    limits.GLOBAL = (per_second, 1.0)
    return world.enforce_discords_limits(limits)


async def test_a_burst_of_calls_waits_its_turn_and_draws_no_429(world):
    limits = strict_discord(world, 10)
    world.bot.pacer.per_second = 8
    started = time.monotonic()
    channels = await send_to_many_channels(world, 24)
    assert limits.limited == []
    posted = {m.channel_id for m in world.fake.messages.values() if m.content == "hello"}
    assert posted >= {c.id for c in channels}
    assert time.monotonic() - started >= 2.0  # 24 calls at 8 a second: three windows


async def test_without_the_pace_the_same_burst_is_refused(world):
    """The check above can fail: unpaced, the fake answers 429 (discord.py then retries)."""
    limits = strict_discord(world, 10)
    world.bot.pacer.per_second = 1000
    await send_to_many_channels(world, 24, refused=True)
    assert len(limits.limited) >= 10


async def test_answers_to_players_never_wait_behind_the_bots_own_calls(world):
    strict_discord(world, 10)
    world.bot.pacer.per_second = 4
    backlog = asyncio.create_task(send_to_many_channels(world, 20))  # five seconds of calls
    await asyncio.sleep(0.05)
    started = time.monotonic()
    reply = await world.tester.slash(world.alice, world.channel, "balance")
    assert "1,000" in reply.text
    assert time.monotonic() - started < 0.5
    assert not backlog.done()
    backlog.cancel()


async def test_the_pacer_lets_through_at_most_its_rate_in_any_window():
    pacer = RequestPacer(5, window=0.1)
    times = []

    async def call():
        async with pacer.slot():
            times.append(time.monotonic())

    await asyncio.gather(*(call() for _ in range(17)))
    times.sort()
    assert all(later - earlier >= 0.099 for earlier, later in zip(times, times[5:], strict=False))
    assert times[-1] - times[0] >= 0.3  # 17 calls at 5 per window: four windows
    assert pacer.waits > 0


def recording(pacer: RequestPacer) -> tuple[list[str], Callable]:
    """(the order calls got their slots, a call named `name` at `priority`)."""
    order: list[str] = []

    async def call(name: str, priority: int) -> None:
        async with pacer.slot(priority):
            order.append(name)

    return order, call


async def test_edits_yield_to_every_other_call_and_a_cancelled_wait_frees_its_turn():
    pacer = RequestPacer(1, window=0.02)
    order, call = recording(pacer)
    first = asyncio.create_task(call("first", URGENT))
    edits = [asyncio.create_task(call(f"edit{i}", EDIT)) for i in range(3)]
    given_up = asyncio.create_task(call("given up", URGENT))
    await asyncio.sleep(0)
    dm = asyncio.create_task(call("dm", URGENT))
    await asyncio.sleep(0)
    given_up.cancel()
    await asyncio.wait_for(asyncio.gather(first, dm, *edits), 1)
    assert order == ["first", "dm", "edit0", "edit1", "edit2"]
    assert pacer.in_flight == 0 and not pacer.waiting


async def test_under_a_backlog_of_other_calls_edits_still_get_every_fourth_slot():
    pacer = RequestPacer(1, window=0.01)
    order, call = recording(pacer)
    first = asyncio.create_task(call("first", URGENT))
    await asyncio.sleep(0)
    edits = [asyncio.create_task(call("edit", EDIT)) for _ in range(3)]
    dms = [asyncio.create_task(call("dm", URGENT)) for _ in range(7)]
    await asyncio.wait_for(asyncio.gather(first, *edits, *dms), 2)
    assert order == ["first"] + ["dm"] * 3 + ["edit"] + ["dm"] * 3 + ["edit"] + ["dm", "edit"]


def prompts_sent(world, since: int) -> tuple[list, list]:
    """(followups, plain DMs) the bot posted since call `since`."""
    posts = [c for c in world.fake.calls[since:] if c.method == "POST"]
    followups = [c for c in posts if c.path.startswith("/webhooks/")]
    dm_ids = {c.id for c in world.fake.channels.values() if c.type == 1}
    dms = [
        c for c in posts if c.path.startswith("/channels/") and int(c.path.split("/")[2]) in dm_ids
    ]
    return followups, dms


async def deal_next_hand(world, driver) -> int:
    since = len(world.fake.calls)
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    return since


async def test_hands_ride_on_each_players_latest_click_while_its_token_lives(world):
    """A seat that clicked in its DMs gets its next hand as a followup to that click (not
    counted against the bot's own limit); once the click's token is near its 15 minutes,
    as a plain DM again."""
    driver = TableDriver(world)
    await driver.open("western new", world.alice, [world.bob, world.carol], buy_in=1000)
    await driver.start(world.alice)
    await play_western_hand(driver)  # every seat plays from its DMs
    hooks = world.bot.presenter.hands.reply_hooks
    assert len(hooks) == 3

    players = (world.alice, world.bob, world.carol)
    seen = {m.id for user in players for m in world.tester.dms(user)}
    followups, dms = prompts_sent(world, await deal_next_hand(world, driver))
    assert (len(followups), len(dms)) == (3, 0)
    for user in players:  # each hand landed in its own DMs
        assert [m for m in world.tester.dms(user) if m.id not in seen and m.embeds]

    for hook in hooks.values():
        hook.until = 0.0
    await play_western_hand(driver)
    for hook in hooks.values():
        hook.until = 0.0
    followups, dms = prompts_sent(world, await deal_next_hand(world, driver))
    assert (len(followups), len(dms)) == (0, 3)


async def test_hands_still_ride_on_clicks_made_before_a_restart(world):
    """The live followup tokens are kept at shutdown: the restarted bot deals the next hand
    through them, not by plain DMs against its own limit."""
    driver = TableDriver(world)
    await driver.open("western new", world.alice, [world.bob, world.carol], buy_in=1000)
    await driver.start(world.alice)
    await play_western_hand(driver)  # every seat plays from its DMs
    await world.stop_bot()
    await world.start_bot()
    await world.tester.idle()
    assert len(world.bot.presenter.hands.reply_hooks) == 3
    followups, dms = prompts_sent(world, await deal_next_hand(world, driver))
    assert (len(followups), len(dms)) == (3, 0)


async def test_a_click_at_one_table_carries_the_hands_of_the_next(world):
    """The followup webhook is the member's, not the seat's: after a table closes, the first
    hands of the next one ride on the clicks its players made at the last."""
    driver = TableDriver(world)
    await driver.open("western new", world.alice, [world.bob, world.carol], buy_in=100)
    await driver.start(world.alice)
    await play_western_hand(driver)  # every seat plays from its DMs
    closed = await world.tester.slash(world.alice, world.channel, "table close")
    assert closed.text.startswith("The table is closed"), closed.text
    await world.tester.idle()
    # The last table's showdowns stand in the channel; the new one checks its own messages.
    earlier = {m.id: m.text() for m in world.tester.channel_messages(world.channel)}
    again = TableDriver(world, checked=earlier)
    await again.open("western new", world.alice, [world.bob, world.carol], buy_in=100)
    since = len(world.fake.calls)
    await again.start(world.alice)
    await again.settle()
    followups, dms = prompts_sent(world, since)
    assert (len(followups), len(dms)) == (3, 0)
