"""Requests arriving while a batch is under way go together in the next (bot/store/batches.py)."""

import asyncio

import pytest

from bot.store.batches import Batches


class Recorder:
    """A `send` that records its batches and holds each until released."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.release = asyncio.Event()

    async def send(self, requests: list[int]) -> list[int]:
        self.batches.append(requests)
        await self.release.wait()
        return [request * 10 for request in requests]


async def test_the_first_goes_at_once_and_those_behind_it_go_together():
    recorder = Recorder()
    batches = Batches(recorder.send, limit=50)
    first = asyncio.create_task(batches.submit(1))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert recorder.batches == [[1]]  # no waiting for company
    rest = [asyncio.create_task(batches.submit(n)) for n in range(2, 6)]
    await asyncio.sleep(0)
    recorder.release.set()
    assert await first == 10
    assert await asyncio.gather(*rest) == [20, 30, 40, 50]
    assert recorder.batches == [[1], [2, 3, 4, 5]]


async def test_a_batch_holds_at_most_the_limit():
    recorder = Recorder()
    recorder.release.set()
    batches = Batches(recorder.send, limit=3)
    assert await asyncio.gather(*(batches.submit(n) for n in range(7))) == [
        n * 10 for n in range(7)
    ]
    assert recorder.batches == [[0, 1, 2], [3, 4, 5], [6]]


async def test_a_request_cancelled_before_its_batch_goes_is_left_out():
    recorder = Recorder()
    batches = Batches(recorder.send, limit=50)
    first = asyncio.create_task(batches.submit(1))
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(batches.submit(2))
    kept = asyncio.create_task(batches.submit(3))
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.sleep(0)
    recorder.release.set()
    assert (await first, await kept) == (10, 30)
    assert cancelled.cancelled()
    assert recorder.batches == [[1], [3]]


async def test_an_error_of_a_batch_reaches_each_of_its_requests_and_the_next_batch_goes():
    calls = []

    async def send(requests: list[int]) -> list[int]:
        calls.append(requests)
        if len(calls) == 1:
            raise ConnectionError("server gone")
        return requests

    batches = Batches(send, limit=2)
    outcomes = await asyncio.gather(*(batches.submit(n) for n in range(3)), return_exceptions=True)
    assert [type(outcome) for outcome in outcomes[:2]] == [ConnectionError, ConnectionError]
    assert outcomes[2] == 2
    assert await batches.submit(7) == 7  # a new sender after the last one ended


async def test_a_send_that_answers_the_wrong_number_of_outcomes_is_an_error():
    async def send(requests: list[int]) -> list[int]:
        return requests[:-1]

    batches = Batches(send, limit=5)
    with pytest.raises(ValueError):
        await asyncio.gather(batches.submit(1), batches.submit(2))
