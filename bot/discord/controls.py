"""The table's controls: its buttons and selects, and what a click on one does (the form of a
decision answered in words is text_answers.py's).

Every control is a dynamic item whose custom_id carries the table id (for actions, the prompt
version and the action too): it works after a restart, and says "this prompt has expired" once
stale. One codec (`CustomId`) writes each custom_id, gives discord.py its template and reads a
click's back. A control is drawn from its look (`Controls`), built as a discord.ui item when
clicked."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import discord

from bot.discord.ai_levels import which_level
from bot.discord.custom_ids import CustomId, Field, count, number
from bot.discord.format import kind_name, side_letter
from bot.discord.internals import WrittenView
from bot.discord.port import TableHost, host
from bot.discord.replies import acknowledge_before_long_work, send_answer
from bot.engine import Action
from bot.errors import InvalidComponent, UserError
from bot.games.ai import LEVEL_NAMES, LEVELS
from bot.i18n import N_, _
from bot.tables import Table

MAX_SELECT_OPTIONS = 25
MAX_SELECTS = 4  # a message has 5 rows: one for buttons, up to four selects
ROWS, ROW_WIDTH, MAX_COMPONENTS = 5, 5, 25  # a message's rows, each five buttons or one select


# ---- the custom_id of each kind of control -------------------------------------------------------

TABLE, PROMPT = number("table_id"), number("prompt")
BUTTON_LOOKS: dict[str, tuple[str, discord.ButtonStyle]] = {  # labels said when drawn
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
    "hand": (N_("My hand"), discord.ButtonStyle.primary),
    "confirm_leave": (N_("Leave now"), discord.ButtonStyle.danger),
    "switch": (N_("Switch side"), discord.ButtonStyle.secondary),
    "shuffle": (N_("Shuffle sides"), discord.ButtonStyle.secondary),
    "add_ai": (N_("Add AI"), discord.ButtonStyle.secondary),
    "remove_ai": (N_("Remove AI"), discord.ButtonStyle.secondary),
    # Add AI's chooser (`choose_ai_level`): one button per level.
    **{f"ai_{level}": (name, discord.ButtonStyle.primary) for level, name in LEVEL_NAMES.items()},
}
# `tb:12:join`, `ta:12:3:bet.4`, `ts:12:3:play:1`, `tq:12:3`, `tm:12:3`
TABLE_BUTTON = CustomId("tb", (TABLE, Field("verb", "|".join(BUTTON_LOOKS))))
ACTION_BUTTON = CustomId("ta", (TABLE, PROMPT, Field("token", r"[\w.+\-]+")))
ACTION_SELECT = CustomId("ts", (TABLE, PROMPT, Field("kind", r"\w+")), Field("part", r"\d*", count))
TEXT_BUTTON = CustomId("tq", (TABLE, PROMPT))
TEXT_FORM = CustomId("tm", (TABLE, PROMPT))


# ---- drawing: a message's components as Discord's JSON -------------------------------------------


class Controls(WrittenView):
    """The components of one message, written as Discord's JSON. Every control the bot draws
    is a dynamic item, built by discord.py from its custom_id when used: sending one needs
    only its look (`look` on each item class). Building discord.ui items just to send them
    took some 5% of the bot's CPU at 500 busy tables. Rows fill as a discord.py View's do:
    the row given, else the first with room; a select takes a whole row."""

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[list[dict[str, Any]]] = [[] for _ in range(ROWS)]
        self._widths = [0] * ROWS
        self._count = 0  # components placed

    def button(
        self, *, custom_id: str, label: str, style: discord.ButtonStyle, row: int | None = None
    ) -> None:
        look = {"type": 2, "style": style.value, "disabled": False, "custom_id": custom_id}
        if label:
            look["label"] = label
        self._place(look, 1, row)

    def link(self, *, url: str, label: str) -> None:
        """A button that opens `url` in the browser (no click reaches the bot)."""
        self._place(
            {"type": 2, "style": discord.ButtonStyle.link.value, "url": url, "label": label},
            1,
            None,
        )

    def select(self, *, custom_id: str, placeholder: str, options: list[tuple[str, str]]) -> None:
        """A select of (value, label) options."""
        look = {
            "type": 3,
            "custom_id": custom_id,
            "min_values": 1,
            "max_values": 1,
            "disabled": False,
            "required": True,
            "placeholder": placeholder,
            "options": [
                {"label": label, "value": value, "default": False} for value, label in options
            ],
        }
        self._place(look, ROW_WIDTH, None)

    def _place(self, look: dict[str, Any], width: int, row: int | None) -> None:
        if self._count >= MAX_COMPONENTS:
            raise ValueError("maximum number of children exceeded")
        if row is None:
            row = next(
                (r for r, used in enumerate(self._widths) if used + width <= ROW_WIDTH), None
            )
            if row is None:
                raise ValueError("could not find open space for item")
        elif self._widths[row] + width > ROW_WIDTH:
            raise ValueError(f"item would not fit at row {row}")
        self._widths[row] += width
        self._rows[row].append(look)
        self._count += 1

    def components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self._rows if row]


def select_item(look: dict[str, Any]) -> discord.ui.Select:
    """The discord.ui select a dynamic item wraps, from its look (see `Controls.select`)."""
    options = [discord.SelectOption(label=label, value=value) for value, label in look["options"]]
    return discord.ui.Select(**{**look, "options": options})


def buttons(table_id: int, *verbs: str) -> Controls:
    view = Controls()
    for verb in verbs:
        view.button(**TableButton.look(table_id, verb))
    return view


def lobby_controls(table: Table) -> Controls:
    sides = ("switch", "shuffle") if table.sides else ()
    ai = ("add_ai", "remove_ai") if table.game.ai else ()
    return buttons(table.id, "join", "leave", "start", "cancel", *ai, *sides)


def table_controls(table: Table) -> Controls:
    """My hand and Leave; and Add AI while an AI player may take a seat (`Table.seat_for_ai`):
    one a chip game's player has left, or one a points match's player is leaving."""
    ai_may_sit = table.game.ai is not None and table.record.tournament_id is None
    if ai_may_sit and table.seat_for_ai() is not None:
        return buttons(table.id, "hand", "leave", "add_ai")
    return buttons(table.id, "hand", "leave")


# ---- handling a click -------------------------------------------------------------------------


class TableItem:
    """Shared by the table's dynamic items: built from a click's custom_id (`CUSTOM_ID`), they
    do what the click asks (`run`); the presenter answers it, errors included
    (`Answers.click`)."""

    CUSTOM_ID: ClassVar[CustomId]
    # How a late click is acknowledged before anything is done: as an update of the message
    # it is on ("update"), or with a private "thinking..." ("private"). None: not at all (a
    # modal must be the first answer).
    late: ClassVar[Literal["update", "private"] | None] = "update"
    # A seat's own control, drawn in its DMs or its My hand (not on the table message).
    seats_own: ClassVar[bool] = True
    table_id: int
    custom_id: str

    # The controls are also discord.ui.DynamicItems: this is that class's __init__, for the
    # type checker (TextAnswer, a form's handler, has its own).
    if TYPE_CHECKING:

        def __init__(self, item: discord.ui.Item[Any]) -> None: ...

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any] | None,  # None: built by the bot's own dispatch
        match: re.Match[str],
    ) -> Any:
        return cls(**cls.CUSTOM_ID.read(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await host(interaction).presenter.click(interaction, self)

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        raise NotImplementedError

    @staticmethod
    def chosen(interaction: discord.Interaction) -> list[str]:
        """A select's chosen values, as the click carries them."""
        values = sent(interaction).get("values")
        return [str(value) for value in values] if isinstance(values, list) else []


