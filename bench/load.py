"""Load: N tables of mixed games at once, every player scripted, through the fake Discord with
Discord's rate limits on, bot and fake in one process.

    .venv/bin/python bench/load.py --tables 10 100 500 [--seconds 30]

For each N: every table opens by `/<game> new`, its players join and start by button (some
tables fill seats with AI players), then for `--seconds` every scripted player acts as soon as
its prompt has reached it in its DMs, choosing a random legal action and sending its button's
custom_id. The fake Discord and the players run on a thread of their own, the bot on the main
one, so that the bot's CPU can be told from theirs. A table that ends opens again. Reported:
interactions answered per second, handling time (INTERACTION_CREATE sent -> callback received,
p50/p99), REST calls per player action, 429s, resident memory per table (RSS growth from opening
the N tables, the fake's own record of every message included), and the restart: the time until
all N tables are loaded and take actions again, and until every table message and prompt has
been refreshed. Chips are checked to be conserved at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import cProfile
import functools
import gc
import logging
import os
import random
import sys
import tempfile
import threading
import time
import tracemalloc
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import utc_now
from bot.tables import action_token
from tests.e2e import ErrorRecords, make_world
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.server import Channel, Message, User

# (game, scripted players, AI seats, options of /<game> new)
MIX = [
    ("bigtwo", 3, 0, {}),
    ("doudizhu", 3, 0, {"buy_in": 100}),
    ("botifarra", 2, 2, {"ai_delay": 1}),
    ("western", 3, 0, {"buy_in": 200}),
    ("lowball", 3, 0, {"buy_in": 200}),
    ("calabrasella", 3, 0, {"buy_in": 100}),
    ("totit", 2, 0, {}),
    ("turup", 1, 2, {"ai_delay": 1}),
    ("porrazo", 2, 0, {}),
    ("lastone", 3, 0, {}),
]
ANSWER_LIMIT = 3.0
PROFILE: cProfile.Profile | None = None  # --profile: the play windows only
MEMORY = False  # --memory: trace the bot's allocations from the restart on


class Patch:
    """Just enough of pytest's monkeypatch for make_world, undone at the end."""

    def __init__(self) -> None:
        self.saved: list[tuple[object, str, object]] = []

    def setattr(self, target, name, value):
        self.saved.append((target, name, getattr(target, name)))
        setattr(target, name, value)

    def undo(self) -> None:
        for target, name, value in reversed(self.saved):
            setattr(target, name, value)


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class GCTime:
    """Seconds the cyclic garbage collector ran."""

    def __init__(self) -> None:
        self.total, self.longest, self._started = 0.0, 0.0, 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            pause = time.perf_counter() - self._started
            self.total += pause
            self.longest = max(self.longest, pause)


GC = GCTime()

BOT_CODE = ("/bot/", "/cogs/", "/site-packages/discord/", "/site-packages/pydantic", "/aiosqlite/")
HARNESS_CODE = ("/tests/", "/bench/")


@functools.cache
def owner(filename: str) -> str | None:
    if any(part in filename for part in BOT_CODE):
        return "bot"
    if any(part in filename for part in HARNESS_CODE):
        return "harness"
    return None


