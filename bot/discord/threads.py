"""Archived threads. Discord archives a thread after its quiet time (no new message for its
`auto_archive_duration`), or a moderator does: it leaves the channel list and its messages take
no edit, but a new message brings it back unless a moderator locked it
(docs/discord-testing.md). A table or tournament still open in one has its message posted
anew (TableMessages, TournamentPresenter)."""

from __future__ import annotations

import discord

THREAD_ARCHIVED = 50083  # Discord's code refusing an edit in an archived thread


def archived_unlocked(payload: discord.RawThreadUpdateEvent) -> bool:
    """Whether a thread was archived but not locked: a message posted there brings it back."""
    metadata = payload.data.get("thread_metadata", {})
    return bool(metadata.get("archived")) and not metadata.get("locked")