def sent(interaction: discord.Interaction) -> Mapping[str, Any]:
    """What a click or form carries (its custom_id, a select's values, a form's inputs)."""
    return interaction.data or {}


def can_manage(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions and interaction.permissions.manage_guild)


def check_can_post_here(interaction: discord.Interaction) -> None:
    """Refuse to open a table or a tournament where the bot could not post its message (a
    moderator took its permissions there): it would hold buy-ins nobody could see or join."""
    allowed = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    send = allowed.send_messages_in_threads if in_thread else allowed.send_messages
    if not (allowed.view_channel and send and allowed.embed_links and allowed.attach_files):
        raise UserError(
            _(
                "The bot can't post in this channel: it needs View Channel, Send Messages, "
                "Embed Links and Attach Files here. Ask a moderator, or use another channel."
            )
        )


class TableButton(
    TableItem, discord.ui.DynamicItem[discord.ui.Button], template=TABLE_BUTTON.template
):
    """The table's own buttons: the lobby's Join / Leave / Start / Cancel / Add AI /
    Remove AI, and My hand."""

    late = "private"
    seats_own = False
    CUSTOM_ID = TABLE_BUTTON

    def __init__(self, table_id: int, verb: str) -> None:
        self.table_id, self.verb = table_id, verb
        super().__init__(discord.ui.Button(**self.look(table_id, verb)))

    @classmethod
    def look(cls, table_id: int, verb: str) -> dict[str, Any]:
        label, style = BUTTON_LOOKS[verb]
        return {
            "label": _(label),
            "style": style,
            "custom_id": cls.CUSTOM_ID.format(table_id, verb),
        }

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        table = bot.runtime.get(self.table_id)
        # These buttons only ever live in the table's channel: one pressed anywhere else, or
        # by a member who can't see that channel, was forged.
        permissions = interaction.permissions
        if interaction.channel_id != table.record.channel_id or not permissions.view_channel:
            raise InvalidComponent()
        if self.verb == "hand":
            await self.show_hand(interaction, bot, table)
            return
        if self.verb in ("leave", "confirm_leave"):
            await self.leave(interaction, bot, table)
            return
        if self.verb == "add_ai":
            manager = can_manage(interaction)
            await bot.runtime.check_add_ai(self.table_id, interaction.user.id, can_manage=manager)
            await choose_ai_level(interaction, table)
            return
        reply = await self.change_lobby(interaction, bot)
        await send_answer(interaction, content=reply, ephemeral=True)

    async def change_lobby(self, interaction: discord.Interaction, bot: TableHost) -> str:
        """Join, switch or shuffle sides, add or remove an AI, start or cancel: the reply."""
        runtime, user, key = bot.runtime, interaction.user, f"{self.verb}:{interaction.id}"
        manager = can_manage(interaction)
        if self.verb == "join":
            await runtime.join(self.table_id, user.id, user.display_name, key)
            return _("You joined the table.")
        if self.verb == "switch":
            side = await runtime.switch_side(self.table_id, user.id)
            return _("You are on side {side} now.", side=side_letter(side))
        if self.verb == "shuffle":
            await runtime.shuffle_sides(self.table_id, user.id, can_manage=manager)
            return _("The sides are shuffled.")
        if self.verb.startswith("ai_"):
            level = self.verb.removeprefix("ai_")
            name = await runtime.add_ai(
                self.table_id, user.id, can_manage=manager, key=key, level=level
            )
            return _("{name} sits down.", name=name)
        if self.verb == "remove_ai":
            name = await runtime.remove_ai(self.table_id, user.id, can_manage=manager, key=key)
            return _("{name} left the table.", name=name)
        if self.verb == "start":
            await runtime.start(self.table_id, user.id, can_manage=manager, click=interaction.id)
            return _("The game has started: your cards are in your DMs (or press My hand).")
        await runtime.cancel(self.table_id, user.id, can_manage=manager, key=key)
        return _("The table is cancelled; every buy-in went back.")

    async def leave(self, interaction: discord.Interaction, bot: TableHost, table: Table) -> None:
        key, confirmed = f"{self.verb}:{interaction.id}", self.verb == "confirm_leave"
        if confirmed and table.state is not None:
            # Turns played for away seats until the hand ends may be hundreds.
            await acknowledge_before_long_work(interaction)
        reply = await bot.runtime.leave(
            self.table_id, interaction.user.id, key, confirmed=confirmed
        )
        if reply is None:  # a game in play: asked once more
            await self.confirm_leave(interaction, table)
            return
        await send_answer(interaction, content=reply, ephemeral=True)

    async def confirm_leave(self, interaction: discord.Interaction, table: Table) -> None:
        """Leaving a game in play is asked once more, saying what it gives up."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not seated at this table."))
        at_once, warning = table.leave_terms(seat.seat)
        if at_once:
            text = _("Leave the table? Your chips go back to your balance.")
        else:
            text = _(
                "Leave the table? You leave when this hand ends; your turns are played for you."
            )
        if warning:
            text += f"\n{warning}"
        view = buttons(table.id, "confirm_leave")
        await send_answer(interaction, content=text, view=view, ephemeral=True)

    async def show_hand(
        self, interaction: discord.Interaction, bot: TableHost, table: Table
    ) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state is None:
            raise UserError(_("You are not playing at this table."))
        await bot.runtime.back(self.table_id, interaction.user.id)
        await bot.presenter.show_hand(interaction, table, seat.seat)


async def choose_ai_level(interaction: discord.Interaction, table: Table) -> None:
    """Add AI asks which level, privately: a button per level, each saying what it does."""
    view = buttons(table.id, *(f"ai_{level}" for level in LEVELS))
    await send_answer(interaction, content=which_level(), view=view, ephemeral=True)


async def play(
    interaction: discord.Interaction,
    bot: TableHost,
    table_id: int,
    prompt: int,
    token: str | None = None,
    action: Action | None = None,
) -> None:
    """Apply a player's choice; the presenter answers the click with what it changed."""
    table = bot.runtime.get(table_id)  # before the move, which may close it
    events = await bot.runtime.act(table_id, interaction.user.id, prompt, token, action)
    await bot.presenter.move_made(interaction, table, events)


