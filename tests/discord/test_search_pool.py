"""Expert searches in a process of their own (bot/tables/search_pool.py): the worker finds the
moves the search finds in the bot's own process, in another process, and a broken worker
leaves the searches to a thread, then is replaced."""

from __future__ import annotations

import asyncio
import logging
import os
import random

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.engine import GameSpec, GameState, registry
from bot.games.expert import Budget, expert_move
from bot.games.simulate import Seats, policies_for, step
from bot.tables.search_pool import SearchPool

SMALL = Budget(worlds=3, seconds=None, candidates=4)


def mid_hand(spec: GameSpec, players: int, seed: int, steps: int) -> GameState:
    seats = Seats(policies_for(spec, players, "ai"), seed)
    state = spec.new_match(
        None, [100] * players if spec.chips_for(spec.options_model()) else [0] * players, seed
    )
    for _ in range(steps):
        step(state, seats)
    return state


def expected(spec: GameSpec, state: GameState, seeds: dict[int, str]):
    return {
        seat: expert_move(spec, state, seat, random.Random(seed), SMALL)
        for seat, seed in seeds.items()
    }


@pytest.fixture
async def pool():
    searches = SearchPool(SMALL)
    yield searches
    searches.close()


@pytest.mark.slow
async def test_the_worker_finds_the_searchs_moves_in_another_process(pool):
    assert await asyncio.wrap_future(pool.start())
    executor = pool.executor
    assert executor is not None
    assert await asyncio.wrap_future(executor.submit(os.getpid)) != os.getpid()
    for game, players, steps in (("bigtwo", 3, 4), ("botifarra", 4, 9), ("lowball", 3, 3)):
        spec = registry.get(game)
        state = mid_hand(spec, players, 3, steps)
        seat = state.pending()[0].seat
        seeds = {seat: f"{game}:{seat}"}
        assert pool._ready_executor() is executor  # ready: this search runs in the worker
        assert await pool.moves(spec, state.snapshot(), seeds) == expected(spec, state, seeds)


@pytest.mark.slow
async def test_a_broken_worker_leaves_the_search_to_a_thread_then_is_replaced(pool, caplog):
    spec = registry.get("bigtwo")
    state = mid_hand(spec, 3, 5, 4)
    seeds = {state.pending()[0].seat: "broken"}
    assert await asyncio.wrap_future(pool.start())
    executor = pool.executor
    assert executor is not None
    worker = await asyncio.wrap_future(executor.submit(os.getpid))
    os.kill(worker, 9)  # the worker dies: the next search finds the pool broken
    with caplog.at_level(logging.WARNING):
        assert await pool.moves(spec, state.snapshot(), seeds) == expected(spec, state, seeds)
    assert "searching in a thread meanwhile" in caplog.text
    assert pool.executor is None
    assert await pool.moves(spec, state.snapshot(), seeds) == expected(spec, state, seeds)
    assert pool.executor is not None and pool.executor is not executor  # a new worker
    assert await asyncio.wrap_future(pool.start())


async def test_until_the_worker_is_ready_a_search_runs_in_a_thread():
    spec = registry.get("bigtwo")
    state = mid_hand(spec, 3, 7, 4)
    seeds = {state.pending()[0].seat: "thread"}
    threads = SearchPool(SMALL, processes=False)
    assert await threads.moves(spec, state.snapshot(), seeds) == expected(spec, state, seeds)
    assert threads.executor is None  # never started a process
