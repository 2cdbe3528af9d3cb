"""Liar's Terrapin as the registry knows it: its rules and its AI."""

from pydantic import TypeAdapter

from bot.games.terrapin.liars.ai import LiarsPolicy
from bot.games.terrapin.liars.rules import LiarsAction, LiarsOptions, LiarsState
from bot.games.terrapin.table import terrapin_spec
from bot.i18n import N_

LIARS = terrapin_spec(
    game_id="liars",
    name=N_("Liar's Terrapin"),
    state_model=LiarsState,
    options_model=LiarsOptions,
    actions=TypeAdapter(LiarsAction),
    ai=LiarsPolicy(),
    # A claim tells of hidden cards: worlds dealing them blind lost to Standard (bench/ai.py,
    # 60 matches: -1.20 chips a match, 95% CI -1.93 to -0.47). Dealt as the claim implies
    # (LiarsPolicy.shape_world), Expert beats it: +2.59 chips a match a seat (200 matches,
    # 95% CI +2.27 to +2.91; paired, 16 worlds, 40 deals: +1.98, CI +1.49 to +2.46).
    searches=True,
)
