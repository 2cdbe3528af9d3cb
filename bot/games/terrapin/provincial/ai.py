"""Provincial Terrapin's AI: it weighs its share of the pot at a showdown, estimated by dealing
the rivals' hidden cards from the cards it hasn't seen (cards they took from the face-up pile
are known), against what each fist costs.

As dealer it sets a stake that grows with its hand. At the fists it shows the one worth most:
two chips (call) when its hand is good enough to stop here, one (pay to play) when the pot pays
for a discard or a draw, none to fold. At the exchange it discards, draws from the deck or takes
the face-up card, whichever leaves the best share: with a call made it will drop a good card
rather than risk Turtle Butt on a draw, as the rule text's example advises.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Action, Decision, Policy
from bot.games.terrapin import ai
from bot.games.terrapin.provincial.rules import (
    CALL,
    FOLD,
    PAY,
    Discard,
    DrawDeck,
    DrawDiscard,
    Fist,
    ProvincialKind,
    ProvincialView,
    SetStake,
)

CALL_PREMIUM = 1.1  # a call ends the hand while the hand is as good as it is: prefer it a little


class ProvincialPolicy(Policy[ProvincialView]):
    game_id = "provincial"

    def choose(
        self,
        seat: int,
        view: ProvincialView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        hand = ai.ids(view.my_cards or [])
        shared = ai.ids(view.shared)
        others = [s for s in view.seats if s.in_hand and s.seat != seat]
        known = [card for s in others for card in s.known]
        pool = ai.unseen(view.my_cards or [], view.shared, view.discards, known)
        rivals = [
            ai.Rival(hidden=s.cards - len(s.known), known=tuple(ai.ids(s.known))) for s in others
        ]
        table = ai.showdown(shared, rivals, pool, rng)
        top = ai.ids(view.discards[-1:])
        deck = pool if view.deck_left else []
        options = exchanges(hand, shared, top, deck, table)
        if decision.kind == ProvincialKind.EXCHANGE:
            return max((a for a in options if a[1] in legal), key=lambda a: a[0])[1]
        now = table.share(ai.value(hand + shared))
        improved = max(share for share, _ in options)
        if decision.kind == ProvincialKind.STAKE:
            return stake(view, now, improved, len(rivals))
        return fist(view, now, improved, len(rivals), legal)


def exchanges(
    hand: list[int],
    shared: list[int],
    top: list[int],
    deck: Sequence[int],
    table: ai.Showdown,
) -> list[tuple[float, Action]]:
    """Each exchange with the share it leaves: discard a card, take the face-up card, or draw
    from the deck (any card the seat hasn't seen may come)."""
    options: list[tuple[float, Action]] = [
        (
            table.share(ai.value([c for c in hand if c != card] + shared)),
            Discard(card=ai.card_at(card)),
        )
        for card in hand
    ]
    if top:
        options.append((table.share(ai.value(hand + top + shared)), DrawDiscard()))
    if deck:
        options.append((table.share_after_draw(hand + shared, deck), DrawDeck()))
    return options


def stake(view: ProvincialView, share: float, improved: float, rivals: int) -> Action:
    """From the least stake with a hand no better than fair, up to the limit with a strong one."""
    fair = 1 / (rivals + 1)
    strong = fair + (1 - fair) * 0.4
    strength = (max(share, improved) - fair) / (strong - fair)
    chips = 1 + round((view.stake_limit - 1) * min(max(strength, 0.0), 1.0))
    return SetStake(chips=chips)


def fist(
    view: ProvincialView, share: float, improved: float, rivals: int, legal: list[Action]
) -> Action:
    """The fist worth most: each rival is reckoned to pay one stake a round on average."""
    stake_chips, pot = view.stake or 1, view.pot
    others_pay = rivals * stake_chips
    worth = {
        FOLD: 0.0,
        PAY: improved * (pot + stake_chips + others_pay) - stake_chips,
        CALL: CALL_PREMIUM * share * (pot + 2 * stake_chips + others_pay) - 2 * stake_chips,
    }
    choices = [a for a in legal if isinstance(a, Fist)]
    return max(choices, key=lambda a: (worth[a.chips], -a.chips))