class HarnessThread:
    """The fake Discord and the scripted players run on a thread and event loop of their own
    (still in this one process), so the CPU the bot uses can be told from theirs."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="harness", daemon=True)
        self.thread.start()

    async def run(self, work):
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def thread_cpu(thread: threading.Thread) -> float:
    """CPU seconds `thread` has used."""
    fields = Path(f"/proc/self/task/{thread.native_id}/stat").read_text().rsplit(")", 1)[1]
    user, system = fields.split()[11:13]
    return (int(user) + int(system)) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else 0.0


@dataclass
class ScriptedTable:
    """One table of the run, its channel and its scripted players."""

    game: str
    channel: Channel
    players: list[User]
    ai: int
    options: dict
    table_id: int | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    acted: set[tuple[int, int]] = field(default_factory=set)  # (seat, prompt) already answered


class Load:
    def __init__(self, world, harness: HarnessThread, tables: int, seed: int, think: float):
        self.world, self.fake, self.tester = world, world.fake, world.tester
        self.harness = harness
        self.think = think
        self.rng = random.Random(seed)
        self.latest: dict[int, Message] = {}  # channel -> the newest message in it
        self.dm_of: dict[int, Channel] = {}  # member -> their DM channel
        self.tables: list[ScriptedTable] = []
        self.by_table: dict[int, ScriptedTable] = {}
        self.actions = 0
        self.refused = 0
        self.late = 0
        self.playing = False
        self._index_messages()
        guild = self.fake.add_guild("Load")
        for number in range(tables):
            game, people, ai, options = MIX[number % len(MIX)]
            channel = self.fake.add_channel(guild, f"{game}-{number}")
            players = [self.fake.add_member(guild, f"P{number}-{i}") for i in range(people)]
            self.tables.append(ScriptedTable(game, channel, players, ai, options))

    def _index_messages(self) -> None:
        """Keep the newest message per channel (the fake keeps all of them in one dict)."""
        new_message = self.fake._new_message

        def indexed(channel, *args, **kwargs):
            message = new_message(channel, *args, **kwargs)
            self.latest[channel.id] = message
            if channel.type == 1:
                self.dm_of[channel.recipient.id] = channel
            return message

        self.fake._new_message = indexed

    def watch(self, bot) -> None:
        """A player notices a change once the bot has finished showing it (DMs sent)."""
        presenter = bot.presenter
        shown = presenter.table_changed

        async def table_changed(table, events):
            await shown(table, events)
            scripted = self.by_table.get(table.id)
            if scripted is not None:
                self.harness.loop.call_soon_threadsafe(scripted.changed.set)

        presenter.table_changed = table_changed

    # ---- opening tables ---------------------------------------------------------------------

    async def open(self, scripted: ScriptedTable) -> None:
        runtime, host = self.world.bot.runtime, scripted.players[0]
        options = {"ai_delay": 0, **scripted.options} if scripted.ai else scripted.options
        await self.tester.slash(host, scripted.channel, f"{scripted.game} new", **options)
        table = runtime.in_channel(scripted.channel.id)
        while not table.record.message_id:
            await asyncio.sleep(0.05)
        scripted.table_id, scripted.acted = table.id, set()
        self.by_table[table.id] = scripted
        lobby = self.fake.messages[table.record.message_id]
        for guest in scripted.players[1:]:
            await self.tester.click(guest, lobby, "Join")
        for _ in range(scripted.ai):
            await self.tester.click(host, lobby, "Add AI")
        await self.tester.click(host, lobby, "Start")

    async def open_all(self, at_once: int = 25) -> None:
        gate = asyncio.Semaphore(at_once)

        async def one(scripted):
            async with gate:
                await self.open(scripted)

        await asyncio.gather(*(one(scripted) for scripted in self.tables))

    # ---- playing ----------------------------------------------------------------------------

    async def play(self, scripted: ScriptedTable) -> None:
        while self.playing:
            scripted.changed.clear()
            table = self.world.bot.runtime.tables.get(scripted.table_id)
            if table is None or table.record.status == "closed":
                await self.open(scripted)
                continue
            moves = [self._move(scripted, table, s) for s in table.required_seats()]
            moves = [move for move in moves if move is not None]
            if moves:
                await asyncio.gather(*moves)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(scripted.changed.wait(), 2.0)

    def _move(self, scripted: ScriptedTable, table, number: int):
        record = table.seats[number]
        if record.ai or (number, record.prompt) in scripted.acted:
            return None
        user = self.fake.users[record.member_id]
        dm = self.dm_of.get(user.id)
        if dm is None or dm.id not in self.latest:
            return None  # the prompt has not reached them yet
        scripted.acted.add((number, record.prompt))
        action = self.rng.choice(table.state.legal_actions(number))
        custom_id = f"ta:{table.id}:{record.prompt}:{action_token(action)}"
        return self._press(user, dm, custom_id)

    async def _press(self, user: User, dm: Channel, custom_id: str) -> None:
        if self.think:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
        try:
            reply = await self.tester.forge(user, dm, custom_id, message=self.latest[dm.id])
        except AssertionError:
            self.late += 1
            return
        self.actions += 1
        if reply.response_type != 7:  # an action's answer redraws the DM; else a refusal
            self.refused += 1

    async def run(self, seconds: float) -> None:
        self.playing = True
        players = [asyncio.create_task(self.play(scripted)) for scripted in self.tables]
        await asyncio.sleep(seconds)
        self.playing = False
        for scripted in self.tables:
            scripted.changed.set()
        await asyncio.gather(*players)


async def chips_in_play(world) -> int:
    return sum([(await world.bot.ledger.totals(guild.id)).held for guild in world.fake.guilds])


@dataclass
class Report:
    """What one run measured; `say` prints each line as it comes (the bench) or not (tests)."""

    verbose: bool = True
    lines: list[str] = field(default_factory=list)
    phases: list[dict] = field(default_factory=list)  # per play window: its figures
    loaded_seconds: float = 0.0
    refreshed_seconds: float = 0.0
    tables_resumed: int = 0
    limited: int = 0  # 429s in all
    chips_conserved: bool = False
    errors: list[str] = field(default_factory=list)  # ERROR log records: failures in the bot

    def say(self, line: str) -> None:
        self.lines.append(line)
        if self.verbose:
            print(line, flush=True)


async def measure(
    tables: int, seconds: float, seed: int = 1, think: float = 0.0, verbose: bool = True
) -> Report:
    report = Report(verbose)
    harness = HarnessThread()
    patch = Patch()
    errors = ErrorRecords()
    logging.getLogger().addHandler(errors)
    with tempfile.TemporaryDirectory() as folder:
        world = await harness.run(make_world(Path(folder), patch))
        world.clock = utc_now
        world.settings = world.settings.model_copy(
            update={"table_edit_seconds": 1.0, "requests_per_second": 45}
        )
        world.runtime_options = {"between_hands": timedelta(seconds=2)}
        world.bot_options = {"freeze_after_setup": True}  # as `python -m bot` runs it
        world.fake.rate_limits = RateLimits()
        load = Load(world, harness, tables, seed, think)
        load.watch(await world.start_bot())
        try:
            await open_tables(world, load, report)
            chips = await chips_in_play(world)
            await play(world, load, seconds, "play", report)
            await restart(world, load, report)
            if MEMORY:  # what the bot holds for its resumed tables, once all are shown
                bot_heap(len(load.tables), report)
                tracemalloc.stop()
            await play(world, load, min(seconds, 10), "play after the restart", report)
            report.chips_conserved = await chips_in_play(world) == chips
            report.errors = [record.getMessage() for record in errors.records]
            report.limited = len(world.fake.rate_limits.limited)
            conserved = "chips conserved" if report.chips_conserved else "CHIPS NOT CONSERVED"
            report.say(
                f"  429s in all: {report.limited}; {conserved}; errors logged: {len(report.errors)}"
            )
        finally:
            logging.getLogger().removeHandler(errors)
            await world.stop_bot()
            await harness.run(world.fake.stop())
            harness.stop()
            patch.undo()
    return report


async def open_tables(world, load: Load, report: Report) -> None:
    gc.collect()
    before, started = rss_kb(), time.monotonic()
    await load.harness.run(load.open_all())
    await load.harness.run(world.tester.idle(timeout=600))
    set_aside(world)
    players = sum(len(seat.players) for seat in load.tables)
    report.say(
        f"\n{len(load.tables)} tables, {players} players: opened in"
        f" {time.monotonic() - started:.1f} s; the process grew by"
        f" {(rss_kb() - before) / len(load.tables):.0f} KB per table (the fake Discord's record"
        " of every call and message included)"
    )


def set_aside(world) -> None:
    """Keep the fake Discord's history from weighing on the bot (in production it lives in
    another process): calls keep their route only, and what lives now is left out of the
    garbage collector's full collections, as the bot does after its own start."""
    for call in world.fake.calls:
        call.body = None
    gc.collect()
    gc.freeze()


