"""What every table game's slash commands share: the cog a game's module builds with
`table_game_cog`, whose `/<game> new` takes the game's own options as slash options (bounds,
choices and descriptions from its options model), and `/<game> rules`."""

from __future__ import annotations

import inspect
import typing
from typing import Any

import discord
from babel.numbers import format_percent
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from bot.discord.controls import check_can_post_here
from bot.discord.game_ui import said_rules
from bot.discord.internals import as_cog_method
from bot.discord.port import TableHost, host
from bot.discord.replies import send_answer
from bot.engine import GameSpec
from bot.errors import UserError
from bot.games.expert import own_expert, shapes_worlds
from bot.i18n import N_, _, catalog, n_
from bot.limits import AI_DELAY, BUY_IN, TURN_SECONDS, Bounds
from bot.store.ratings import PLAYED_FOR_WEIGHT, rated_scope

EMBED_DESCRIPTION = 4096  # Discord's most characters in an embed's description
DEFAULT_AI_DELAY = 2  # seconds: an AI seems to think, and players can follow its moves
DEFAULT_BUY_IN = 100  # chips; a game whose hand can cost more asks for more (table_game_cog)


async def open_table_command(
    interaction: discord.Interaction,
    game: GameSpec,
    options: BaseModel,
    buy_in: int,
    turn_seconds: int | None,
    ai_delay: int = 2,
) -> None:
    """`/<game> new`: open a lobby in this channel with the caller seated."""
    bot, user = host(interaction), interaction.user
    check_can_post_here(interaction)
    # Checked again here: a modified client can send any value past Discord's own checks.
    chips = game.chips_for(options)
    buy_in = BUY_IN.check(buy_in) if chips else 0
    least = game.least_buy_in(options) if chips and game.least_buy_in else 0
    if buy_in < least:
        raise UserError(
            n_(
                "With these options a {game} player needs at least {count} chip: "
                "raise the buy-in to {count} or more.",
                "With these options a {game} player needs at least {count} chips: "
                "raise the buy-in to {count} or more.",
                least,
                game=_(game.name),
            )
        )
    default = game.turn_seconds or bot.settings.turn_timeout_seconds
    turn_seconds = TURN_SECONDS.check(turn_seconds or default)
    await bot.runtime.open(
        game,
        options,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        creator_id=user.id,
        creator_name=user.display_name,
        buy_in=buy_in,
        turn_seconds=turn_seconds,
        key=f"open:{interaction.id}",
        ai_delay=AI_DELAY.check(ai_delay),
    )
    if chips:
        opened = n_(
            "Your {game} table is open: you are seated with a buy-in of {count} chip. "
            "Others join with the Join button; press Start when everyone is in.",
            "Your {game} table is open: you are seated with a buy-in of {count} chips. "
            "Others join with the Join button; press Start when everyone is in.",
            buy_in,
            game=_(game.name),
        )
    else:
        opened = _(
            "Your {game} table is open: you are seated. "
            "Others join with the Join button; press Start when everyone is in.",
            game=_(game.name),
        )
    await send_answer(interaction, opened, ephemeral=True)


# Every game's deals (README, "Verifiable deals"): what the table message's commitment means.
FAIR_DEALS = N_(
    "Fair deals: every shuffle comes from a secret table seed and the id of the click that "
    "pressed Start. The lobby shows the seed's SHA-256 before Start; the seed is shown when the "
    "table closes, and /table verify re-deals the match from it. Later hands come from the same "
    "seed and click, each shuffle by its own number, so neither the bot nor a player can steer "
    "them."
)


# Add AI's levels (README, AI players), for a game with AI players.
AI_LEVELS = N_(
    "AI players: Beginner often plays a random plausible move (never an absurd one); Standard "
    "plays by the game's rules of thumb; Expert plays each move it weighs out in many deals of "
    "the cards hidden from it, within a fifth of a second, and picks what does best."
)
AI_LEVELS_SHAPED = N_(
    "AI players: Beginner often plays a random plausible move (never an absurd one); Standard "
    "plays by the game's rules of thumb; Expert plays each move it weighs out in many deals of "
    "the cards hidden from it, dealt as the play so far suggests, within a fifth of a second, and "
    "picks what does best."
)
AI_LEVELS_BETS = N_(
    "AI players: Beginner often plays a random plausible move (never an absurd one); Standard "
    "plays by the game's rules of thumb; Expert weighs each bet by its share of the pot in many "
    "deals of the cards hidden from it, dealt as the draws and bets so far suggest, and bets, "
    "calls or folds by what that share is worth in chips."
)
AI_LEVELS_REWEIGHED = N_(
    "AI players: Beginner often plays a random plausible move (never an absurd one); Standard "
    "plays by the game's rules of thumb; in this game Expert plays by the same rules weighed its "
    "own way, which wins more matches: it keeps its wild cards longer, and plays as if a player "
    "were about to go out only at their last card."
)
AI_LEVELS_UNSEARCHED = N_(
    "AI players: Beginner often plays a random plausible move (never an absurd one); Standard "
    "plays by the game's rules of thumb; in this game Expert plays as Standard does."
)


