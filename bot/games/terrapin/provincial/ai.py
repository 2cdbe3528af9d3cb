"""Provincial Terrapin's AI: it weighs its share of the pot at a showdown, estimated by dealing
the rivals' hidden cards from the cards it hasn't seen (cards they took from the face-up pile
are known), against what each fist costs.

As dealer it sets a stake that grows with its hand. At the fists it shows the one worth most:
two chips (call) when its hand is good enough to stop here, one (pay to play) when the pot pays
for a discard or a draw, none to fold. At the exchange it discards, draws from the deck or takes
the face-up card, whichever leaves the best share: with a call made it will drop a good card
rather than risk Turtle Butt on a draw, as the rule text's example advises.

For the Expert search (bot/games/expert.py) it ranks its moves by the same worths, and in each
sampled world it forgets the fists the others chose in secret, choosing them again as it would
with the world's hands: the search never reads a fist its seat has not seen opened.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Action, Decision, GameState, Policy
from bot.games.ai import rolling_out
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
    ProvincialState,
    ProvincialView,
    SetStake,
)

CALL_PREMIUM = 1.1  # a call ends the hand while the hand is as good as it is: prefer it a little


@dataclass(frozen=True)
class Weighed:
    """What a decision weighs: the hand's share now, each exchange's, and the rivals in."""

    now: float
    options: list[tuple[float, Action]]
    rivals: int

    @property
    def improved(self) -> float:
        return max((share for share, _ in self.options), default=self.now)


class ProvincialPolicy(Policy[ProvincialView]):
    game_id = "provincial"
    deals_as_play_shows = False  # its worlds choose the fists again, the cards at random

    def choose(
        self,
        seat: int,
        view: ProvincialView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        return self.ranked(seat, view, decision, legal, rng)[0]

    def ranked(
        self,
        seat: int,
        view: ProvincialView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action]:
        """The legal moves, the one worth most first: exchanges by the share they leave,
        fists by their worth, stakes by their distance from the one the hand suggests."""
        weighed = weigh(seat, view, rng)
        if decision.kind == ProvincialKind.EXCHANGE:
            best_first = sorted(weighed.options, key=lambda option: -option[0])  # stable
            return [action for _, action in best_first if action in legal]
        if decision.kind == ProvincialKind.STAKE:
            wanted = stake(view, weighed.now, weighed.improved, weighed.rivals).chips
            stakes = [a for a in legal if isinstance(a, SetStake)]
            stakes.sort(key=lambda a: (abs(a.chips - wanted), a.chips))
            return [*stakes]
        worth = fist_worths(view, weighed.now, weighed.improved, weighed.rivals)
        fists = [a for a in legal if isinstance(a, Fist)]
        fists.sort(key=lambda a: (-worth[a.chips], a.chips))  # on a tie, the fewer chips
        return [*fists]

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """The others' secret fists chosen again with the world's hands (`rechoose_fists`)."""
        assert isinstance(world, ProvincialState)
        with rolling_out():  # as in the playouts: the world's many samples do the sampling
            rechoose_fists(self, world, seat, rng)


def weigh(seat: int, view: ProvincialView, rng: random.Random) -> Weighed:
    """The shares the seat's hand and exchanges have against the rivals' sampled hands."""
    hand = ai.ids(view.my_cards or [])
    shared = ai.ids(view.shared)
    others = [s for s in view.seats if s.in_hand and s.seat != seat]
    known = [card for s in others for card in s.known]
    pool = ai.unseen(view.my_cards or [], view.shared, view.discards, known)
    rivals = [ai.Rival(hidden=s.cards - len(s.known), known=tuple(ai.ids(s.known))) for s in others]
    table = ai.showdown(shared, rivals, pool, rng)
    top = ai.ids(view.discards[-1:])
    deck = pool if view.deck_left else []
    options = exchanges(hand, shared, top, deck, table)
    return Weighed(table.share(ai.value(hand + shared)), options, len(rivals))


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


def stake(view: ProvincialView, share: float, improved: float, rivals: int) -> SetStake:
    """From the least stake with a hand no better than fair, up to the limit with a strong one."""
    fair = 1 / (rivals + 1)
    strong = fair + (1 - fair) * 0.4
    strength = (max(share, improved) - fair) / (strong - fair)
    chips = 1 + round((view.stake_limit - 1) * min(max(strength, 0.0), 1.0))
    return SetStake(chips=chips)


def fist_worths(
    view: ProvincialView, share: float, improved: float, rivals: int
) -> dict[int, float]:
    """What each fist is worth: each rival is reckoned to pay one stake a round on average."""
    stake_chips, pot = view.stake or 1, view.pot
    others_pay = rivals * stake_chips
    return {
        FOLD: 0.0,
        PAY: improved * (pot + stake_chips + others_pay) - stake_chips,
        CALL: CALL_PREMIUM * share * (pot + 2 * stake_chips + others_pay) - 2 * stake_chips,
    }


# ---- the Expert's worlds: the others' secret fists chosen again ------------------------------


def rechoose_fists(
    policy: ProvincialPolicy, world: ProvincialState, seat: int, rng: random.Random
) -> None:
    """Every fist chosen in secret by another seat is forgotten, and chosen again as this
    policy chooses with the world's hands: the world keeps nothing `seat` has not seen (a
    fist is no card, so dealing the hidden cards again would leave it as it was). Those who
    had chosen still have, so the seat's view of the world is as it was."""
    if world.phase != "fists":
        return  # opened fists are seen by all; no other secret lies outside the cards
    chosen = [s for s in world.in_hand if s != seat and world.fists[s] is not None]
    world.fists = [fist if s == seat else None for s, fist in enumerate(world.fists)]
    for other in chosen:
        decision = next(d for d in world.pending() if d.seat == other)
        legal = world.legal_actions(other)
        action = policy.choose(other, world.view(other), decision, legal, rng)
        assert isinstance(action, Fist)
        world.fists[other] = action.chips
