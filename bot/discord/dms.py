"""Each player's private view: their hand and controls by DM, or answered ephemerally by the
table's "My hand" button, so phones and members with closed DMs are never stuck.

A seat's hand goes through the followup webhook of its player's latest click in their DMs
while its token lives (outside Discord's limit on the bot's own calls), else as a plain DM. A
decision following the player's own answer moments ago is edited into the DM they answered in
(they are watching it), unless anything the bot sent came after it there: whichever of the
bot's processes sent it, as each tells the others of its new DMs (`sent_elsewhere`). Controls
of a prompt that moved on are stripped, so only live buttons show. A closed inbox is announced
in the channel once per table, and not tried again before the next deal; meanwhile each of the
seat's decisions is called there (turn_calls.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence

import discord

from bot.discord.dm_records import DMPrompt, Key, ReplyHook, Watched
from bot.discord.game_ui import GameUI
from bot.discord.internals import edit_clicked, send_followup
from bot.discord.lines import RECENT_LINES, TableLines
from bot.discord.message import TableMessages, closed_out_of_sight
from bot.discord.port import PresenterHost
from bot.discord.replies import expired, redraw_clicked
from bot.discord.retries import DISCORD_TROUBLE, Retries
from bot.discord.turn_calls import TurnCalls
from bot.engine import Event
from bot.errors import InvalidComponent
from bot.i18n import N_, _, speaking
from bot.store import SeatRecord
from bot.tables import Table, TableStatus
from bot.tables.events import SeatLeft, TableClosed

log = logging.getLogger(__name__)
DMS_CLOSED = N_(
    "{member}, I can't send you direct messages: use the **My hand** button (here or on the "
    "table) to see your cards and play. I'll mention you here when it's your move."
)

PRUNE_HOOKS_FROM = 1024  # followup webhooks kept before expired ones are swept
# A player who answered in a DM this recently is taken to be watching it: their next decision
# is edited into that message rather than sent anew (see PrivateHands._edit_watched).
WATCHING_SECONDS = 30.0


class PrivateHands:
    def __init__(
        self,
        host: PresenterHost,
        games: Mapping[str, GameUI],
        lines: TableLines,
        messages: TableMessages,
    ) -> None:
        self.host, self.games, self.lines, self.messages = host, games, lines, messages
        # (table, seat) -> the DM whose controls answer the seat's open prompt, to strip them
        # once that prompt moves on (a timeout, the hand ending).
        self.dm_controls: dict[Key, DMPrompt] = {}
        # Seats whose DMs failed this hand: not tried again before the next deal. Members told
        # in the channel once per table, so a closed inbox isn't announced every hand.
        self.dm_failed: set[Key] = set()
        self.dm_notice: set[tuple[int, int]] = set()  # (table, member)
        # Seats whose click changed the table but whose answer Discord refused as too late,
        # on a message the bot can't edit: their hand goes by DM at the next render.
        self.unanswered: set[Key] = set()
        # (table, seat) -> the first private event a seat's own click told it: the click's
        # answer showed it (`news_in_answer`), so its render sends that seat no DM for it.
        self.told_in_answer: dict[Key, Event] = {}
        # member -> the followup webhook of their latest click in their DMs (at any table):
        # their hands and prompts go through it while its token lives, outside Discord's limit
        # on the bot's own calls.
        self.reply_hooks: dict[int, ReplyHook] = {}
        self.pruned_at = PRUNE_HOOKS_FROM
        # member -> the bot's newest message in their DMs, as far as it knows (its other
        # processes' included: `sent_elsewhere`), 0 for none yet; and, per seat, the DM its
        # player's click was last answered in, while nothing came after there.
        self.newest_in_dms: dict[int, int] = {}
        self.watched: dict[Key, Watched] = {}
        self.watching_seconds = WATCHING_SECONDS
        self.retries = Retries(self._send_again)  # tables with a DM Discord failed to take
        self.calls = TurnCalls(host, messages, self._call_failed)  # seats with DMs closed

    def new_deal(self, table_id: int) -> None:
        """DMs that failed before are tried again."""
        self.dm_failed = {key for key in self.dm_failed if key[0] != table_id}

    def forget(self, table_id: int) -> None:
        """A closed table's traces (its DM controls were expired already)."""
        for keyed in (self.dm_controls, self.watched, self.told_in_answer):
            for key in [key for key in keyed if key[0] == table_id]:
                del keyed[key]
        self.dm_failed = {key for key in self.dm_failed if key[0] != table_id}
        self.dm_notice = {key for key in self.dm_notice if key[0] != table_id}
        self.retries.forget(table_id)
        self.calls.forget(table_id)

    # ---- the private view ------------------------------------------------------------------

    def private_message(
        self, table: Table, seat: int, news: Sequence[str] = ()
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        ui = self.games[table.game.id]
        return self.private_embed(table, seat, news), ui.private_controls(table, seat)

    def private_embed(self, table: Table, seat: int, news: Sequence[str] = ()) -> discord.Embed:
        ui = self.games[table.game.id]
        embed = ui.private_embed(table, table.view(seat), table.names())
        decision = table.decision(seat)
        if decision is not None:  # what the game asks of this seat, in its own words
            name = _("You may, if you like") if decision.optional else _("Your move")
            embed.add_field(name=name, value=decision.prompt, inline=False)
        private = [*self.lines.private_lines(table, seat), *news][-RECENT_LINES:]
        if private:
            mine = "\n".join(private)[-1024:]
            embed.add_field(name=_("Just for you"), value=mine, inline=False)
        return embed

    def news_in_answer(self, table: Table, seat: int, events: Sequence[Event]) -> list[str]:
        """The lines of what a seat's own click told it privately (its render remembers them
        later), for the click's answer to show with the seat's next prompt. That render then
        sends the seat no DM, which would repeat the prompt with its buttons live twice."""
        mine = [e for e in events if e.audience is not None and seat in e.audience]
        if mine:
            self.told_in_answer[(table.id, seat)] = mine[0]
        names = table.names()
        return [line for event in mine if (line := self.lines.line(table, event, names))]

    def told(self, table: Table, events: Sequence[Event]) -> set[int]:
        """The seats `events` told something privately, but for the seat whose click they
        come from when its answer showed them (`news_in_answer`)."""
        told = {seat for event in events if event.audience is not None for seat in event.audience}
        for seat in list(told):
            shown = self.told_in_answer.get((table.id, seat))
            if shown is not None and any(event is shown for event in events):
                del self.told_in_answer[(table.id, seat)]
                told.discard(seat)
        return told

    # ---- sending it --------------------------------------------------------------------------

    async def send(self, table: Table, *, everyone: bool, told: set[int]) -> None:
        """DM each seat whose decision just opened or who was just told something privately
        (everyone when cards were dealt). A new message says it, which Discord notifies,
        unless it is only a decision following the seat's own answer moments ago: that is
        edited into the DM answered in (`_edit_watched`)."""
        pending, replaced, undelivered = set(table.pending_seats()), [], False
        for record in table.seats:
            key = (table.id, record.seat)
            fresh_prompt = record.seat in pending and record.prompted != record.prompt
            news = everyone or record.seat in told or key in self.unanswered
            self.unanswered.discard(key)
            if record.left or record.ai or not (news or fresh_prompt):
                continue
            if key in self.dm_failed:  # their DMs are closed: the decision goes by a call
                if fresh_prompt:
                    record.prompted = record.prompt
                    await self.calls.call(table, record.seat, record.member_id)
                continue
            if record.seat in pending:
                record.prompted = record.prompt
            try:
                older = await self._send_seat(table, record, news=news)
            except DISCORD_TROUBLE as error:  # sent again after a pause, with its news
                log.warning("table %s seat %s: Discord failed a DM: %r", *key, error)
                record.prompted, undelivered = None, True
                self.unanswered.add(key)
                continue
            if older is not None:
                replaced.append(older)
        if undelivered:
            self.retries.failed(table.id)
        else:
            self.retries.succeeded(table.id)
        for older in replaced:  # once every seat has its DM: no buttons shown that expired
            await self._strip(table, older)

    async def _send_seat(self, table: Table, record: SeatRecord, *, news: bool) -> DMPrompt | None:
        """Send one seat its hand; the DM whose controls that replaced, if any."""
        key = (table.id, record.seat)
        watched = self.watched.pop(key, None)
        with speaking(await self.host.speakers.member(record.member_id)):
            embed, view = self.private_message(table, record.seat)
        try:
            edited = None if news else await self._edit_watched(watched, embed, view)
            channel_id, message_id, hook = edited or await self._deliver(
                key, record.member_id, embed, view
            )
        except discord.Forbidden:
            self.dm_failed.add(key)
            if (table.id, record.member_id) not in self.dm_notice:
                await self.messages.in_channel(table, self._dms_closed(table, record.member_id))
            else:
                await self.calls.call(table, record.seat, record.member_id)
            return None
        older = self.dm_controls.pop(key, None)  # a newer DM answers now
        if view is not None:
            self.dm_controls[key] = DMPrompt(channel_id, message_id, record.prompt, hook)
        return older if older is not None and older.message_id != message_id else None

    def _call_failed(self, table: Table, seat: int) -> None:
        table.seats[seat].prompted = None  # called again with the table's DMs, after a pause
        self.retries.failed(table.id)

    def _send_again(self, table_id: int) -> None:
        """After Discord's trouble: the table's DMs it failed to take go again."""
        table = self.host.runtime.tables.get(table_id)
        if table is not None:
            self.host.runtime.show(table, [])

    async def _deliver(
        self, key: Key, member_id: int, embed: discord.Embed, view: discord.ui.View | None
    ) -> tuple[int, int, ReplyHook | None]:
        """Send a seat its hand in a new DM (`_send_anew`), the newest there now."""
        self.newest_in_dms.setdefault(member_id, 0)  # hears of others' DMs sent meanwhile
        channel_id, message_id, hook = await self._send_anew(key, member_id, embed, view)
        self._sent_new(member_id, message_id)
        return channel_id, message_id, hook

    async def _send_anew(
        self, key: Key, member_id: int, embed: discord.Embed, view: discord.ui.View | None
    ) -> tuple[int, int, ReplyHook | None]:
        """Send a seat its hand in its DMs: as a followup to its latest click there while that
        click's token lives (answers to interactions don't count against the bot's own rate
        limit, so a busy bot still prompts at once), else as a plain DM. Returns the DM
        channel's id and the message's, and the hook it went through."""
        hook = self.reply_hooks.get(member_id)
        if hook is not None and hook.live():
            try:
                return *await send_followup(hook.webhook, embed=embed, view=view), hook
            except discord.HTTPException as error:
                log.info("a followup for table %s seat %s failed: %s", *key, error)
                self.reply_hooks.pop(member_id, None)
        try:
            return *await self._plain_dm(member_id, embed, view), None
        except discord.NotFound:  # a DM channel remembered from before is gone: open anew
            await self.host.dm_channels.forget(member_id)
            return *await self._plain_dm(member_id, embed, view), None

    def _sent_new(self, member_id: int, message_id: int) -> None:
        """A new message of this process's is in a member's DMs: their newest, unless one
        another process sent meanwhile is newer (Discord's ids grow with time). The bot's other
        processes hear of it."""
        self.newest_in_dms[member_id] = max(self.newest_in_dms.get(member_id, 0), message_id)
        self.host.dm_sent(member_id, message_id)

    def sent_elsewhere(self, member_id: int, message_id: int) -> None:
        """Another of the bot's processes sent a message into a member's DMs (or one at least
        as new as `message_id` is there), told a few milliseconds later: this process's DM that
        is older is no longer their newest, and no decision is edited into it. Kept only for
        members this process has DMed or is DMing (with nothing of its own there, it has
        nothing to edit); a late word of a message older than this process's own newest
        changes nothing."""
        newest = self.newest_in_dms.get(member_id)
        if newest is not None and newest < message_id:
            self.newest_in_dms[member_id] = message_id

    async def _edit_watched(
        self, watched: Watched | None, embed: discord.Embed, view: discord.ui.View | None
    ) -> tuple[int, int, None] | None:
        """Edit a seat's new decision into the DM its player answered in, when that answer came
        moments ago and nothing came after it there: they are watching that message, so it
        needs no new one to be noticed (Delphi's next card once everyone answered). Otherwise
        (None) a new message says it, which Discord notifies: Discord doesn't notify edits,
        and a player who answered a while ago may have gone. The bot can't see what a member
        writes in its DMs: a line written since sits just below the edited prompt."""
        if watched is None or not watched.hook.live():
            return None
        if self.newest_in_dms.get(watched.member_id) != watched.message_id:
            return None
        if time.monotonic() - watched.at > self.watching_seconds:
            return None
        try:
            await edit_clicked(watched.hook.webhook, embed=embed, view=view)
        except discord.HTTPException as error:
            log.info("could not edit a prompt into DM %s: %s", watched.message_id, error)
            return None
        return watched.channel_id, watched.message_id, None

    async def _plain_dm(
        self, member_id: int, embed: discord.Embed, view: discord.ui.View | None
    ) -> tuple[int, int]:
        dm = await self.dm(member_id)
        # discord.py's overloads of `send` leave out the None its body takes for no view.
        return dm.id, (await dm.send(embed=embed, view=view)).id  # type: ignore[arg-type]

    async def dm(self, member_id: int) -> discord.PartialMessageable:
        """The member's DM channel: discord.py keeps only the last 128, and opening one costs a
        REST call, so their ids are remembered (bot.store.dms)."""
        channel_id = await self.host.dm_channels.get(member_id)
        if channel_id is None:
            channel_id = (await self.host.create_dm(discord.Object(member_id))).id
            await self.host.dm_channels.remember(member_id, channel_id)
        return self.host.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _dms_closed(self, table: Table, member_id: int) -> None:
        """Said once a table: why the member's hand and prompts don't come by DM."""
        self.dm_notice.add((table.id, member_id))
        await self.calls.mention(table, member_id, DMS_CLOSED)

    async def expire_controls(self, table: Table) -> None:
        """Strip the controls from DMs whose prompt moved on, so only live buttons show; and
        delete such calls in the channel."""
        await self.calls.expire(table)
        for seat in table.seats:
            key = (table.id, seat.seat)
            prompt = self.dm_controls.get(key)
            if prompt is None:
                continue
            live = table.record.status == TableStatus.PLAYING and not seat.left
            if live and seat.seat in table.pending_seats() and seat.prompt == prompt.prompt:
                continue
            del self.dm_controls[key]
            await self._strip(table, prompt)

    async def _strip(self, table: Table, prompt: DMPrompt) -> None:
        """Take the controls off a DM whose prompt moved on."""
        try:
            if prompt.hook is not None and prompt.hook.live():
                await prompt.hook.webhook.edit_message(prompt.message_id, view=None)
            else:
                channel = self.host.get_partial_messageable(prompt.channel_id)
                await channel.get_partial_message(prompt.message_id).edit(view=None)
        except discord.HTTPException as error:
            log.info("could not expire an old prompt of table %s: %s", table.id, error)

    async def tell_closed_out_of_sight(
        self, table: Table, events: Sequence[Event], closed: TableClosed
    ) -> None:
        """Everyone still seated hears by DM that the table closed and what they got back."""
        back = {e.seat: e.chips for e in events if isinstance(e, SeatLeft)}
        for seat, chips in enumerate(closed.payouts):
            if chips or seat not in back:
                back[seat] = back.get(seat, 0) + chips
        for seat, chips in back.items():
            if table.seats[seat].ai:
                continue
            member_id = table.seats[seat].member_id
            with speaking(await self.host.speakers.member(member_id)):
                text = closed_out_of_sight(table, chips, closed.why)
            try:
                dm = await self.dm(member_id)
                self.newest_in_dms.setdefault(member_id, 0)
                self._sent_new(member_id, (await dm.send(text)).id)
            except discord.HTTPException:
                log.info("could not tell member %s that table %s closed", member_id, table.id)

    # ---- a click's answer ----------------------------------------------------------------------

    async def answer_move(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: SeatRecord,
        events: Sequence[Event],
    ) -> None:
        """Answer a seat's move by redrawing the message clicked (a DM, or an ephemeral My
        hand) with its hand, what the move told it and its next prompt: that needs no DM. One
        Discord refused as too late goes as `answer_refused` says."""
        news = self.news_in_answer(table, seat.seat, events)
        embed, view = self.private_message(table, seat.seat, news)
        seat.prompted = seat.prompt  # shown here, with what the click told the seat: no DM needed
        self.answered_in(interaction, table.id, seat.seat, seat.prompt if view else None)
        try:
            await redraw_clicked(interaction, embed=embed, view=view)
        except (discord.NotFound, *DISCORD_TROUBLE) as error:
            if isinstance(error, discord.NotFound) and not expired(error):
                raise
            await self.answer_refused(interaction, table, seat, embed, view)
            return
        if seat.seat not in table.pending_seats():  # they await the others now, in that message
            self.answer_landed(interaction, table.id, seat.seat)

    def answered_in(
        self, interaction: discord.Interaction, table_id: int, seat: int, prompt: int | None
    ) -> None:
        """A player's action redraws the message it came from. In a DM, that message now
        holds the seat's controls (for `prompt`), or none."""
        if interaction.guild_id is not None or interaction.message is None:
            return
        key = (table_id, seat)
        if prompt is None:
            self.dm_controls.pop(key, None)
        else:
            channel_id = _channel_of(interaction)
            self.dm_controls[key] = DMPrompt(channel_id, interaction.message.id, prompt)

    async def answer_refused(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: SeatRecord,
        embed: discord.Embed,
        view: discord.ui.View | None,
    ) -> None:
        """Discord refused the answer to a click that changed the table (its 3 s ran out) or
        failed it (its own trouble): the clicked message is edited as the bot edits its own
        messages, or, where it can't be (an ephemeral "My hand"), the seat's hand and any
        prompt go by DM."""
        log.info("table %s seat %s: a click's answer was refused or failed", table.id, seat.seat)
        # A refused answer is a click's (or its form's): it has the message clicked on.
        assert interaction.message is not None
        clicked = self.host.get_partial_messageable(_channel_of(interaction))
        try:
            await clicked.get_partial_message(interaction.message.id).edit(embed=embed, view=view)
        except discord.HTTPException:
            seat.prompted = None
            self.dm_controls.pop((table.id, seat.seat), None)
            self.unanswered.add((table.id, seat.seat))
            self.host.runtime.show(table, [])

    async def in_own_dms(self, interaction: discord.Interaction) -> bool:
        """Whether a click (or form) came from its member's own DMs (False: from a server's
        channel). One placed in another member's DMs is refused: no real client can send it,
        and answered it would redraw their message and send the clicker's prompts there."""
        if interaction.guild_id is not None:
            return False
        if interaction.channel_id != (await self.dm(interaction.user.id)).id:
            raise InvalidComponent()
        return True

    def answer_landed(self, interaction: discord.Interaction, table_id: int, seat: int) -> None:
        """A player's click in their DMs was answered by redrawing its message, which shows
        their answer and no decision: the next one, if it follows soon, may be edited into it
        (`_edit_watched`)."""
        if interaction.guild_id is not None or interaction.message is None:
            return
        now = time.monotonic()
        hook, message_id = ReplyHook.of(interaction, now), interaction.message.id
        watched = Watched(interaction.user.id, _channel_of(interaction), message_id, hook, now)
        self.watched[(table_id, seat)] = watched

    def clicked_in_dms(self, interaction: discord.Interaction, *, refused: bool) -> None:
        """Keep the followup webhook of a member's latest answered click in their DMs. A
        refusal is a message of its own there, below the bot's last prompt."""
        if interaction.guild_id is not None or not interaction.response.is_done():
            return
        if refused:
            self.newest_in_dms.pop(interaction.user.id, None)
            # Its answer is newer than the click, and so than every DM sent before it.
            self.host.dm_sent(interaction.user.id, interaction.id)
        now = time.monotonic()
        self.reply_hooks[interaction.user.id] = ReplyHook.of(interaction, now)
        if len(self.reply_hooks) > self.pruned_at * 2:  # now and then, drop the expired
            self.reply_hooks = {k: h for k, h in self.reply_hooks.items() if h.until > now}
            self.pruned_at = max(PRUNE_HOOKS_FROM, len(self.reply_hooks))

    # ---- across a restart -----------------------------------------------------------------------

    async def keep_reply_hooks(self) -> None:
        """At shutdown: the followup tokens still live, for the restarted bot."""
        monotonic, now = time.monotonic(), time.time()
        live = {
            member: (hook.webhook.token, now + hook.until - monotonic)
            for member, hook in self.reply_hooks.items()
            if hook.live() and hook.webhook.token
        }
        await self.host.dm_channels.keep_reply_tokens(live, now)

    async def restore_reply_hooks(self) -> None:
        """At start-up: the tokens the last shutdown kept. Until its players click again, a
        restarted bot would otherwise send every hand and prompt as a plain DM, against its
        limit of 50 calls a second."""
        monotonic, now = time.monotonic(), time.time()
        for member, (token, expires) in (await self.host.dm_channels.reply_tokens(now)).items():
            webhook = self.host.followup_webhook(token)
            self.reply_hooks[member] = ReplyHook(webhook, monotonic + expires - now)


def _channel_of(interaction: discord.Interaction) -> int:
    # A click or a form always comes from a channel (here, a DM).
    assert interaction.channel_id is not None
    return interaction.channel_id
