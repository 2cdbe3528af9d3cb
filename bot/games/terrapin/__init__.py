"""The Terrapin family on the Decktet: shared hand scoring, then one engine per variant."""

from bot.games.terrapin.scoring import is_turtle_butt, longest_straight, score

__all__ = ["is_turtle_butt", "longest_straight", "score"]
