"""Expert searches in a process of their own (README, AI players).

A search is a fifth of a second of pure Python. In a thread it holds the GIL the event loop
needs, in turns of 5 ms and longer on a busy machine (the loop lagged 51 ms at p99 during
searches, docs/performance.md); in a process it runs on another core and the loop never
waits. One worker, started on the first search with "spawn" (a fresh interpreter: no copy of
the bot's loop, sockets or database connections). A search sends the game's id, the state's
JSON, each seat's seed and the budget, and gets the moves back as JSON
(`expert.searched_moves`): plain data, cheap to pickle.

Until the worker is ready (it imports the games, about a second), and after it breaks (killed,
out of memory: BrokenProcessPool), a search runs in a thread as before, so no decision waits
for a worker; a broken worker is logged and replaced at the next search. The worker needs no
shutdown hook: concurrent.futures ends its workers when the bot's interpreter exits."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.engine import Action, GameSpec
from bot.games.expert import DEFAULT_BUDGET, Budget, read_moves, searched_moves

log = logging.getLogger(__name__)


def _ready() -> bool:
    """The worker's first task: it has imported the games once it answers, and pokerkit's
    hand tables (built as it is imported, about a second here) that Lowball's playouts use,
    so that no decision pays for them."""
    import pokerkit  # noqa: F401

    return True


class SearchPool:
    """Runs Expert searches in one worker process (`processes=False`: always in a thread)."""

    def __init__(self, budget: Budget = DEFAULT_BUDGET, processes: bool = True) -> None:
        self.budget = budget
        self.processes = processes
        self.executor: ProcessPoolExecutor | None = None
        self.warm: Future[bool] | None = None  # the worker's first answer

    async def moves(
        self, game: GameSpec, snapshot: str, seeds: dict[int, str]
    ) -> dict[int, Action | None]:
        """Each seat's Expert move in the state `snapshot`, each seat's search seeded."""
        args = (game.id, snapshot, seeds, self.budget)
        executor = self._ready_executor()
        if executor is None:
            return read_moves(game, await asyncio.to_thread(searched_moves, *args))
        try:
            found = await asyncio.wrap_future(executor.submit(searched_moves, *args))
        except BrokenProcessPool:
            log.warning("the Expert search process broke; searching in a thread meanwhile")
            self.close()
            found = await asyncio.to_thread(searched_moves, *args)
        return read_moves(game, found)

    def _ready_executor(self) -> ProcessPoolExecutor | None:
        """The worker, once it has answered its first task; starts it if there is none."""
        if not self.processes:
            return None
        if self.executor is None:
            self.start()
        warm = self.warm
        if warm is None or not warm.done():
            return None
        if warm.exception() is not None:
            log.error("the Expert search process failed to start: searching in threads")
            self.processes = False
            self.close()
            return None
        return self.executor

    def start(self) -> Future[bool]:
        """Start the worker (a failure to start leaves searching in a thread)."""
        if self.executor is None or self.warm is None:
            try:
                context = multiprocessing.get_context("spawn")
                self.executor = ProcessPoolExecutor(max_workers=1, mp_context=context)
                self.warm = self.executor.submit(_ready)
            except Exception:
                log.exception("no Expert search process; searching in a thread")
                self.processes = False
                self.warm = Future()
                self.warm.set_result(False)
        return self.warm

    def close(self) -> None:
        """Stop the worker (a later search starts another)."""
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = self.warm = None


# The bot's searches, every table's: one worker serves them in turn.
searches = SearchPool()
