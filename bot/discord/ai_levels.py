"""What Add AI's chooser says of each AI level (bot/games/ai.py; README, AI players)."""

from __future__ import annotations

from bot.games.ai import BEGINNER, EXPERT, LEVELS, STANDARD
from bot.i18n import N_, _

# What each level does, as Add AI's chooser says it.
LEVEL_LINES = {
    BEGINNER: N_(
        "**Beginner** plays plausible moves, often not the best: one a new player can beat."
    ),
    STANDARD: N_("**Standard** plays by the game's rules of thumb."),
    EXPERT: N_(
        "**Expert** plays out many deals the hidden cards could be before each move and picks "
        "what wins most: the strongest."
    ),
}


def which_level() -> str:
    """The question Add AI asks, with a line per level."""
    return "\n".join([_("Which AI player?")] + [_(LEVEL_LINES[level]) for level in LEVELS])