async def play(world, load: Load, seconds: float, phase: str, report: Report) -> None:
    fake, bot = world.fake, world.bot
    world.tester.answer_times.clear()
    calls_before, load.actions, load.refused, load.late = len(fake.calls), 0, 0, 0
    here, there = threading.current_thread(), load.harness.thread
    started, collecting, GC.longest = time.monotonic(), GC.total, 0.0
    cpu = {thread: thread_cpu(thread) for thread in (here, there)}
    if PROFILE:
        PROFILE.enable()
    await load.harness.run(load.run(seconds))
    if PROFILE:
        PROFILE.disable()
    elapsed = time.monotonic() - started
    cpu = {thread: thread_cpu(thread) - used for thread, used in cpu.items()}
    times = [t * 1000 for t in world.tester.answer_times]
    calls = fake.calls[calls_before:]
    bot_calls = [c for c in calls if not c.path.startswith(("/interactions/", "/webhooks/"))]
    figures = {
        "interactions": len(times),
        "per_second": len(times) / elapsed,
        "actions": load.actions,
        "refused": load.refused,
        "late": load.late,
        "p50": percentile(times, 0.5),
        "p99": percentile(times, 0.99),
        "calls_per_action": len(calls) / max(1, load.actions),
        "bot_cpu_per_interaction": cpu[here] / max(1, len(times)),
    }
    report.phases.append(figures)
    report.say(
        f"  {phase}: {figures['per_second']:,.0f} interactions/s over {elapsed:.0f} s"
        f" ({load.actions:,} player actions, {load.refused} refused, {load.late} not answered"
        f" within {ANSWER_LIMIT:.0f} s); handling p50 {figures['p50']:.1f} ms,"
        f" p99 {figures['p99']:.1f} ms"
    )
    per_interaction = figures["bot_cpu_per_interaction"]
    report.say(
        f"    CPU: the bot's thread {cpu[here] / elapsed:.0%} of a core, the fake Discord's"
        f" and players' {cpu[there] / elapsed:.0%}; garbage collection"
        f" {(GC.total - collecting) / elapsed:.0%} (longest pause {GC.longest * 1000:.0f} ms);"
        f" the bot used {per_interaction * 1000:.2f} ms"
        f" per interaction: {1 / max(per_interaction, 1e-6):,.0f} interactions/s per core"
    )
    report.say(
        f"    REST calls per player action {figures['calls_per_action']:.2f},"
        f" {len(bot_calls) / elapsed:.0f}/s of them with the bot's token (the rest interaction"
        f" answers and followups); calls that waited for the pacer: {bot.pacer.waits:,}"
    )


