"""Skill ratings: openskill's Plackett-Luce per (guild, game, member), updated by the ledger in
the transaction that records the results (so a crash leaves both or neither, and a repeated
operation key, refused by the ledger, rates nothing twice). The ledger calls `rate_results`;
this module knows nothing of the ledger, only of the result rows (bot/store/results.py).

What one rated "match" is, per game (the unit its leaderboard counts):
- a points game (no chips: Big Two, Botifarra, Crash, Porrazo, ...) is rated once per match,
  on its 'match' results, by their final placings;
- a chip game (Western, Lowball, Calabrasella, Dou Dizhu, ...) is rated once per hand, on its
  'hand' results: winners placed 1st, the others tied 2nd; a table's length is up to its
  players, so its close says nothing more.
Not rated: house-banked games (Backhand) and personal games (Soliterrapin); results of a table
with AI seats (an AI's play would shape the humans' places); a hand or match where everyone
shares one place (nothing was decided, such as a match closed before its first hand).

Who plays with whom: partners (the seats' sides) are one team; in Dou Dizhu and Calabrasella,
one player against the other two, the seats sharing a hand's result are one team; everyone else
plays alone. Ties share a rank. A seat played for when its result is recorded (it left, is
leaving or is away) moves only PLAYED_FOR_WEIGHT of the way its result would move it: openskill's
own `weights` are a share of a team's effort, rescaled within each team (one player alone always
weighs the most) and divide a loss by the weight, so they can't say "this counts half".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Literal

from openskill.models import PlackettLuce, PlackettLuceRating

import bot.games  # noqa: F401  (registers every game: the ratings read their specs)
from bot.engine import registry
from bot.store.db import Database, Transaction
from bot.store.results import ResultRow, every_operation

MODEL = PlackettLuce()
PLAYED_FOR_WEIGHT = 0.5
RatedScope = Literal["hand", "match"]
# (game, member) -> the weight a member's result counted with when it was first rated.
Weights = Mapping[tuple[str, int], float]


@dataclass(frozen=True)
class Rating:
    """A member's rating at one game; `skill` (mu - 3 sigma) is what the boards rank by."""

    game_id: str
    member_id: int
    mu: float
    sigma: float
    matches: int
    wins: int
    rank: int = 0  # on the game's skill board (0: not asked for, or not on it)

    @property
    def skill(self) -> float:
        return conservative(self.mu, self.sigma)


def conservative(mu: float, sigma: float) -> float:
    """The skill the boards rank by: a rating the player is very likely above."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class RatingsRebuilt:
    operations: int  # operations that recorded results
    rated: int  # rated results of members, one per member and operation
    ratings: int  # ratings held now, one per guild, game and member


@dataclass(frozen=True)
class RatedResult:
    """One rated result of a member: its place, and the skill it left them with."""

    game_id: str
    placing: int
    skill: float
    change: float


@dataclass(frozen=True)
class Entry:
    """A player in a rated result: their place, team and the weight their result counts with."""

    member_id: int
    placing: int
    team: tuple[str, int]
    weight: float = 1.0


def rated_scope(game_id: str) -> RatedScope | None:
    """Which results of the game are rated (None: the game isn't rated)."""
    try:
        game = registry.get(game_id)
    except KeyError:  # not a game this bot plays
        return None
    if game.solo or game.house:
        return None
    return "hand" if game.uses_chips is True else "match"


def entries(
    game_id: str,
    rows: Sequence[ResultRow],
    seats: dict[int, tuple[int | None, bool]],
    weights: Weights | None = None,
) -> list[Entry]:
    """The rated players of `rows` (one rated result), each once; `seats`: per seat, its side
    and whether it is played for; `weights`, when known, say who was (a rebuild)."""
    one_against_the_others = registry.get(game_id).one_against_the_others
    found: dict[int, Entry] = {}
    for row in rows:
        side, played_for = seats.get(row.seat, (None, False))
        if side is not None:
            team = ("side", side)
        elif one_against_the_others:
            team = ("placing", row.placing)
        else:
            team = ("seat", row.seat)
        if weights is not None:
            weight = weights.get((game_id, row.member_id), 1.0)
        else:
            weight = PLAYED_FOR_WEIGHT if played_for else 1.0
        found.setdefault(row.member_id, Entry(row.member_id, row.placing, team, weight))
    return list(found.values())


def teams_of(players: Sequence[Entry]) -> list[list[Entry]]:
    ordered = sorted(players, key=lambda entry: entry.team)
    return [list(members) for _, members in groupby(ordered, key=lambda entry: entry.team)]


def team_ranks(teams: Sequence[Sequence[Entry]]) -> list[int]:
    return [min(entry.placing for entry in team) for team in teams]


def decisive(players: Sequence[Entry]) -> bool:
    """Whether the result tells the players apart: two teams or more, not all placed alike."""
    return len(set(team_ranks(teams_of(players)))) > 1


def rate(players: Sequence[Entry], current: dict[int, Rating]) -> dict[int, tuple[float, float]]:
    """Each player's new (mu, sigma) after a decisive result (see `decisive`)."""
    teams = teams_of(players)
    ranks = team_ranks(teams)
    before = [[_model_rating(current[entry.member_id]) for entry in team] for team in teams]
    after = MODEL.rate(before, ranks=[float(rank) for rank in ranks])
    rated = {}
    for team, old_team, new_team in zip(teams, before, after, strict=True):
        for entry, old, new in zip(team, old_team, new_team, strict=True):
            rated[entry.member_id] = (
                old.mu + entry.weight * (new.mu - old.mu),
                old.sigma + entry.weight * (new.sigma - old.sigma),
            )
    return rated


def _model_rating(rating: Rating) -> PlackettLuceRating:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)


