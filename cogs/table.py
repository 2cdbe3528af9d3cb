"""/table close and /table show for the table in a channel, /table history to replay its last
hands, /table verify for a closed table's deals, /table ai, /table web and /table language for
the server, and what keeps a table reachable when a moderator deletes its message or its channel
(or closes it, with every chip paid out, when the bot is removed from the server)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.controls import can_manage, check_can_post_here
from bot.discord.history import HISTORY_ITEMS, show_history
from bot.discord.languages import AUTOMATIC, language_choices
from bot.discord.replies import acknowledge_before_long_work, send_answer
from bot.discord.threads import archived_unlocked
from bot.errors import UserError
from bot.i18n import LANGUAGES, _
from bot.tables import Table, TableStatus

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)


@app_commands.guild_only()
class TableCommands(
    commands.GroupCog, group_name="table", group_description="This channel's table"
):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    def _table_here(self, interaction: discord.Interaction) -> Table:
        channel_id = interaction.channel_id
        table = self.bot.runtime.in_channel(channel_id) if channel_id is not None else None
        if table is None:
            raise UserError(_("No table is open in this channel."))
        return table

    @app_commands.command(
        name="close",
        description="Close this channel's table now, paying everyone out (host or Manage Server).",
    )
    async def close(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        playing = table.record.status == TableStatus.PLAYING
        if playing:  # finishing the hand may take hundreds of steps
            await acknowledge_before_long_work(interaction)
        await self.bot.runtime.close(
            table.id,
            interaction.user.id,
            can_manage=can_manage(interaction),
            key=f"close:{interaction.id}",
            why="closed",
        )
        await send_answer(
            interaction,
            _(
                "The table is closed: the hand in play was finished with everyone's turns played "
                "for them, and everyone was ranked by the game's own rules and paid out."
            )
            if playing
            else _("The table is closed; every buy-in went back."),
            ephemeral=True,
        )

    @app_commands.command(name="show", description="Post this channel's table message again.")
    async def show(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        check_can_post_here(interaction)
        await send_answer(
            interaction, _("Here it comes, at the bottom of the channel."), ephemeral=True
        )
        await self.bot.presenter.repost(table)

    @app_commands.command(
        name="history", description="Replay one of the last hands played in this channel."
    )
    async def history(self, interaction: discord.Interaction) -> None:
        await show_history(self.bot, interaction)

    @app_commands.command(
        name="verify", description="Check a closed table's deals against its revealed seed."
    )
    @app_commands.describe(
        seed="The seed the closed table showed (64 hex digits)",
        commitment="The commitment its lobby showed before Start (64 hex digits)",
    )
    async def verify(
        self,
        interaction: discord.Interaction,
        seed: app_commands.Range[str, 1, 100],
        commitment: app_commands.Range[str, 1, 100],
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None  # guild-only: the command tree refuses it outside a server
        await acknowledge_before_long_work(interaction)  # replaying a long match
        verdict = await self.bot.runtime.verify_deal(guild_id, seed, commitment)
        await send_answer(interaction, verdict, ephemeral=True)

    @app_commands.command(
        name="ai", description="Allow or forbid AI players at this server's tables (Manage Server)."
    )
    @app_commands.describe(allowed="May hosts seat AI players?")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def ai(self, interaction: discord.Interaction, allowed: bool) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None  # guild-only: the command tree refuses it outside a server
        await self.bot.runtime.guilds.set_ai_seats(guild_id, allowed)
        await send_answer(
            interaction,
            _("Hosts may now seat AI players (Add AI in a table's lobby).")
            if allowed
            else _("AI players are now turned off here: no new AI seat can be added."),
            ephemeral=True,
        )

    @app_commands.command(
        name="web", description="Turn this server's web pages on or off (Manage Server)."
    )
    @app_commands.describe(allowed="May the bot's links open this server's pages?")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def web(self, interaction: discord.Interaction, allowed: bool) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None  # guild-only: the command tree refuses it outside a server
        await self.bot.runtime.guilds.set_web_pages(guild_id, allowed)
        if self.bot.web_links is None:
            text = _(
                "Saved, but this bot serves no web pages: its operator sets WEB_PORT to turn "
                "them on (README, Web pages)."
            )
        elif allowed:
            text = _(
                "This server's web pages are on: /leaderboard, /stats, /table history and "
                "tournaments offer Open on the web."
            )
        else:
            text = _("This server's web pages are off: every link given before now opens nothing.")
        await send_answer(interaction, text, ephemeral=True)

    @app_commands.command(
        name="language",
        description="The language of this server's table messages (Manage Server).",
    )
    @app_commands.describe(language="Automatic follows the server's own Discord language")
    @app_commands.choices(language=language_choices("Automatic (the server's Discord language)"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None  # guild-only: the command tree refuses it outside a server
        code = None if language == AUTOMATIC else language
        await self.bot.speakers.store.set_server(guild_id, code)
        runtime = self.bot.runtime
        for table in list(runtime.tables.values()):
            if table.record.guild_id == guild_id:
                runtime.show(table, [])  # its message drawn again, in the new language
        if code is None:
            text = _("Tables here now write in the server's Discord language.")
        else:
            text = _("Tables here now write in {language}.", language=LANGUAGES[code].name)
        await send_answer(interaction, text, ephemeral=True)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.bot.presenter.message_deleted(payload.message_id)

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        for message_id in payload.message_ids:
            self.bot.presenter.message_deleted(message_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.runtime.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.runtime.channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """An archived thread's tables are brought back into sight; one a moderator locked
        stays as they left it, its tables playing on by DM until closed."""
        if archived_unlocked(payload):
            await self.bot.presenter.thread_archived(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (not an outage: discord.py tells that apart):
        its tournaments there are cancelled and its tables closed, every chip paid out."""
        await self._guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """A server the bot was removed from while it was down is missing from the gateway's
        list of its servers (one in an outage is listed, unavailable): what the bot resumed
        there goes as if it had heard of the removal."""
        present = {guild.id for guild in self.bot.guilds}
        tournaments = await self.bot.tournament_store.unfinished(self.bot.shard_set)
        resumed = {t.record.guild_id for t in self.bot.runtime.tables.values()}
        for guild_id in resumed | {t.guild_id for t in tournaments}:
            if guild_id not in present:
                log.info("removed from guild %s while down: closing its tables", guild_id)
                await self._guild_gone(guild_id)

    async def _guild_gone(self, guild_id: int) -> None:
        await self.bot.tournaments.guild_gone(guild_id)
        await self.bot.runtime.guild_gone(guild_id)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(*HISTORY_ITEMS)
    await bot.add_cog(TableCommands(bot))
