"""Liar's Terrapin (bot/games/terrapin/liars/rules.md).

Everyone antes half the number of players, rounded up. One hand goes round: its holder draws
three, may draw more one at a time, and claims a score (more than the last claim). The next
player challenges or accepts. Accepting takes the hand: discard any number, draw, claim higher.
A challenge shows the hand: a true claim (that many points, no Turtle Butt) puts the challenger
out, otherwise the holder; each player still in then takes a chip from the pot, and a new hand
starts with the challenger (if they won) or the player after them. The last player in takes
what is left of the pot.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import decktet
from bot.cards.decktet import DecktetCard
from bot.engine import Action, Decision, DecisionKind, Event, HandEnded, MatchEnded, Viewer
from bot.engine import HandStarted as BaseHandStarted
from bot.engine.errors import IllegalAction
from bot.games.poker import PokerSeatView
from bot.games.terrapin.table import TURTLE_BUTT, TerrapinTable, hand_value
from bot.i18n import _

FIRST_DRAW = 3
MAX_RAISE = 24  # a claim may be at most this much above the last one (the first: above 0)


class LiarsKind(DecisionKind):
    """What a Liar's decision asks: draw or claim, discard, challenge or accept a claim."""

    CLAIM = "claim"
    DISCARD = "discard"
    RESPOND = "respond"


class LiarsOptions(BaseModel):
    """Liar's has no table options; the ante follows the number of players."""


class Draw(Action):
    kind: Literal["draw"] = "draw"


class Claim(Action):
    kind: Literal["claim"] = "claim"
    points: int


class Challenge(Action):
    kind: Literal["challenge"] = "challenge"


class Accept(Action):
    kind: Literal["accept"] = "accept"


class DiscardOne(Action):
    kind: Literal["discard"] = "discard"
    card: DecktetCard


class DoneDiscarding(Action):
    kind: Literal["done"] = "done"


LiarsAction = Annotated[
    Draw | Claim | Challenge | Accept | DiscardOne | DoneDiscarding, Field(discriminator="kind")
]


class HandStarted(BaseHandStarted):
    """A deal (bot.engine.HandStarted) and what the table shows of it."""

    holder: int
    pot: int


class Drew(Event):
    kind: Literal["drew"] = "drew"
    seat: int
    cards: int  # how many, never which


class Discarded(Event):
    kind: Literal["discarded"] = "discarded"
    seat: int


class Claimed(Event):
    kind: Literal["claimed"] = "claimed"
    seat: int
    points: int


class Accepted(Event):
    kind: Literal["accepted"] = "accepted"
    seat: int
    holder: int


class Challenged(Event):
    kind: Literal["challenged"] = "challenged"
    challenger: int
    holder: int
    claim: int
    cards: list[DecktetCard]
    score: int
    turtle_butt: bool
    out: int  # who goes out
    paid: dict[int, int]  # chips each remaining player took from the pot


class SeatView(PokerSeatView):
    alive: bool


class LiarsView(BaseModel):
    hand: int
    phase: str
    pot: int
    ante: int
    holder: int | None
    hand_size: int
    claim: int | None
    responder: int | None
    deck_left: int
    seats: list[SeatView]
    last_challenge: Challenged | None
    my_cards: list[DecktetCard] | None = None
    my_score: int | None = None