def ai_note(game: GameSpec) -> str:
    if game.ai is None:
        return ""
    if not (game.searches or own_expert(game)):
        return "\n\n" + _(AI_LEVELS_UNSEARCHED)
    if game.ai.expert_weighs_bets:
        return "\n\n" + _(AI_LEVELS_BETS)
    if game.ai.expert_reweighs:
        return "\n\n" + _(AI_LEVELS_REWEIGHED)
    dealt_as_play_shows = shapes_worlds(game) and game.ai.deals_as_play_shows
    return "\n\n" + _(AI_LEVELS_SHAPED if dealt_as_play_shows else AI_LEVELS)


async def rules_command(interaction: discord.Interaction, game: GameSpec, rules: str) -> None:
    """`/<game> rules`: the rules as played here, and this channel's table options."""
    bot = host(interaction)
    first, *more = pages(said_rules(rules), EMBED_DESCRIPTION)
    embed = discord.Embed(title=_("{game}: rules", game=_(game.name)), description=first)
    table = bot.runtime.in_channel(interaction.channel_id) if interaction.channel_id else None
    if table is not None and table.game.id == game.id:
        record = table.record
        parts = [
            _("buy-in {chips}", chips=record.buy_in) if game.chips_for(table.options) else "",
            _("turn time {seconds} s", seconds=record.turn_seconds),
            bot.presenter.games[game.id].options_text(table.options),
        ]
        embed.add_field(name=_("This table"), value=" · ".join(part for part in parts if part))
    # The longest rules leave no room below them: the notes every game shares go underneath.
    embed.set_footer(text=f"{rating_note(game)}\n\n{_(FAIR_DEALS)}{ai_note(game)}")
    await send_answer(interaction, embed=embed, ephemeral=True)
    for page in more:  # a language longer than English may need more than one embed
        await interaction.followup.send(embed=discord.Embed(description=page), ephemeral=True)


def pages(text: str, size: int) -> list[str]:
    """`text` cut between lines into pages of at most `size` characters (a line longer than
    a page is cut too)."""
    found = [""]
    for line in text.split("\n"):
        while len(line) > size:
            found += [line[:size], ""]
            line = line[size:]
        joined = f"{found[-1]}\n{line}" if found[-1] else line
        if len(joined) <= size:
            found[-1] = joined
        else:
            found.append(line)
    return [page for page in found if page]


def rating_note(game: GameSpec) -> str:
    """How the game's results rate its players (bot/store/ratings.py decides it)."""
    scope = rated_scope(game.id)
    if scope is None and game.house:
        return _(
            "Skill rating: {game} is not rated: each player plays against the house.",
            game=_(game.name),
        )
    if scope is None:
        return _("Skill rating: {game} is not rated: it is played alone.", game=_(game.name))
    if scope == "hand":
        how = _(
            "Skill rating (openskill, Plackett-Luce): each hand rates its players, "
            "winners ahead of the rest."
        )
    else:
        how = _(
            "Skill rating (openskill, Plackett-Luce): each finished match rates its players, "
            "by final place, ties shared."
        )
    sentences = [how]
    if game.sides:
        sentences.append(_("Partners are rated as one team."))
    elif game.one_against_the_others:
        sentences.append(_("The player alone is rated against the other two as a team."))
    share = format_percent(PLAYED_FOR_WEIGHT, locale=catalog().locale)
    sentences.append(
        _(
            "A player who left or was played for counts {share}; tables with AI players are "
            "not rated. /stats shows ratings; /leaderboard with view Skill ranks them.",
            share=share,
        )
    )
    return " ".join(sentences)


