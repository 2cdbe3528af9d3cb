"""The picker's controls: dynamic items built from their custom_ids (see codec.py), so they work
after a restart. Each checks that it fits the player's picker now, then asks the `Desk` what
the click does."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol, Self

import discord

from bot.discord.controls import TableItem, play, select_item, sent
from bot.discord.internals import compiled_template
from bot.discord.picker.codec import COMPACT, HEX, PAGED, Form
from bot.discord.picker.desk import Desk, PickerUI
from bot.discord.picker.model import Choice
from bot.discord.port import TableHost
from bot.discord.replies import redraw_clicked
from bot.errors import InvalidComponent, UserError
from bot.i18n import N_, _

EXPIRED = N_("This prompt has expired.")  # said when refused


async def redraw(
    interaction: discord.Interaction, bot: TableHost, desk: Desk, choice: Choice
) -> None:
    """Show the player's hand again with this choice, in the message they tapped."""
    embed = bot.presenter.hands.private_embed(desk.table, desk.seat)
    desk.describe(embed, choice)
    await redraw_clicked(interaction, embed=embed, view=desk.controls(choice))


class PickItem(TableItem):
    """What the picker's controls share: the table, prompt and cards they were drawn for,
    checked against the table before anything is done, and the form of their ids."""

    form: ClassVar[Form]
    table_id: int
    prompt: int
    checksum: str

    def desk(self, interaction: discord.Interaction, bot: TableHost) -> Desk:
        """The player's picker now, once this control fits it."""
        if sent(interaction).get("custom_id") != self.custom_id:
            raise InvalidComponent()  # not the form the bot writes (leading zeros, say)
        table = bot.runtime.get(self.table_id)
        ui = bot.presenter.games.get(table.game.id)
        if not isinstance(ui, PickerUI) or table.state is None:
            raise InvalidComponent()
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not seated at this table."))
        if seat.seat not in table.pending_seats():
            raise UserError(ui.waiting_reason(table.view(seat.seat)))
        if seat.prompt != self.prompt:
            raise UserError(_(EXPIRED))
        desk = Desk.open(table, seat.seat, ui)
        if desk is None or desk.form is not self.form:
            raise InvalidComponent()  # nothing to pick now (an auction), or not drawn so
        if desk.picker.checksum() != self.checksum:
            raise UserError(_(EXPIRED))  # drawn for other cards
        return desk


class CardItem(PickItem):
    """A card: picks it into its group, or lets it go."""

    def __init__(
        self, table_id: int, prompt: int, checksum: str, choice: Choice, index: int
    ) -> None:
        self.table_id, self.prompt, self.checksum = table_id, prompt, checksum
        self.choice, self.index = choice, index
        look = self.form.card_look(table_id, prompt, checksum, choice, index)
        super().__init__(discord.ui.Button(**look))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> Self:
        fields = cls.CUSTOM_ID.read(match)
        return cls(*drawn(fields), cls.form.choice(fields), fields["index"])

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        desk = self.desk(interaction, bot)
        desk.check(self.choice)
        await redraw(interaction, bot, desk, desk.tap(self.choice, self.index))


class VerbItem(PickItem):
    """Play selected (the picker's verb), Clear, More cards, Fill <group>, the game's tool."""

    def __init__(
        self, table_id: int, prompt: int, checksum: str, choice: Choice, verb: str
    ) -> None:
        self.table_id, self.prompt, self.checksum = table_id, prompt, checksum
        self.choice, self.verb = choice, verb
        look = self.form.button_look(table_id, prompt, checksum, choice, verb)
        super().__init__(discord.ui.Button(**look))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> Self:
        fields = cls.CUSTOM_ID.read(match)
        return cls(*drawn(fields), cls.form.choice(fields), fields["verb"])

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        desk = self.desk(interaction, bot)
        desk.check(self.choice)
        if self.verb == "play":
            action = desk.action(self.choice.selection)
            await play(interaction, bot, self.table_id, self.prompt, action=action)
            return
        await redraw(interaction, bot, desk, desk.press(self.choice, self.verb))


class SuggestionsItem(PickItem):
    """Suggested picks: each option's value is the selection that makes it, played at once,
    or under review (`Picker.review`) shown to be played with the verb."""

    def __init__(
        self,
        table_id: int,
        prompt: int,
        checksum: str,
        options: list[tuple[int, str]] | None = None,
    ) -> None:
        self.table_id, self.prompt, self.checksum = table_id, prompt, checksum
        look = self.form.suggestions_look(table_id, prompt, checksum, options or [(0, "-")])
        super().__init__(select_item(look))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> Self:
        return cls(*drawn(cls.CUSTOM_ID.read(match)))

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        desk = self.desk(interaction, bot)
        selection = suggestion(self.chosen(interaction), desk.picker.limit)
        if desk.picker.review:
            await redraw(interaction, bot, desk, Choice(selection))
            return
        action = desk.action(selection)
        await play(interaction, bot, self.table_id, self.prompt, action=action)


def drawn(fields: dict[str, Any]) -> tuple[int, int, str]:
    """What a control was drawn for, as its custom_id says: the table, prompt and cards."""
    return fields["table_id"], fields["prompt"], fields["checksum"]


def suggestion(values: list[str], limit: int) -> int:
    """The selection a suggestions select carries, once it is one the bot can have written."""
    if len(values) != 1 or not re.fullmatch(HEX, values[0]):
        raise InvalidComponent()
    selection = int(values[0], 16)
    if f"{selection:x}" != values[0] or not 0 < selection < limit:
        raise InvalidComponent()
    return selection


Button = discord.ui.DynamicItem[discord.ui.Button]
Select = discord.ui.DynamicItem[discord.ui.Select]


# The controls of each form; `look` is what a control is drawn with, as every item's is.


class PickToggle(CardItem, Button, template=PAGED.card.template):
    form, CUSTOM_ID, look = PAGED, PAGED.card, staticmethod(PAGED.card_look)


class PickButton(VerbItem, Button, template=PAGED.button.template):
    form, CUSTOM_ID, look = PAGED, PAGED.button, staticmethod(PAGED.button_look)


class PickSuggestions(SuggestionsItem, Select, template=PAGED.suggestions.template):
    form, CUSTOM_ID, look = PAGED, PAGED.suggestions, staticmethod(PAGED.suggestions_look)


class CompactToggle(CardItem, Button, template=COMPACT.card.template):
    form, CUSTOM_ID, look = COMPACT, COMPACT.card, staticmethod(COMPACT.card_look)


class CompactButton(VerbItem, Button, template=COMPACT.button.template):
    form, CUSTOM_ID, look = COMPACT, COMPACT.button, staticmethod(COMPACT.button_look)


class CompactSuggestions(SuggestionsItem, Select, template=COMPACT.suggestions.template):
    form, CUSTOM_ID, look = COMPACT, COMPACT.suggestions, staticmethod(COMPACT.suggestions_look)


PICKER_ITEMS = (
    PickToggle,
    PickButton,
    PickSuggestions,
    CompactToggle,
    CompactButton,
    CompactSuggestions,
)


class DynamicItems(Protocol):
    """Where dynamic items are registered: the bot (bot/app.py)."""

    component_templates: list[re.Pattern[str]]

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...


def add_picker(bot: DynamicItems) -> None:
    """Register the picker's controls with the bot, once: every picking game's cog calls it."""
    templates = {compiled_template(item) for item in PICKER_ITEMS}
    if not templates <= set(bot.component_templates):
        bot.add_dynamic_items(*PICKER_ITEMS)
