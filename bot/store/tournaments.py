"""Persistence of tournaments: their settings and status, registered members with their buy-ins
in the tournament's own ledger account, the rounds drawn and each match's thread, table and
placings, and the payout or the refunds at the end.

Every write is one transaction; those moving chips run through the ledger under an operation
key, so a repeated click or a replay after a crash moves nothing twice. A change of status is a
conditional UPDATE (`_move_status`): of two processes or two clicks, one wins and the other is
refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from bot.errors import UserError
from bot.i18n import N_, _
from bot.shards import EVERY_SHARD, Shards
from bot.store.db import Database, Transaction
from bot.store.ledger import Account, Ledger, Move


class TournamentStatus(StrEnum):
    REGISTERING = "registering"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game_id: str
    format: str  # "elimination" or "swiss"
    buy_in: int
    table_size: int
    rounds: int  # swiss; 0 for elimination
    starts_at: datetime | None  # None: at the host's Start
    max_players: int
    payout: str  # "winner", "top2" or "top3"
    hands_per_match: int  # chip games: the match ends after so many hands (0: played out)
    match_minutes: int
    table_chips: int  # each seat's tournament chips at a chip game
    turn_seconds: int
    options: str  # the game's options (JSON), as its tables take them
    status: TournamentStatus = TournamentStatus.REGISTERING
    seed: str = ""  # hex: the draw's seed, shown once the tournament is over
    commitment: str = ""  # its SHA-256, shown from the start
    message_id: int | None = None
    event_id: int | None = None
    note: str | None = None  # why it was cancelled

    @property
    def open(self) -> bool:
        return self.status in (TournamentStatus.REGISTERING, TournamentStatus.PLAYING)


@dataclass
class Entry:
    """A registered member."""

    member_id: int
    name: str
    joined: int
    rating: float | None = None
    seed_rank: int | None = None
    withdrawn: bool = False
    place: int | None = None
    prize: int = 0


@dataclass
class MatchRecord:
    round: int
    number: int
    players: tuple[int, ...]
    advance: int
    thread_id: int | None = None
    table_id: int | None = None
    opened_at: datetime | None = None
    placings: tuple[int, ...] | None = None


@dataclass
class Progress:
    """Everything a tournament has drawn and played, as saved."""

    entries: list[Entry]
    byes: dict[int, tuple[int, ...]] = field(default_factory=dict)  # by round
    matches: list[MatchRecord] = field(default_factory=list)  # by round, then number


# A registration or unregistration too late, refused.
REGISTRATION_CLOSED = N_("Registration has closed: registration is only open before the start.")
TOURNAMENT_STARTED = N_("The tournament has started: registration is only open before the start.")
_COLUMNS = (
    "id, guild_id, channel_id, host_id, game_id, format, buy_in, table_size, rounds, starts_at,"
    " max_players, payout, hands_per_match, match_minutes, table_chips, turn_seconds, options,"
    " status, seed, commitment, message_id, event_id, note"
)


class TournamentStore:
    def __init__(self, database: Database, ledger: Ledger) -> None:
        self.db, self.ledger = database, ledger

    # ---- reads ------------------------------------------------------------------------------

    async def load(self, tournament_id: int) -> TournamentRecord | None:
        found = await self._records("id = ?", EVERY_SHARD, tournament_id)
        return found[0] if found else None

    async def unfinished(self, shards: Shards = EVERY_SHARD) -> list[TournamentRecord]:
        """The tournaments still registering or playing in the guilds of `shards`."""
        return await self._records("status IN ('registering', 'playing')", shards)

    async def of_guild(self, guild_id: int, limit: int = 15) -> list[TournamentRecord]:
        """The guild's tournaments, newest first."""
        found = await self._records("guild_id = ?", EVERY_SHARD, guild_id)
        return found[::-1][:limit]

    async def _records(self, where: str, shards: Shards, *values: object) -> list[TournamentRecord]:
        in_shards, params = shards.where()
        rows = await self.db.fetch_all(
            f"SELECT {_COLUMNS} FROM tournaments WHERE {where} AND {in_shards} ORDER BY id",
            *values,
            *params,
        )
        records = []
        for row in rows:
            fields = dict(row)
            fields["status"] = TournamentStatus(fields["status"])
            fields["starts_at"] = _parse(fields["starts_at"])
            records.append(TournamentRecord(**fields))
        return records

    async def progress(self, tournament_id: int) -> Progress:
        players = await self.db.fetch_all(
            "SELECT member_id, name, joined, rating, seed_rank, withdrawn, place, prize"
            " FROM tournament_players WHERE tournament_id = ? ORDER BY joined",
            tournament_id,
        )
        entries = [Entry(**dict(row)) for row in players]
        for entry in entries:
            entry.withdrawn = bool(entry.withdrawn)
        rounds = await self.db.fetch_all(
            "SELECT round, byes FROM tournament_rounds WHERE tournament_id = ? ORDER BY round",
            tournament_id,
        )
        matches = await self.db.fetch_all(
            "SELECT round, number, players, advance, thread_id, table_id, opened_at, placings"
            " FROM tournament_matches WHERE tournament_id = ? ORDER BY round, number",
            tournament_id,
        )
        return Progress(
            entries,
            {row[0]: tuple(json.loads(row[1])) for row in rounds},
            [_match(dict(row)) for row in matches],
        )

    async def placings_of(self, guild_id: int, member_id: int) -> list[tuple[str, int, int]]:
        """The member's finished tournaments in the guild: (game, place, field size)."""
        rows = await self.db.fetch_all(
            "SELECT t.game_id, p.place, (SELECT COUNT(*) FROM tournament_players AS f"
            " WHERE f.tournament_id = t.id) FROM tournament_players AS p"
            " JOIN tournaments AS t ON t.id = p.tournament_id"
            " WHERE t.guild_id = ? AND p.member_id = ? AND t.status = 'finished'"
            " ORDER BY t.id DESC",
            guild_id,
            member_id,
        )
        return [(row[0], row[1], row[2]) for row in rows]

    # ---- registration -------------------------------------------------------------------------

    async def create(self, record: TournamentRecord) -> TournamentRecord:
        async def write(tx: Transaction) -> None:
            created = await tx.one(
                "INSERT INTO tournaments (guild_id, channel_id, host_id, game_id, format, buy_in,"
                " table_size, rounds, starts_at, max_players, payout, hands_per_match,"
                " match_minutes, table_chips, turn_seconds, options, status, seed, commitment)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'registering', ?, ?)"
                " RETURNING id",
                record.guild_id,
                record.channel_id,
                record.host_id,
                record.game_id,
                record.format,
                record.buy_in,
                record.table_size,
                record.rounds,
                _iso(record.starts_at),
                record.max_players,
                record.payout,
                record.hands_per_match,
                record.match_minutes,
                record.table_chips,
                record.turn_seconds,
                record.options,
                record.seed,
                record.commitment,
            )
            assert created is not None  # the row the INSERT just made
            record.id = created[0]

        await self.db.step(write)
        return record

    async def register(self, record: TournamentRecord, member_id: int, name: str, key: str) -> None:
        """The member joins, their buy-in moving into the tournament's pool, or nothing
        changes and a UserError says why."""

        async def write(tx: Transaction) -> None:
            await self._check_registering(tx, record.id, REGISTRATION_CLOSED)
            (count,) = await tx.one(
                "SELECT COUNT(*) FROM tournament_players WHERE tournament_id = ?", record.id
            ) or (0,)
            added = await tx.run(
                "INSERT INTO tournament_players (tournament_id, member_id, name, joined)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                record.id,
                member_id,
                name,
                count,
            )
            if added != 1:
                raise UserError(_("You are registered already."))
            if count >= record.max_players:
                raise UserError(
                    _("The tournament is full ({count} players).", count=record.max_players)
                )
            pool = Account.tournament(record.id)
            move = Move(Account.member(member_id), pool, record.buy_in, "tournament buy-in")
            await self.ledger.execute_in(tx, record.guild_id, key, "buy_in", [move])

        await self.db.step(write)

    async def unregister(self, record: TournamentRecord, member_id: int, key: str) -> None:
        async def write(tx: Transaction) -> None:
            await self._check_registering(tx, record.id, TOURNAMENT_STARTED)
            removed = await tx.run(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND member_id = ?",
                record.id,
                member_id,
            )
            if removed != 1:
                raise UserError(_("You are not registered."))
            pool = Account.tournament(record.id)
            move = Move(pool, Account.member(member_id), record.buy_in, "tournament refund")
            await self.ledger.execute_in(tx, record.guild_id, key, "cash_out", [move])

        await self.db.step(write)

    @staticmethod
    async def _check_registering(tx: Transaction, tournament_id: int, refusal: str) -> None:
        row = await tx.one(
            f"SELECT status FROM tournaments WHERE id = ?{tx.row_lock}", tournament_id
        )
        if row is None or row[0] != TournamentStatus.REGISTERING:
            raise UserError(_(refusal))

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        await self._set(tournament_id, "message_id", message_id)

    async def set_event(self, tournament_id: int, event_id: int | None) -> None:
        await self._set(tournament_id, "event_id", event_id)

    async def _set(self, tournament_id: int, column: str, value: object) -> None:
        async def write(tx: Transaction) -> None:
            await tx.run(f"UPDATE tournaments SET {column} = ? WHERE id = ?", value, tournament_id)

        await self.db.step(write)

    # ---- play ---------------------------------------------------------------------------------

    async def begin(
        self,
        record: TournamentRecord,
        seeds: Sequence[tuple[int, float | None]],
        first: Sequence[MatchRecord],
        byes: Sequence[int],
    ) -> None:
        """Registration ends: each member's rating and seed (`seeds`, best first) and the
        first round are saved with the status, all at once."""

        async def write(tx: Transaction) -> None:
            await self._move_status(tx, record, TournamentStatus.PLAYING)
            await tx.many(
                "UPDATE tournament_players SET rating = ?, seed_rank = ?"
                " WHERE tournament_id = ? AND member_id = ?",
                [
                    (rating, rank, record.id, member)
                    for rank, (member, rating) in enumerate(seeds, 1)
                ],
            )
            await self._add_round(tx, record.id, 1, first, byes)

        await self.db.step(write)

    async def add_round(
        self, tournament_id: int, number: int, matches: Sequence[MatchRecord], byes: Sequence[int]
    ) -> None:
        """A round drawn; drawn again after a crash, it is the same and writes nothing."""

        async def write(tx: Transaction) -> None:
            await self._add_round(tx, tournament_id, number, matches, byes)

        await self.db.step(write)

    @staticmethod
    async def _add_round(
        tx: Transaction,
        tournament_id: int,
        number: int,
        matches: Sequence[MatchRecord],
        byes: Sequence[int],
    ) -> None:
        await tx.run(
            "INSERT INTO tournament_rounds (tournament_id, round, byes) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            tournament_id,
            number,
            json.dumps(list(byes)),
        )
        await tx.many(
            "INSERT INTO tournament_matches (tournament_id, round, number, players, advance)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [
                (tournament_id, number, m.number, json.dumps(list(m.players)), m.advance)
                for m in matches
            ],
        )

    async def set_thread(self, tournament_id: int, match: MatchRecord, thread_id: int) -> None:
        async def write(tx: Transaction) -> None:
            await tx.run(
                "UPDATE tournament_matches SET thread_id = ?"
                " WHERE tournament_id = ? AND round = ? AND number = ?",
                thread_id,
                tournament_id,
                match.round,
                match.number,
            )

        await self.db.step(write)
        match.thread_id = thread_id

    @staticmethod
    async def link_table(
        tx: Transaction, tournament_id: int, match: MatchRecord, table_id: int, now: datetime
    ) -> None:
        """Inside the transaction opening the match's table: the match names it."""
        await tx.run(
            "UPDATE tournament_matches SET table_id = ?, opened_at = ?"
            " WHERE tournament_id = ? AND round = ? AND number = ?",
            table_id,
            now.isoformat(),
            tournament_id,
            match.round,
            match.number,
        )

    async def record_match(
        self, tournament_id: int, match: MatchRecord, placings: Sequence[int]
    ) -> None:
        async def write(tx: Transaction) -> None:
            await tx.run(
                "UPDATE tournament_matches SET placings = ?"
                " WHERE tournament_id = ? AND round = ? AND number = ? AND placings IS NULL",
                json.dumps(list(placings)),
                tournament_id,
                match.round,
                match.number,
            )

        await self.db.step(write)
        match.placings = tuple(placings)

    async def withdraw(self, tournament_id: int, member_id: int) -> bool:
        """The member leaves a tournament in play; False if they had left or never joined."""

        async def write(tx: Transaction) -> int:
            return await tx.run(
                "UPDATE tournament_players SET withdrawn = 1"
                " WHERE tournament_id = ? AND member_id = ? AND withdrawn = 0",
                tournament_id,
                member_id,
            )

        return await self.db.step(write) == 1

    # ---- the end ------------------------------------------------------------------------------

    async def finish(
        self, record: TournamentRecord, places: Sequence[int], prizes: Mapping[int, int]
    ) -> None:
        """The pool paid by `prizes` (member -> chips) and each member's place (`places`,
        best first), with the status, all at once."""

        async def write(tx: Transaction) -> None:
            await self._move_status(tx, record, TournamentStatus.FINISHED)
            await tx.many(
                "UPDATE tournament_players SET place = ?, prize = ?"
                " WHERE tournament_id = ? AND member_id = ?",
                [
                    (place, prizes.get(member, 0), record.id, member)
                    for place, member in enumerate(places, 1)
                ],
            )
            pool = Account.tournament(record.id)
            moves = [
                Move(pool, Account.member(member), chips, "tournament prize")
                for member, chips in prizes.items()
            ]
            key = f"tournament-payout:{record.id}"
            await self.ledger.execute_in(tx, record.guild_id, key, "cash_out", moves)

        await self.db.step(write)

    async def cancel(self, record: TournamentRecord, note: str) -> None:
        """Every buy-in back, with the status, all at once."""

        async def write(tx: Transaction) -> None:
            await self._move_status(tx, record, TournamentStatus.CANCELLED, note)
            rows = await tx.all(
                "SELECT member_id FROM tournament_players WHERE tournament_id = ?", record.id
            )
            pool = Account.tournament(record.id)
            moves = [
                Move(pool, Account.member(row[0]), record.buy_in, "tournament cancelled")
                for row in rows
            ]
            key = f"tournament-refund:{record.id}"
            await self.ledger.execute_in(tx, record.guild_id, key, "cash_out", moves)

        await self.db.step(write)
        record.note = note

    @staticmethod
    async def _move_status(
        tx: Transaction, record: TournamentRecord, status: TournamentStatus, note: str | None = None
    ) -> None:
        """From an unfinished status on to `status`, or a UserError if another step won."""
        allowed = {
            TournamentStatus.PLAYING: ("registering",),
            TournamentStatus.FINISHED: ("playing",),
            TournamentStatus.CANCELLED: ("registering", "playing"),
        }[status]
        marks = ", ".join("?" * len(allowed))
        changed = await tx.run(
            f"UPDATE tournaments SET status = ?, note = COALESCE(?, note)"
            f" WHERE id = ? AND status IN ({marks})",
            status,
            note,
            record.id,
            *allowed,
        )
        if changed != 1:
            raise UserError(_("This tournament has moved on meanwhile."))
        record.status = status


def _match(fields: dict) -> MatchRecord:
    fields["players"] = tuple(json.loads(fields["players"]))
    fields["placings"] = tuple(json.loads(fields["placings"])) if fields["placings"] else None
    fields["opened_at"] = _parse(fields["opened_at"])
    return MatchRecord(**fields)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _parse(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None
