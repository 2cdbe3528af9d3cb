"""Small text helpers for messages (the counts live in bot.text, below every layer)."""

from datetime import datetime, time, timedelta

from bot.text import chips, plural, signed_chips

__all__ = ["SIDE_NAMES", "chips", "next_utc_midnight", "plural", "relative_time", "signed_chips"]

SIDE_NAMES = "ABCDEF"  # a partnership game's sides, as players see them


def relative_time(moment: datetime) -> str:
    """A Discord timestamp that each reader sees in their own time zone ("in 5 hours")."""
    return f"<t:{int(moment.timestamp())}:R>"


def next_utc_midnight(now: datetime) -> datetime:
    return datetime.combine(now.date() + timedelta(days=1), time(0), tzinfo=now.tzinfo)
