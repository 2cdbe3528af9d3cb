"""Chips: /balance, /daily, /give, /leaderboard (chips, a game's results or its skill
ratings), /stats, /chips grant, bankroll and house."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

import discord
from discord import app_commands
from discord.ext import commands

import bot.games  # noqa: F401  (the game choices below come from the registry)
from bot.discord.errors import BaseView, handle_error
from bot.discord.format import chips, next_utc_midnight, plural, relative_time, signed_chips
from bot.discord.house import send_house_report
from bot.discord.replies import acknowledge_if_late, redraw_clicked, send_answer
from bot.engine import GameSpec, registry
from bot.errors import UserError
from bot.store.leaderboards import AnyStanding, GameStanding, MatchStanding, Ranking, ScoreStanding
from bot.store.ratings import RatedResult, Rating, rated_scope

if TYPE_CHECKING:
    from bot.app import CardTableBot

MAX_AMOUNT = 1_000_000_000
PAGE_SIZE = 10
DAILY_TOP = 3  # how many of today's daily scores a solo game's board shows
RECENT_RESULTS = 5  # how many of a member's last rated results /stats shows per game
Amount = app_commands.Range[int, 1, MAX_AMOUNT]
GAME_CHOICES = [app_commands.Choice(name=spec.name, value=spec.id) for spec in registry.games()]
SKILL = "skill"
VIEW_CHOICES = [
    app_commands.Choice(name="Results", value="results"),
    app_commands.Choice(name="Skill rating", value=SKILL),
]

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


def guild_of(interaction: discord.Interaction) -> int:
    """The server a command runs in: every command here is guild-only, and the command tree
    refuses one sent from anywhere else."""
    assert interaction.guild_id is not None
    return interaction.guild_id


def refuse_bots(member: discord.abc.User, why: str = "Bots don't hold chips.") -> None:
    if member.bot:
        raise UserError(why)


class Economy(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    async def _open_account(self, interaction: discord.Interaction) -> None:
        """Every economy command opens the caller's account (with the starting chips), so
        whoever uses one shows on /leaderboard."""
        await self.bot.ledger.balance(guild_of(interaction), interaction.user.id)

    @app_commands.command(description="Show your chips, or another member's.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose chips to show (you, if left out)")
    async def balance(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        whom = member or interaction.user
        refuse_bots(whom)
        await self._open_account(interaction)
        amount = await self.bot.ledger.balance(guild_of(interaction), whom.id)
        whose = "You have" if whom.id == interaction.user.id else f"{whom.mention} has"
        await send_answer(
            interaction,
            f"{whose} {chips(amount)}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(description="Collect your free chips for today (once per UTC day).")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction) -> None:
        now, guild = self.bot.clock(), guild_of(interaction)
        amount = self.bot.settings.daily_chips
        key = f"daily:{guild}:{interaction.user.id}:{now.date().isoformat()}"
        granted = await self.bot.ledger.grant(
            guild, interaction.user.id, amount, reason="daily", key=key
        )
        next_time = relative_time(next_utc_midnight(now))
        if not granted:
            raise UserError(
                f"You already collected today's chips. The next ones are ready {next_time}."
            )
        total = await self.bot.ledger.balance(guild, interaction.user.id)
        await send_answer(
            interaction,
            f"You collected {chips(amount)} and now have {chips(total)}. Come back {next_time}.",
        )

    @app_commands.command(description="Give some of your chips to another member.")
    @app_commands.guild_only()
    @app_commands.describe(member="Who receives the chips", amount="How many chips to give")
    async def give(
        self, interaction: discord.Interaction, member: discord.Member, amount: Amount
    ) -> None:
        if member.id == interaction.user.id:
            raise UserError("You can't give chips to yourself.")
        refuse_bots(member)
        await self._open_account(interaction)
        guild = guild_of(interaction)
        await self.bot.ledger.transfer(
            guild, interaction.user.id, member.id, amount, key=f"give:{interaction.id}"
        )
        left = await self.bot.ledger.balance(guild, interaction.user.id)
        await send_answer(
            interaction,
            f"{interaction.user.mention} gave {chips(amount)} to {member.mention}. "
            f"You have {chips(left)} left.",
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )

    @app_commands.command(description="The top chip holders, or the best players of one game.")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Show the best players of this game instead",
        view="With a game: its results (the default), or its players' skill ratings",
    )
    @app_commands.choices(game=GAME_CHOICES, view=VIEW_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        view: app_commands.Choice[str] | None = None,
    ) -> None:
        skill = view is not None and view.value == SKILL
        game_id = game.value if game else ""
        board = board_of(guild_of(interaction), interaction.user.id, game_id, skill)
        await self._open_account(interaction)
        embed, page_buttons = await board.page(self.bot, 0)
        await send_answer(interaction, embed=embed, view=page_buttons)

    @app_commands.command(description="A member's skill ratings, matches and recent results.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose ratings to show (you, if left out)")
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        whom = member or interaction.user
        refuse_bots(whom, "Bots aren't rated.")
        embed = await stats_embed(self.bot, guild_of(interaction), whom, interaction.user.id)
        await send_answer(interaction, embed=embed, allowed_mentions=discord.AllowedMentions.none())

    chips_group = app_commands.Group(
        name="chips",
        description="Chip administration.",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @chips_group.command(
        name="grant", description="Create chips for a member (Manage Server only)."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(member="Who receives the chips", amount="How many chips to create")
    async def grant(
        self, interaction: discord.Interaction, member: discord.Member, amount: Amount
    ) -> None:
        refuse_bots(member)
        await self._open_account(interaction)
        guild = guild_of(interaction)
        await self.bot.ledger.grant(
            guild,
            member.id,
            amount,
            reason=f"admin grant by {interaction.user.id}",
            key=f"grant:{interaction.id}",
        )
        total = await self.bot.ledger.balance(guild, member.id)
        await send_answer(
            interaction,
            f"Granted {chips(amount)} to {member.mention}, who now has {chips(total)}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @chips_group.command(
        name="bankroll", description="Create chips for the house that banks house games."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(amount="How many chips to create for the house")
    async def bankroll(self, interaction: discord.Interaction, amount: Amount) -> None:
        guild = guild_of(interaction)
        await self.bot.ledger.fund_house(
            guild,
            amount,
            reason=f"house bankroll by {interaction.user.id}",
            key=f"bankroll:{interaction.id}",
        )
        total = await self.bot.ledger.house_balance(guild)
        await send_answer(
            interaction, f"Added {chips(amount)} to the house, which now has {chips(total)}."
        )

    @chips_group.command(
        name="house", description="The house's balance, and what it won or paid per day and game."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def house(self, interaction: discord.Interaction) -> None:
        await send_house_report(interaction)


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
            won = f"{plural(wins, 'win')} in {plural(hands, 'hand')}"
            # A game with a mode for wins only (Backhand): players who won or lost no chips
            # are ranked by their wins, so their line shows wins alone.
            if net == 0 and game.uses_chips is not True:
                return won
            return f"{signed_chips(net)} · {won}"
        case MatchStanding(matches=matches, wins=wins, average_place=average):
            played = plural(matches, "match", "matches")
            return f"{plural(wins, 'win')} in {played} · average place {average:.1f}"
        case ScoreStanding(games=games, best=best):
            return f"best {best:,} in {plural(games, 'game')}"
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

    async def page(self, bot: CardTableBot, page: int) -> tuple[discord.Embed, discord.ui.View]:
        pages = max(1, math.ceil(await self._count(bot) / PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        lines = await self._lines(bot, page * PAGE_SIZE)
        embed = discord.Embed(
            title=self._title(), description="\n".join(lines) or self._nobody(bot)
        )
        embed.add_field(name="Your place", value=await self._own(bot))
        if self.ranking == "scores" and not self.skill:
            await self._add_daily_best(bot, embed)
        embed.set_footer(text=f"Page {page + 1} of {pages}{self._footnote(bot)}")
        view = BaseView(timeout=None)
        view.add_item(self._button(max(page - 1, 0), "Previous", page == 0))
        view.add_item(self._button(page + 1, "Next", page >= pages - 1))
        return embed, view

    def _button(self, page: int, label: str, disabled: bool) -> LeaderboardPage:
        return LeaderboardPage(self.game_id, page, label, disabled, skill=self.skill)

    def _title(self) -> str:
        return f"{self.game.name} leaderboard" if self.game else "Chip leaderboard"

    def _nobody(self, bot: CardTableBot) -> str:
        return "Nobody is ranked here yet."

    def _footnote(self, bot: CardTableBot) -> str:
        return ""

    async def _count(self, bot: CardTableBot) -> int:
        if self.ranking is None:
            return await bot.leaderboards.member_count(self.guild_id)
        return await bot.leaderboards.game_player_count(self.guild_id, self.game_id, self.ranking)

    async def _lines(self, bot: CardTableBot, offset: int) -> list[str]:
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

    async def _own(self, bot: CardTableBot) -> str:
        """Where the viewer stands, named (the board is public, the place is theirs)."""
        viewer, game = f"<@{self.viewer_id}>", self.game
        if game is None:
            held = await bot.leaderboards.standing(self.guild_id, self.viewer_id)
            if held:
                return f"{viewer} is #{held.rank} with {chips(held.chips)}."
            return f"{viewer} has no chips here yet: /balance opens an account."
        ranking = ranking_of(game)
        played = await bot.leaderboards.game_standing(
            self.guild_id, self.game_id, self.viewer_id, ranking
        )
        if played:
            return f"{viewer} is #{played.rank} · {record(played, game)}."
        unit = {"chips": "hand", "matches": "match", "scores": "game"}[ranking]
        return f"{viewer} has no {game.name} results yet: finish a {unit} to join the board."

    async def _add_daily_best(self, bot: CardTableBot, embed: discord.Embed) -> None:
        """A solo game's daily challenge ("daily:<UTC date>" results) has its own field."""
        today = bot.clock().date().isoformat()
        best = await bot.leaderboards.best_scores(
            self.guild_id, self.game_id, f"daily:{today}", limit=DAILY_TOP
        )
        lines = [f"**{i}.** <@{member}> · {score:,}" for i, (member, score) in enumerate(best, 1)]
        embed.add_field(
            name=f"Today's daily ({today})",
            value="\n".join(lines) or "Nobody has finished today's daily yet.",
            inline=False,
        )


