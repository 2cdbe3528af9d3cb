"""What every game played hand after hand shares (`HandByHand`, written for a game with a
`phase`): the pause between hands, the deal passing left, the match being over, and leaving a
game that needs every player."""

from __future__ import annotations

from bot.engine import Event, HandByHand, IllegalAction, MatchEnded
from bot.games.matches import Match
from bot.i18n import _


class HandAfterHand(HandByHand):
    """`phase` is "between" in the pause after a hand and "over" once the match ends."""

    phase: str
    dealer: int = 0

    def start_hand(self) -> list[Event]:
        raise NotImplementedError

    def next_dealer(self) -> int:
        return (self.dealer + 1) % self.seat_count

    def awaiting_next_hand(self) -> bool:
        return self.phase == "between"

    def next_hand(self) -> list[Event]:
        if self.phase != "between":
            return super().next_hand()
        self.hand += 1
        self.dealer = self.next_dealer()
        return self.start_hand()

    def is_over(self) -> bool:
        return self.phase == "over"

    # ---- leaving: by default the game needs every player ---------------------------------

    def can_leave_now(self, seat: int) -> bool:
        """Between hands, or in a hand that settles nothing yet (`can_close_mid_hand`: an
        auction nobody has bid in, which the leaver's passes would only deal again)."""
        return super().can_leave_now(seat) or self.can_close_mid_hand()

    def leave(self, seat: int) -> int:
        """Leaving between hands ends the match for everyone; the leaver takes their chips."""
        if not self.can_leave_now(seat):
            raise IllegalAction(_("You can leave between hands."))
        self.phase = "over"
        return self.take_chips(seat)

    def cash_out(self) -> list[int]:
        self.phase = "over"
        return [self.take_chips(seat) for seat in range(self.seat_count)]

    def take_chips(self, seat: int) -> int:
        """The chips `seat` takes away when the table closes (none in a points game)."""
        return 0


class HandAfterHandWithStacks(HandAfterHand):
    """A chip game whose only chips are the seats' stacks between hands."""

    stacks: list[int]

    def take_chips(self, seat: int) -> int:
        chips, self.stacks[seat] = self.stacks[seat], 0
        return chips


class PointsMatchHands(HandAfterHand):
    """A points match (bot.games.matches.Match) played hand after hand: its standings, and
    a leaver's side forfeiting it (leaving ends it for everyone, unless a game lets the
    others play on)."""

    match: Match

    def standings(self) -> MatchEnded:
        """Placings per side (partners share them) and each player's side score."""
        return MatchEnded(placings=self.match.seat_placings(), scores=self.match.seat_scores())

    def final_standings(self) -> MatchEnded:
        return self.standings()

    def leave(self, seat: int) -> int:
        if self.can_leave_now(seat) and not self.match.is_over():
            self.match.drop(seat)
        return super().leave(seat)
