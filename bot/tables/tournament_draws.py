"""A tournament's draws as the store keeps them: its settings checked, whether a field can be
seated, each round drawn as match records, and the inputs, ranking and standings the pure draws
of bot/tournaments work out from a tournament's saved progress."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import GameSpec, registry
from bot.errors import UserError
from bot.i18n import _
from bot.store.tournaments import MatchRecord, Progress, TournamentRecord
from bot.tournaments import elimination, payouts, swiss
from bot.tournaments.model import Played, Result, Round
from bot.tournaments.model import Table as Seating

FORMATS = ("elimination", "swiss")


@dataclass(frozen=True)
class Settings:
    """A tournament as its host sets it up (checked by `Tournaments.create`)."""

    game: GameSpec
    format: str
    buy_in: int
    table_size: int
    rounds: int
    start_minutes: int | None
    max_players: int
    payout: str
    hands_per_match: int
    match_minutes: int
    table_chips: int
    turn_seconds: int


def check_settings(settings: Settings) -> None:
    """A UserError for settings the tournament can't be played with."""
    game = settings.game
    if game.solo or game.house:
        raise UserError(_("{game} isn't played between members at a table.", game=_(game.name)))
    if settings.format not in FORMATS:
        raise UserError(_("The format is elimination or swiss."))
    if settings.format == "elimination" and game.sides_for(game.options_model()):
        raise UserError(
            _("{game} is played in partnerships: choose the swiss format.", game=_(game.name))
        )
    if not game.min_players <= settings.table_size <= game.max_players:
        raise UserError(
            _(
                "{game} seats {low}-{high} players at a table.",
                game=_(game.name),
                low=game.min_players,
                high=game.max_players,
            )
        )
    if settings.format == "swiss" and not 1 <= settings.rounds <= 15:
        raise UserError(_("A swiss tournament plays 1 to 15 rounds."))
    if settings.payout not in payouts.SHARES:
        raise UserError(_("The payout is winner, top2 or top3."))
    if settings.max_players < 2:
        raise UserError(_("A tournament needs room for two players at least."))


def can_seat(record: TournamentRecord, field: int) -> bool:
    """Whether `field` players can play the tournament through to its end."""
    least = registry.get(record.game_id).min_players
    if record.format == "elimination":
        return field >= 2 and elimination.plan_exists(field, record.table_size, least)
    return field >= max(2, least)


def match_records(drawn: Round) -> list[MatchRecord]:
    return [
        MatchRecord(drawn.number, number, table.players, table.advance)
        for number, table in enumerate(drawn.tables, 1)
    ]


def seeds_and_withdrawn(progress: Progress) -> tuple[list[int], set[int]]:
    """The members by seed (best first) and those withdrawn."""
    ranked = sorted(progress.entries, key=lambda e: (e.seed_rank or 0, e.joined))
    return [e.member_id for e in ranked], {e.member_id for e in progress.entries if e.withdrawn}


def draw_inputs(progress: Progress) -> tuple[list[int], set[int], list[Played]]:
    """The seeds (best first), the members withdrawn and the rounds played, as the draws
    take them."""
    seeds, withdrawn = seeds_and_withdrawn(progress)
    history = []
    for number in sorted(progress.byes):
        matches = [m for m in progress.matches if m.round == number]
        drawn = Round(
            number,
            tuple(Seating(m.players, m.advance) for m in matches),
            progress.byes[number],
        )
        results = tuple(
            None if m.placings is None else Result(m.players, m.placings) for m in matches
        )
        history.append(Played(drawn, results))
    return seeds, withdrawn, history


def final_ranking(record: TournamentRecord, progress: Progress) -> list[int]:
    seeds, withdrawn, history = draw_inputs(progress)
    if record.format == "elimination":
        return elimination.ranking(seeds, history, withdrawn)
    ratings = {e.member_id: e.rating for e in progress.entries}
    return [s.member_id for s in swiss.standings(seeds, history, ratings, withdrawn)]


def swiss_table(record: TournamentRecord, progress: Progress) -> list[str]:
    """The Swiss standings as lines: place, name, points, Buchholz, tables played."""
    seeds, withdrawn, history = draw_inputs(progress)
    ratings = {e.member_id: e.rating for e in progress.entries}
    names = {e.member_id: e.name for e in progress.entries}
    return [
        _(
            "{place}. {name}: {points} pts · Buchholz {buchholz} · {matches} played",
            place=place,
            name=names[line.member_id],
            points=line.points,
            buchholz=line.buchholz,
            matches=line.matches,
        )
        for place, line in enumerate(swiss.standings(seeds, history, ratings, withdrawn), 1)
    ]


def rounds_planned(record: TournamentRecord, progress: Progress) -> int | None:
    """How many rounds an elimination takes as it stands: those drawn, and those the field of
    the latest drawn round still needs (None where that field can't be played down)."""
    drawn = max([match.round for match in progress.matches] + list(progress.byes), default=0)
    if drawn:
        seated = [m for match in progress.matches if match.round == drawn for m in match.players]
        field = len(seated) + len(progress.byes.get(drawn, ()))
    else:
        field = sum(not entry.withdrawn for entry in progress.entries)
    least = registry.get(record.game_id).min_players
    step = elimination.best_step(field, record.table_size, least) if field >= 2 else None
    return None if step is None else max(drawn, 1) - 1 + step.rounds
