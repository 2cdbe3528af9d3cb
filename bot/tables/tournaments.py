"""Tournaments run: registration with buy-ins in the tournament's pool, the draw at the start,
each round's matches opened as tables in play (in threads, where the Discord layer can make
them), every finished table recorded and the next round drawn, and the payout at the end.

`Tournaments` holds the shared core (core.py), the lobby (which opens and closes tables) and
play (a member leaving is played for as away); the pure draws are bot/tournaments. It is told
of each table change by the core (`observe`): a closed table moves its tournament on, and a
chip table that has played its hands is closed. Everything it decides is read back from the
store (`advance`), so after a crash the same call carries on where the tournament was."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from datetime import timedelta
from typing import Any, Protocol

from bot.engine import Event, HandEnded, registry
from bot.errors import UserError
from bot.i18n import N_, _, n_
from bot.store import SeatRecord, TableRecord, TableStatus, Transaction
from bot.store.tournaments import (
    MatchRecord,
    Progress,
    TournamentRecord,
    TournamentStatus,
    TournamentStore,
)
from bot.tables.core import RuntimeCore
from bot.tables.events import BOT_REMOVED, TableClosed
from bot.tables.lobby import Lobby
from bot.tables.play import Play
from bot.tables.table import Table
from bot.tables.tournament_draws import (
    Settings,
    can_seat,
    check_settings,
    draw_inputs,
    final_ranking,
    match_records,
)
from bot.tournaments import elimination, payouts, swiss
from bot.tournaments.model import Entrant, Round
from bot.tournaments.seeding import seed_order

log = logging.getLogger(__name__)

# What only the tournament's host (or a server manager) may do, by what it is.
HOST_ONLY = {
    "start": N_("Only the member who created the tournament (or a server manager) can start it."),
    "cancel": N_("Only the member who created the tournament (or a server manager) can cancel it."),
}
# Why a tournament was cancelled, as its record keeps it (in no language: the message that
# shows it says it in the server's, bot/discord/tournament_text.py). "too_few:<players>".
REFUNDED, TOO_FEW = "refunded", "too_few"


class TournamentListener(Protocol):
    """What the Discord layer does for a tournament."""

    async def tournament_changed(self, record: TournamentRecord) -> None:
        """Draw the tournament's message again (post it, if it has none)."""

    async def match_channel(
        self, record: TournamentRecord, match: MatchRecord, names: dict[int, str]
    ) -> int:
        """Where the match plays: a new thread under the tournament's channel, its players
        called to it (or the channel itself, where no thread can be made)."""