def table_game_cog(group: str, game: GameSpec, rules: str, *, buy_in: int = DEFAULT_BUY_IN) -> type:
    """The cog of a table game: `/<group> new`, whose options are the game's own options
    (bounds, choices and descriptions from its options model), a buy-in for chip games (by
    default `buy_in`) and a turn time; and `/<group> rules`."""

    @app_commands.guild_only()
    class TableGame(
        commands.GroupCog, name=game.name, group_name=group, group_description=f"{game.name} tables"
    ):
        def __init__(self, bot: TableHost) -> None:
            self.bot = bot

        new = new_table_command(game, buy_in)

        @app_commands.command(name="rules", description=f"How {game.name} is played here.")
        async def rules(self, interaction: discord.Interaction) -> None:
            await rules_command(interaction, game, rules)

    return TableGame


def new_table_command(game: GameSpec, buy_in: int = DEFAULT_BUY_IN) -> app_commands.Command:
    """`/<game> new` with one slash option per field of the game's options model."""

    async def new(self: commands.Cog, interaction: discord.Interaction, **values: Any) -> None:
        buy_in = values.pop("buy_in", 0)
        turn_seconds = values.pop("turn_seconds", None)
        ai_delay = values.pop("ai_delay", DEFAULT_AI_DELAY)
        try:
            options = game.options_model(**values)
        except ValidationError as invalid:
            raise UserError(options_refusal(invalid)) from None
        await open_table_command(interaction, game, options, buy_in, turn_seconds, ai_delay)

    parameters, described = new_table_options(game, buy_in)
    as_cog_method(new, parameters, cog="TableGame")
    app_commands.describe(**described)(new)
    return app_commands.command(
        name="new", description=f"Open a {game.name} table in this channel."
    )(new)


def new_table_options(
    game: GameSpec, buy_in: int
) -> tuple[list[inspect.Parameter], dict[str, str]]:
    """The parameters of `/<game> new` (after self and the interaction), and their
    descriptions: the buy-in of a chip game, the game's options, the turn time, the AI's."""
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [
        inspect.Parameter("self", keyword),
        inspect.Parameter("interaction", keyword, annotation=discord.Interaction),
    ]
    described: dict[str, str] = {}
    if game.uses_chips:  # in some mode at least
        parameters.append(
            inspect.Parameter("buy_in", keyword, annotation=bounded(BUY_IN), default=buy_in)
        )
        described["buy_in"] = f"Chips each player brings to the table (default {buy_in:,})"
    for name, field in game.options_model.model_fields.items():
        annotation = slash_type(name, field)
        parameters.append(
            inspect.Parameter(name, keyword, annotation=annotation, default=field.default)
        )
        described[name] = described_option(name, field)
    turn = bounded(TURN_SECONDS) | None
    parameters.append(inspect.Parameter("turn_seconds", keyword, annotation=turn, default=None))
    parameters.append(
        inspect.Parameter(
            "ai_delay", keyword, annotation=bounded(AI_DELAY), default=DEFAULT_AI_DELAY
        )
    )
    described["ai_delay"] = (
        f"Seconds an AI player waits before it acts (default {DEFAULT_AI_DELAY})"
    )
    described["turn_seconds"] = (
        f"Time for each decision (default {game.turn_seconds} s)"
        if game.turn_seconds
        else "Time for each decision (default from the bot's settings)"
    )
    return parameters, described


def options_refusal(invalid: ValidationError) -> str:
    """The options model's own sentence for options that don't go together (min > max)."""
    reasons = [error["msg"].removeprefix("Value error, ") for error in invalid.errors()]
    return " ".join(reasons)


def described_option(name: str, field: FieldInfo) -> str:
    """The option's description with its default, which a slash command doesn't show."""
    default = field.default
    shown = ("yes" if default else "no") if isinstance(default, bool) else default
    about = field.description or name.replace("_", " ").capitalize()
    return f"{about} (default {shown})"[:100]


def bounded(bounds: Bounds) -> Any:
    """A slash option bounded like `bounds` (Discord's client enforces it, the bot again)."""
    return app_commands.Range[int, bounds.low, bounds.high]


def slash_type(name: str, field: FieldInfo) -> Any:
    """The slash option type for an options-model field: bounded ints, bools, choices."""
    if field.annotation is bool or typing.get_origin(field.annotation) is typing.Literal:
        return field.annotation
    if field.annotation is int:
        low = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
        high = next((m.le for m in field.metadata if hasattr(m, "le")), None)
        if low is not None and high is not None:
            return app_commands.Range[int, low, high]
    raise TypeError(f"option {name!r} needs bounds (ge, le) or choices to be a slash option")
