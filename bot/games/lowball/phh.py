"""A Triple Draw Lowball hand in the Poker Hand History format (PHH, read and written by
pokerkit), as one member may see it: their own cards, the cards shown at the showdown, and
`??` for every other card (another seat's hand, a card thrown or drawn), a folded hand
included.

PHH names players p1, p2 … from the dealer's left, the dealer last (heads-up: the big blind,
then the dealer, who posts the small blind) — the order in which the hand was dealt here."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Action, GameState, HandHistoryFormat, HandMove, Viewer
from bot.games.betting import Bet, BetPlaced, Call, Check, Fold, Raise
from bot.games.lowball.rules import (
    HAND_SIZE,
    CardsDrawn,
    Draw,
    Drew,
    LowballState,
    Revealed,
    StandPat,
    pokerkit_code,
)
from bot.games.poker import Mucked
from bot.i18n import N_

UNKNOWN = "??"


def hand_history(
    dealt: GameState,
    moves: Sequence[HandMove],
    names: Sequence[str],
    viewer: Viewer = None,
    hand: int | None = None,
) -> str:
    """The hand dealt in `dealt` (the state just after the deal) and played by `moves`, as PHH
    text for `viewer` (None: the public)."""
    deal = _lowball(dealt)
    writer = _Writer(deal, viewer)
    for move in moves:
        writer.move(move)
    from pokerkit import HandHistory  # imported when asked for, as in rules.low_hand

    history = HandHistory(
        variant="F2L3D",
        antes=[0] * len(deal.players),
        blinds_or_straddles=[deal.options.small_bet // 2, deal.options.small_bet]
        + [0] * (len(deal.players) - 2),
        small_bet=deal.options.small_bet,
        big_bet=2 * deal.options.small_bet,
        starting_stacks=[deal.stacks_at_start[seat] for seat in deal.players],
        actions=writer.actions,
        players=[names[seat] for seat in deal.players],
        hand=hand if hand is not None else deal.hand,
    )
    return history.dumps()


# The format's name is marked for the catalogs: whoever shows it says it with _().
PHH = HandHistoryFormat(name=N_("Poker Hand History"), suffix="phh", write=hand_history)


def _lowball(state: GameState) -> LowballState:
    assert isinstance(state, LowballState), type(state)
    return state


class _Writer:
    def __init__(self, deal: LowballState, viewer: Viewer) -> None:
        self.viewer = viewer
        self.player = {seat: f"p{index + 1}" for index, seat in enumerate(deal.players)}
        self.dealing: list[str] = []  # a draw's deals, written once every player has thrown
        own = deal.view(viewer).my_cards or [] if viewer is not None else []
        self.actions = [
            f"d dh {self.player[seat]} {self.cards(own if seat == viewer else [], HAND_SIZE)}"
            for seat in deal.players
        ]

    @staticmethod
    def cards(known: Sequence, count: int) -> str:
        """The cards as pokerkit writes them, `??` for each one unknown."""
        return "".join(map(pokerkit_code, known)) if known else UNKNOWN * count

    def move(self, move: HandMove) -> None:
        seat, action = move.seat, move.action
        if seat is not None and isinstance(action, (Fold, Check, Call, Bet, Raise)):
            self.actions.append(f"{self.player[seat]} {self.bet(move, seat, action)}")
        elif seat is not None and isinstance(action, (Draw, StandPat)):
            self.draw(move, seat, action)
        for event in move.events:
            if isinstance(event, Revealed):
                shown = "".join(map(pokerkit_code, event.cards))
                self.actions.append(f"{self.player[event.seat]} sm {shown}")
            elif isinstance(event, Mucked):
                self.actions.append(f"{self.player[event.seat]} sm")

    @staticmethod
    def bet(move: HandMove, seat: int, action: Action) -> str:
        if isinstance(action, Fold):
            return "f"
        if isinstance(action, (Check, Call)):
            return "cc"
        placed = next(e for e in move.events if isinstance(e, BetPlaced) and e.seat == seat)
        return f"cbr {_lowball(move.before).betting.round_bets[seat] + placed.amount}"

    def draw(self, move: HandMove, seat: int, action: Action) -> None:
        count = next(e.count for e in move.events if isinstance(e, Drew) and e.seat == seat)
        mine = seat == self.viewer
        thrown = action.cards if mine and isinstance(action, Draw) else []
        drawn = next((e.cards for e in move.events if isinstance(e, CardsDrawn) and mine), [])
        player = self.player[seat]
        self.actions.append(f"{player} sd {self.cards(thrown, count)}" if count else f"{player} sd")
        if count:
            self.dealing.append(f"d dh {player} {self.cards(drawn, count)}")
        if _lowball(move.before).draw_queue == [seat]:  # the last to draw: now the cards are dealt
            self.actions += self.dealing
            self.dealing = []