# ---- in the ledger's transaction -----------------------------------------------------------


async def rate_results(
    tx: Transaction,
    guild_id: int,
    key: str,
    results: Sequence[ResultRow],
    weights: Weights | None = None,
) -> None:
    """Update the ratings for the rated results among `results` (written under `key`).
    `weights`: what each result counted with when first rated (a rebuild: the seats' flags
    now are those of the table's end, not of that result); else from the seats' flags."""
    for game_id, rows in groupby(sorted(results, key=_game), key=_game):
        scope = rated_scope(game_id)
        rated = [row for row in rows if row.scope == scope]
        if not rated or any(row.with_ai for row in rated):
            continue
        people = [row for row in rated if row.member_id > 0]
        seats = await _seats(tx, people[0].table_id) if people else {}
        await _apply(tx, guild_id, key, game_id, entries(game_id, people, seats, weights))


def _game(row: ResultRow) -> str:
    return row.game_id


async def _seats(tx: Transaction, table_id: int | None) -> dict[int, tuple[int | None, bool]]:
    """Per seat of the table: its side, and whether it is played for (left, leaving or away),
    as the step recording the results has just saved them."""
    if table_id is None:
        return {}
    rows = await tx.all(
        "SELECT seat, side, has_left, leaving, away FROM table_seats WHERE table_id = ?",
        table_id,
    )
    return {row[0]: (row[1], bool(row[2] or row[3] or row[4])) for row in rows}


async def _apply(
    tx: Transaction, guild_id: int, key: str, game_id: str, players: Sequence[Entry]
) -> None:
    if not decisive(players):
        return
    current = await _locked(tx, guild_id, game_id, [entry.member_id for entry in players])
    rated = rate(players, current)
    await tx.many(
        "INSERT INTO ratings (guild_id, game_id, member_id, mu, sigma, matches, wins)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game_id, member_id) DO UPDATE"
        " SET mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches,"
        " wins = excluded.wins, updated_at = excluded.updated_at",
        [_updated(guild_id, entry, current[entry.member_id], rated) for entry in players],
    )
    await tx.many(
        'INSERT INTO rating_changes (op_key, guild_id, game_id, member_id, "placing", weight,'
        " rating, change) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [_change(key, guild_id, game_id, entry, current, rated) for entry in players],
    )


def _updated(
    guild_id: int, entry: Entry, old: Rating, rated: dict[int, tuple[float, float]]
) -> tuple[object, ...]:
    """The rating row after the result: one match more, and one win more for a first place."""
    mu, sigma = rated[entry.member_id]
    won = 1 if entry.placing == 1 else 0
    return (guild_id, old.game_id, entry.member_id, mu, sigma, old.matches + 1, old.wins + won)


def _change(
    key: str,
    guild_id: int,
    game_id: str,
    entry: Entry,
    current: dict[int, Rating],
    rated: dict[int, tuple[float, float]],
) -> tuple[object, ...]:
    skill = conservative(*rated[entry.member_id])
    change = skill - current[entry.member_id].skill
    return (key, guild_id, game_id, entry.member_id, entry.placing, entry.weight, skill, change)


