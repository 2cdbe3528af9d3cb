"""The picker's custom_ids, in the project's one codec (`CustomId`), in one of two forms.

The paged form serves every picker:

    pc:<table>:<prompt>:<cards>:<selection>:<page>:<group>:<index>   tap card <index>
    pb:<table>:<prompt>:<cards>:<selection>:<page>:<group>:<verb>    play | clear | page | group
                                                                     | tool
    ps:<table>:<prompt>:<cards>                                      the suggestions (a select;
                                                                     each value is a selection)

The compact form serves a picker on one page whose cards find their own group
(`first_with_room`): it has nothing to carry but the selection. Its words for the verbs are
set (play), fill (tool) and clear: the ids arrangements were first drawn with, kept so that
buttons drawn before an upgrade keep working.

    cz:<table>:<prompt>:<cards>:<selection>:<index>
    cz:<table>:<prompt>:<cards>:<selection>:<word>
    cz:<table>:<prompt>:<cards>:suggested

<cards> is a checksum of the zones' cards (`Picker.checksum`); <selection> is hex. Each part
has a bounded length, so a forged id can't make the bot read a number of any size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.custom_ids import CustomId, Field, whole
from bot.discord.picker.model import CHECKSUM_DIGITS, SUGGESTED_PLAYS, Choice
from bot.i18n import _

MAX_ID_LENGTH = 100  # Discord's limit for a custom_id
NUMBER, HEX = r"\d{1,20}", r"[0-9a-f]{1,100}"
DRAWN = (  # what every control is drawn for: the table, the prompt and the cards
    Field("table_id", NUMBER, whole),
    Field("prompt", NUMBER, whole),
    Field("checksum", rf"[0-9a-f]{{{CHECKSUM_DIGITS}}}"),
)
SELECTION = Field("selection", HEX, lambda text: int(text, 16))
PLACE = (Field("page", NUMBER, int), Field("group", r"\d", int))
INDEX = Field("index", r"\d{1,40}", int)
PLAY_STYLE = {"play": discord.ButtonStyle.primary}


def verbs(words: dict[str, str]) -> Field:
    """The verb of a button, as `words` writes each."""
    read = {word: verb for verb, word in words.items()}
    return Field("verb", "|".join(words.values()), read.__getitem__)


@dataclass(frozen=True)
class Form:
    """One way of writing the picker's custom_ids. `paged`: the page and the group being
    filled follow the selection; `words`: how each verb is written."""

    card: CustomId
    button: CustomId
    suggestions: CustomId
    paged: bool
    words: dict[str, str]

    def choice_parts(self, choice: Choice) -> tuple[object, ...]:
        selection = f"{choice.selection:x}"
        return (selection, choice.page, choice.group) if self.paged else (selection,)

    @staticmethod
    def choice(fields: dict[str, Any]) -> Choice:
        """The choice a control carries; a compact one is on the first page, its one group."""
        return Choice(fields["selection"], fields.get("page", 0), fields.get("group", 0))

    # ---- looks: what a control is drawn with --------------------------------------------

    def card_look(
        self, table_id: int, prompt: int, checksum: str, choice: Choice, index: int, label=""
    ) -> dict[str, Any]:
        """Its custom_id and label (its style shows where the card is picked to)."""
        custom_id = self.card_ids(table_id, prompt, checksum, choice) + str(index)
        return {"label": label or "?", "custom_id": custom_id}

    def card_ids(self, table_id: int, prompt: int, checksum: str, choice: Choice) -> str:
        """What the custom_id of every card drawn for `choice` starts with: its index
        follows. Written once per drawing, not once per card."""
        return self.card.format(table_id, prompt, checksum, *self.choice_parts(choice), "")

    def button_look(
        self, table_id: int, prompt: int, checksum: str, choice: Choice, verb: str, label=""
    ) -> dict[str, Any]:
        parts = (table_id, prompt, checksum, *self.choice_parts(choice), self.words[verb])
        return {
            "label": label or verb,
            "style": PLAY_STYLE.get(verb, discord.ButtonStyle.secondary),
            "custom_id": self.button.format(*parts),
        }

    def suggestions_look(
        self,
        table_id: int,
        prompt: int,
        checksum: str,
        options: list[tuple[int, str]],
        placeholder: str = "",
    ) -> dict[str, Any]:
        """Its custom_id, placeholder (the reader's words; by default "Suggested plays…")
        and (value, label) options, from (selection, label)."""
        parts = (table_id, prompt, checksum, *([] if self.paged else ["suggested"]))
        return {
            "custom_id": self.suggestions.format(*parts),
            "placeholder": placeholder or _(SUGGESTED_PLAYS),
            "options": [(f"{selection:x}", label) for selection, label in options],
        }


PAGED_WORDS = {verb: verb for verb in ("play", "clear", "page", "group", "tool")}
PAGED = Form(
    card=CustomId("pc", (*DRAWN, SELECTION, *PLACE, INDEX)),
    button=CustomId("pb", (*DRAWN, SELECTION, *PLACE, verbs(PAGED_WORDS))),
    suggestions=CustomId("ps", DRAWN),
    paged=True,
    words=PAGED_WORDS,
)
COMPACT_WORDS = {"play": "set", "tool": "fill", "clear": "clear"}
COMPACT = Form(
    card=CustomId("cz", (*DRAWN, SELECTION, INDEX)),
    button=CustomId("cz", (*DRAWN, SELECTION, verbs(COMPACT_WORDS))),
    suggestions=CustomId("cz", (*DRAWN, Field("suggested", "suggested"))),
    paged=False,
    words=COMPACT_WORDS,
)