async def restart(world, load: Load, report: Report) -> None:
    await load.harness.run(world.tester.idle(timeout=600))
    await world.stop_bot()
    gc.collect()
    await asyncio.sleep(1)  # Discord's global window forgets the old process's calls
    if MEMORY:
        tracemalloc.start(30)
    started = time.monotonic()
    bot = await world.start_bot(ready_within=600)
    report.loaded_seconds = time.monotonic() - started
    report.tables_resumed = len(bot.runtime.tables)
    load.watch(bot)
    await load.harness.run(world.tester.idle(timeout=600))
    report.refreshed_seconds = time.monotonic() - started
    report.say(
        f"  restart: {report.tables_resumed} tables loaded, their deadlines armed and"
        f" taking actions in {report.loaded_seconds:.2f} s; every table message and prompt"
        f" refreshed {report.refreshed_seconds:.1f} s after the start"
    )


def bot_heap(tables: int, report: Report) -> None:
    """The bot's own live memory per table after the restart: an allocation is the bot's
    when, of its frames that are the bot's (its code or a library it calls) or the harness's
    (the fake Discord, the scripted players), the innermost is the bot's."""
    sizes, places = collections.Counter(), collections.Counter()
    for trace in tracemalloc.take_snapshot().traces:
        frame = next((f for f in reversed(trace.traceback) if owner(f.filename)), None)
        who = owner(frame.filename) if frame else None  # the innermost frame with an owner
        sizes[who] += trace.size
        if who == "bot":
            places[f"{frame.filename.split('/')[-1]}:{frame.lineno}"] += trace.size
    report.say(
        f"  memory allocated since the restart and still held, per table: the bot's"
        f" {sizes['bot'] / tables / 1024:.1f} KB, the fake Discord's and players'"
        f" {sizes['harness'] / tables / 1024:.1f} KB, other {sizes[None] / tables / 1024:.1f} KB"
        " (the restart's times above are slowed by the tracing); the bot's largest:"
    )
    for place, size in places.most_common(8):
        report.say(f"    {size / tables / 1024:6.1f} KB per table  {place}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", help="write a cProfile of the run to this file")
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--memory", action="store_true", help="trace the bot's memory across the restart (slow)"
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="players' mean time to act, s (0: at once)"
    )
    arguments = parser.parse_args()
    global MEMORY
    MEMORY = arguments.memory
    global PROFILE
    PROFILE = cProfile.Profile() if arguments.profile else None
    logging.basicConfig(level=logging.WARNING)
    for tables in arguments.tables:
        asyncio.run(measure(tables, arguments.seconds, arguments.seed, arguments.think))
    if PROFILE:
        PROFILE.dump_stats(arguments.profile)


if __name__ == "__main__":
    main()
