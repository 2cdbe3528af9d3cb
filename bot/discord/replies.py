"""The two replies a busy bot sends most, without asking Discord for the message back.

Answering a click by redrawing its message, and sending a seat its prompt as a followup (or
editing it into the message the seat just answered in), are nearly every request at a busy
table. discord.py asks Discord to return the message each time (`with_response=1`; a
followup always waits) and builds a full `discord.Message` from it (its author, embeds,
components): about a tenth of the bot's CPU at 500 busy tables, for a message
the bot never reads, or only for its two ids. These helpers send the same requests through
discord.py's own adapter (pinned at 2.7.1: they follow its internals) and read no more than
they need. Errors are discord.py's own (`HTTPException`, `NotFound`, `Forbidden`).

Here too: how an interaction that reached the bot late is acknowledged at once and answered
after, within Discord's 3 s (`acknowledge_if_late`).
"""

from __future__ import annotations

import time
from typing import Any

import discord

from bot.discord.internals import update_clicked

# Discord takes an interaction's first answer only within 3 s of its making, else answers
# 10062 "Unknown interaction" and the member sees "This interaction failed".
UNKNOWN_INTERACTION = 10062
# A click older than this when its handling starts is acknowledged before anything is done
# (see `acknowledge_if_late`): the rest of its 3 s goes to the network and the work.
LATE_AFTER = 1.5


def age(interaction: discord.Interaction) -> float:
    """Seconds since Discord made the interaction, as its id says."""
    made_ms = (interaction.id >> 22) + discord.utils.DISCORD_EPOCH
    return time.time() - made_ms / 1000


def expired(error: BaseException) -> bool:
    """Whether Discord refused an answer because the interaction's time to answer ran out."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


async def acknowledge_if_late(interaction: discord.Interaction, *, privately: bool) -> None:
    """Acknowledge a late interaction (a click, a command) before it changes anything. Clicks
    reach a busy bot late when a burst of them queues up (every table acting at once after a
    restart); answered after its 3 s, a change would stand while its member saw "This
    interaction failed". The answer then comes as an edit: of the clicked message
    (`redraw_clicked`), or, for one answered `privately`, of the ephemeral "thinking..."
    message acknowledging it (`send_answer`). If even the acknowledgement is too late,
    Discord's NotFound propagates and nothing was done."""
    if age(interaction) >= LATE_AFTER:
        await interaction.response.defer(ephemeral=privately, thinking=privately)


async def acknowledge_before_long_work(interaction: discord.Interaction) -> None:
    """Acknowledge with a private "thinking..." before work that may pass Discord's 3 s (a
    hand played out as its table closes, a match replayed); `send_answer` replaces it. One
    acknowledged already, as late (`acknowledge_if_late`), is left so: discord.py refuses a
    second answer, and the work would not run."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def send_answer(
    interaction: discord.Interaction, content: str | None = None, **fields: Any
) -> None:
    """Answer with a message, as `interaction.response.send_message(content, **fields)`; an
    interaction acknowledged already (`acknowledge_if_late`) has its "thinking..." message
    replaced, seen by whom the acknowledgement was (a late command's public answer is shown
    to its member alone)."""
    if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        fields.pop("ephemeral", None)
        await interaction.edit_original_response(content=content, **fields)
    else:
        await interaction.response.send_message(content, **fields)


def on_public_message(interaction: discord.Interaction) -> bool:
    """Whether a click came from a message the whole channel sees (in a server, and not an
    ephemeral answer): where no control answered with a member's own view belongs."""
    message = interaction.message
    return interaction.guild_id is not None and message is not None and not message.flags.ephemeral


async def redraw_clicked(interaction: discord.Interaction, **fields: Any) -> None:
    """Answer a component click by editing the message it is on (Discord's UPDATE_MESSAGE):
    what `interaction.response.edit_message(**fields)` does, with a 204 for its answer. A
    click acknowledged already (`acknowledge_if_late`) has its message edited instead."""
    response = interaction.response
    if response.type is discord.InteractionResponseType.deferred_message_update:
        await interaction.edit_original_response(**fields)
        return
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    await update_clicked(interaction, fields)