class ActionButton(
    TableItem, discord.ui.DynamicItem[discord.ui.Button], template=ACTION_BUTTON.template
):
    """One of the seat's listed actions, named by its token (`action_token`)."""

    CUSTOM_ID = ACTION_BUTTON

    def __init__(self, table_id: int, prompt: int, token: str, label: str = "") -> None:
        self.table_id, self.prompt, self.token = table_id, prompt, token
        super().__init__(discord.ui.Button(**self.look(table_id, prompt, token, label)))

    @classmethod
    def look(
        cls, table_id: int, prompt: int, token: str, label: str = "", *, warn: bool = False
    ) -> dict[str, Any]:
        """Its look; `warn`: an action that gives something up (a fold), drawn red."""
        style = discord.ButtonStyle.danger if warn else discord.ButtonStyle.primary
        custom_id = cls.CUSTOM_ID.format(table_id, prompt, token)
        return {"label": label or token, "style": style, "custom_id": custom_id}

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        await play(interaction, bot, self.table_id, self.prompt, self.token)


class ActionSelect(
    TableItem, discord.ui.DynamicItem[discord.ui.Select], template=ACTION_SELECT.template
):
    """A kind of action that comes in several choices (`part`: which of its selects)."""

    CUSTOM_ID = ACTION_SELECT

    def __init__(
        self,
        table_id: int,
        prompt: int,
        kind: str,
        options: list[tuple[str, str]] | None = None,
        part: int = 0,
    ) -> None:
        self.table_id, self.prompt = table_id, prompt
        super().__init__(select_item(self.look(table_id, prompt, kind, options or [], part)))

    @classmethod
    def look(
        cls, table_id: int, prompt: int, kind: str, options: list[tuple[str, str]], part: int = 0
    ) -> dict[str, Any]:
        """Its custom_id, placeholder and (token, label) options."""
        options = options or [("-", "-")]  # a select needs one (dispatch passes none)
        named = kind_name(kind)
        if part or len(options) == MAX_SELECT_OPTIONS:
            placeholder = _(
                "{kind} ({first} to {last})…",
                kind=named,
                first=options[0][1],
                last=options[-1][1],
            )
        else:
            placeholder = f"{named}…"
        return {
            "custom_id": cls.CUSTOM_ID.format(table_id, prompt, kind, part),
            "placeholder": placeholder[:150],
            "options": options,
        }

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        values = self.chosen(interaction)
        if len(values) != 1:
            raise InvalidComponent()
        await play(interaction, bot, self.table_id, self.prompt, values[0])
