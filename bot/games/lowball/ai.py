"""Triple Draw Lowball's AI: draws to a smooth deuce-to-seven low and
bets by the strength of what it holds or draws to.

Drawing: a made low (no pair, straight or flush) stands pat when its top card is low enough
for the draws left (a nine with two or three to come, a ten on the last); otherwise the AI keeps
one card of each rank up to an eight (a nine on the last draw), breaks a straight or flush
among them by its top card, and draws to the rest.

Betting: the hand's strength is its chance of beating one opponent who draws the same way,
from the table below, measured by self-play by what is kept (how many cards, how high the top
one) and the draws left; against several opponents it must beat each. It bets and raises
when strong, calls while the pot pays for its chance, checks when it may, else folds.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

from bot.cards import FrenchCard
from bot.engine import Action, Decision, GameState, Policy
from bot.games.ai import Place, reshape
from bot.games.betting import Bet, Call, Check, Fold, Raise
from bot.games.jokerless import rank_of
from bot.games.lowball.rules import (
    DRAWS,
    HAND_SIZE,
    Draw,
    LowballKind,
    LowballState,
    LowballView,
    StandPat,
    high_value,
)
from bot.games.poker import BettingKind

# The highest top card of a made low that stands pat, by the draws left (this one included).
PAT_TOP = {3: 9, 2: 9, 1: 10}
# The highest card kept when drawing, by the draws left.
KEEP_TOP = {3: 8, 2: 8, 1: 9}
STRAIGHT_LENGTH = 5


def value(card: FrenchCard) -> int:
    return high_value(rank_of(card))


def is_straight(values: list[int]) -> bool:
    """Five ranks in a row (aces only high in deuce-to-seven)."""
    ordered = sorted(values)
    distinct = len(set(ordered)) == STRAIGHT_LENGTH
    return distinct and ordered[-1] - ordered[0] == STRAIGHT_LENGTH - 1


def is_flush(cards: list[FrenchCard]) -> bool:
    return len(cards) == STRAIGHT_LENGTH and len({card.suit for card in cards}) == 1


def is_made(cards: list[FrenchCard]) -> bool:
    """Five cards with no pair, straight or flush: ranked by its top cards alone."""
    values = [value(card) for card in cards]
    if len(cards) != HAND_SIZE or len(set(values)) != HAND_SIZE:
        return False
    return not is_straight(values) and not is_flush(cards)


def top(cards: list[FrenchCard]) -> int:
    return max((value(card) for card in cards), default=0)


def keep(cards: list[FrenchCard], draws_left: int) -> list[FrenchCard]:
    """The cards to keep for this draw (all five: stand pat)."""
    if is_made(cards) and top(cards) <= PAT_TOP[draws_left]:
        return list(cards)
    suits = Counter(card.suit for card in cards)
    by_rank: dict[int, FrenchCard] = {}
    # One card per low rank; of a pair, the one whose suit is rarest in the hand.
    for card in sorted(cards, key=lambda card: suits[card.suit]):
        if value(card) <= KEEP_TOP[draws_left]:
            by_rank.setdefault(value(card), card)
    kept = sorted(by_rank.values(), key=value)
    if len(kept) == HAND_SIZE:  # a straight or flush of low cards: break it at the top
        kept.pop()
    return kept


# ---- strength --------------------------------------------------------------------------------
# Chances of beating one opponent at the showdown, measured by self-play of the draw above
# (two players, 30,000 deals, no folding).

# With draws to come: a made low that stands pat, by its top card...
PAT_CHANCE = {7: 0.98, 8: 0.84, 9: 0.65, 10: 0.48}
# ...or a draw, by the draws left after this betting round and the cards kept.
DRAWING_CHANCE = {
    3: (0.41, 0.43, 0.47, 0.52, 0.62),
    2: (0.35, 0.35, 0.36, 0.43, 0.54),
    1: (0.24, 0.24, 0.24, 0.30, 0.41),
}
# After the last draw: the final hand (its top card; 0 for no made low) against an opponent
# who stood pat, drew one, or drew more on the last draw (0.03: never counted as hopeless,
# though in self-play nothing above a ten beat a pat hand).
FINAL_CHANCE = {
    0: (0.03, 0.15, 0.22),
    7: (0.96, 0.99, 0.99),
    8: (0.69, 0.88, 0.95),
    9: (0.32, 0.74, 0.89),
    10: (0.07, 0.66, 0.80),
    11: (0.03, 0.58, 0.74),
    12: (0.03, 0.50, 0.64),
    13: (0.03, 0.40, 0.58),
    14: (0.03, 0.34, 0.45),
}
# Bets and raises for value with this much more than an even share of the pot.
RAISE_EDGE = 0.1


def chance_against_one(cards: list[FrenchCard], draws_left: int, last_drawn: int | None) -> float:
    """The chance of beating one opponent who drew `last_drawn` cards on the last draw."""
    if draws_left == 0:
        final = top(cards) if is_made(cards) else 0
        return FINAL_CHANCE[final][min(last_drawn or 0, 2)]
    kept = keep(cards, draws_left)
    if len(kept) == HAND_SIZE:
        return PAT_CHANCE.get(top(kept), PAT_CHANCE[max(PAT_CHANCE)])
    return DRAWING_CHANCE[draws_left][len(kept)]


def draws_left(view: LowballView) -> int:
    """Draws still to come after this betting round."""
    return DRAWS + 1 - view.betting_round


def winning_chance(view: LowballView, seat: int) -> tuple[float, int]:
    """The chance of beating every opponent still in the hand, and how many there are."""
    chance, opponents = 1.0, 0
    for other in view.seats:
        if other.seat != seat and other.in_hand:
            last = other.draws[-1] if other.draws else None
            chance *= chance_against_one(view.my_cards or [], draws_left(view), last)
            opponents += 1
    return chance, opponents


def betting_move(view: LowballView, seat: int, legal: list[Action]) -> Action:
    """Raise when well above an even share; call while the pot, with a bet to win in each
    round still to come, pays for the chance; check when free; else fold."""
    chance, opponents = winning_chance(view, seat)
    raises = [action for action in legal if isinstance(action, Bet | Raise)]
    if raises and chance >= 1 / (opponents + 1) + RAISE_EDGE:
        return max(raises, key=lambda action: action.amount)
    if Check() in legal:
        return Check()
    winnable = view.pot + view.to_call + view.bet_size * draws_left(view)
    if Call() in legal and chance * winnable >= view.to_call:
        return Call()
    return Fold()


def draw_variants(cards: list[FrenchCard], draws_left: int) -> list[Action]:
    """The AI's draw, then the draws nearest it: keeping also the lowest card it throws,
    throwing also the highest it keeps, and standing pat."""
    kept = keep(cards, draws_left)
    throws = [[card for card in cards if card not in kept]]
    thrown = throws[0]
    if thrown:
        lowest = min(thrown, key=value)
        throws.append([card for card in thrown if card != lowest])
    if kept:
        highest = max(kept, key=value)
        throws.append([card for card in cards if card in thrown or card == highest])
    throws.append([])
    moves: list[Action] = []
    for throw in throws:
        move = Draw(cards=throw) if throw else StandPat()
        if move not in moves:
            moves.append(move)
    return moves


# ---- what the others' draws say of their cards (the Expert's worlds) ---------------------------

# How likely a player is to have drawn as they did holding cards the AI itself would not have
# drawn so with (a pat hand that is no made low, say): a human may snow or misjudge.
UNLIKE_THE_AI = 0.002
# Hands dealt at most to find one like a player's draws (a made low is a few percent of them).
SHAPE_TRIES = 100


def draws_likelihood(cards: list[FrenchCard], draws: list[int]) -> float:
    """How likely a player who drew `draws` (cards drawn at each draw of this hand so far)
    holds `cards` now, by the AI's own drawing: a hand that stood pat at its last draw is a
    made low the AI would stand pat with; one that drew k kept five less k cards the AI would
    keep (distinct low ranks)."""
    if not draws:
        return 1.0
    left = DRAWS + 1 - len(draws)  # draws left at the last one, that one included
    drawn = draws[-1]
    if drawn == 0:
        pat = is_made(cards) and top(cards) <= PAT_TOP[left]
        return 1.0 if pat else UNLIKE_THE_AI
    keepable = {value(card) for card in cards if value(card) <= KEEP_TOP[left]}
    return 1.0 if len(keepable) >= HAND_SIZE - drawn else UNLIKE_THE_AI


class LowballPolicy(Policy[LowballView]):
    game_id = "lowball"
    expert_weighs_bets = True

    def choose(
        self,
        seat: int,
        view: LowballView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> Action | None:
        if decision.kind == LowballKind.DRAW:
            cards = view.my_cards or []
            kept = keep(cards, DRAWS + 1 - view.draw_round)
            thrown = [card for card in cards if card not in kept]
            return Draw(cards=thrown) if thrown else StandPat()
        return betting_move(view, seat, legal)

    def ranked(
        self,
        seat: int,
        view: LowballView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
    ) -> list[Action] | None:
        """For a draw, the AI's own and its nearest others (`draw_variants`); a bet has too
        few choices to rank (the search weighs them all)."""
        if decision.kind != LowballKind.DRAW:
            return None
        return draw_variants(view.my_cards or [], DRAWS + 1 - view.draw_round)

    def expert_choose(
        self,
        seat: int,
        view: LowballView,
        decision: Decision,
        legal: list[Action],
        rng: random.Random,
        seconds: float | None,
    ) -> Action | None:
        """Expert's own: the bet worth most in chips against the hands the others' draws and
        bets imply (bot/games/lowball/expert.py); Standard's draw."""
        from bot.games.lowball import expert  # it reads this module's thresholds

        if decision.kind != BettingKind.BET:
            return self.choose(seat, view, decision, legal, rng)
        return expert.expert_bet(view, seat, legal, rng, seconds)

    def shape_world(self, world: GameState, seat: int, rng: random.Random) -> None:
        """Each opponent still in the hand holds cards they would have drawn so with
        (`draws_likelihood`): a hand unlike their draws is dealt again from the face-down
        cards (`reshape`)."""
        assert isinstance(world, LowballState)
        for other, hand in enumerate(world.hands):
            if other == seat or world.shown[other] or world.betting.folded[other] or not hand:
                continue
            draws = world.draws[other]
            top_card = stood_pat_at(draws)
            choose = None if top_card is None else partial(low_cards, top_card)
            piles = (world.stub, world.discards)
            reshape(hand, partial(draws_likelihood, draws=draws), piles, rng, SHAPE_TRIES, choose)


def stood_pat_at(draws: list[int]) -> int | None:
    """The highest top card the AI stands pat with at the last draw, if a player stood pat."""
    return PAT_TOP[DRAWS + 1 - len(draws)] if draws and draws[-1] == 0 else None


def low_cards(top_card: int, places: list[Place]) -> list[Place] | None:
    """Face-down cards of distinct ranks up to `top_card`, for a hand that stood pat (a made
    low is a few percent of all hands: dealt blindly, a hundred hands might hold none)."""
    ranks: set[int] = set()
    low = []
    for pile, index in places:
        rank = value(pile[index])
        if rank <= top_card and rank not in ranks:
            ranks.add(rank)
            low.append((pile, index))
    return low if len(low) >= HAND_SIZE else None
