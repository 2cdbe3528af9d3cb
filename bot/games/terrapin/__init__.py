"""The Terrapin family on the Decktet: shared hand scoring (scoring.py), the betting variants'
table (table.py) and their AIs' hand estimates (ai.py), then one package per variant (liars,
provincial, temptation, western; soliterrapin, the solitaire).
"""

from bot.games.terrapin.scoring import is_turtle_butt, longest_straight, score

__all__ = ["is_turtle_butt", "longest_straight", "score"]
