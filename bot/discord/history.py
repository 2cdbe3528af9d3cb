"""`/table history`: the last hands played in a channel, and a hand replayed step by step in
an ephemeral message (First / Prev / Next / End), each step drawn by the game's own UI as the
member who asked may see it: the public table, their own hand when they were seated, what the
table said at that step (the showdown too) and what it told them alone. Another seat's hidden
cards never show: the replay hands the UI the game's views (bot/tables/history.py), as the
live table does. The hand's public record (JSON Lines) and, for Triple Draw Lowball, its Poker
Hand History as the member saw it come as files.

The controls carry the table, hand, step and member in their custom_id (dynamic items: they
work after a restart, `HISTORY_ITEMS` are registered with the bot); a click from anyone but
that member is refused with a sentence. Nothing is written: a replay reads the table's first
state and logged actions."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self, cast

import discord

from bot.discord.controls import Controls, sent
from bot.discord.custom_ids import CustomId, Field, number, whole
from bot.discord.errors import handle_error
from bot.discord.replies import on_public_message, send_answer
from bot.discord.web_links import OPEN_ON_THE_WEB, WebLinkHost, web_link
from bot.engine import GameSpec, HandEnded, registry
from bot.errors import InvalidComponent, UserError
from bot.i18n import N_, _, n_
from bot.store import SeatRecord, TableRecord, TableStatus
from bot.store.history import HistoryStore, PlayedHand, TableLog
from bot.tables import Table
from bot.tables.history import HandReplay, ReplayUnavailable, find_hand, replay_table

if TYPE_CHECKING:
    from bot.discord.presenter import TablePresenter
    from bot.store import Database

HANDS_LISTED = 10
WEB_TABLES = 3  # links to the listed closed tables' web pages, newest first
EMBED_FIELD = 1024
STEP = CustomId(
    "hist",
    (
        Field("move", r"first|prev|next|end"),
        number("table"),
        number("hand"),
        number("step"),
        number("viewer"),
    ),
)
PICK = CustomId("histpick", (number("viewer"),))
EXPORT = CustomId("histx", (number("table"), number("hand"), number("viewer")))
NOT_YOURS = N_("This replay is someone else's: use /table history to open your own.")


class HistoryHost(WebLinkHost, Protocol):
    """What replays need of the bot: its database, its presenter to draw each step, and what
    signs the closed tables' web pages' links."""

    @property
    def database(self) -> Database: ...
    @property
    def presenter(self) -> TablePresenter: ...


def bot_of(interaction: discord.Interaction) -> HistoryHost:
    return cast("HistoryHost", interaction.client)


def store_of(bot: HistoryHost) -> HistoryStore:
    return HistoryStore(bot.database)


# ---- the list of hands ------------------------------------------------------------------------


async def show_history(bot: HistoryHost, interaction: discord.Interaction) -> None:
    """Answer `/table history`: the channel's last hands, and a select to replay one."""
    guild_id, channel_id = interaction.guild_id, interaction.channel_id
    if guild_id is None or channel_id is None:
        raise UserError(_("Hand histories are kept for a server's channels."))
    hands = await store_of(bot).hands_in_channel(guild_id, channel_id, HANDS_LISTED)
    if not hands:
        raise UserError(_("No hand has been played in this channel yet."))
    embed = discord.Embed(title=_("The last hands played here"), colour=discord.Colour.dark_green())
    embed.description = "\n".join(hand_line(hand) for hand in hands)[:4096]
    replayable = [hand for hand in hands if hand.replayable]
    view = Controls()
    if replayable:
        options = [(f"{h.table_id}:{h.hand}", hand_label(h)) for h in replayable]
        view.select(
            custom_id=PICK.format(interaction.user.id),
            placeholder=_("Replay a hand…"),
            options=options,
        )
    await add_web_links(bot, view, guild_id, hands)
    await send_answer(interaction, embed=embed, view=view, ephemeral=True)


async def add_web_links(
    bot: HistoryHost, view: Controls, guild_id: int, hands: Sequence[PlayedHand]
) -> None:
    """A link to the web page of each closed table listed (the newest few), if pages are on."""
    closed = list(dict.fromkeys(hand.table_id for hand in hands if hand.closed))
    for table_id in closed[:WEB_TABLES]:
        url = await web_link(bot, guild_id, f"/table/{table_id}")
        if url is None:
            return
        label = (
            _(OPEN_ON_THE_WEB)
            if len(closed) == 1
            else _("Table {table} on the web", table=str(table_id))
        )
        view.link(url=url, label=label)


def hand_label(hand: PlayedHand) -> str:
    return _(
        "{game} · table {table} · hand {hand}",
        game=_(registry.get(hand.game_id).name),
        table=str(hand.table_id),
        hand=hand.hand,
    )[:100]


