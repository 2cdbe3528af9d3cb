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
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
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


async def redraw_clicked(interaction: discord.Interaction, **fields: Any) -> None:
    """Answer a component click by editing the message it is on (Discord's UPDATE_MESSAGE):
    what `interaction.response.edit_message(**fields)` does, with a 204 for its answer. A
    click acknowledged already (`acknowledge_if_late`) has its message edited instead."""
    response, state = interaction.response, interaction._state
    if response.type is discord.InteractionResponseType.deferred_message_update:
        await interaction.edit_original_response(**fields)
        return
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    message_id = interaction.message.id if interaction.message else None
    view = fields.get("view", MISSING)
    if view is not MISSING and message_id is not None:
        state.prevent_view_updates_for(message_id)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        previous_allowed_mentions=state.allowed_mentions,
        **fields,
    )
    route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=state.http.proxy,
        proxy_auth=state.http.proxy_auth,
        payload=params.payload,
        multipart=params.multipart,
        files=params.files,
    )
    response._response_type = discord.InteractionResponseType.message_update
    _keep_view(state, view, message_id)


async def send_followup(
    webhook: discord.Webhook, *, embed: discord.Embed, view: discord.ui.View | None
) -> tuple[int, int]:
    """Send a followup message through an interaction's webhook, as `webhook.send` does;
    returns its channel's id and its own, read straight off Discord's answer."""
    view = view or MISSING
    with handle_message_parameters(
        embed=embed,
        view=view,
        previous_allowed_mentions=getattr(webhook._state, "allowed_mentions", None),
    ) as params:
        data = await async_context.get().execute_webhook(
            webhook.id,
            webhook.token,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            wait=True,
            with_components=view is not MISSING,
        )
    message_id = int(data["id"])
    _keep_view(webhook._state, view, message_id)
    return int(data["channel_id"]), message_id


async def edit_clicked(
    webhook: discord.Webhook, *, embed: discord.Embed, view: discord.ui.View | None
) -> None:
    """Edit the message a click was answered on (its interaction's original response) through
    that click's webhook, as `interaction.edit_original_response` does, later and without the
    interaction: outside the bot's own rate limit, the message not read back. `view` None
    takes its controls off."""
    with handle_message_parameters(
        embed=embed,
        view=view,
        previous_allowed_mentions=getattr(webhook._state, "allowed_mentions", None),
    ) as params:
        await async_context.get().edit_original_interaction_response(
            webhook.id,
            webhook.token,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


def _keep_view(state: Any, view: Any, message_id: int | None) -> None:
    """What discord.py does after sending a view: let its store route the view's clicks."""
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)
