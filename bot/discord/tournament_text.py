"""What a tournament's message says: its settings, prize pool and start, the players, each
round's matches (with links to their threads and who won), the standings (Swiss) and, at the
end, the places and prizes with the draw's seed. Pure: a record and its progress in, an embed
out."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import text
from bot.engine import registry
from bot.store.tournaments import Entry, MatchRecord, Progress, TournamentRecord, TournamentStatus
from bot.tables.tournament_draws import final_ranking, swiss_table
from bot.tournaments.payouts import SHARES

STATUS_COLOURS = {
    TournamentStatus.REGISTERING: discord.Colour.blurple(),
    TournamentStatus.PLAYING: discord.Colour.green(),
    TournamentStatus.FINISHED: discord.Colour.gold(),
    TournamentStatus.CANCELLED: discord.Colour.dark_grey(),
}
FIELD_LIMIT = 1024  # characters in an embed field's value
# The embed's fields together stay under Discord's 6,000 characters: the players, the last
# rounds, the standings and the result.
PLAYERS_LIMIT = 700
ROUNDS_SHOWN = 2


def tournament_embed(record: TournamentRecord, progress: Progress) -> discord.Embed:
    game = registry.get(record.game_id)
    embed = discord.Embed(
        title=f"🏆 {game.name} tournament #{record.id}",
        description="\n".join(_summary(record, progress)),
        colour=STATUS_COLOURS[record.status],
    )
    names = {e.member_id: e.name for e in progress.entries}
    players = _players(progress.entries)
    embed.add_field(
        name=f"Players ({len(progress.entries)}/{record.max_players})",
        value=_fit(players, ", ", PLAYERS_LIMIT),
        inline=False,
    )
    for number in sorted({m.round for m in progress.matches}, reverse=True)[:ROUNDS_SHOWN]:
        matches = [m for m in progress.matches if m.round == number]
        lines = _round_lines(record, matches, progress.byes.get(number, ()), names)
        embed.add_field(name=f"Round {number}", value=_fit(lines), inline=False)
    if record.format == "swiss" and progress.matches:
        embed.add_field(name="Standings", value=_fit(swiss_table(record, progress)), inline=False)
    if record.status == TournamentStatus.FINISHED:
        embed.add_field(name="Result", value=_fit(_result(record, progress)), inline=False)
    embed.set_footer(text=_footer(record))
    return embed


def _summary(record: TournamentRecord, progress: Progress) -> list[str]:
    pool = record.buy_in * len(progress.entries)
    shares = "/".join(map(str, SHARES[record.payout]))
    form = (
        f"Swiss, {text.plural(record.rounds, 'round')}"
        if record.format == "swiss"
        else "Elimination"
    )
    lines = [
        f"**{form}** at tables of {record.table_size}"
        + (
            f", {text.plural(record.hands_per_match, 'hand')} a match"
            if record.hands_per_match
            else ""
        ),
        f"Buy-in {text.chips(record.buy_in)} · prize pool **{text.chips(pool)}** · "
        f"paid {shares} (%)",
        f"Each match has {record.match_minutes} minutes; a turn {record.turn_seconds} s.",
    ]
    if record.status == TournamentStatus.REGISTERING:
        lines.append(_start(record))
    elif record.status == TournamentStatus.CANCELLED:
        lines.append(f"**Cancelled.** {record.note or ''}".strip())
    elif record.status == TournamentStatus.PLAYING:
        lines.append("**Playing.** Leave tournament forfeits your later rounds.")
    else:
        lines.append("**Finished.**")
    return lines


def _start(record: TournamentRecord) -> str:
    if record.starts_at is None:
        when = "when the host presses Start"
    else:
        stamp = int(record.starts_at.timestamp())
        when = f"<t:{stamp}:R> (<t:{stamp}:f>)"
    return f"**Registration open** (up to {record.max_players}); starts {when}."


def _players(entries: Sequence[Entry]) -> list[str]:
    if not entries:
        return ["Nobody yet: press Register."]
    ranked = sorted(entries, key=lambda e: (e.seed_rank or 0, e.joined))
    return [
        (f"`{e.seed_rank}` " if e.seed_rank else "")
        + (f"~~{e.name}~~ (left)" if e.withdrawn else e.name)
        for e in ranked
    ]


def _round_lines(
    record: TournamentRecord,
    matches: Sequence[MatchRecord],
    byes: Sequence[int],
    names: dict[int, str],
) -> list[str]:
    lines = []
    for match in matches:
        players = " vs ".join(names.get(m, "?") for m in match.players)
        where = f" · <#{match.thread_id}>" if match.thread_id else ""
        if match.placings is None:
            lines.append(f"Table {match.number}: {players}{where} (playing)")
        else:
            lines.append(f"Table {match.number}: {players} → {_winners(record, match, names)}")
    if byes:
        lines.append("Bye: " + ", ".join(names.get(m, "?") for m in byes))
    return lines


def _winners(record: TournamentRecord, match: MatchRecord, names: dict[int, str]) -> str:
    placings = match.placings
    assert placings is not None  # asked of a finished match only
    order = sorted(range(len(match.players)), key=lambda seat: placings[seat])
    places = [f"{placings[seat]}. {names.get(match.players[seat], '?')}" for seat in order]
    if record.format == "elimination":
        return ", ".join(places) + f" ({match.advance} through)"
    return ", ".join(places)


def _result(record: TournamentRecord, progress: Progress) -> list[str]:
    entries = {e.member_id: e for e in progress.entries}
    lines = []
    for place, member in enumerate(final_ranking(record, progress), 1):
        entry = entries[member]
        prize = f" · **{text.chips(entry.prize)}**" if entry.prize else ""
        lines.append(f"{place}. {entry.name}{prize}")
    return lines


def _footer(record: TournamentRecord) -> str:
    if record.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        return f"Draw seed {record.seed} · its SHA-256 {record.commitment}"
    return f"Draw commitment (SHA-256 of the seed): {record.commitment}"


def _fit(lines: Sequence[str], separator: str = "\n", limit: int = FIELD_LIMIT) -> str:
    """The lines joined, cut to `limit` characters with a note of how many were left out."""
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        if used + len(line) + len(separator) > limit - 20:
            kept.append(f"… and {len(lines) - index} more")
            break
        kept.append(line)
        used += len(line) + len(separator)
    return separator.join(kept) or "—"
