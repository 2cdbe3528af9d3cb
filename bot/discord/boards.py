"""The leaderboards /leaderboard shows: the server's chips, a game's results ranked the way
the game is won, or its skill ratings; a page at a time, with the viewer's own rank."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Protocol, cast

import discord

from bot.discord.errors import BaseView, handle_error
from bot.discord.languages import SpeaksToClicker
from bot.discord.replies import acknowledge_if_late, redraw_clicked
from bot.discord.stats import played_of, rated_unit, skill_record, wins_of
from bot.discord.web_links import OPEN_ON_THE_WEB, WebLinkHost, web_link
from bot.engine import GameSpec, registry
from bot.errors import UserError
from bot.i18n import N_, _, decimal, n_, number
from bot.settings import Settings
from bot.store import Leaderboards, Ledger
from bot.store.leaderboards import AnyStanding, GameStanding, MatchStanding, Ranking, ScoreStanding
from bot.store.ratings import rated_scope
from bot.text import chips

SKILL = "skill"
# A page button's custom_id is "lb:<page>:<game id, or nothing for chips>", with ":skill" after
# a game for its skill board. Buttons made while
# the board still showed its opener's rank carry that member's id first, and still work. The
# template fits nothing else (no game outside the registry, no page the bot doesn't write):
# the bot answers any click that fits no template with "This button is no longer valid."
PAGE_BUTTON_PREFIX = "lb:"
_GAME_IDS = "|".join(re.escape(spec.id) for spec in registry.games())
PAGE_BUTTON = (
    rf"{PAGE_BUTTON_PREFIX}(?:[0-9]{{1,20}}:)?(?P<page>0|[1-9][0-9]{{0,8}}):"
    rf"(?:(?P<game>{_GAME_IDS})(?P<skill>:{SKILL})?)?"
)
PAGE_SIZE = 10
DAILY_TOP = 3  # how many of today's daily scores a solo game's board shows
# A member with no results at a game yet, by how its board ranks (ranking_of).
NO_RESULTS = {
    "chips": N_("{member} has no {game} results yet: finish a hand to join the board."),
    "matches": N_("{member} has no {game} results yet: finish a match to join the board."),
    "scores": N_("{member} has no {game} results yet: finish a game to join the board."),
}


class BoardHost(WebLinkHost, Protocol):
    """What a board reads: the chips, the results and ratings, the settings, the clock, and
    what signs its web page's link."""

    @property
    def ledger(self) -> Ledger: ...
    @property
    def leaderboards(self) -> Leaderboards: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def clock(self) -> Callable[[], datetime]: ...


def ranking_of(game: GameSpec) -> Ranking:
    """How a game's board ranks: best score for a solo game, matches won for a points game,
    chips won for a chip game."""
    if game.solo:
        return "scores"
    return "chips" if game.uses_chips else "matches"  # a chip game in some mode at least


def record(standing: AnyStanding, game: GameSpec) -> str:
    """A player's results at a game, in that game's own terms (no chips where it has none)."""
    match standing:
        case GameStanding(hands=hands, wins=wins, net=net):
            won = _("{wins} in {played}", wins=wins_of(wins), played=played_of("hand", hands))
            # A game with a mode for wins only (Backhand): players who won or lost no chips
            # are ranked by their wins, so their line shows wins alone.
            if net == 0 and game.uses_chips is not True:
                return won
            sign = "±" if net == 0 else "+" if net > 0 else "-"
            # Translators: chips won or lost in all; {sign} is +, - or ±.
            signed = n_("{sign}{count} chip", "{sign}{count} chips", abs(net), sign=sign)
            return f"{signed} · {won}"
        case MatchStanding(matches=matches, wins=wins, average_place=average):
            one_decimal = decimal(average)
            return _(
                "{wins} in {played} · average place {average}",
                wins=wins_of(wins),
                played=played_of("match", matches),
                average=one_decimal,
            )
        case ScoreStanding(games=games, best=best):
            return n_(
                "best {best} in {count} game", "best {best} in {count} games", games, best=best
            )
    raise TypeError(f"no record for {standing!r}")


