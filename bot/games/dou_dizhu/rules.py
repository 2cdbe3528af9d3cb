"""Dou Dizhu (bot/games/dou_dizhu/rules.md): three players, 54 cards.

A face-up card inserted into the deck chooses the first bidder. The auction (1, 2 or 3; a
player may bid again after passing) ends after two passes following a bid, or on a 3; with
no bid at all the hand is dealt again. The landlord takes the widow and leads. Combinations
are judged by rank only (suits don't matter); bombs and the rocket beat anything else. The
first out wins: farmers pay the landlord, or the landlord pays each farmer, the bid doubled
for every bomb and rocket played.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from bot.cards import FrenchCard, french_deck
from bot.engine import (
    Action,
    Decision,
    Event,
    HandEnded,
    IllegalAction,
    MatchEnded,
    Rng,
    Viewer,
    placings,
)
from bot.games.climbing import Climb, Pass, Play, Played
from bot.games.dou_dizhu.combos import HAND, PLAYERS, check_play, classify, order
from bot.games.dou_dizhu.plays import cards_by_rank, legal_plays, pick
from bot.games.dou_dizhu.records import (
    Bid,
    BidMade,
    DouDizhuKind,
    DouDizhuOptions,
    DouDizhuView,
    HandStarted,
    LandlordChosen,
    Redeal,
    Settled,
)
from bot.games.hands import HandAfterHandWithStacks
from bot.i18n import _


class DouDizhuState(HandAfterHandWithStacks):
    options: DouDizhuOptions
    phase: Literal["bidding", "playing", "between", "over"] = "bidding"
    hands: list[list[FrenchCard]] = []
    widow: list[FrenchCard] = []
    played: list[FrenchCard] = []
    face_up: FrenchCard | None = None
    bids: list[int | None] = []
    bidder: int = 0
    bid: int = 0
    high_bidder: int | None = None
    passes: int = 0
    landlord: int | None = None
    doublings: int = 0
    climb: Climb | None = None
    # This deal's bids in turn (seat, chips; 0 a pass), which the Expert's worlds are dealt to
    # fit (DouDizhuPolicy.shape_world); the widow the landlord took, turned face up for all to
    # see as it is taken (as players of the game expect: the rule text is silent).
    auction: list[tuple[int, int]] = []
    kitty: list[FrenchCard] = []

    @property
    def climbing(self) -> Climb:
        """The hand's climb, led by the landlord."""
        assert self.climb is not None  # read only while playing: the landlord made it
        return self.climb

    def start_hand(self) -> list[Event]:
        if min(self.stacks) < 1:
            self.phase = "over"
            return [MatchEnded(placings=placings(self.stacks))]
        deck = self.rng.shuffled(french_deck(jokers=True))
        face_up_at = self.rng.randrange(PLAYERS * HAND)  # turned up and put back in the middle
        self.face_up = deck[face_up_at]
        drawers = [(self.dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]
        self.hands = [[] for _ in range(PLAYERS)]
        for index, card in enumerate(deck[: PLAYERS * HAND]):
            self.hands[drawers[index % PLAYERS]].append(card)
        self.widow, self.played = deck[PLAYERS * HAND :], []
        for hand in self.hands:
            hand.sort(key=order)
        self.bidder = next(s for s in range(PLAYERS) if self.face_up in self.hands[s])
        self.bids, self.bid, self.high_bidder, self.passes = [None] * PLAYERS, 0, None, 0
        self.landlord, self.doublings, self.climb, self.phase = None, 0, None, "bidding"
        self.auction, self.kitty = [], []
        return [
            HandStarted(
                hand=self.hand, dealer=self.dealer, face_up=self.face_up, first_bidder=self.bidder
            )
        ]

    # ---- the auction --------------------------------------------------------------------------

    def make_bid(self, seat: int, chips: int) -> list[Event]:
        self.bids[seat] = chips
        self.auction.append((seat, chips))
        events: list[Event] = [BidMade(seat=seat, chips=chips)]
        if chips:
            self.bid, self.high_bidder, self.passes = chips, seat, 0
        else:
            self.passes += 1
        if self.bid == 3 or (self.high_bidder is not None and self.passes >= 2):
            return events + self.crown_landlord()
        if self.high_bidder is None and self.passes >= PLAYERS:
            self.dealer = self.next_dealer()
            return [*events, Redeal(), *self.start_hand()]
        self.bidder = (seat + 1) % PLAYERS
        return events

    def crown_landlord(self) -> list[Event]:
        landlord = self.high_bidder
        assert landlord is not None  # the auction ends on a bid
        self.landlord = landlord
        self.hands[landlord] = sorted(self.hands[landlord] + self.widow, key=order)
        self.widow, self.kitty = [], list(self.widow)
        self.climb = Climb(seats=[(landlord + i) % PLAYERS for i in range(PLAYERS)], turn=landlord)
        self.phase = "playing"
        return [LandlordChosen(seat=landlord, bid=self.bid, widow=self.kitty)]

    # ---- the end of a hand ----------------------------------------------------------------------

    def settle(self, winner: int) -> list[Event]:
        """Pay the bid, doubled per bomb and rocket; nobody pays more than they have (the
        landlord's payment is split evenly, an odd chip to the first farmer on their left)."""
        landlord = self.landlord
        assert landlord is not None  # crowned before the play that ends the hand
        stake = self.bid * 2**self.doublings
        farmers = [(landlord + 1) % PLAYERS, (landlord + 2) % PLAYERS]
        before = list(self.stacks)
        landlord_won = winner == landlord
        if landlord_won:
            for farmer in farmers:
                paid = min(stake, self.stacks[farmer])
                self.stacks[farmer] -= paid
                self.stacks[landlord] += paid
        else:
            owed = min(2 * stake, self.stacks[landlord])
            self.stacks[landlord] -= owed
            self.stacks[farmers[0]] += owed - owed // 2
            self.stacks[farmers[1]] += owed // 2
        net = [after - b for after, b in zip(self.stacks, before, strict=True)]
        winners = [landlord] if landlord_won else farmers
        self.phase = "between"
        return [
            Settled(winner=winner, landlord_won=landlord_won, doublings=self.doublings, paid=net),
            HandEnded(hand=self.hand, players=list(range(PLAYERS)), net_chips=net, winners=winners),
        ]

    # ---- the protocol -----------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "bidding":
            return [
                Decision(
                    seat=self.bidder,
                    kind=DouDizhuKind.BID,
                    prompt=_("Bid more than {bid}, or pass", bid=self.bid),
                )
            ]
        if self.phase == "playing":
            prompt = _("Lead anything") if self.climbing.free_lead else _("Beat it or pass")
            return [Decision(seat=self.climbing.turn, kind=DouDizhuKind.PLAY, prompt=prompt)]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "bidding" and seat == self.bidder:
            return [Bid(chips=0), *(Bid(chips=n) for n in range(self.bid + 1, 4))]
        if self.phase != "playing" or seat != self.climbing.turn:
            return []
        plays: list[Action] = [
            Play(cards=cards) for cards in legal_plays(self.hands[seat], self.climbing.to_beat)
        ]
        return plays if self.climbing.free_lead else [Pass(), *plays]

    def canonical(self, seat: int, action: Action) -> Action:
        """Suits don't matter: a play is listed with the hand's first cards of each rank."""
        if isinstance(action, Play) and set(action.cards) <= set(self.hands[seat]):
            counts = Counter(order(card) for card in action.cards)
            return Play(cards=pick(cards_by_rank(self.hands[seat]), counts))
        return action

    def verify(self, seat: int, action: Action) -> None:
        """Plays are judged by what they are, with the reason, not by listing every play."""
        if isinstance(action, Play) and self.phase == "playing" and seat == self.climbing.turn:
            if not set(action.cards) <= set(self.hands[seat]):
                raise IllegalAction(_("You don't hold those cards."))
            check_play(action.cards, self.climbing.to_beat)
            return
        if isinstance(action, Pass) and self.phase == "playing" and seat == self.climbing.turn:
            if self.climbing.free_lead:
                raise IllegalAction(_("You lead this trick: play something."))
            return
        super().verify(seat, action)

    def can_close_mid_hand(self) -> bool:
        """Closed before anyone bid: nobody is landlord yet, and passes would only deal again."""
        return self.phase == "bidding" and self.high_bidder is None

    def default_action(self, seat: int) -> Action:
        """Pass (in the auction too); on a free lead, the single lowest card."""
        if self.phase == "bidding" or not self.climbing.free_lead:
            return Bid(chips=0) if self.phase == "bidding" else Pass()
        return Play(cards=[min(self.hands[seat], key=order)])

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Bid):
            return self.make_bid(seat, action.chips)
        if isinstance(action, Pass):
            return self.climbing.passed(seat)
        assert isinstance(action, Play)  # verify lets only a Bid, a Pass or a Play through
        cards = action.cards
        for card in cards:
            self.hands[seat].remove(card)
        self.played += cards
        combo = classify(cards)
        if combo.power:
            self.doublings += 1
        self.climbing.played(seat, cards)
        left = len(self.hands[seat])
        events: list[Event] = [Played(seat=seat, cards=cards, combination=combo.name, left=left)]
        return events + (self.settle(seat) if not left else [])

    def view(self, viewer: Viewer) -> DouDizhuView:
        climb = self.climbing if self.phase == "playing" else None
        to_beat = climb.to_beat if climb else []
        holder = next((s for s in range(PLAYERS) if self.face_up in self.hands[s]), None)
        view = DouDizhuView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            counts=[len(hand) for hand in self.hands],
            stacks=self.stacks,
            face_up=self.face_up if holder is not None else None,
            face_up_holder=holder,
            bids=self.bids,
            bid=self.bid,
            landlord=self.landlord,
            doublings=self.doublings,
            to_beat=to_beat,
            last_player=climb.last_player if climb else None,
            turn=climb.turn if climb else (self.bidder if self.phase == "bidding" else None),
            played=self.played,
            widow=self.kitty,
        )
        if viewer is not None:
            view.my_cards = self.hands[viewer]
        return view

    def all_cards(self) -> list[FrenchCard]:
        return [c for hand in self.hands for c in hand] + self.widow + self.played

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        hidden, shown = set(self.widow), {self.face_up, *self.kitty}  # everyone saw them taken
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden |= set(hand) - shown
        return hidden

    def chip_total(self) -> int:
        return sum(self.stacks)


def new_dou_dizhu(
    options: DouDizhuOptions, stacks: list[int], rng: Rng
) -> tuple[DouDizhuState, list[Event]]:
    state = DouDizhuState(rng=rng, seat_count=PLAYERS, options=options, stacks=stacks)
    return state, state.start_hand()
