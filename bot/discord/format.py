"""Small text helpers for messages (the counts live in bot.text, below every layer)."""

from datetime import datetime, time, timedelta

from bot.i18n import p_
from bot.text import chips, plural, signed_chips

__all__ = [
    "KIND_CONTEXT",
    "SIDE_CONTEXT",
    "SIDE_NAMES",
    "bold",
    "chips",
    "kind_name",
    "kind_title",
    "next_utc_midnight",
    "plural",
    "relative_time",
    "side_letter",
    "signed_chips",
]

SIDE_NAMES = "ABCDEF"  # a partnership game's sides, as players see them
SIDE_CONTEXT = "partnership side"  # the catalogs' context of a side's letter


def bold(text: str) -> str:
    """`text` in bold (Discord's markdown), a name in a message, say."""
    return f"**{text}**"


def side_letter(side: int) -> str:
    """A partnership's letter in the reader's language (A, B...)."""
    return p_(SIDE_CONTEXT, SIDE_NAMES[side])


def relative_time(moment: datetime) -> str:
    """A Discord timestamp that each reader sees in their own time zone ("in 5 hours")."""
    return f"<t:{int(moment.timestamp())}:R>"


def next_utc_midnight(now: datetime) -> datetime:
    return datetime.combine(now.date() + timedelta(days=1), time(0), tzinfo=now.tzinfo)


KIND_CONTEXT = "action kind"  # the catalogs' context of a kind of action's name


def kind_title(kind: str) -> str:
    """A kind of action by name, in English ("draw_rule" is "Draw Rule"): the catalogs' key
    (`python -m bot.i18n extract` lists every game's kinds)."""
    return kind.replace("_", " ").title()


def kind_name(kind: str) -> str:
    """A kind of action by name, in the reader's language."""
    return p_(KIND_CONTEXT, kind_title(kind))
