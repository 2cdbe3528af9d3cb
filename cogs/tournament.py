"""/tournament: a server's card event, from sign-up to prizes (README, "Tournaments"). The
runtime is bot/tables/tournaments.py; the message, threads and scheduled event are
bot/discord/tournament.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.controls import check_can_post_here
from bot.discord.replies import acknowledge_before_long_work, send_answer
from bot.discord.threads import archived_unlocked
from bot.discord.tournament import TournamentButton
from bot.engine import registry
from bot.errors import UserError
from bot.i18n import N_, _, n_
from bot.limits import BUY_IN, TURN_SECONDS
from bot.store.tournaments import TournamentRecord, TournamentStatus
from bot.tables.tournament_draws import Settings

if TYPE_CHECKING:
    from bot.app import CardTableBot

TABLE_GAMES = [game for game in registry.games() if not (game.solo or game.house)]
DEFAULT_TABLE_CHIPS = 300  # enough for the costliest hand of every chip game, twice
FORMATS = {"elimination": N_("elimination"), "swiss": N_("swiss")}
STATUSES = {
    TournamentStatus.REGISTERING: N_("registering"),
    TournamentStatus.PLAYING: N_("playing"),
    TournamentStatus.FINISHED: N_("finished"),
    TournamentStatus.CANCELLED: N_("cancelled"),
}


def _choices(values: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=value) for name, value in values]


def _can_manage(interaction: discord.Interaction) -> bool:
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.manage_events)


@app_commands.guild_only()
class TournamentCommands(
    commands.GroupCog, group_name="tournament", group_description="A server's card tournaments"
):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="new", description="Create a tournament in this channel (Manage Server or Events)."
    )
    @app_commands.describe(
        game="The game its tables play",
        format="elimination (winners go on) or swiss (everyone plays every round)",
        buy_in="Chips each player pays into the prize pool (0: free)",
        table_size="Players at each table",
        rounds="Swiss: how many rounds",
        start="Minutes from now to start (leave out to start with the Start button)",
        max_players="The most players who can register",
        payout="How the prize pool is shared",
        hands_per_match="Chip games: a match ends after so many hands (0: played out)",
        match_minutes="A match still playing after so long ends as it stands",
        table_chips="Chip games: each seat's tournament chips",
        turn_seconds="Time per turn at its tables",
    )
    @app_commands.choices(
        game=_choices([(game.name, game.id) for game in TABLE_GAMES]),
        format=_choices([("elimination", "elimination"), ("swiss", "swiss")]),
        payout=_choices(
            [("winner takes all", "winner"), ("top 2: 65/35", "top2"), ("top 3: 50/30/20", "top3")]
        ),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        buy_in: app_commands.Range[int, 0, BUY_IN.high] = 0,
        table_size: app_commands.Range[int, 2, 12] = 2,
        rounds: app_commands.Range[int, 1, 15] = 3,
        start: app_commands.Range[int, 1, 10_080] | None = None,
        max_players: app_commands.Range[int, 2, 128] = 16,
        payout: str = "winner",
        hands_per_match: app_commands.Range[int, 0, 100] = 0,
        match_minutes: app_commands.Range[int, 5, 1_440] = 60,
        table_chips: app_commands.Range[int, BUY_IN.low, BUY_IN.high] = DEFAULT_TABLE_CHIPS,
        turn_seconds: app_commands.Range[int, TURN_SECONDS.low, TURN_SECONDS.high] | None = None,
    ) -> None:
        if not _can_manage(interaction):
            raise UserError(_("Creating a tournament needs Manage Server or Manage Events."))
        check_can_post_here(interaction)
        spec = registry.get(game)
        settings = Settings(
            game=spec,
            format=format,
            buy_in=buy_in,
            table_size=table_size,
            rounds=rounds,
            start_minutes=start,
            max_players=max_players,
            payout=payout,
            hands_per_match=hands_per_match if spec.chips_for(spec.options_model()) else 0,
            match_minutes=match_minutes,
            table_chips=table_chips,
            turn_seconds=turn_seconds
            or spec.turn_seconds
            or self.bot.settings.turn_timeout_seconds,
        )
        assert interaction.guild_id is not None and interaction.channel_id is not None
        record = await self.bot.tournaments.create(
            settings,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
        )
        await send_answer(
            interaction,
            _(
                "Tournament #{tournament} is open for registration: its message is below.",
                tournament=str(record.id),
            ),
            ephemeral=True,
        )

    @app_commands.command(name="show", description="Post a tournament's message again.")
    @app_commands.describe(id="The tournament's number (the newest here, left out)")
    async def show(self, interaction: discord.Interaction, id: int | None = None) -> None:
        record = await self._find(interaction, id)
        await send_answer(
            interaction, _("Here it comes, at the bottom of the channel."), ephemeral=True
        )
        await self.bot.tournament_presenter.repost(record)

    @app_commands.command(name="list", description="This server's tournaments.")
    async def list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        found = await self.bot.tournament_store.of_guild(interaction.guild_id)
        lines = [listed(t) for t in found]
        await send_answer(
            interaction,
            "\n".join(lines) or _("This server has had no tournament yet."),
            ephemeral=True,
        )

    @app_commands.command(
        name="start", description="Start a tournament now (its host, or a server manager)."
    )
    @app_commands.describe(id="The tournament's number (the newest here, left out)")
    async def start(self, interaction: discord.Interaction, id: int | None = None) -> None:
        record = await self._find(interaction, id)
        await self.bot.tournaments.start(
            record.id, interaction.user.id, can_manage=_can_manage(interaction)
        )
        await send_answer(interaction, _("The tournament has started."), ephemeral=True)

    @app_commands.command(
        name="cancel",
        description="Cancel a tournament, every buy-in back (its host, or a server manager).",
    )
    @app_commands.describe(id="The tournament's number (the newest here, left out)")
    async def cancel(self, interaction: discord.Interaction, id: int | None = None) -> None:
        record = await self._find(interaction, id)
        if record.status == TournamentStatus.PLAYING:  # each table in play finishes its hand
            await acknowledge_before_long_work(interaction)
        await self.bot.tournaments.cancel(
            record.id, interaction.user.id, can_manage=_can_manage(interaction)
        )
        await send_answer(
            interaction,
            _(
                "Tournament #{tournament} is cancelled; every buy-in went back.",
                tournament=str(record.id),
            ),
            ephemeral=True,
        )

    @app_commands.command(name="leave", description="Leave a tournament in play.")
    @app_commands.describe(id="The tournament's number (the newest here, left out)")
    async def leave(self, interaction: discord.Interaction, id: int | None = None) -> None:
        record = await self._find(interaction, id)
        await self.bot.tournaments.leave(record.id, interaction.user.id)
        await send_answer(
            interaction,
            _(
                "You left the tournament: your turns at your table are played for you until its "
                "match ends, and you are drawn into no later round."
            ),
            ephemeral=True,
        )

    async def _find(self, interaction: discord.Interaction, number: int | None) -> TournamentRecord:
        guild_id = interaction.guild_id
        assert guild_id is not None  # guild-only
        if number is None:
            found = await self.bot.tournament_store.of_guild(guild_id, limit=1)
            if not found:
                raise UserError(_("This server has had no tournament yet."))
            return found[0]
        record = await self.bot.tournament_store.load(number)
        if record is None or record.guild_id != guild_id:
            raise UserError(
                _("This server has no tournament #{tournament}.", tournament=str(number))
            )
        return record

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.bot.tournament_presenter.message_deleted(payload.message_id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A tournament opened in a thread that got archived (registration can outlast the
        thread's quiet time) has its message posted anew, which brings the thread back."""
        if not archived_unlocked(payload):
            return
        for record in await self.bot.tournament_store.unfinished(self.bot.shard_set):
            if record.channel_id == payload.thread_id:
                await self.bot.tournament_presenter.repost(record)


def listed(record: TournamentRecord) -> str:
    """A tournament's line in /tournament list."""
    channel = f"<#{record.channel_id}>"
    return _(
        "#{tournament} {game}, {format}, buy-in {buy_in}: {status} · {channel}",
        tournament=str(record.id),
        game=_(registry.get(record.game_id).name),
        format=_(FORMATS[record.format]) if record.format in FORMATS else record.format,
        buy_in=n_("{count} chip", "{count} chips", record.buy_in),
        status=_(STATUSES[record.status]),
        channel=channel,
    )


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(TournamentCommands(bot))