@dataclass(frozen=True)
class SkillBoard(Board):
    """A game's skill board: members with enough rated matches (RATING_MIN_MATCHES), ranked
    by the conservative rating mu - 3 sigma, so that a few lucky results can't top it."""

    skill: ClassVar[bool] = True

    @property
    def unit(self) -> tuple[str, str]:
        return rated_unit(self.game_id)

    def _title(self) -> str:
        return f"{registry.get(self.game_id).name} skill ratings"

    def _nobody(self, bot: CardTableBot) -> str:
        least = bot.settings.rating_min_matches
        return f"Nobody has {plural(least, 'rated ' + self.unit[0], 'rated ' + self.unit[1])} yet."

    def _footnote(self, bot: CardTableBot) -> str:
        least = plural(bot.settings.rating_min_matches, *self.unit)
        return f" · skill: a cautious estimate (mean - 3 deviations); listed from {least}"

    async def _count(self, bot: CardTableBot) -> int:
        least = bot.settings.rating_min_matches
        return await bot.ledger.ratings.board_size(self.guild_id, self.game_id, least)

    async def _lines(self, bot: CardTableBot, offset: int) -> list[str]:
        least = bot.settings.rating_min_matches
        board = await bot.ledger.ratings.board(
            self.guild_id, self.game_id, least, offset, PAGE_SIZE
        )
        return [f"**{r.rank}.** <@{r.member_id}> · {skill_record(r, self.unit)}" for r in board]

    async def _own(self, bot: CardTableBot) -> str:
        viewer, least = f"<@{self.viewer_id}>", bot.settings.rating_min_matches
        rated = await bot.ledger.ratings.place(self.guild_id, self.game_id, self.viewer_id, least)
        if rated is None:
            return f"{viewer} has no rated {self.unit[1]} here yet."
        if rated.rank:
            return f"{viewer} is #{rated.rank} · {skill_record(rated, self.unit)}."
        return (
            f"{viewer} has {skill_record(rated, self.unit)}: the board lists players from "
            f"{plural(least, *self.unit)}."
        )


