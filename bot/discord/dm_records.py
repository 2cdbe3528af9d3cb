"""What PrivateHands (dms.py) keeps of the DMs it sent: the followup webhook of a player's
latest click there, a DM holding a seat's live controls, and a DM its player just answered
in."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import discord

Key = tuple[int, int]  # (table, seat)


@dataclass
class ReplyHook:
    """A click's followup webhook. Its token lives 15 minutes; we stop a minute early."""

    webhook: discord.Webhook
    until: float

    LIFE: ClassVar[float] = 14 * 60

    @classmethod
    def of(cls, interaction: discord.Interaction, now: float) -> ReplyHook:
        return cls(interaction.followup, now + cls.LIFE)

    def live(self) -> bool:
        return time.monotonic() < self.until


@dataclass(frozen=True)
class DMPrompt:
    channel_id: int
    message_id: int
    prompt: int
    hook: ReplyHook | None = None  # sent through a click's followup: edited through it too


@dataclass(frozen=True)
class Watched:
    """A DM its player just answered in (`PrivateHands.answer_landed`): whose, where, the
    click's webhook (which edits it as the click's own message, outside the bot's rate limit)
    and when the answer showed."""

    member_id: int
    channel_id: int
    message_id: int
    hook: ReplyHook
    at: float
