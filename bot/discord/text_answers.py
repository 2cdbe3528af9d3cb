"""A decision answered in words: a seat's button opening a form (a modal), and the form's
submit played as the seat's action (Delphi's rule, Backhand's other amount)."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from bot.discord.controls import TEXT_BUTTON, TEXT_FORM, TableItem, play, sent
from bot.discord.port import TableHost
from bot.errors import UserError
from bot.i18n import _
from bot.tables import Table


class TextButton(
    TableItem, discord.ui.DynamicItem[discord.ui.Button], template=TEXT_BUTTON.template
):
    """Opens a modal for a decision answered in free text (a secret word, a rule)."""

    late = None  # a modal must be the first answer
    CUSTOM_ID = TEXT_BUTTON

    def __init__(self, table_id: int, prompt: int) -> None:
        self.table_id, self.prompt = table_id, prompt
        super().__init__(discord.ui.Button(**self.look(table_id, prompt)))

    @classmethod
    def look(cls, table_id: int, prompt: int, label: str = "") -> dict[str, Any]:
        """Its look: `label`, the game's words, else "Write your answer"."""
        return {
            "label": label or _("Write your answer"),
            "style": discord.ButtonStyle.primary,
            "custom_id": cls.CUSTOM_ID.format(table_id, prompt),
        }

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        question = open_question(bot.runtime.get(self.table_id), interaction.user.id, self.prompt)
        await interaction.response.send_modal(TextModal(self.table_id, self.prompt, question))


def open_question(table: Table, member_id: int, prompt: int) -> str:
    """The question `member_id` is to answer in words at `prompt`, or why they can't."""
    seat = table.seat_of(member_id)
    if seat is None or table.state is None:
        raise UserError(_("You are not seated at this table."))
    decision = table.decision(seat.seat)
    if decision is None or not decision.text_question or seat.prompt != prompt:
        raise UserError(_("This prompt has expired."))
    return decision.text_question


ANSWER = "answer"  # the custom_id of a form's one text input


class TextModal(discord.ui.Modal):
    """The form asking the question. Its submit is `TextAnswer`'s, found by its custom_id as
    a click finds its button: a form left open while the bot restarted still works. So it is
    stopped before it is sent, and discord.py keeps no copy of it waiting for the submit."""

    def __init__(self, table_id: int, prompt: int, question: str) -> None:
        custom_id = TextAnswer.CUSTOM_ID.format(table_id, prompt)
        super().__init__(title=_("Your answer"), custom_id=custom_id)
        answer: discord.ui.TextInput[TextModal] = discord.ui.TextInput(
            custom_id=ANSWER, max_length=300
        )
        self.add_item(discord.ui.Label(text=question[:45], component=answer))
        self.stop()


class TextAnswer(TableItem):
    """A submitted form (`TextModal`): its answer goes to the game as the seat's action.
    Dispatched by the bot's `on_interaction` by its custom_id (`TEMPLATE`)."""

    CUSTOM_ID = TEXT_FORM
    TEMPLATE: ClassVar[re.Pattern[str]] = re.compile(TEXT_FORM.template)

    def __init__(self, table_id: int, prompt: int) -> None:
        self.table_id, self.prompt = table_id, prompt
        self.custom_id = self.CUSTOM_ID.format(table_id, prompt)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> TextAnswer:
        return cls(**cls.CUSTOM_ID.read(match))

    async def run(self, interaction: discord.Interaction, bot: TableHost) -> None:
        table = bot.runtime.get(self.table_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state is None:
            raise UserError(_("You are not seated at this table."))
        action = table.text_action(seat.seat, form_answer(sent(interaction)))
        await play(interaction, bot, self.table_id, self.prompt, action=action)


def form_answer(data: Any) -> str:
    """The answer a form's submit carries (its input in a row, or in a label); empty if none."""
    for row in data.get("components") or []:
        for field in row.get("components") or [row.get("component") or {}]:
            if field.get("custom_id") == ANSWER:
                return str(field.get("value") or "")
    return ""