def board_of(guild_id: int, viewer_id: int, game_id: str, skill: bool) -> Board:
    """The board asked for; a skill board is one game's, and only a rated game has one."""
    if not skill:
        return Board(guild_id, viewer_id, game_id)
    if not game_id:
        raise UserError("Skill ratings are per game: pick a game to see its skill board.")
    if rated_scope(game_id) is None:
        game = registry.get(game_id)
        raise UserError(f"{game.name} isn't rated: /{game_id} rules says why.")
    return SkillBoard(guild_id, viewer_id, game_id)


def rated_unit(game_id: str) -> tuple[str, str]:
    """What one rated result is at the game (bot/store/ratings.py): a hand or a match."""
    return ("hand", "hands") if rated_scope(game_id) == "hand" else ("match", "matches")


def skill_record(rating: Rating, unit: tuple[str, str]) -> str:
    """A rated player's line: skill (mu - 3 sigma, one decimal), wins and rated results."""
    played = plural(rating.matches, *unit)
    return f"skill {rating.skill:.1f} · {plural(rating.wins, 'win')} in {played}"


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def recent_line(results: list[RatedResult]) -> str:
    """The last rated results, latest first: place and the skill it gained or lost."""
    return " · ".join(f"{ordinal(r.placing)} ({r.change:+.1f})" for r in results)


