"""The event loop the bot runs on: uvloop where it is installed, else asyncio's own.

uvloop runs the loop, its timers and its sockets in C (libuv): at 500 tables the bot spent
some 5-7% less CPU per interaction on it (bench/load.py; README's Measuring section has the
runs).
pyproject.toml installs it wherever it has a build: not on Windows, where the bot runs on
asyncio's own loop. The tests run on the bot's loop (tests/conftest.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    try:
        import uvloop
    except ImportError:  # no build for this platform
        return asyncio.new_event_loop
    return uvloop.new_event_loop


new_event_loop = _loop_factory()


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the bot's loop."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(main)
