"""Calabrasella, as bot/games/calabrasella/rules.md tells it, its house decisions included.

Three players, the Italian 40: twelve cards each and a widow of four. The first to play is
the declarer against the other two; they name a 3 they lack (a 2 when they hold all four 3s),
whose holder hands it over in private and gets back a card the third player never learns.
Twelve tricks follow, no trumps; 35 points are always at stake, and the difference is paid
by or to each defender.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Literal

from bot.cards import FrenchCard, Suit, italian_deck
from bot.engine import (
    Action,
    Decision,
    Event,
    HandEnded,
    HandStarted,
    IllegalAction,
    MatchEnded,
    Rng,
    UnlistedActions,
    Viewer,
    placings,
)
from bot.games.calabrasella.cards import (
    DECLARER,
    DEFENDERS,
    HAND,
    LAST_TRICK,
    MAX_DISCARD,
    PLAYERS,
    RULES,
    SUITS,
    TRICKS,
    card_points,
    defenders_of,
    discard_reason,
    lowness,
    name_reason,
    nameable,
    pay,
    payment,
    sort_key,
    take_reason,
)
from bot.games.calabrasella.records import (
    PHASE_KINDS,
    PROMPTS,
    BidMade,
    CalabrasellaOptions,
    CalabrasellaView,
    Dealt,
    Declare,
    Discard,
    Discarded,
    GaveBack,
    GiveBack,
    HandedOver,
    LostInWidow,
    Name,
    Named,
    Pass,
    PlayCard,
    Played,
    Redeal,
    Settled,
    Take,
    Took,
    TrickWon,
    WidowTurned,
    plays_view,
)
from bot.games.hands import HandAfterHandWithStacks
from bot.games.tricks import Trick, TrickPlay, WonPiles, legal_cards, why_illegal
from bot.i18n import _, n_


class CalabrasellaState(UnlistedActions, HandAfterHandWithStacks):
    # Unlisted: discards are any 1-4 cards of twelve, which verify judges.
    options: CalabrasellaOptions
    phase: Literal[
        "bidding", "naming", "giving_back", "discarding", "taking", "playing", "between", "over"
    ] = "bidding"
    hands: list[list[FrenchCard]] = []
    widow: list[FrenchCard] = []
    widow_up: bool = False
    discards: list[FrenchCard] = []
    bids: list[bool | None] = []
    bidder: int = 0
    declarer: int | None = None
    holder: int | None = None
    named: FrenchCard | None = None
    named_done: bool = False
    given_back: FrenchCard | None = None
    exposed: list[FrenchCard] = []  # taken from the face-up widow: everyone knows where
    trick: Trick | None = None
    last_trick: Trick | None = None
    played: list[TrickPlay] = []  # every finished trick of the hand, in order (public)
    piles: WonPiles | None = None
    settled: list[FrenchCard] = []  # cards of finished hands, all shown

    @property
    def declarer_seat(self) -> int:
        assert self.declarer is not None  # read only after a bid made a declarer
        return self.declarer

    @property
    def won_piles(self) -> WonPiles:
        assert self.piles is not None  # made with the declarer
        return self.piles

    @property
    def current_trick(self) -> Trick:
        assert self.trick is not None  # read only in the "playing" phase, which has one
        return self.trick

    # ---- dealing --------------------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        if min(self.stacks) < 1:
            self.phase = "over"
            # A chip game: no scores, so the standings give each player's chips won or lost.
            return [MatchEnded(placings=placings(self.stacks))]
        deck = self.rng.shuffled(italian_deck())
        self.hands = [[] for _ in range(PLAYERS)]
        for block in range(PLAYERS):
            seat = (self.dealer + 1 + block) % PLAYERS
            self.hands[seat] = sorted(deck[block * HAND : (block + 1) * HAND], key=sort_key)
        self.widow = deck[PLAYERS * HAND :]
        self.widow_up, self.discards, self.exposed, self.settled = False, [], [], []
        self.bids = [None] * PLAYERS
        self.bidder = (self.dealer + 1) % PLAYERS
        self.declarer = self.holder = self.named = self.given_back = None
        self.named_done = False
        self.trick = self.last_trick = self.piles = None
        self.played = []
        self.phase = "bidding"
        return [
            HandStarted(hand=self.hand),
            Dealt(hand=self.hand, dealer=self.dealer, first_bidder=self.bidder),
        ]

    # ---- bidding, naming, the widow ---------------------------------------------------------

    def bid(self, seat: int, play: bool) -> list[Event]:
        self.bids[seat] = play
        events: list[Event] = [BidMade(seat=seat, play=play)]
        if play:
            self.declarer = seat
            self.piles = WonPiles(sides=[[seat], [(seat + 1) % PLAYERS, (seat + 2) % PLAYERS]])
            if nameable(self.hands[seat]):
                self.phase = "naming"
                return events
            self.named_done = True
            self.phase = "discarding"
            return [*events, Named(declarer=seat, holder=None, nothing=True)]
        if all(b is False for b in self.bids):
            self.dealer = self.next_dealer()
            return [*events, Redeal(), *self.start_hand()]
        self.bidder = (seat + 1) % PLAYERS
        return events

    def name(self, card: FrenchCard) -> list[Event]:
        declarer = self.declarer_seat
        self.named, self.named_done = card, True
        holder = next((s for s in range(PLAYERS) if card in self.hands[s]), None)
        self.holder = holder
        if holder is None:
            self.phase = "discarding"
            return [
                Named(declarer=declarer, holder=None),
                LostInWidow(audience=(declarer,)),
            ]
        self.hands[holder].remove(card)
        self.hands[declarer] = sorted([*self.hands[declarer], card], key=sort_key)
        self.phase = "giving_back"
        return [
            Named(declarer=declarer, holder=holder),
            HandedOver(declarer=declarer, holder=holder, card=card, audience=(declarer, holder)),
        ]

    def give_back(self, card: FrenchCard) -> list[Event]:
        declarer, holder = self.declarer_seat, self.holder
        assert holder is not None  # only the seat that handed the named card over gets one back
        self.hands[declarer].remove(card)
        self.hands[holder] = sorted([*self.hands[holder], card], key=sort_key)
        self.given_back = card
        self.phase = "discarding"
        return [
            GaveBack(declarer=declarer, holder=holder),
            GaveBack(declarer=declarer, holder=holder, card=card, audience=(declarer, holder)),
        ]

    def discard(self, cards: list[FrenchCard]) -> list[Event]:
        seat = self.declarer_seat
        for card in cards:
            self.hands[seat].remove(card)
        self.discards = list(cards)
        self.widow_up = True
        self.phase = "taking"
        return [
            Discarded(seat=seat, count=len(cards)),
            Discarded(seat=seat, count=len(cards), cards=list(cards), audience=(seat,)),
            WidowTurned(cards=list(self.widow)),
        ]

    def take(self, cards: list[FrenchCard]) -> list[Event]:
        seat = self.declarer_seat
        for card in cards:
            self.widow.remove(card)
        self.hands[seat] = sorted([*self.hands[seat], *cards], key=sort_key)
        self.exposed = list(cards)
        self.phase = "playing"
        self.trick = Trick(leader=(seat + 1) % PLAYERS)
        return [Took(seat=seat, cards=list(cards))]

    # ---- the tricks -----------------------------------------------------------------------

    def turn(self) -> int | None:
        if self.phase == "bidding":
            return self.bidder
        if self.phase in ("naming", "giving_back", "discarding", "taking"):
            return self.declarer
        if self.phase == "playing":
            return self.current_trick.next_seat(list(range(PLAYERS)))
        return None

    def legal_plays(self, seat: int) -> list[FrenchCard]:
        return legal_cards(self.hands[seat], self.current_trick, RULES)

    def play(self, seat: int, card: FrenchCard) -> list[Event]:
        trick, piles = self.current_trick, self.won_piles
        self.hands[seat].remove(card)
        trick.add(seat, card)
        events: list[Event] = [Played(seat=seat, card=card)]
        if len(trick.plays) < PLAYERS:
            return events
        winner = trick.winner(RULES)
        cards = trick.cards
        piles.take(winner, cards)
        events.append(TrickWon(seat=winner, cards=cards, points=sum(map(card_points, cards))))
        self.last_trick = trick
        self.played += trick.plays
        if sum(piles.tricks) == TRICKS:
            self.trick = None
            return events + self.settle()
        self.trick = Trick(leader=winner)
        return events

    def settle(self) -> list[Event]:
        """Score the hand and pay. Nobody pays more than they hold."""
        declarer, piles = self.declarer_seat, self.won_piles
        set_aside = self.discards + self.widow
        last = piles.last
        assert last is not None  # the hand's tricks have all been taken
        piles.add(last, set_aside)
        points = piles.points(card_points, last_trick=LAST_TRICK)
        per_defender = payment(points[DECLARER], points[DEFENDERS])
        before = list(self.stacks)
        short = pay(self.stacks, declarer, per_defender)
        net = [after - b for after, b in zip(self.stacks, before, strict=True)]
        self.settled = [c for pile in piles.cards for c in pile]
        self.hands, self.widow, self.discards, self.exposed = [[], [], []], [], [], []
        self.phase = "between"
        scores: list[int | None] = [
            points[DECLARER] if s == declarer else points[DEFENDERS] for s in range(PLAYERS)
        ]
        winners = (
            [declarer] if per_defender > 0 else defenders_of(declarer) if per_defender < 0 else []
        )
        return [
            Settled(
                declarer=declarer,
                points=points,
                set_aside=set_aside,
                to_side=last,
                per_defender=per_defender,
                net=net,
                short=short,
            ),
            HandEnded(
                hand=self.hand,
                players=list(range(PLAYERS)),
                net_chips=net,
                scores=scores,
                winners=winners,
            ),
        ]

    # ---- the protocol -----------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        seat = self.turn()
        if seat is None:
            return []
        prompt = (
            n_(
                "Take {count} card from the widow",
                "Take {count} cards from the widow",
                len(self.discards),
            )
            if self.phase == "taking"
            else _(PROMPTS[self.phase])
        )
        return [Decision(seat=seat, kind=PHASE_KINDS[self.phase], prompt=prompt)]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action, except discards: each single card stands for the sets of 1-4."""
        if seat != self.turn():
            return []
        hand = self.hands[seat]
        match self.phase:
            case "bidding":
                return [Pass(), Declare()]
            case "naming":
                return [Name(card=card) for card in nameable(hand)]
            case "giving_back":
                return [GiveBack(card=card) for card in hand if card != self.named]
            case "discarding":
                return [Discard(cards=[card]) for card in hand]
            case "taking":
                count = len(self.discards)
                return [Take(cards=list(cs)) for cs in combinations(self.widow, count)]
            case "playing":
                return [PlayCard(card=card) for card in self.legal_plays(seat)]
        return []

    def verify(self, seat: int, action: Action) -> None:
        if self.phase not in ("between", "over") and seat == self.turn():
            reason = self.why_not(seat, action)
            if reason:
                raise IllegalAction(reason)
            return
        if self.phase == "between":
            raise IllegalAction(_("This hand is over."))
        super().verify(seat, action)

    def why_not(self, seat: int, action: Action) -> str | None:
        """Why the seat to act may not take `action` now (None: it may)."""
        hand = self.hands[seat]
        wanted = {
            "bidding": (Pass, Declare),
            "naming": (Name,),
            "giving_back": (GiveBack,),
            "discarding": (Discard,),
            "taking": (Take,),
            "playing": (PlayCard,),
        }[self.phase]
        if not isinstance(action, wanted):
            return _("That move is not allowed right now.")
        if isinstance(action, Name):
            if action.card not in nameable(hand):
                return name_reason(hand)
        elif isinstance(action, GiveBack):
            if action.card not in hand:
                return _("You don't hold that card.")
            if action.card == self.named:
                return _("Give back another card, not the one you were handed.")
        elif isinstance(action, Discard):
            return discard_reason(action.cards, hand)
        elif isinstance(action, Take):
            return take_reason(action.cards, self.widow, len(self.discards))
        elif isinstance(action, PlayCard):
            return why_illegal(action.card, hand, self.current_trick, RULES)
        return None

    def sample(self, seat: int, chooser: random.Random) -> Action:
        if self.phase == "discarding" and seat == self.turn():
            count = chooser.randint(1, MAX_DISCARD)
            return Discard(cards=chooser.sample(self.hands[seat], count))
        return chooser.choice(self.legal_actions(seat))

    def can_close_mid_hand(self) -> bool:
        """Closed before anyone played: no declarer yet, and passes would only deal again."""
        return self.phase == "bidding"

    def default_action(self, seat: int) -> Action:
        """Pass; name the 3 (or 2) of your longest suit; give back, or discard, your lowest
        card; take the widow's best cards; play your lowest legal card."""
        hand = self.hands[seat]
        match self.phase:
            case "bidding":
                return Pass()
            case "naming":
                length: dict[Suit | None, int] = {
                    suit: sum(c.suit == suit for c in hand) for suit in SUITS
                }
                return Name(card=max(nameable(hand), key=lambda c: length[c.suit]))
            case "giving_back":
                return GiveBack(card=min((c for c in hand if c != self.named), key=lowness))
            case "discarding":
                return Discard(cards=[min(hand, key=lowness)])
            case "taking":
                best = sorted(self.widow, key=lowness, reverse=True)[: len(self.discards)]
                return Take(cards=[c for c in self.widow if c in best])
        return PlayCard(card=min(self.legal_plays(seat), key=lowness))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Pass | Declare):
            return self.bid(seat, isinstance(action, Declare))
        if isinstance(action, Name):
            return self.name(action.card)
        if isinstance(action, GiveBack):
            return self.give_back(action.card)
        if isinstance(action, Discard):
            return self.discard(action.cards)
        if isinstance(action, Take):
            return self.take(action.cards)
        assert isinstance(action, PlayCard)  # verify lets no other action through
        return self.play(seat, action.card)

    # ---- what each seat sees ------------------------------------------------------------------

    def known_to(self, seat: int) -> set[FrenchCard]:
        """Cards out of this seat's sight it knows of: the card it handed over or got back, and
        for the declarer the card it named (in the widow when nobody held it)."""
        known = set(self.exposed)
        if seat in (self.declarer, self.holder) and self.holder is not None:
            known |= {c for c in (self.named, self.given_back) if c is not None}
        if seat == self.declarer and self.named is not None:
            known.add(self.named)
        return known

    def view(self, viewer: Viewer) -> CalabrasellaView:
        piles = self.piles
        playing = self.phase == "playing"
        view = CalabrasellaView(
            hand=self.hand,
            phase=self.phase,
            dealer=self.dealer,
            stacks=self.stacks,
            counts=[len(hand) for hand in self.hands],
            bids=self.bids,
            turn=self.turn(),
            declarer=self.declarer,
            holder=self.holder,
            named_done=self.named_done,
            discard_count=len(self.discards),
            widow=self.widow if self.widow_up else None,
            widow_count=len(self.widow),
            leader=self.current_trick.leader if playing else None,
            trick=plays_view(self.trick.plays) if self.trick else [],
            last_trick=plays_view(self.last_trick.plays) if self.last_trick and playing else [],
            played=plays_view(self.played) if playing else [],
            taken=self.exposed,
            tricks=piles.tricks if piles and playing else [0, 0],
            points=[sum(map(card_points, pile)) for pile in piles.cards]
            if piles and playing
            else [0, 0],
            to_take=len(self.discards) if self.phase == "taking" else 0,
        )
        if viewer is not None and self.phase not in ("between", "over"):
            view.my_cards = self.hands[viewer]
            if viewer == self.declarer:
                view.my_discards = self.discards
            if viewer == self.declarer or (self.holder is not None and viewer == self.holder):
                view.named_card, view.given_back = self.named, self.given_back
            if playing and viewer == self.turn():
                view.legal = self.legal_plays(viewer)
        return view

    def all_cards(self) -> list[FrenchCard]:
        held = [c for hand in self.hands for c in hand]
        trick = self.trick.cards if self.trick else []
        won = [c for pile in self.piles.cards for c in pile] if self.piles else []
        if self.phase in ("between", "over"):
            return self.settled
        return held + self.widow + self.discards + trick + won

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        if self.phase in ("between", "over"):
            return set()
        hidden = set() if self.widow_up else set(self.widow)
        if viewer != self.declarer:
            hidden |= set(self.discards)
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden |= set(hand)
        return hidden - (self.known_to(viewer) if viewer is not None else set(self.exposed))

    def chip_total(self) -> int:
        return sum(self.stacks)


def new_calabrasella(
    options: CalabrasellaOptions, stacks: list[int], rng: Rng
) -> tuple[CalabrasellaState, list[Event]]:
    state = CalabrasellaState(rng=rng, seat_count=PLAYERS, options=options, stacks=stacks)
    return state, state.start_hand()