def hand_line(hand: PlayedHand) -> str:
    """`Lowball · table 3 · hand 2: Alice won · Alice +6, Bob -2, Carol -4`."""
    names = {seat.seat: seat.name for seat in hand.seats}
    winners = [names.get(r.seat, "?") for r in hand.results if r.won]
    won = _("{names} won", names=" & ".join(winners)) if winners else _("nobody won")
    if any(r.chip_net for r in hand.results):
        parts = [f"{names.get(r.seat, '?')} {signed(r.chip_net)}" for r in hand.results]
    else:
        parts = [f"{names.get(r.seat, '?')} {r.score}" for r in hand.results if r.score is not None]
    detail = f" · {', '.join(parts)}" if parts else ""
    later = "" if hand.replayable else " " + _("(played before replays were kept: no replay)")
    return f"**{hand_label(hand)}**: {won}{detail}{later}"


def signed(net: int) -> str:
    """A hand's result in chips: "+1 chip", "-30 chips", "±0 chips"."""
    sign = "±" if net == 0 else "+" if net > 0 else "-"
    # Translators: chips won or lost in a hand; {sign} is +, - or ±.
    return n_("{sign}{count} chip", "{sign}{count} chips", abs(net), sign=sign)


# ---- a hand, step by step ---------------------------------------------------------------------


async def replay_of(
    bot: HistoryHost, interaction: discord.Interaction, table_id: int, number_: int
) -> tuple[GameSpec, TableLog, HandReplay]:
    """The hand, if it was played in the channel asked from (as /table history lists them:
    a forged control reaches no table of a channel the member may not read)."""
    log = await store_of(bot).table_log(table_id)
    where = (interaction.guild_id, interaction.channel_id)
    if log is None or (log.guild_id, log.channel_id) != where:
        raise UserError(_("That hand wasn't played in this channel."))
    spec = registry.get(log.game_id)
    try:
        hands = await asyncio.to_thread(replay_table, spec, log)
    except ReplayUnavailable as unavailable:
        raise UserError(str(unavailable)) from None
    hand = find_hand(hands, number_)
    if hand is None:
        raise UserError(_("That table has no such hand."))
    if not hand.ended:
        raise UserError(_("That hand can't be replayed: it is still being played."))
    return spec, log, hand


def seat_of(log: TableLog, member_id: int) -> int | None:
    return next((s.seat for s in log.seats if s.member_id == member_id and not s.ai), None)


def replay_table_object(spec: GameSpec, log: TableLog, hand: HandReplay, step: int) -> Table:
    """The table as it stood at `step`, for the game's UI to draw (it reads views of it)."""
    record = TableRecord(
        log.table_id,
        log.guild_id,
        log.channel_id,
        log.game_id,
        TableStatus.PLAYING,
        0,
        log.buy_in,
        log.options,
        60,
        state=hand.steps[step].snapshot,
        seats=[SeatRecord(s.seat, s.member_id, s.name, ai=s.ai) for s in log.seats],
        solo=log.solo,
    )
    options = spec.options_model.model_validate_json(log.options)
    table = Table(record, spec, options)
    table.keep(hand.state_at(spec, step))
    return table


def step_message(
    bot: HistoryHost, spec: GameSpec, log: TableLog, hand: HandReplay, step: int, viewer: int
) -> tuple[list[discord.Embed], Controls]:
    """The step as `viewer` may see it, with the controls to move on."""
    seat = seat_of(log, viewer)
    seen = hand.seen(spec, step, seat)
    table = replay_table_object(spec, log, hand, step)
    ui, names = bot.presenter.games[spec.id], table.names()
    said = [bot.presenter.lines.line(table, e, names) for e in seen.events if e.audience is None]
    if seen.seat is not None and seen.timed_out:
        said.insert(0, "⏰ " + _("{name}'s turn was played for them.", name=names[seen.seat]))
    embed = ui.public_embed(table, seen.public, names)
    embed.title = _(
        "Replay · hand {hand} · step {step} of {steps}",
        hand=hand.number,
        step=step + 1,
        steps=len(hand.steps),
    )
    what = "\n".join(line for line in said if line) or (_("The deal.") if step == 0 else "—")
    if seen.draws:  # what a player re-deals this step's shuffle with (README, Verifiable deals)
        numbers = ", ".join(map(str, seen.draws))
        what += "\n" + n_(
            "Table seed draw {numbers}.",
            "Table seed draws {numbers}.",
            len(seen.draws),
            numbers=numbers,
        )
    embed.add_field(name=_("At this step"), value=what[-EMBED_FIELD:], inline=False)
    embeds = [embed]
    if seen.own is not None and seat is not None:
        own = ui.private_embed(table, seen.own, names)
        private = [bot.presenter.lines.line(table, e, names) for e in seen.events if e.audience]
        told = "\n".join(line for line in private if line)
        if told:
            own.add_field(name=_("Just for you"), value=told[-EMBED_FIELD:], inline=False)
        embeds.append(own)
    if any(isinstance(e, HandEnded) for e in seen.events):
        summary = ui.hand_summary(table, seen.public, names)
        if summary is not None:
            embeds.append(summary)
    return embeds, step_controls(log.table_id, hand, step, viewer)


