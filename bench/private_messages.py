"""CPU to build a seat's private message (its DM or My hand), and a step's copy of the state,
per game, without Discord.

    .venv/bin/python bench/private_messages.py [--games bigtwo,totit] [--language es]
                                               [--repeats 7] [--number 20]

For every game, a few positions of a seeded match played by random legal players, each kept
by a Table as the runtime keeps it. Timed in CPU (best of --repeats runs of --number
messages), for the first seat to decide in each position:
  message  its whole private message as the bot builds it after a step (the Table's answers
           forgotten first, as for a new state), its embed and components written as JSON;
  redraw   a picker's redraw after a card is tapped (picker/controls.py `redraw`), on the same
           state: its embed described and its controls drawn, as JSON;
  restore  the state read from its JSON, as a step makes its working copy;
  snapshot the state written as JSON, as a step saves it.
The payloads are also what tests/discord/test_private_message_payloads.py pins.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import math
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord.dms import PrivateHands
from bot.discord.game_ui import GameUI
from bot.discord.lines import TableLines
from bot.discord.picker import Choice, Desk, PickerUI
from bot.engine import Event, GameSpec
from bot.games import GAMES
from bot.games.simulate import STACK, Seats, step, usual_players
from bot.i18n import speak
from bot.store import SeatRecord, TableRecord, TableStatus
from bot.tables import Table

POSITIONS = (1, 4, 9, 16)  # random moves played before each position is kept
Payload = dict[str, Any]


def game_ui(spec: GameSpec) -> GameUI:
    """The game's GameUI, from its package's ui module (as its cog registers it)."""
    module = importlib.import_module(f"{spec.state_model.__module__.rpartition('.')[0]}.ui")
    (ui,) = {
        kind
        for kind in vars(module).values()
        if isinstance(kind, type)
        and issubclass(kind, GameUI)
        and kind.__module__ == module.__name__
    }
    return ui()


@dataclass
class Position:
    """A table keeping a match's state, and its lines as the presenter remembers them."""

    table: Table
    hands: PrivateHands

    @property
    def deciding(self) -> int | None:
        """The first seat to decide, if any."""
        seats = self.table.pending_seats()
        return seats[0] if seats else None


def positions(spec: GameSpec, seed: int = 1) -> Iterator[Position]:
    """The match's state after each of POSITIONS random moves (fewer if it ends sooner)."""
    options, players = spec.options_model(), usual_players(spec)
    state = spec.new_match(options, [STACK if spec.chips_for(options) else 0] * players, seed)
    seats, ui = Seats([None] * players, seed), game_ui(spec)
    steps: list[list[Event]] = []
    record = TableRecord(7, 1, 2, spec.id, TableStatus.PLAYING, 100, 20, "{}", 60)
    record.seats = [SeatRecord(n, 100 + n, f"Player {n}", prompt=5) for n in range(players)]
    moves = 0
    while moves < POSITIONS[-1] and not state.is_over():
        events = state.next_hand() if state.awaiting_next_hand() else step(state, seats)
        moves += 1
        steps.append(events)
        if moves in POSITIONS:
            table = Table(record, spec, options)
            table.keep(spec.restore(state.snapshot()))
            lines = TableLines({spec.id: ui})  # each position's own
            for told in steps:
                lines.remember(table, told, table.names())
            hands = PrivateHands(None, {spec.id: ui}, lines, None)  # type: ignore[arg-type]  # no Discord
            yield Position(table, hands)


def message(position: Position, seat: int) -> Payload:
    """The seat's private message as the bot builds it after a step, as JSON."""
    position.table.forget_answers()
    embed, view = position.hands.private_message(position.table, seat)
    return {"embed": embed.to_dict(), "components": view.to_components() if view else None}


def desk_of(position: Position, seat: int) -> Desk | None:
    ui = position.hands.games[position.table.game.id]
    return Desk.open(position.table, seat, ui) if isinstance(ui, PickerUI) else None


def taps(desk: Desk) -> list[Choice]:
    """Choices a player reaches by tapping: the first card, then a suggestion, the next page
    and the next group where the picker has them."""
    first = desk.tap(Choice(), desk.pages[0][0].first)
    choices = [first]
    choices += [Choice(selection) for selection, _label in desk.suggestions[:1]]
    choices += [Choice(first.selection, page=1)] if len(desk.pages) > 1 else []
    choices += [Choice(first.selection, group=1)] if desk.picker.filled_groups > 1 else []
    return choices


def redraw(position: Position, desk: Desk, choice: Choice) -> Payload:
    """The picker redrawn with `choice`, as picker/controls.py `redraw` draws it, as JSON."""
    embed = position.hands.private_embed(desk.table, desk.seat)
    desk.describe(embed, choice)
    return {"embed": embed.to_dict(), "components": desk.controls(choice).to_components()}


def best_cpu(build: Callable[[], object], repeats: int, number: int) -> float:
    """Microseconds of CPU per call of `build`: the best of `repeats` runs of `number`."""
    best = float("inf")
    for _run in range(repeats):
        started = time.process_time()
        for _call in range(number):
            build()
        best = min(best, time.process_time() - started)
    return best / number * 1e6


@dataclass
class Timings:
    """µs per call in each position of a game (redraws only where the game has a picker)."""

    messages: list[float]
    redraws: list[float]
    restores: list[float]
    snapshots: list[float]


def timed(spec: GameSpec, repeats: int, number: int) -> Timings:
    """The game's timings in each of its positions with a seat deciding."""
    messages, redraws, restores, snapshots = [], [], [], []
    for position in positions(spec):
        seat = position.deciding
        if seat is None:
            continue
        messages.append(best_cpu(partial(message, position, seat), repeats, number))
        state = position.table.state
        assert state is not None
        saved = state.snapshot()
        restores.append(best_cpu(partial(spec.restore, saved), repeats, number))
        snapshots.append(best_cpu(state.snapshot, repeats, number))
        desk = desk_of(position, seat)
        if desk is not None:
            tapped = partial(redraw, position, desk, taps(desk)[0])
            redraws.append(best_cpu(tapped, repeats, number))
    return Timings(messages, redraws, restores, snapshots)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


async def main(games: list[str], repeats: int, number: int, language: str = "en") -> None:
    """In a running loop: a Table's answers are dropped by a timer (`Table.worked_out`)."""
    speak(language)
    columns = ("message", "redraw", "restore", "snapshot")
    print(f"{'game':<14}" + "".join(f"{column + ' µs':>12}" for column in columns))
    totals: list[list[float]] = [[] for _column in columns]
    for spec in GAMES:
        if games and spec.id not in games:
            continue
        timings = timed(spec, repeats, number)
        means = [mean(getattr(timings, f"{column}s")) for column in columns]
        for total, value in zip(totals, means, strict=True):
            total.extend([] if math.isnan(value) else [value])  # NaN: a game without a picker
        print(f"{spec.id:<14}" + "".join(f"{value:>12.1f}" for value in means))
    print(f"{'mean of games':<14}" + "".join(f"{mean(total):>12.1f}" for total in totals))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--language", default="en", help="the reader's (default: en)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--number", type=int, default=20)
    args = parser.parse_args()
    games = [game for game in args.games.split(",") if game]
    asyncio.run(main(games, args.repeats, args.number, args.language))
