"""The table runtime, shared by every game: lobby -> playing -> closed.

`TableRuntime` is what the Discord layer, the cogs and the tests hold. Its work is done by the
stages of a table, one class per module, each built on (a subclass of) the one it calls, so a
click costs no extra hop:

    table.py       a table: its record, kept state, locks, and the answers of its state
    core.py        the open tables, finding one under its lock, telling the listener
    play.py        a seat's action and the steps that save each change; the clock's two
                   methods it calls (`_deadline`, `_arm`) are declared there
    clock.py       deadlines and AI turns, which take the steps of play
    lobby.py       open, seats, sides, Start, Cancel and Close, which start or wind up play
    resume.py      loading tables after a restart, a deleted channel, shutdown
    settlement.py  the results and chip movements of a step, as pure functions
    actions.py     action tokens, and the records of the steps the table takes itself

Every change to a table happens under its lock: check who may act, apply to a copy of the
engine state, then write snapshot + action + chip movements in one transaction, and only then
keep the new state. Deadlines are timers that apply the game's default action. After each
change the listener (the Discord layer) is told, in order, on a per-table queue.
"""

from __future__ import annotations

from bot.tables.resume import Resume


class TableRuntime(Resume):
    """Every open table and everything that can happen to one (see the module's docstring
    for which stage does what)."""
