"""The boards: members ranked by the chips they hold or by a game's results (chips won,
matches won, best scores), read outside any step.

Apart from the ledger because they only read: the accounts it keeps and the results it records.
The skill boards are the ratings' own (bot/store/ratings.py). The SQL runs on SQLite and
PostgreSQL alike (see bot/store/ledger.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.store.db import Database


@dataclass(frozen=True)
class Standing:
    member_id: int
    chips: int
    rank: int


@dataclass(frozen=True)
class GameStanding:
    """A chip game: chips won over hands and settlements; hands played and won."""

    member_id: int
    hands: int
    wins: int
    net: int
    rank: int


@dataclass(frozen=True)
class MatchStanding:
    """A points game: matches played and won (placed first), and the average placing."""

    member_id: int
    matches: int
    wins: int
    average_place: float
    rank: int


@dataclass(frozen=True)
class ScoreStanding:
    """A solo game: the best score of any one game, and how many games were scored."""

    member_id: int
    games: int
    best: int
    rank: int


Ranking = Literal["chips", "matches", "scores"]
AnyStanding = GameStanding | MatchStanding | ScoreStanding


@dataclass(frozen=True)
class _RankingQuery:
    grouped: str  # one row per member of a game: the standing's columns but its rank
    order: str  # best first; equal keys share a rank
    standing: type[AnyStanding]

    @property
    def ranked(self) -> str:
        return (
            f"SELECT *, RANK() OVER (ORDER BY {self.order}) AS rank"
            f" FROM ({self.grouped}) AS grouped"
        )


PEOPLE = "member_id > 0"  # AI seats (member ids below zero) are never ranked
# A tournament's tables play tournament chips: they are nobody's chips won or lost.
REAL_CHIPS = (
    "(table_id IS NULL OR table_id NOT IN"
    " (SELECT id FROM game_tables WHERE tournament_id IS NOT NULL))"
)


def _variant(variant: str | None) -> tuple[str, tuple[str, ...]]:
    """The condition narrowing results down to one variant, and its parameter (none for all)."""
    return ("", ()) if variant is None else (" AND variant = ?", (variant,))


_RANKINGS: dict[Ranking, _RankingQuery] = {
    # A match row repeats the chips of the hands and settlements it sums, so it is left out;
    # only hand rows count as hands played or won.
    "chips": _RankingQuery(
        "SELECT member_id, COUNT(*) FILTER (WHERE scope = 'hand') AS hands,"
        " COUNT(*) FILTER (WHERE scope = 'hand' AND \"placing\" = 1) AS wins,"
        " CAST(SUM(chip_net) AS BIGINT) AS net"
        " FROM results WHERE guild_id = ? AND game_id = ? AND scope IN ('hand', 'settle')"
        f" AND {PEOPLE} AND {REAL_CHIPS}"
        " GROUP BY member_id",
        "net DESC, wins DESC",
        GameStanding,
    ),
    "matches": _RankingQuery(
        'SELECT member_id, COUNT(*) AS matches, COUNT(*) FILTER (WHERE "placing" = 1) AS wins,'
        ' CAST(AVG("placing") AS DOUBLE PRECISION) AS average_place'
        " FROM results WHERE guild_id = ? AND game_id = ? AND scope = 'match'"
        f" AND {PEOPLE}"
        " GROUP BY member_id",
        "wins DESC, average_place",
        MatchStanding,
    ),
    # A solo game's score is per game (hand row); a match row's would count it twice.
    "scores": _RankingQuery(
        "SELECT member_id, COUNT(*) AS games, MAX(score) AS best"
        " FROM results WHERE guild_id = ? AND game_id = ? AND scope = 'hand'"
        " AND score IS NOT NULL GROUP BY member_id",
        "best DESC",
        ScoreStanding,
    ),
}


class Leaderboards:
    """The boards' reads: queries over the ledger's accounts and the results, apart from the
    ledger, which moves chips and adds them up."""

    def __init__(self, database: Database) -> None:
        self.db = database

    # ---- chips held -----------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, offset: int, limit: int) -> list[Standing]:
        rows = await self.db.fetch_all(
            "SELECT owner_id, chips, RANK() OVER (ORDER BY chips DESC) FROM accounts"
            " WHERE guild_id = ? AND kind = 'member' ORDER BY chips DESC, owner_id"
            " LIMIT ? OFFSET ?",
            guild_id,
            limit,
            offset,
        )
        return [Standing(*row) for row in rows]

    async def standing(self, guild_id: int, member_id: int) -> Standing | None:
        row = await self.db.fetch_one(
            "SELECT owner_id, chips, rank FROM (SELECT owner_id, chips,"
            " RANK() OVER (ORDER BY chips DESC) AS rank FROM accounts"
            " WHERE guild_id = ? AND kind = 'member') AS ranked WHERE owner_id = ?",
            guild_id,
            member_id,
        )
        return None if row is None else Standing(*row)

    async def member_count(self, guild_id: int) -> int:
        row = await self.db.fetch_aggregate(
            "SELECT COUNT(*) FROM accounts WHERE guild_id = ? AND kind = 'member'", guild_id
        )
        return row[0]

    # ---- a game's results ---------------------------------------------------------------------

    async def game_standings(
        self, guild_id: int, game_id: str, offset: int, limit: int, ranking: Ranking = "chips"
    ) -> list[AnyStanding]:
        """One page of a game's players, best first, ranked as `ranking` says."""
        query = _RANKINGS[ranking]
        rows = await self.db.fetch_all(
            f"{query.ranked} ORDER BY rank, member_id LIMIT ? OFFSET ?",
            guild_id,
            game_id,
            limit,
            offset,
        )
        return [query.standing(*row) for row in rows]

    async def game_standing(
        self, guild_id: int, game_id: str, member_id: int, ranking: Ranking = "chips"
    ) -> AnyStanding | None:
        query = _RANKINGS[ranking]
        row = await self.db.fetch_one(
            f"SELECT * FROM ({query.ranked}) AS ranked WHERE member_id = ?",
            guild_id,
            game_id,
            member_id,
        )
        return None if row is None else query.standing(*row)

    async def game_player_count(
        self, guild_id: int, game_id: str, ranking: Ranking = "chips"
    ) -> int:
        """How many players the game's board ranks (who has a result it counts)."""
        grouped = _RANKINGS[ranking].grouped
        row = await self.db.fetch_aggregate(
            f"SELECT COUNT(*) FROM ({grouped}) AS grouped", guild_id, game_id
        )
        return row[0]

    async def best_scores(
        self, guild_id: int, game_id: str, variant: str | None = None, limit: int = 10
    ) -> list[tuple[int, int]]:
        """(member, best score) for a scored game, best first; `variant` narrows it down.
        Only single games (hand rows) count: a match row's score is a match total."""
        of_variant, variants = _variant(variant)
        rows = await self.db.fetch_all(
            "SELECT member_id, MAX(score) AS best FROM results WHERE guild_id = ? AND game_id = ?"
            f" AND scope = 'hand' AND score IS NOT NULL{of_variant}"
            " GROUP BY member_id ORDER BY best DESC, member_id LIMIT ?",
            guild_id,
            game_id,
            *variants,
            limit,
        )
        return [(row[0], row[1]) for row in rows]

    async def member_best(
        self, guild_id: int, game_id: str, member_id: int, variant: str | None = None
    ) -> int | None:
        of_variant, variants = _variant(variant)
        row = await self.db.fetch_aggregate(
            "SELECT MAX(score) FROM results WHERE guild_id = ? AND game_id = ? AND member_id = ?"
            f" AND scope = 'hand'{of_variant}",
            guild_id,
            game_id,
            member_id,
            *variants,
        )
        return row[0]
