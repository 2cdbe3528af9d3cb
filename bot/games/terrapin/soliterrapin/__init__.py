"""Soliterrapin, the solitaire of the Terrapin family: its rules (rules.py) and its spec
(spec.py); a personal game has no AI. On Discord: its GameUI (ui.py), its board picture
(picture.py) and its rules text (rules.md), which only the bot's cog imports.
"""

from bot.games.terrapin.soliterrapin.rules import (
    Abandon,
    Cell,
    Finished,
    Line,
    Place,
    Placed,
    SoliterrapinAction,
    SoliterrapinOptions,
    SoliterrapinState,
    SoliterrapinView,
    Spot,
    column_name,
    row_name,
    spot_name,
)
from bot.games.terrapin.soliterrapin.spec import SOLITERRAPIN

__all__ = [
    "SOLITERRAPIN",
    "Abandon",
    "Cell",
    "Finished",
    "Line",
    "Place",
    "Placed",
    "SoliterrapinAction",
    "SoliterrapinOptions",
    "SoliterrapinState",
    "SoliterrapinView",
    "Spot",
    "column_name",
    "row_name",
    "spot_name",
]