@dataclass(frozen=True)
class Board:
    """A leaderboard: chips in the server, or one game's players (`game_id`) ranked the way
    the game is won; it shows `viewer_id`'s own rank."""

    guild_id: int
    viewer_id: int
    game_id: str = ""

    @property
    def game(self) -> GameSpec | None:
        return registry.get(self.game_id) if self.game_id else None

    @property
    def ranking(self) -> Ranking | None:
        """How the game's players are ranked; None for the chip leaderboard."""
        return ranking_of(self.game) if self.game else None

    skill: ClassVar[bool] = False  # the game's skill ratings (SkillBoard), not its results

    async def page(self, bot: BoardHost, page: int) -> tuple[discord.Embed, discord.ui.View]:
        pages = max(1, math.ceil(await self._count(bot) / PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        lines = await self._lines(bot, page * PAGE_SIZE)
        embed = discord.Embed(
            title=self._title(), description="\n".join(lines) or self._nobody(bot)
        )
        embed.add_field(name=_("Your place"), value=await self._own(bot))
        if self.ranking == "scores" and not self.skill:
            await self._add_daily_best(bot, embed)
        footer = _("Page {page} of {pages}", page=page + 1, pages=pages)
        embed.set_footer(text=footer + self._footnote(bot))
        view = BaseView(timeout=None)
        view.add_item(self._button(max(page - 1, 0), _("Previous"), page == 0))
        view.add_item(self._button(page + 1, _("Next"), page >= pages - 1))
        web_page = f"/board/{self.game_id}" if self.game_id else "/board/chips"
        if url := await web_link(bot, self.guild_id, web_page):
            view.add_item(discord.ui.Button(label=_(OPEN_ON_THE_WEB), url=url))
        return embed, view

    def _button(self, page: int, label: str, disabled: bool) -> LeaderboardPage:
        return LeaderboardPage(self.game_id, page, label, disabled, skill=self.skill)

    def _title(self) -> str:
        if self.game:
            return _("{game} leaderboard", game=_(self.game.name))
        return _("Chip leaderboard")

    def _nobody(self, bot: BoardHost) -> str:
        return _("Nobody is ranked here yet.")

    def _footnote(self, bot: BoardHost) -> str:
        return ""

    async def _count(self, bot: BoardHost) -> int:
        if self.ranking is None:
            return await bot.leaderboards.member_count(self.guild_id)
        return await bot.leaderboards.game_player_count(self.guild_id, self.game_id, self.ranking)

    async def _lines(self, bot: BoardHost, offset: int) -> list[str]:
        game = self.game
        if game is None:
            standings = await bot.leaderboards.leaderboard(
                self.guild_id, offset=offset, limit=PAGE_SIZE
            )
            return [f"**{s.rank}.** <@{s.member_id}> · {chips(s.chips)}" for s in standings]
        results = await bot.leaderboards.game_standings(
            self.guild_id, self.game_id, offset, PAGE_SIZE, ranking_of(game)
        )
        return [f"**{s.rank}.** <@{s.member_id}> · {record(s, game)}" for s in results]

    async def _own(self, bot: BoardHost) -> str:
        """Where the viewer stands, named (the board is public, the place is theirs)."""
        viewer, game = f"<@{self.viewer_id}>", self.game
        if game is None:
            held = await bot.leaderboards.standing(self.guild_id, self.viewer_id)
            if held:
                return n_(
                    "{member} is #{rank} with {count} chip.",
                    "{member} is #{rank} with {count} chips.",
                    held.chips,
                    member=viewer,
                    rank=str(held.rank),
                )
            return _("{member} has no chips here yet: /balance opens an account.", member=viewer)
        ranking = ranking_of(game)
        played = await bot.leaderboards.game_standing(
            self.guild_id, self.game_id, self.viewer_id, ranking
        )
        if played:
            return _(
                "{member} is #{rank} · {record}.",
                member=viewer,
                rank=str(played.rank),
                record=record(played, game),
            )
        return _(NO_RESULTS[ranking], member=viewer, game=_(game.name))

    async def _add_daily_best(self, bot: BoardHost, embed: discord.Embed) -> None:
        """A solo game's daily challenge ("daily:<UTC date>" results) has its own field."""
        today = bot.clock().date().isoformat()
        best = await bot.leaderboards.best_scores(
            self.guild_id, self.game_id, f"daily:{today}", limit=DAILY_TOP
        )
        lines = [
            f"**{i}.** <@{member}> · {number(score)}" for i, (member, score) in enumerate(best, 1)
        ]
        embed.add_field(
            name=_("Today's daily ({date})", date=today),
            value="\n".join(lines) or _("Nobody has finished today's daily yet."),
            inline=False,
        )


@dataclass(frozen=True)
class SkillBoard(Board):
    """A game's skill board: members with enough rated matches (RATING_MIN_MATCHES), ranked
    by the conservative rating mu - 3 sigma, so that a few lucky results can't top it."""

    skill: ClassVar[bool] = True

    @property
    def unit(self) -> str:
        return rated_unit(self.game_id)

    def _title(self) -> str:
        return _("{game} skill ratings", game=_(registry.get(self.game_id).name))

    def _nobody(self, bot: BoardHost) -> str:
        least = bot.settings.rating_min_matches
        if self.unit == "hand":
            return n_(
                "Nobody has {count} rated hand yet.", "Nobody has {count} rated hands yet.", least
            )
        return n_(
            "Nobody has {count} rated match yet.", "Nobody has {count} rated matches yet.", least
        )

    def _footnote(self, bot: BoardHost) -> str:
        least = played_of(self.unit, bot.settings.rating_min_matches)
        return " · " + _(
            "skill: a cautious estimate (mean - 3 deviations); listed from {least}", least=least
        )

    async def _count(self, bot: BoardHost) -> int:
        least = bot.settings.rating_min_matches
        return await bot.ledger.ratings.board_size(self.guild_id, self.game_id, least)

    async def _lines(self, bot: BoardHost, offset: int) -> list[str]:
        least = bot.settings.rating_min_matches
        board = await bot.ledger.ratings.board(
            self.guild_id, self.game_id, least, offset, PAGE_SIZE
        )
        return [f"**{r.rank}.** <@{r.member_id}> · {skill_record(r, self.unit)}" for r in board]

    async def _own(self, bot: BoardHost) -> str:
        viewer, least = f"<@{self.viewer_id}>", bot.settings.rating_min_matches
        rated = await bot.ledger.ratings.place(self.guild_id, self.game_id, self.viewer_id, least)
        if rated is None:
            if self.unit == "hand":
                return _("{member} has no rated hands here yet.", member=viewer)
            return _("{member} has no rated matches here yet.", member=viewer)
        if rated.rank:
            return _(
                "{member} is #{rank} · {record}.",
                member=viewer,
                rank=str(rated.rank),
                record=skill_record(rated, self.unit),
            )
        return _(
            "{member} has {record}: the board lists players from {least}.",
            member=viewer,
            record=skill_record(rated, self.unit),
            least=played_of(self.unit, least),
        )


def board_of(guild_id: int, viewer_id: int, game_id: str, skill: bool) -> Board:
    """The board asked for; a skill board is one game's, and only a rated game has one."""
    if not skill:
        return Board(guild_id, viewer_id, game_id)
    if not game_id:
        raise UserError(_("Skill ratings are per game: pick a game to see its skill board."))
    if rated_scope(game_id) is None:
        game = registry.get(game_id)
        raise UserError(
            _("{game} isn't rated: /{command} rules says why.", game=_(game.name), command=game_id)
        )
    return SkillBoard(guild_id, viewer_id, game_id)


class LeaderboardPage(
    SpeaksToClicker, discord.ui.DynamicItem[discord.ui.Button], template=PAGE_BUTTON
):
    """A page button. The game, its view and the page live in the custom_id, so the buttons
    keep working after a restart; the rank shown is always the clicker's own."""

    def __init__(
        self, game_id: str, page: int, label: str, disabled: bool = False, *, skill: bool = False
    ) -> None:
        self.game_id, self.page, self.skill = game_id, page, skill
        custom_id = f"{PAGE_BUTTON_PREFIX}{page}:{game_id}" + (f":{SKILL}" if skill else "")
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPage:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match["game"] or "", int(match["page"]), label or "", skill=bool(match["skill"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("BoardHost", interaction.client)  # the bot that registered this item
        try:
            guild_id = interaction.guild_id
            assert guild_id is not None  # a board is only ever shown in a server
            board = board_of(guild_id, interaction.user.id, self.game_id, self.skill)
            await acknowledge_if_late(interaction, privately=False)
            embed, view = await board.page(bot, self.page)
            await redraw_clicked(interaction, embed=embed, view=view)
        except Exception as error:  # dynamic items have no view to report through
            await handle_error(interaction, error, "leaderboard page")
