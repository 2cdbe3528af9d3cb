"""Western Terrapin's AI: it bets on its share of the pot at the showdown, estimated by
dealing the rivals' hidden cards (and the shared cards, before they are out) from the cards it
hasn't seen; it takes a card while that raises its share, Turtle Butt risk included.

It raises with a strong hand (harder the stronger), calls when its share pays for the call,
bets the least when it must bet or fold, folds otherwise, and mucks a hand that can't win.
"""

from __future__ import annotations

import random
from functools import partial

from bot.cards.decktet import DecktetCard
from bot.engine import Action, Decision, GameState, Policy
from bot.games import ai as ai_shared
from bot.games.betting import Bet, Call, Check, Fold, Raise
from bot.games.poker import BettingKind, Muck
from bot.games.terrapin import ai
from bot.games.terrapin.western.rules import (
    ANTE,
    SHARED_CARDS,
    Stand,
    Take,
    WesternKind,
    WesternState,
    WesternView,
)

FINAL_ROUND = 3
EARLY_CALL_MARGIN = 1.15  # before the last round, more bets will follow a call
RAISES_BEFORE_CALLING = 2  # in raise limits: past this much in one round, only call
# It raises with this much of the way from an even share of the pot to all of it (the limit
# with VERY_STRONG, else half of it).
STRONG, VERY_STRONG = 0.35, 0.6


class WesternPolicy(Policy[WesternView]):
    game_id = "western"
    expert_weighs_bets = True

    def choose(
        self,
        seat: int,
        view: WesternView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if decision.kind == BettingKind.MUCK:
            return Muck()  # asked only when the hand can't win: show nothing
        mine = ai.ids(view.my_cards or [])
        shared = ai.ids(view.shared)
        pool = ai.unseen(view.my_cards or [], view.shared, view.set_aside)
        rivals = [ai.Rival(hidden=s.cards) for s in view.seats if s.in_hand and s.seat != seat]
        if not shared:
            share = ai.share_before_shared(mine, SHARED_CARDS, rivals, pool, rng)
            return bet(view, seat, share, legal)
        table = ai.showdown(shared, rivals, pool, rng)
        now = table.share(ai.value(mine + shared))
        after_draw = table.share_after_draw(mine + shared, pool)
        if decision.kind == WesternKind.DRAW:
            return Take() if after_draw > now else Stand()
        if view.betting_round < FINAL_ROUND and view.deck_left:
            now = max(now, after_draw)  # the draw is still to come
        return bet(view, seat, now, legal)

    def expert_choose(
        self,
        seat: int,
        view: WesternView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
        seconds: float | None,
    ) -> Action | None:
        """Expert's own: the draw or bet worth most by its share of the pot against the hands
        the betting implies (bot/games/terrapin/western/expert.py); Standard's elsewhere."""
        from bot.games.terrapin.western import expert  # it reads this module's thresholds

        if decision.kind in (WesternKind.DRAW, BettingKind.BET):
            drawing = decision.kind == WesternKind.DRAW
            move = expert.expert_move(view, seat, drawing, legal, rng)
            if move is not None:
                return move
        return self.choose(seat, view, decision, legal, rng)

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        shape_bettor(world, seat, rng)


# ---- what the betting says of a rival's cards (the Expert's worlds) -----------------------------

# How often a player bets or raises holding less than an even hand: a bluff, or a misjudgement.
BLUFFS = 0.15
EVEN = 0.5  # a hand beating this share of random hands is at least an even one
SHAPE_TRIES = 30  # hands dealt at most to find one like a bettor's (half of them are)


def shape_bettor(world: GameState, seat: int, rng: random.Random) -> None:
    """The rival who bet or raised last in this hand holds, in the Expert's world, a hand at
    least as good as an even one, but for a bluff now and then (`betting_likelihood`)."""
    assert isinstance(world, WesternState)
    bettor = world.last_aggressor
    betting = world.betting
    if bettor == seat or world.shown[bettor] or betting.folded[bettor]:
        return
    if betting.committed[bettor] <= ANTE:  # nobody has bet yet this hand
        return
    likely = partial(betting_likelihood, shared=world.shared)
    ai_shared.reshape(world.hands[bettor], likely, (world.deck,), rng, SHAPE_TRIES)


def betting_likelihood(hand: list[DecktetCard], shared: list[DecktetCard]) -> float:
    """How likely a player bets holding `hand`: surely with a hand that beats half of the
    random hands of its size (the shared cards with it), now and then with less."""
    cards = ai.ids([*hand, *shared])
    return 1.0 if ai.chance_at_least(ai.value(cards), len(cards)) <= EVEN else BLUFFS


def bet(view: WesternView, seat: int, share: float, legal: list[Action]) -> Action:
    """Raise when strong, call when the pot pays for it, else check, bet the least, or fold."""
    rivals = sum(s.in_hand for s in view.seats) - 1
    fair = 1 / (rivals + 1)
    strong = fair + (1 - fair) * STRONG
    very_strong = fair + (1 - fair) * VERY_STRONG
    owed, pot, limit = view.to_call, view.pot, view.raise_limit
    already = view.seats[seat].bet
    wants = limit if share >= very_strong else max(1, limit // 2)
    if share >= strong and (already < RAISES_BEFORE_CALLING * limit or share >= very_strong):
        aggressive = sized(legal, wants)
        if aggressive is not None:
            return aggressive
    if owed == 0:
        if Check() in legal:
            return Check()
        least = sized(legal, 1)
        return least if least is not None and share * (pot + 1) >= 1 else Fold()
    margin = 1.0 if view.betting_round >= FINAL_ROUND else EARLY_CALL_MARGIN
    if Call() in legal and share * (pot + owed) >= owed * margin:
        return Call()
    return Fold()


def sized(legal: list[Action], wanted: int) -> Action | None:
    """The legal bet or raise nearest to `wanted` chips (None: no bet or raise allowed)."""
    choices = [a for a in legal if isinstance(a, Bet | Raise)]
    return min(choices, key=lambda a: (abs(a.amount - wanted), a.amount), default=None)
