"""What a tournament's message says: its settings, prize pool and start, the players, each
round's matches (with links to their threads and who won), the standings (Swiss) and, at the
end, the places and prizes with the draw's seed. Pure: a record and its progress in, an embed
out."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine import registry
from bot.i18n import _, n_, p_
from bot.store.tournaments import Entry, MatchRecord, Progress, TournamentRecord, TournamentStatus
from bot.tables.tournament_draws import final_ranking, swiss_table
from bot.tables.tournaments import REFUNDED, TOO_FEW
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
        title="🏆 "
        + _("{game} tournament #{tournament}", game=_(game.name), tournament=str(record.id)),
        description="\n".join(summary(record, progress)),
        colour=STATUS_COLOURS[record.status],
    )
    for title, lines, separator, limit in sections(record, progress, ROUNDS_SHOWN):
        embed.add_field(name=title, value=_fit(lines, separator, limit), inline=False)
    embed.set_footer(text=footer(record))
    return embed


# A part of what a tournament says: its title, its lines, how they are joined, and how many
# characters of them an embed's field may hold.
Section = tuple[str, list[str], str, int]


def sections(
    record: TournamentRecord, progress: Progress, rounds_shown: int | None = None
) -> list[Section]:
    """The players, the last `rounds_shown` rounds (every one for None), the Swiss standings
    and the result: the message's fields, and the web page's parts."""
    names = {e.member_id: e.name for e in progress.entries}
    found: list[Section] = [
        (
            _("Players ({count}/{most})", count=len(progress.entries), most=record.max_players),
            _players(progress.entries),
            ", ",
            PLAYERS_LIMIT,
        )
    ]
    for number in sorted({m.round for m in progress.matches}, reverse=True)[:rounds_shown]:
        matches = [m for m in progress.matches if m.round == number]
        lines = _round_lines(record, matches, progress.byes.get(number, ()), names)
        found.append((_("Round {round}", round=number), lines, "\n", FIELD_LIMIT))
    if record.format == "swiss" and progress.matches:
        found.append((_("Standings"), swiss_table(record, progress), "\n", FIELD_LIMIT))
    if record.status == TournamentStatus.FINISHED:
        found.append((_("Result"), _result(record, progress), "\n", FIELD_LIMIT))
    return found


def summary(record: TournamentRecord, progress: Progress) -> list[str]:
    pool = record.buy_in * len(progress.entries)
    shares = "/".join(map(str, SHARES[record.payout]))
    form = (
        n_("Swiss, {count} round", "Swiss, {count} rounds", record.rounds)
        if record.format == "swiss"
        else _("Elimination")
    )
    if record.hands_per_match:
        tables = _(
            "**{format}** at tables of {size}, {hands} a match",
            format=form,
            size=record.table_size,
            hands=n_("{count} hand", "{count} hands", record.hands_per_match),
        )
    else:
        tables = _("**{format}** at tables of {size}", format=form, size=record.table_size)
    lines = [
        tables,
        _(
            "Buy-in {buy_in} · prize pool **{pool}** · paid {shares} (%)",
            buy_in=n_("{count} chip", "{count} chips", record.buy_in),
            pool=n_("{count} chip", "{count} chips", pool),
            shares=shares,
        ),
        n_(
            "Each match has {count} minute; a turn {seconds} s.",
            "Each match has {count} minutes; a turn {seconds} s.",
            record.match_minutes,
            seconds=record.turn_seconds,
        ),
    ]
    if record.status == TournamentStatus.REGISTERING:
        lines.append(_start(record))
    elif record.status == TournamentStatus.CANCELLED:
        note = cancel_note(record.note)
        lines.append(_("**Cancelled.** {note}", note=note) if note else _("**Cancelled.**"))
    elif record.status == TournamentStatus.PLAYING:
        lines.append(_("**Playing.** Leave tournament forfeits your later rounds."))
    else:
        lines.append(_("**Finished.**"))
    return lines


def cancel_note(note: str | None) -> str:
    """Why it was cancelled, from the code its record keeps (a tournament cancelled before
    languages keeps its note in English words, shown as they are)."""
    why, _sep, count = (note or "").partition(":")
    if why == REFUNDED:
        return _("Every buy-in went back.")
    if why == TOO_FEW and count.isdigit():
        return _("Too few players to start ({count}); every buy-in went back.", count=int(count))
    return (note or "").strip()


def _start(record: TournamentRecord) -> str:
    if record.starts_at is None:
        return _(
            "**Registration open** (up to {most}); starts when the host presses Start.",
            most=record.max_players,
        )
    stamp = int(record.starts_at.timestamp())
    when = f"<t:{stamp}:R> (<t:{stamp}:f>)"
    return _(
        "**Registration open** (up to {most}); starts {time}.", most=record.max_players, time=when
    )


def _players(entries: Sequence[Entry]) -> list[str]:
    if not entries:
        return [_("Nobody yet: press Register.")]
    ranked = sorted(entries, key=lambda e: (e.seed_rank or 0, e.joined))
    return [
        (f"`{e.seed_rank}` " if e.seed_rank else "")
        + (_("~~{name}~~ (left)", name=e.name) if e.withdrawn else e.name)
        for e in ranked
    ]


def _round_lines(
    record: TournamentRecord,
    matches: Sequence[MatchRecord],
    byes: Sequence[int],
    names: dict[int, str],
) -> list[str]:
    lines = []
    versus = " " + p_("between the players at a table", "vs") + " "
    for match in matches:
        players = versus.join(names.get(m, "?") for m in match.players)
        where = f" · <#{match.thread_id}>" if match.thread_id else ""
        if match.placings is None:
            lines.append(
                _(
                    "Table {table}: {players}{thread} (playing)",
                    table=match.number,
                    players=players,
                    thread=where,
                )
            )
        else:
            lines.append(
                _(
                    "Table {table}: {players} → {winners}",
                    table=match.number,
                    players=players,
                    winners=_winners(record, match, names),
                )
            )
    if byes:
        lines.append(_("Bye: {names}", names=", ".join(names.get(m, "?") for m in byes)))
    return lines


def _winners(record: TournamentRecord, match: MatchRecord, names: dict[int, str]) -> str:
    placings = match.placings
    assert placings is not None  # asked of a finished match only
    order = sorted(range(len(match.players)), key=lambda seat: placings[seat])
    places = [f"{placings[seat]}. {names.get(match.players[seat], '?')}" for seat in order]
    if record.format == "elimination":
        # Translators: a finished table's places, and how many of its players go on.
        return n_(
            "{places} ({count} through)",
            "{places} ({count} through)",
            match.advance,
            places=", ".join(places),
        )
    return ", ".join(places)


def _result(record: TournamentRecord, progress: Progress) -> list[str]:
    entries = {e.member_id: e for e in progress.entries}
    lines = []
    for place, member in enumerate(final_ranking(record, progress), 1):
        entry = entries[member]
        won = n_("{count} chip", "{count} chips", entry.prize)
        prize = f" · **{won}**" if entry.prize else ""
        lines.append(f"{place}. {entry.name}{prize}")
    return lines


def footer(record: TournamentRecord) -> str:
    if record.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        return _(
            "Draw seed {seed} · its SHA-256 {commitment}",
            seed=record.seed,
            commitment=record.commitment,
        )
    return _("Draw commitment (SHA-256 of the seed): {commitment}", commitment=record.commitment)


def _fit(lines: Sequence[str], separator: str = "\n", limit: int = FIELD_LIMIT) -> str:
    """The lines joined, cut to `limit` characters with a note of how many were left out."""
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        if used + len(line) + len(separator) > limit - 20:
            left = len(lines) - index
            kept.append(n_("… and {count} more", "… and {count} more", left))
            break
        kept.append(line)
        used += len(line) + len(separator)
    return separator.join(kept) or "—"
