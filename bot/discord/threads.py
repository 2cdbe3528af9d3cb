"""The messages the bot keeps up to date (a table's, a tournament's), and archived threads.

Such a message is edited in place, and posted anew where that can't be: a moderator deleted
it, or its thread is archived. Discord archives a thread after its quiet time (no new message
for its `auto_archive_duration`), or a moderator does: it leaves the channel list and its
messages take no edit, but a new message brings it back unless a moderator locked it
(docs/discord-testing.md). A table or tournament still open in one has its message posted anew
(TableMessages, TournamentPresenter)."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003  # Discord's error code when a channel or thread is gone
THREAD_ARCHIVED = 50083  # Discord's code refusing an edit in an archived thread


def archived_unlocked(payload: discord.RawThreadUpdateEvent) -> bool:
    """Whether a thread was archived but not locked: a message posted there brings it back."""
    metadata = payload.data.get("thread_metadata", {})
    return bool(metadata.get("archived")) and not metadata.get("locked")


async def edit_else_post(
    channel: discord.PartialMessageable,
    message_id: int | None,
    embed: discord.Embed,
    view: discord.ui.View | None,
    files: list[discord.File],
) -> tuple[discord.Message | None, discord.PartialMessage | None]:
    """Edit the kept message in place, else post it anew: the new message (None: edited) and
    the old one frozen in an archived thread, for the caller to delete once it has recorded
    the new (so that its deletion is not taken for a moderator's). A channel that is gone
    raises NotFound (UNKNOWN_CHANNEL)."""
    archived = None
    if message_id is not None:
        kept = channel.get_partial_message(message_id)
        try:
            await kept.edit(embed=embed, view=view, attachments=files)
            return None, None
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise
            log.info("message %s was deleted; posting it anew", message_id)
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                raise
            log.info("message %s's thread is archived; posting it anew", message_id)
            archived = kept
    # discord.py's overloads of `send` leave out the None its body takes for no view.
    posted = await channel.send(embed=embed, view=view, files=files)  # type: ignore[arg-type]
    return posted, archived