class Tournaments:
    def __init__(
        self,
        core: RuntimeCore,
        lobby: Lobby,
        play: Play,
        store: TournamentStore,
        listener: TournamentListener,
    ) -> None:
        self.core, self.lobby, self.play, self.store = core, lobby, play, store
        self.listener = listener
        self.locks: dict[int, asyncio.Lock] = {}
        self.timers: dict[object, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task] = set()
        core.observers.append(self.observe)

    # ---- setting up and registering -----------------------------------------------------------

    async def create(
        self, settings: Settings, *, guild_id: int, channel_id: int, host_id: int
    ) -> TournamentRecord:
        check_settings(settings)
        seed = secrets.token_bytes(32)
        starts = settings.start_minutes
        record = TournamentRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game_id=settings.game.id,
            format=settings.format,
            buy_in=settings.buy_in,
            table_size=settings.table_size,
            rounds=settings.rounds if settings.format == "swiss" else 0,
            starts_at=None if starts is None else self.core.clock() + timedelta(minutes=starts),
            max_players=settings.max_players,
            payout=settings.payout,
            hands_per_match=settings.hands_per_match,
            match_minutes=settings.match_minutes,
            table_chips=settings.table_chips,
            turn_seconds=settings.turn_seconds,
            options=settings.game.options_model().model_dump_json(),
            seed=seed.hex(),
            commitment=hashlib.sha256(seed).hexdigest(),
        )
        await self.store.create(record)
        self._arm_start(record)
        await self.listener.tournament_changed(record)
        return record

    async def register(self, tournament_id: int, member_id: int, name: str, key: str) -> None:
        async with self._locked(tournament_id) as record:
            await self.store.register(record, member_id, name, key)
        self._redraw(record)

    async def unregister(self, tournament_id: int, member_id: int, key: str) -> None:
        async with self._locked(tournament_id) as record:
            await self.store.unregister(record, member_id, key)
        self._redraw(record)

    async def get(self, tournament_id: int) -> TournamentRecord:
        record = await self.store.load(tournament_id)
        if record is None:
            raise UserError(_("There is no such tournament."))
        return record

    # ---- the host's Start and Cancel ----------------------------------------------------------

    async def start(self, tournament_id: int, member_id: int, *, can_manage: bool) -> None:
        record = await self.get(tournament_id)
        _check_host(record, member_id, can_manage, "start")
        if record.status != TournamentStatus.REGISTERING:
            raise UserError(_("This tournament has already started."))
        entries = (await self.store.progress(tournament_id)).entries
        if not can_seat(record, len(entries)):
            raise UserError(
                n_(
                    "{count} registered can't be seated at tables of {size}: "
                    "wait for more players, or cancel.",
                    "{count} registered can't be seated at tables of {size}: "
                    "wait for more players, or cancel.",
                    len(entries),
                    size=record.table_size,
                )
            )
        await self._begin(tournament_id)

    async def cancel(self, tournament_id: int, member_id: int, *, can_manage: bool) -> None:
        record = await self.get(tournament_id)
        _check_host(record, member_id, can_manage, "cancel")
        await self._cancel(tournament_id, REFUNDED)

    async def guild_gone(self, guild_id: int) -> None:
        """The bot was removed from the server: its open tournaments are cancelled, every
        buy-in back, their tables closed as the bot's removal closes tables."""
        for record in await self.store.unfinished(self.core.shards):
            if record.guild_id == guild_id:
                with contextlib.suppress(UserError):  # it ended meanwhile
                    await self._cancel(record.id, REFUNDED, why=BOT_REMOVED)

    async def _cancel(self, tournament_id: int, note: str, why: str = "closed") -> None:
        async with self._locked(tournament_id) as record:
            if not record.open:
                raise UserError(_("This tournament is over already."))
            await self.store.cancel(record, note)
            self._disarm(tournament_id)
            tables = [m.table_id for m in (await self.store.progress(record.id)).matches]
        for table_id in tables:
            if table_id in self.core.tables:
                with contextlib.suppress(UserError):  # it closed meanwhile
                    key = f"tournament-cancel:{table_id}"
                    await self.lobby.close(table_id, None, can_manage=True, key=key, why=why)
        self._redraw(record)

    # ---- a member leaving ---------------------------------------------------------------------

    async def leave(self, tournament_id: int, member_id: int) -> None:
        """A member leaves a tournament in play: the match they are at finishes with their
        turns played for them, and they are drawn into no later round."""
        async with self._locked(tournament_id) as record:  # not while a round is drawn
            if record.status == TournamentStatus.REGISTERING:
                raise UserError(
                    _("The tournament hasn't started: use Unregister to get your buy-in back.")
                )
            if record.status != TournamentStatus.PLAYING:
                raise UserError(_("This tournament is over."))
            if not await self.store.withdraw(tournament_id, member_id):
                raise UserError(_("You are not playing in this tournament."))
        for match in (await self.store.progress(tournament_id)).matches:
            if member_id in match.players and match.table_id in self.core.tables:
                with contextlib.suppress(UserError):
                    await self.play.set_away(match.table_id, member_id)
        self._redraw(record)
        self._advance_soon(tournament_id)

    # ---- moving on ----------------------------------------------------------------------------

    async def resume(self) -> list[TournamentRecord]:
        """After a restart (the tables resumed already): every unfinished tournament of this
        process's guilds carries on where it was."""
        found = await self.store.unfinished(self.core.shards)
        for record in found:
            if record.status == TournamentStatus.REGISTERING:
                self._arm_start(record)
            else:
                await self.advance(record.id)
            self._redraw(record)
        return found

    def observe(self, table: Table, events: Sequence[Event]) -> None:
        """A change at a table: a tournament's closed table moves its tournament on; a chip
        table that has played its hands is closed, at the pause after the last one."""
        tournament_id = table.record.tournament_id
        if tournament_id is None:
            return
        if any(isinstance(event, TableClosed) for event in events):
            self._advance_soon(tournament_id)
        elif any(isinstance(event, HandEnded) for event in events):
            self._spawn(self._close_if_played(tournament_id, table.id))

    async def _close_if_played(self, tournament_id: int, table_id: int) -> None:
        record = await self.get(tournament_id)
        if not record.hands_per_match or table_id not in self.core.tables:
            return
        if await self.core.store.hands_recorded(table_id) >= record.hands_per_match:
            await self._end_match(table_id, "hands_played")

    async def _end_match(self, table_id: int, why: str) -> None:
        with contextlib.suppress(UserError):  # it closed meanwhile
            key = f"tournament-{why}:{table_id}"
            await self.lobby.close(table_id, None, can_manage=True, key=key, why=why)

    async def advance(self, tournament_id: int) -> None:
        """Record every finished match, draw the next round once one is over (or pay out
        once the last is), and open every match of the round that has no table yet."""
        async with self._locked(tournament_id) as record:
            if record.status != TournamentStatus.PLAYING:
                return
            progress = await self._recorded(record)
            if all(m.placings is not None for m in progress.matches):
                drawn = self._next_round(record, progress)
                if drawn is None:
                    await self._finish(record, progress)
                    self._redraw(record)
                    return
                matches = match_records(drawn)
                await self.store.add_round(record.id, drawn.number, matches, drawn.byes)
                progress = await self.store.progress(record.id)
            for match in progress.matches:
                if match.placings is None:
                    await self._keep_playing(record, progress, match)
        self._redraw(record)

    async def _recorded(self, record: TournamentRecord) -> Progress:
        """The progress, with every match whose table has closed recorded."""
        progress = await self.store.progress(record.id)
        for match in progress.matches:
            if match.placings is None and match.table_id is not None:
                results = await self.core.store.match_results(match.table_id)
                if results:
                    placings = [results[seat][0] for seat in range(len(match.players))]
                    await self.store.record_match(record.id, match, placings)
        return progress

    async def _keep_playing(
        self, record: TournamentRecord, progress: Progress, match: MatchRecord
    ) -> None:
        """A match still to finish: its table opened if it has none, its time watched, and
        a chip table that has played its hands closed."""
        if match.table_id is None:
            await self._open(record, progress, match)
        assert match.table_id is not None and match.opened_at is not None
        self._arm_match_end(record, match)
        if record.hands_per_match and match.table_id in self.core.tables:
            self._spawn(self._close_if_played(record.id, match.table_id))

    async def _open(self, record: TournamentRecord, progress: Progress, match: MatchRecord) -> None:
        names = {entry.member_id: entry.name for entry in progress.entries}
        if match.thread_id is None:
            channel = await self.listener.match_channel(record, match, names)
            await self.store.set_thread(record.id, match, channel)
        assert match.thread_id is not None
        game = registry.get(record.game_id)
        options = game.options_model.model_validate_json(record.options)
        table = TableRecord(
            0,
            record.guild_id,
            match.thread_id,
            game.id,
            TableStatus.PLAYING,
            record.host_id,
            record.table_chips if game.chips_for(options) else 0,
            record.options,
            record.turn_seconds,
            tournament_id=record.id,
        )
        seats = [
            SeatRecord(seat, member, names[member]) for seat, member in enumerate(match.players)
        ]
        now = self.core.clock()

        async def link(tx: Transaction, table_id: int) -> None:
            await self.store.link_table(tx, record.id, match, table_id, now)

        opened = await self.lobby.open_playing(game, options, table, seats, link)
        match.table_id, match.opened_at = opened.id, now
        withdrawn = {e.member_id for e in progress.entries if e.withdrawn}
        for member in withdrawn & set(match.players):
            await self.play.set_away(opened.id, member)

    def _next_round(self, record: TournamentRecord, progress: Progress) -> Round | None:
        game = registry.get(record.game_id)
        seeds, withdrawn, history = draw_inputs(progress)
        if record.format == "elimination":
            return elimination.next_round(
                seeds, record.table_size, game.min_players, history, withdrawn
            )
        ratings = {e.member_id: e.rating for e in progress.entries}
        return swiss.next_round(
            seeds, record.table_size, game.min_players, record.rounds, history, withdrawn, ratings
        )

    async def _finish(self, record: TournamentRecord, progress: Progress) -> None:
        ranking = final_ranking(record, progress)
        pool = record.buy_in * len(progress.entries)
        # A member who left forfeited the rest, prizes included (unless everyone left).
        withdrawn = {e.member_id for e in progress.entries if e.withdrawn}
        paid = [member for member in ranking if member not in withdrawn] or ranking
        await self.store.finish(record, ranking, payouts.payout(pool, record.payout, paid))
        self._disarm(record.id)

    async def _begin(self, tournament_id: int) -> None:
        """Registration ends: seeded by skill, the first round drawn, its tables opened. Too
        few players (or a field no table plan fits) cancels the tournament with refunds."""
        async with self._locked(tournament_id) as record:
            if record.status != TournamentStatus.REGISTERING:
                return
            entries = (await self.store.progress(record.id)).entries
            if not can_seat(record, len(entries)):
                await self.store.cancel(record, f"{TOO_FEW}:{len(entries)}")
                self._redraw(record)
                return
            ratings = await self._ratings(record, [e.member_id for e in entries])
            entrants = [Entrant(member, rating) for member, rating in ratings.items()]
            order = seed_order(entrants, bytes.fromhex(record.seed))
            for entry in entries:
                entry.seed_rank = order.index(entry.member_id) + 1
            drawn = self._next_round(record, Progress(entries))
            assert drawn is not None  # a field of two or more always has a first round
            seeds = [(member, ratings[member]) for member in order]
            await self.store.begin(record, seeds, match_records(drawn), drawn.byes)
        # Its tables open after: for a large field, past the 3 s a host's Start has for its
        # answer (the round is stored; a restart opens them as well).
        self._advance_soon(tournament_id)

    async def _ratings(
        self, record: TournamentRecord, members: list[int]
    ) -> dict[int, float | None]:
        ratings: dict[int, float | None] = {}
        for member in members:
            found = await self.core.ledger.ratings.member(record.guild_id, member, record.game_id)
            ratings[member] = found[0].skill if found else None
        return ratings

    # ---- timers and tasks ---------------------------------------------------------------------

    def _arm_start(self, record: TournamentRecord) -> None:
        if record.starts_at is None:
            return
        delay = max(0.0, (record.starts_at - self.core.clock()).total_seconds())
        self._arm(("start", record.id), delay, lambda: self._begin(record.id))

    def _arm_match_end(self, record: TournamentRecord, match: MatchRecord) -> None:
        assert match.opened_at is not None and match.table_id is not None
        due = match.opened_at + timedelta(minutes=record.match_minutes)
        delay = max(0.0, (due - self.core.clock()).total_seconds())
        table_id = match.table_id
        self._arm(("match", table_id), delay, lambda: self._end_match(table_id, "match_time"))

    def _arm(
        self, key: object, delay: float, work: Callable[[], Coroutine[Any, Any, None]]
    ) -> None:
        """`work` started after `delay` seconds (once per key)."""
        if key not in self.timers:
            loop = asyncio.get_running_loop()
            self.timers[key] = loop.call_later(delay, lambda: self._spawn(work()))

    def _disarm(self, tournament_id: int) -> None:
        with contextlib.suppress(KeyError):
            self.timers.pop(("start", tournament_id)).cancel()

    def _advance_soon(self, tournament_id: int) -> None:
        self._spawn(self.advance(tournament_id))

    def _redraw(self, record: TournamentRecord) -> None:
        self._spawn(self.listener.tournament_changed(record))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        if self.core.shutting_down:
            work.close()
            return
        task = asyncio.create_task(self._logged(work))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except UserError:
            pass  # the tournament moved on meanwhile
        except Exception:
            log.exception("tournament work failed")

    async def shutdown(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    @contextlib.asynccontextmanager
    async def _locked(self, tournament_id: int) -> AsyncIterator[TournamentRecord]:
        async with self.locks.setdefault(tournament_id, asyncio.Lock()):
            record = await self.get(tournament_id)
            yield record


def _check_host(record: TournamentRecord, member_id: int, can_manage: bool, doing: str) -> None:
    """`doing`: what the member would do, a key of HOST_ONLY."""
    if member_id != record.host_id and not can_manage:
        raise UserError(_(HOST_ONLY[doing]))
