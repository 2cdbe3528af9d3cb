"""What every game played hand after hand shares: the pause between hands, the deal passing
left, and the match being over."""

from __future__ import annotations

from bot.engine import Event, GameState


class HandAfterHand(GameState):
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
