"""Temptation Terrapin's AI: everyone reaches the showdown, so a card is worth buying when the
share of the pot it is expected to add (Turtle Butt risk included) pays for its price.

Its share is estimated by dealing the rivals' hidden cards from the cards it hasn't seen.
"""

from __future__ import annotations

import random

from bot.engine import Action, Decision, Policy
from bot.games.terrapin import ai
from bot.games.terrapin.temptation.rules import Buy, Decline, TemptationView


class TemptationPolicy(Policy[TemptationView]):
    game_id = "temptation"

    def choose(
        self,
        seat: int,
        view: TemptationView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        hand = ai.ids(view.my_cards or []) + ai.ids(view.shared)
        pool = ai.unseen(view.my_cards or [], view.shared, view.set_aside)
        rivals = [ai.Rival(hidden=s.cards) for s in view.seats if s.in_hand and s.seat != seat]
        table = ai.showdown(ai.ids(view.shared), rivals, pool, rng)
        kept = table.share(ai.value(hand)) * view.pot
        bought = table.share_after_draw(hand, pool) * (view.pot + view.price) - view.price
        return Buy() if bought > kept else Decline()
