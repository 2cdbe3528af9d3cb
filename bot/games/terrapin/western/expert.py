"""Western Terrapin's Expert: its share of the pot against the hands the betting implies, and
the bet worth most at that share (README, AI players; bot/games/poker_expert.py).

The Standard AI deals its rivals' hidden cards at random. Expert deals them as the betting
says: the rival who bet or raised more than the least in this round (the least is what staying
in costs where checking is not allowed, and says little) holds a hand the Standard AI would
raise with (its share against random hands past its raising bar), but for a bluff now and
then: each deal is kept with the chance it gives. Its draw takes a card while that raises its
share against those hands, and its bet is the one worth most in chips at its share
(`by_expected_value`); before the shared cards are out, it plays as Standard.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.engine import Action
from bot.games.poker_expert import Table, by_expected_value
from bot.games.terrapin import ai
from bot.games.terrapin.western.ai import FINAL_ROUND, RAISES_BEFORE_CALLING, STRONG
from bot.games.terrapin.western.rules import Stand, Take, WesternView

# Deals of the rivals' hidden cards kept per estimate, and dealt at most to keep them.
SAMPLES = 300
TRIES = 4 * SAMPLES
# How likely a bet or raise above the least is with a hand the Standard AI would not raise
# with: it never bluffs; a person does now and then (the search's worlds allow more, 0.15).
BLUFFS = 0.03


def bettor_in(view: WesternView, seat: int) -> int | None:
    """The rival who bet or raised more than the least in this round, as far as the seat can
    tell: the highest in the round but for a least bet, which is what staying in costs where
    checking is not allowed and says little (of several alike, the earliest in seat order;
    None: no such rival)."""
    mine = view.seats[seat].bet
    rivals = [s for s in view.seats if s.in_hand and s.seat != seat]
    top = max((s.bet for s in rivals), default=0)
    if top <= max(mine, 1):
        return None
    return next(s.seat for s in rivals if s.bet == top)


def strong_hands(
    view: WesternView, seat: int, bettor: int, rng: random.Random
) -> Callable[[int], float]:
    """How likely the bettor bets or raises with a hand of these points: surely where the
    Standard AI would (its share of the pot against random hands of its rivals, the seat
    among them, past its raising bar), else only as a bluff."""
    their_rivals = [ai.Rival(hidden=len(view.my_cards or []))]
    their_rivals += [
        ai.Rival(hidden=s.cards) for s in view.seats if s.in_hand and s.seat not in (seat, bettor)
    ]
    pool = ai.unseen(view.shared, view.set_aside)  # as the bettor sees it, near enough
    table = ai.showdown(ai.ids(view.shared), their_rivals, pool, rng)
    fair = 1 / (len(their_rivals) + 1)
    strong = fair + (1 - fair) * STRONG

    def likelihood(points: int) -> float:
        return 1.0 if table.share(points) >= strong else BLUFFS

    return likelihood


def implied_showdown(
    shared: Sequence[int],
    rivals: Sequence[ai.Rival],
    pool: Sequence[int],
    rng: random.Random,
    bettor: tuple[int, Callable[[int], float]] | None = None,
) -> ai.Showdown:
    """`ai.showdown`, the rivals' hidden cards dealt as the betting implies: with `bettor`
    (an index into `rivals`, and how likely it bets a hand of so many points), a deal is
    kept with the chance it gives the bettor's hand."""
    keep = None
    if bettor is not None:
        index, likelihood = bettor

        def keep(values: list[int]) -> bool:
            return rng.random() < likelihood(values[index])

    return ai.dealt_showdown(shared, rivals, pool, rng, SAMPLES, TRIES, keep)


def expert_move(
    view: WesternView, seat: int, drawing: bool, legal: list[Action], rng: random.Random
) -> Action | None:
    """Take or stand by the share after a card; else the bet worth most at the share. Before
    the shared cards are out, None: Standard's move (its share then knows little more)."""
    shared = ai.ids(view.shared)
    if not shared:
        return None
    in_hand = [s for s in view.seats if s.in_hand and s.seat != seat]
    rivals = [ai.Rival(hidden=s.cards) for s in in_hand]
    bettor = bettor_in(view, seat)
    read = None
    if bettor is not None:
        index = next(i for i, s in enumerate(in_hand) if s.seat == bettor)
        read = index, strong_hands(view, seat, bettor, rng)
    mine = ai.ids(view.my_cards or [])
    pool = ai.unseen(view.my_cards or [], view.shared, view.set_aside)
    table = implied_showdown(shared, rivals, pool, rng, read)
    now = table.share(ai.value(mine + shared))
    after_draw = table.share_after_draw(mine + shared, pool)
    if drawing:
        return Take() if after_draw > now else Stand()
    if view.betting_round < FINAL_ROUND and view.deck_left:
        now = max(now, after_draw)  # the draw is still to come
    # As Standard, no raising war: past a few raises' worth in a round, only call.
    may_raise = view.seats[seat].bet < RAISES_BEFORE_CALLING * view.raise_limit
    chips = Table(view.pot, view.to_call, len(rivals), may_raise)
    return by_expected_value(now, chips, legal)