async def stats_embed(
    bot: CardTableBot, guild_id: int, whom: discord.abc.User, viewer_id: int
) -> discord.Embed:
    """Per rated game: skill, place on its board, wins, rated results and the last few."""
    whose = "You have" if whom.id == viewer_id else f"{whom.mention} has"
    ratings = await bot.ledger.ratings.member(guild_id, whom.id)
    embed = discord.Embed(title=f"Skill ratings of {whom.display_name}")
    if not ratings:
        embed.description = (
            f"{whose} no rated results yet: every finished hand or match against other members "
            "rates its players (house games, Soliterrapin and tables with AI players aren't)."
        )
    for rating in ratings[:24]:  # an embed holds 25 fields: one is the tournaments'
        embed.add_field(
            name=registry.get(rating.game_id).name,
            value=await _game_stats(bot, guild_id, rating),
            inline=False,
        )
    if placings := await bot.tournament_store.placings_of(guild_id, whom.id):
        embed.add_field(name="Tournaments", value=tournament_line(placings), inline=False)
    return embed


def tournament_line(placings: list[tuple[str, int, int]]) -> str:
    """The last tournaments' places: "1st of 8 at Big Two · …"."""
    return " · ".join(
        f"{ordinal(place)} of {field} at {registry.get(game).name}"
        for game, place, field in placings[:RECENT_RESULTS]
    )


async def _game_stats(bot: CardTableBot, guild_id: int, rating: Rating) -> str:
    least = bot.settings.rating_min_matches
    placed = await bot.ledger.ratings.place(guild_id, rating.game_id, rating.member_id, least)
    rank = f"#{placed.rank} on the board" if placed and placed.rank else "not on the board yet"
    recent = await bot.ledger.ratings.recent(
        guild_id, rating.member_id, rating.game_id, RECENT_RESULTS
    )
    played = skill_record(rating, rated_unit(rating.game_id))
    return f"{played} · {rank}\nLast: {recent_line(recent)}"


class LeaderboardPage(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_BUTTON):
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
        bot = cast("CardTableBot", interaction.client)  # the bot that registered this item
        try:
            board = board_of(guild_of(interaction), interaction.user.id, self.game_id, self.skill)
            await acknowledge_if_late(interaction, privately=False)
            embed, view = await board.page(bot, self.page)
            await redraw_clicked(interaction, embed=embed, view=view)
        except Exception as error:  # dynamic items have no view to report through
            await handle_error(interaction, error, "leaderboard page")


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(LeaderboardPage)
    await bot.add_cog(Economy(bot))