def step_controls(table_id: int, hand: HandReplay, step: int, viewer: int) -> Controls:
    controls, last = Controls(), len(hand.steps) - 1
    moves = [
        ("first", "⏮ " + _("First")),
        ("prev", "◀ " + _("Prev")),
        ("next", _("Next") + " ▶"),
        ("end", _("End") + " ⏭"),
    ]
    for move, label in moves:
        if (move in ("first", "prev") and step == 0) or (move in ("next", "end") and step == last):
            continue
        custom_id = STEP.format(move, table_id, hand.number, step, viewer)
        controls.button(custom_id=custom_id, label=label, style=discord.ButtonStyle.secondary)
    export = EXPORT.format(table_id, hand.number, viewer)
    controls.button(custom_id=export, label=_("Export"), style=discord.ButtonStyle.primary)
    return controls


def moved(move: str, step: int, last: int) -> int:
    return {"first": 0, "prev": step - 1, "next": step + 1, "end": last}[move]


def exports(spec: GameSpec, log: TableLog, hand: HandReplay, viewer: int) -> list[discord.File]:
    """The hand's public record as JSON Lines, and the game's own hand history (Lowball's
    PHH), if it has one, as `viewer` saw it."""
    stem = f"table-{log.table_id}-hand-{hand.number}"
    files = [discord.File(io.BytesIO(hand.jsonl(spec, log.table_id).encode()), f"{stem}.jsonl")]
    names = [seat.name for seat in log.seats]
    own = hand.hand_history(spec, names, seat_of(log, viewer))
    if own is not None and spec.hand_history is not None:
        files.append(discord.File(io.BytesIO(own.encode()), f"{stem}.{spec.hand_history.suffix}"))
    return files


# ---- the controls -----------------------------------------------------------------------------


class HistoryItem:
    """Shared by the replay's controls: only the member the replay is for may use them. Each
    is made again from its custom_id's fields, by name."""

    CUSTOM_ID: ClassVar[CustomId]
    viewer: int

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(**cls.CUSTOM_ID.read(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.user.id != self.viewer:
                raise UserError(_(NOT_YOURS))
            if on_public_message(interaction):  # forged: a replay shows its viewer's cards
                raise InvalidComponent()
            await interaction.response.defer()
            await self.run(interaction, bot_of(interaction))
        except Exception as error:  # dynamic items have no view to report through
            await handle_error(interaction, error, "hand history")

    async def run(self, interaction: discord.Interaction, bot: HistoryHost) -> None:
        raise NotImplementedError


class HistoryStep(HistoryItem, discord.ui.DynamicItem[discord.ui.Button], template=STEP.template):
    CUSTOM_ID = STEP

    def __init__(self, move: str, table: int, hand: int, step: int, viewer: int) -> None:
        self.move, self.table, self.hand, self.step, self.viewer = move, table, hand, step, viewer
        custom_id = STEP.format(move, table, hand, step, viewer)
        super().__init__(discord.ui.Button(custom_id=custom_id))

    async def run(self, interaction: discord.Interaction, bot: HistoryHost) -> None:
        spec, log, hand = await replay_of(bot, interaction, self.table, self.hand)
        step = max(0, min(moved(self.move, self.step, len(hand.steps) - 1), len(hand.steps) - 1))
        embeds, controls = step_message(bot, spec, log, hand, step, self.viewer)
        await interaction.edit_original_response(embeds=embeds, view=controls)


class HistoryPick(HistoryItem, discord.ui.DynamicItem[discord.ui.Select], template=PICK.template):
    CUSTOM_ID = PICK

    def __init__(self, viewer: int) -> None:
        self.viewer = viewer
        super().__init__(discord.ui.Select(custom_id=PICK.format(viewer)))

    async def run(self, interaction: discord.Interaction, bot: HistoryHost) -> None:
        chosen = chosen_hand(sent(interaction).get("values") or [])
        spec, log, hand = await replay_of(bot, interaction, *chosen)
        embeds, controls = step_message(bot, spec, log, hand, 0, self.viewer)
        await interaction.edit_original_response(embeds=embeds, view=controls)


def chosen_hand(values: Sequence[Any]) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+):(\d+)", str(values[0])) if values else None
    if match is None:
        raise UserError(_("Pick a hand from the list."))
    return whole(match[1]), whole(match[2])


class HistoryExport(
    HistoryItem, discord.ui.DynamicItem[discord.ui.Button], template=EXPORT.template
):
    CUSTOM_ID = EXPORT

    def __init__(self, table: int, hand: int, viewer: int) -> None:
        self.table, self.hand, self.viewer = table, hand, viewer
        super().__init__(discord.ui.Button(custom_id=EXPORT.format(table, hand, viewer)))

    async def run(self, interaction: discord.Interaction, bot: HistoryHost) -> None:
        spec, log, hand = await replay_of(bot, interaction, self.table, self.hand)
        files = await asyncio.to_thread(exports, spec, log, hand, self.viewer)
        own = spec.hand_history
        await interaction.followup.send(
            _(
                "The hand's public record (JSON Lines) and its {history} as you saw it.",
                history=_(own.name),
            )
            if own is not None
            else _("The hand's public record (JSON Lines)."),
            files=files,
            ephemeral=True,
        )


HISTORY_ITEMS = (HistoryStep, HistoryPick, HistoryExport)
