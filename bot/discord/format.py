"""Small text helpers for messages."""

from datetime import datetime


def chips(amount: int) -> str:
    return f"{amount:,} chip" + ("" if amount == 1 else "s")


def relative_time(moment: datetime) -> str:
    """A Discord timestamp that each reader sees in their own time zone ("in 5 hours")."""
    return f"<t:{int(moment.timestamp())}:R>"