class LiarsState(TerrapinTable):
    options: LiarsOptions
    phase: Literal["drawing", "discarding", "responding", "between", "over"] = "drawing"
    ante: int = 0
    alive: list[bool] = []
    out_order: list[int] = []  # seats in the order they went out
    holder: int = 0
    claim: int | None = None
    responder: int | None = None
    starter: int = 0  # who holds first in the next hand
    discards: list[DecktetCard] = []
    last_challenge: Challenged | None = None

    # ---- the flow ---------------------------------------------------------------------------

    def start_match(self) -> list[Event]:
        """The antes are paid once: the whole game is played for one pot."""
        self.ante = -(-self.seat_count // 2)
        self.stacks_at_start = list(self.stacks)  # the first hand's result includes the ante
        self.alive = [stack >= self.ante for stack in self.stacks]
        for seat in self.players_in():
            self.stacks[seat] -= self.ante
            self.pot += self.ante
        self.out_order = [s for s in range(self.seat_count) if not self.alive[s]]
        if len(self.players_in()) < 2:
            return self.finish_match()
        self.starter = self.players_in()[0]
        return self.start_hand()

    def players_in(self) -> list[int]:
        return [s for s in range(self.seat_count) if self.alive[s]]

    def next_in(self, seat: int) -> int:
        return self.left_of(seat, lambda s: self.alive[s])

    def start_hand(self) -> list[Event]:
        self.deck += self.discards
        self.discards = []
        self.collect_and_shuffle()
        self.players = self.players_in()
        self.holder, self.claim, self.responder = self.starter, None, None
        self.phase = "drawing"
        self.draw_cards(FIRST_DRAW)
        return [
            HandStarted(hand=self.hand, holder=self.holder, pot=self.pot),
            Drew(seat=self.holder, cards=FIRST_DRAW),
        ]

    def draw_cards(self, count: int) -> int:
        """Draw for the holder; an empty deck is reshuffled from the discard pile (in the
        Decktet's fresh order, see Rng.shuffled_gathered)."""
        drawn = 0
        for _each in range(count):
            if not self.deck and self.discards:
                self.deck = self.rng.shuffled_gathered(self.discards, decktet.deck())
                self.discards = []
            if not self.deck:
                break
            self.hands[self.holder].append(self.deck.pop())
            drawn += 1
        return drawn

    def claim_range(self) -> range:
        """The claims allowed now: more than the last claim, by at most MAX_RAISE."""
        last = self.claim or 0
        return range(last + 1, last + MAX_RAISE + 1)

    def lowest_claim(self) -> int:
        return self.claim_range().start

    def challenge(self) -> list[Event]:
        challenger, holder, claim = self.responder, self.holder, self.claim
        assert challenger is not None and claim is not None  # a challenge answers a claim
        cards = list(self.hands[holder])
        value = hand_value(cards)
        truthful = value != TURTLE_BUTT and value >= claim
        out = challenger if truthful else holder
        paid = self.go_out(out)
        self.shown[holder] = True
        self.last_challenge = Challenged(
            challenger=challenger,
            holder=holder,
            claim=claim,
            cards=cards,
            score=max(value, 0),
            turtle_butt=value == TURTLE_BUTT,
            out=out,
            paid=paid,
        )
        winner = holder if truthful else challenger
        if not truthful:
            self.starter = challenger
        elif len(self.players_in()) > 1:
            self.starter = self.next_in(challenger)
        self.phase = "between"
        net = [now - before for now, before in zip(self.stacks, self.stacks_at_start, strict=True)]
        self.stacks_at_start = list(self.stacks)
        events: list[Event] = [
            self.last_challenge,
            HandEnded(hand=self.hand, players=self.players, net_chips=net, winners=[winner]),
        ]
        if len(self.players_in()) < 2:
            events += self.finish_match()
        return events

    def go_out(self, seat: int) -> dict[int, int]:
        """`seat` is out: each player still in takes a chip from the pot while it has chips;
        the last one in takes the rest."""
        self.alive[seat] = False
        self.out_order.append(seat)
        paid: dict[int, int] = {}
        remaining = self.players_in()
        for other in remaining:
            if self.pot:
                self.stacks[other] += 1
                self.pot -= 1
                paid[other] = 1
        if len(remaining) == 1:
            (last,) = remaining
            paid[last] = paid.get(last, 0) + self.pot
            self.stacks[last] += self.pot
            self.pot = 0
        return paid

    def finish_match(self) -> list[Event]:
        self.phase = "over"
        ranking = self.players_in() + self.out_order[::-1]  # last one in first
        return [MatchEnded(placings=[ranking.index(s) + 1 for s in range(self.seat_count)])]

    def next_hand(self) -> list[Event]:
        if self.phase != "between":
            return super().next_hand()
        self.hand += 1
        return self.start_hand()

    def can_leave_now(self, seat: int) -> bool:
        """Between hands only: the hand in play settles nothing yet (`can_close_mid_hand`),
        but a player going out in it would leave its claim unanswered."""
        return self.awaiting_next_hand() or self.is_over()

    def leave(self, seat: int) -> int:
        """Leaving counts as going out (the others take their chips from the pot)."""
        if not self.can_leave_now(seat):
            raise IllegalAction(_("You can leave between hands."))
        if self.alive[seat]:
            self.go_out(seat)
            if self.starter == seat and self.players_in():
                self.starter = self.next_in(seat)
            if len(self.players_in()) < 2:
                self.finish_match()
        return super().leave(seat)

    def can_take_seat(self, seat: int) -> bool:
        """The match is played for one pot: nobody joins it once it has started."""
        return False

    def left_in_pot(self, seat: int) -> int:
        """The whole game is played for one pot: a player still in gives up their share."""
        return self.pot if self.alive[seat] else 0

    def cash_out(self) -> list[int]:
        self.carry, self.pot = self.carry + self.pot, 0
        return super().cash_out()

    # ---- the protocol -------------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "drawing":
            low = self.lowest_claim()
            prompt = _("Draw, or claim {points} or more", points=low)
            return [Decision(seat=self.holder, kind=LiarsKind.CLAIM, prompt=prompt)]
        if self.phase == "discarding":
            return [
                Decision(
                    seat=self.holder, kind=LiarsKind.DISCARD, prompt=_("Discard cards, then draw")
                )
            ]
        if self.phase == "responding":
            assert self.responder is not None  # set with the claim it answers
            return [
                Decision(
                    seat=self.responder,
                    kind=LiarsKind.RESPOND,
                    prompt=_("Challenge or accept {claim}?", claim=self.claim),
                )
            ]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        if self.phase == "responding":
            return [Challenge(), Accept()]
        if self.phase == "discarding":
            return [DoneDiscarding(), *(DiscardOne(card=c) for c in self.hands[seat])]
        claims: list[Action] = [Claim(points=n) for n in self.claim_range()]
        return ([Draw()] if self.deck or self.discards else []) + claims

    def can_close_mid_hand(self) -> bool:
        """Chips move only when a claim is challenged, which no default does: a hand closed
        before its challenge has settled nothing, and the pot is shared out as between
        hands."""
        return self.phase in ("drawing", "discarding", "responding")

    def default_action(self, seat: int) -> Action:
        """Claim the least allowed; accept a claim; keep every card."""
        if self.phase == "drawing":
            return Claim(points=self.lowest_claim())
        return Accept() if self.phase == "responding" else DoneDiscarding()

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Draw):
            return [Drew(seat=seat, cards=self.draw_cards(1))]
        if isinstance(action, Claim):
            self.claim = action.points
            self.responder, self.phase = self.next_in(seat), "responding"
            return [Claimed(seat=seat, points=action.points)]
        if isinstance(action, DiscardOne):
            self.hands[seat].remove(action.card)
            self.discards.append(action.card)
            return [Discarded(seat=seat)]
        if isinstance(action, DoneDiscarding):
            self.phase = "drawing"
            return []
        if isinstance(action, Accept):
            holder = self.holder
            self.hands[seat], self.hands[holder] = self.hands[holder], []
            self.holder, self.responder, self.phase = seat, None, "discarding"
            return [Accepted(seat=seat, holder=holder)]
        return self.challenge()

    def view(self, viewer: Viewer) -> LiarsView:
        seats = self.seat_views(SeatView, alive=self.alive)
        playing = self.phase not in ("between", "over")
        view = LiarsView(
            hand=self.hand,
            phase=self.phase,
            pot=self.pot,
            ante=self.ante,
            holder=self.holder if playing else None,
            hand_size=len(self.hands[self.holder]) if playing else 0,
            claim=self.claim,
            responder=self.responder,
            deck_left=len(self.deck),
            seats=seats,
            last_challenge=self.last_challenge if self.phase in ("between", "over") else None,
        )
        if viewer is not None and viewer == self.holder and playing:
            self.show_own_hand(view, viewer)  # Liar's deals no shared cards
        return view

    def all_cards(self) -> list[DecktetCard]:
        return super().all_cards() + self.discards

    def hidden_from(self, viewer: Viewer) -> set[DecktetCard]:
        return super().hidden_from(viewer) | set(self.discards)
