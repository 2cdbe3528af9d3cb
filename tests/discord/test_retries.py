"""bot/discord/retries.py: what Discord failed is tried again once a pause, the pause growing
while the trouble lasts and short again once a call goes through; nothing after shutdown."""

import asyncio

from bot.discord.retries import LONGEST_PAUSE, Retries

PAUSE = 0.01


async def test_a_failure_is_tried_again_once_after_the_pause_however_many_failed():
    tried: list[int] = []
    retries = Retries(tried.append, first_pause=PAUSE)
    retries.failed(7)
    retries.failed(7)  # a second failure meanwhile: one try
    await asyncio.sleep(PAUSE * 3)
    assert tried == [7]


async def test_the_pause_grows_threefold_to_the_longest_and_is_short_again_after_a_success():
    retries = Retries(lambda table_id: None, first_pause=PAUSE)
    retries.failed(1)
    assert retries.pauses[1] == PAUSE * 3
    await asyncio.sleep(PAUSE * 2)
    retries.failed(1)
    assert retries.pauses[1] == PAUSE * 9
    retries.pauses[1] = LONGEST_PAUSE
    retries.timers.pop(1).cancel()
    retries.failed(1)
    assert retries.pauses[1] == LONGEST_PAUSE
    retries.forget(1)
    retries.succeeded(1)
    assert 1 not in retries.pauses and not retries.timers


async def test_a_success_while_a_try_waits_keeps_the_grown_pause():
    retries = Retries(lambda table_id: None, first_pause=PAUSE)
    retries.failed(1)
    retries.succeeded(1)  # another call of the table's went through: the try still waits
    assert retries.pauses[1] == PAUSE * 3 and 1 in retries.timers
    retries.stop()


async def test_nothing_is_tried_after_shutdown_or_once_a_table_is_forgotten():
    tried: list[int] = []
    retries = Retries(tried.append, first_pause=PAUSE)
    retries.failed(1)
    retries.failed(2)
    retries.forget(1)
    retries.stop()
    await asyncio.sleep(PAUSE * 3)
    assert tried == [] and not retries.timers