async def _locked(
    tx: Transaction, guild_id: int, game_id: str, members: Sequence[int]
) -> dict[int, Rating]:
    """The members' ratings, locked until the step ends: each is created first (a newcomer's
    prior), in member order, so that two tables rating the same members never lose an update
    nor wait for each other in a cycle."""
    ordered = sorted(members)
    await tx.many(
        "INSERT INTO ratings (guild_id, game_id, member_id, mu, sigma, matches, wins)"
        " VALUES (?, ?, ?, ?, ?, 0, 0) ON CONFLICT DO NOTHING",
        [(guild_id, game_id, member, MODEL.mu, MODEL.sigma) for member in ordered],
    )
    rows = await tx.all(
        f"SELECT {_COLUMNS} FROM ratings WHERE guild_id = ? AND game_id = ? AND member_id IN"
        f" ({', '.join('?' * len(ordered))}) ORDER BY member_id{tx.row_lock}",
        guild_id,
        game_id,
        *ordered,
    )
    return {row[1]: Rating(*row) for row in rows}


_COLUMNS = "game_id, member_id, mu, sigma, matches, wins"


# ---- reads ------------------------------------------------------------------------------------


class Ratings:
    """The skill boards and a member's ratings, read outside any step; and their rebuild."""

    def __init__(self, database: Database) -> None:
        self.db = database

    async def rebuild(self) -> RatingsRebuilt:
        """Every skill rating again from every result, in the order the results were recorded,
        those written before ratings existed (migration 017) included. A result rated before
        counts with the weight it was rated with (a seat played for counts part); an older one
        in full, as who was played for then was not kept. One step: all or nothing."""

        async def write(tx: Transaction) -> RatingsRebuilt:
            weights: dict[str, dict[tuple[str, int], float]] = {}
            for key, game_id, member_id, weight in await tx.all(
                "SELECT op_key, game_id, member_id, weight FROM rating_changes"
            ):
                weights.setdefault(key, {})[(game_id, member_id)] = weight
            await tx.run("DELETE FROM rating_changes")
            await tx.run("DELETE FROM ratings")
            operations = await every_operation(tx)
            for key, (guild_id, rows) in operations.items():
                await rate_results(tx, guild_id, key, rows, weights.get(key, {}))
            (rated,) = await tx.one("SELECT count(*) FROM rating_changes") or (0,)
            (ratings,) = await tx.one("SELECT count(*) FROM ratings") or (0,)
            return RatingsRebuilt(len(operations), rated, ratings)

        return await self.db.step(write)

    async def board(
        self, guild_id: int, game_id: str, least_matches: int, offset: int, limit: int
    ) -> list[Rating]:
        """One page of the game's skill board: members with `least_matches` rated matches or
        more, by mu - 3 sigma, best first (equal skills share a rank)."""
        rows = await self.db.fetch_all(
            f"{_RANKED} ORDER BY rank, member_id LIMIT ? OFFSET ?",
            guild_id,
            game_id,
            least_matches,
            limit,
            offset,
        )
        return [Rating(*row) for row in rows]

    async def board_size(self, guild_id: int, game_id: str, least_matches: int) -> int:
        row = await self.db.fetch_aggregate(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game_id = ? AND matches >= ?",
            guild_id,
            game_id,
            least_matches,
        )
        return row[0]

    async def place(
        self, guild_id: int, game_id: str, member_id: int, least_matches: int
    ) -> Rating | None:
        """The member's rating with their rank on the board (rank 0: too few matches yet)."""
        row = await self.db.fetch_one(
            f"SELECT * FROM ({_RANKED}) AS ranked WHERE member_id = ?",
            guild_id,
            game_id,
            least_matches,
            member_id,
        )
        if row is not None:
            return Rating(*row)
        found = await self.member(guild_id, member_id, game_id)
        return found[0] if found else None

    async def member(
        self, guild_id: int, member_id: int, game_id: str | None = None
    ) -> list[Rating]:
        """The member's ratings (at one game, or every game they are rated at)."""
        game, games = ("", ()) if game_id is None else (" AND game_id = ?", (game_id,))
        rows = await self.db.fetch_all(
            f"SELECT {_COLUMNS} FROM ratings WHERE guild_id = ? AND member_id = ?{game}"
            " AND matches > 0 ORDER BY matches DESC, game_id",
            guild_id,
            member_id,
            *games,
        )
        return [Rating(*row) for row in rows]

    async def recent(
        self, guild_id: int, member_id: int, game_id: str, limit: int
    ) -> list[RatedResult]:
        """The member's last rated results at the game, the latest first."""
        rows = await self.db.fetch_all(
            'SELECT game_id, "placing", rating, change FROM rating_changes'
            " WHERE guild_id = ? AND member_id = ? AND game_id = ? ORDER BY id DESC LIMIT ?",
            guild_id,
            member_id,
            game_id,
            limit,
        )
        return [RatedResult(*row) for row in rows]


_RANKED = (
    f"SELECT {_COLUMNS}, RANK() OVER (ORDER BY mu - 3 * sigma DESC) AS rank FROM ratings"
    " WHERE guild_id = ? AND game_id = ? AND matches >= ?"
)
