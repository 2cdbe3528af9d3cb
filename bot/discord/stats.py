"""/stats: a member's skill ratings per game, their place on each board, their last rated
results and tournament places; and the words the leaderboards share with it."""

from __future__ import annotations

from typing import Protocol

import discord

from bot.engine import registry
from bot.i18n import N_, _, decimal, n_
from bot.settings import Settings
from bot.store import Ledger
from bot.store.ratings import RatedResult, Rating, rated_scope
from bot.store.tournaments import TournamentStore

RECENT_RESULTS = 5  # how many of a member's last rated results /stats shows per game


class StatsHost(Protocol):
    """What /stats reads: the ratings (through the ledger), the tournaments, the settings."""

    @property
    def ledger(self) -> Ledger: ...
    @property
    def tournament_store(self) -> TournamentStore: ...
    @property
    def settings(self) -> Settings: ...


def rated_unit(game_id: str) -> str:
    """What one rated result is at the game (bot/store/ratings.py): "hand" or "match"."""
    return "hand" if rated_scope(game_id) == "hand" else "match"


def played_of(unit: str, count: int) -> str:
    """ "3 hands", "1 match", "2 games": so many of `unit`, one of hand, match or game."""
    if unit == "hand":
        return n_("{count} hand", "{count} hands", count)
    if unit == "match":
        return n_("{count} match", "{count} matches", count)
    return n_("{count} game", "{count} games", count)


def wins_of(count: int) -> str:
    return n_("{count} win", "{count} wins", count)


def skill_record(rating: Rating, unit: str) -> str:
    """A rated player's line: skill (mu - 3 sigma, one decimal), wins and rated results."""
    skill = decimal(rating.skill)
    return _(
        "skill {skill} · {wins} in {played}",
        skill=skill,
        wins=wins_of(rating.wins),
        played=played_of(unit, rating.matches),
    )


# An ordinal's English suffix says which of these its language writes it with.
ORDINALS = {
    # Translators: a place as an ordinal (1st, 22nd, 13th): the four are 1st, 2nd, 3rd and
    # the rest's English endings; give each your language's way of writing a place.
    "st": N_("{place}st"),
    "nd": N_("{place}nd"),
    "rd": N_("{place}rd"),
    "th": N_("{place}th"),
}


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return _(ORDINALS[suffix], place=place)


def recent_line(results: list[RatedResult]) -> str:
    """The last rated results, latest first: place and the skill it gained or lost."""
    return " · ".join(f"{ordinal(r.placing)} ({decimal(r.change, signed=True)})" for r in results)


async def stats_embed(
    bot: StatsHost, guild_id: int, whom: discord.abc.User, viewer_id: int
) -> discord.Embed:
    """Per rated game: skill, place on its board, wins, rated results and the last few."""
    ratings = await bot.ledger.ratings.member(guild_id, whom.id)
    embed = discord.Embed(title=_("Skill ratings of {name}", name=whom.display_name))
    if not ratings and whom.id == viewer_id:
        embed.description = _(
            "You have no rated results yet: every finished hand or match against other members "
            "rates its players (house games, Soliterrapin and tables with AI players aren't)."
        )
    elif not ratings:
        embed.description = _(
            "{member} has no rated results yet: every finished hand or match against other "
            "members rates its players (house games, Soliterrapin and tables with AI players "
            "aren't).",
            member=whom.mention,
        )
    for rating in ratings[:24]:  # an embed holds 25 fields: one is the tournaments'
        embed.add_field(
            name=_(registry.get(rating.game_id).name),
            value=await _game_stats(bot, guild_id, rating),
            inline=False,
        )
    if placings := await bot.tournament_store.placings_of(guild_id, whom.id):
        embed.add_field(name=_("Tournaments"), value=tournament_line(placings), inline=False)
    return embed


def tournament_line(placings: list[tuple[str, int, int]]) -> str:
    """The last tournaments' places: "1st of 8 at Big Two · …"."""
    return " · ".join(
        _(
            "{place} of {field} at {game}",
            place=ordinal(place),
            field=field,
            game=_(registry.get(game).name),
        )
        for game, place, field in placings[:RECENT_RESULTS]
    )


async def _game_stats(bot: StatsHost, guild_id: int, rating: Rating) -> str:
    least = bot.settings.rating_min_matches
    placed = await bot.ledger.ratings.place(guild_id, rating.game_id, rating.member_id, least)
    if placed and placed.rank:
        rank = _("#{rank} on the board", rank=str(placed.rank))
    else:
        rank = _("not on the board yet")
    recent = await bot.ledger.ratings.recent(
        guild_id, rating.member_id, rating.game_id, RECENT_RESULTS
    )
    played = skill_record(rating, rated_unit(rating.game_id))
    return f"{played} · {rank}\n" + _("Last: {results}", results=recent_line(recent))
