"""Discord wording the points games share: a player's line on the table message."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _


def player_line(name: str, details: Sequence[str], *, turn: bool, dealer: bool) -> str:
    """`▶ **Ann** (dealer) · 5 cards · 3 points`: the pointer on the player whose turn it is,
    then the game's details of them."""
    pointer = "▶ " if turn else ""
    bold = f"**{name}**"
    who = _("{name} (dealer)", name=bold) if dealer else bold
    return f"{pointer}{who} · " + " · ".join(details)
