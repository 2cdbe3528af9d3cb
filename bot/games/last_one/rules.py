"""Last One (bot/games/last_one/rules.md): Crazy Eights with specials, for 2-6.

A French 52 with both jokers. Each deal gives every player the table's hand size from the
dealer's left (nine only at a table whose players all agreed to it by joining; a size the pack
can't deal with an upcard left, nine at six, is refused at the start); the next card is the
upcard, the rest the stock. In turn, a player plays a card matching the upcard's suit
or rank (an 8 or a joker goes on anything), or draws one card, which they may do even when
able to play. Specials:

- 2: the next player draws two and is skipped; J: the next player is skipped;
- A: play reverses (with two players: a skip, the same player plays again);
- 3: its player may add any one card of their hand (its own effect applies), or end the turn;
- 8: its player names the suit the next player must play (or another 8);
- joker: its player names a natural card; the joker counts as that card, with no effect;
- 4: a melee. The 4's player is the aggressor, the next player the defender. For a short
  window (`melee_seconds`) anyone but the aggressor holding the next card of the 4's suit (a
  joker may stand for it) may play it: they become the aggressor and the previous aggressor
  the defender. When a window passes with no play, or after the King, the defender draws the
  last card's pip value (A = 1 ... K = 13) and play resumes after the defender. Melee cards
  have no other effect.

The first upcard acts as if the dealer had played it (3: nothing; 4: no melee). A player left
with one card must call "Last one!" before another player plays (or draws), else draws two.
An empty stock is rebuilt from the discards under the upcard; when both are empty a draw
stops short. A hand ends the moment someone plays their last card (its effect is not carried
out): they, and anyone holding one card, score nothing; the rest score their cards (joker 40,
8 25, A 15, K Q J 10, others their pips). Reaching the threshold (250) puts a player out of
the match; the last one left wins.
"""

from __future__ import annotations

import functools

from bot.cards import FrenchCard, Rank, Suit
from bot.engine import Action, Decision, Event, HandEnded, HandStarted, IllegalAction, Rng, Windows
from bot.games.jokerless import rank_of, suit_of
from bot.games.last_one.cards import (
    PENALTY_CARDS,
    SUITS,
    card_points,
    deal_refusal,
    full_deck,
    is_wild,
    named_text,
    sort_cards,
)
from bot.games.last_one.records import (
    Call,
    Called,
    CardNamed,
    Continue,
    Dealt,
    Draw,
    EndedTurn,
    EndTurn,
    HandScored,
    LastOneKind,
    LastOneOptions,
    Melee,
    MeleeContinued,
    MeleeEnded,
    MeleeStarted,
    NameCard,
    Named,
    NameSuit,
    Play,
    Played,
    Reversed,
    Skipped,
    SuitNamed,
)
from bot.games.last_one.table import LastOneTable
from bot.games.matches import Match
from bot.i18n import _

# The decision of each phase of a turn (a kind is named as its phase).
TURN_KINDS = {
    kind.value: kind
    for kind in (LastOneKind.TURN, LastOneKind.FREE, LastOneKind.SUIT, LastOneKind.NAME)
}

# ---- the game ---------------------------------------------------------------------------------


class LastOneState(Windows, LastOneTable):
    """Last One's hands on its table: the deal, turns and card effects, melees (a window for
    whoever holds the next card), scoring."""

    # ---- dealing --------------------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        self.players = self.match.seats_in()
        self.cards_each = self.options.hand_size
        deck = self.rng.shuffled(full_deck())
        self.hands = [[] for _ in range(self.seat_count)]
        for index in range(len(self.players)):  # in blocks, from the dealer's left
            seat = self.next_seat(self.dealer, index + 1)
            block = deck[index * self.cards_each : (index + 1) * self.cards_each]
            self.hands[seat] = sort_cards(block)
        dealt = len(self.players) * self.cards_each
        upcard = deck[dealt]
        self.stock = deck[dealt + 1 :][::-1]
        self.discards = [upcard]
        self.named = self.suit = self.melee = self.caller = None
        self.last_points = self.revealed = None
        self.lacks = [[] for _ in range(self.seat_count)]
        self.direction = 1
        events: list[Event] = [
            HandStarted(hand=self.hand),
            Dealt(dealer=self.dealer, cards_each=self.cards_each, upcard=upcard),
        ]
        return events + self.effect(self.dealer, upcard, first=True)

    def next_dealer(self) -> int:
        return self.match.next_dealer(self.dealer)

    # ---- who decides -----------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        decisions: dict[int, Decision] = {}
        if self.phase in ("turn", "free", "suit", "name"):
            kind = TURN_KINDS[self.phase]
            decisions[self.turn] = Decision(seat=self.turn, kind=kind, prompt=self.prompt(kind))
        elif self.phase == "melee":
            for seat in self.players:
                if self.melee_cards(seat):
                    decisions[seat] = Decision(
                        seat=seat,
                        kind=LastOneKind.MELEE,
                        prompt=self.prompt(LastOneKind.MELEE),
                        optional=True,
                    )
        if self.caller is not None and self.caller not in decisions:
            decisions[self.caller] = Decision(
                seat=self.caller,
                kind=LastOneKind.CALL,
                prompt=self.prompt(LastOneKind.CALL),
                optional=True,
                until_next_move=True,
            )
        return list(decisions.values())

    def pending_seats(self) -> list[int]:
        """`pending`'s seats, without writing its prompts: the legality checks ask for them
        at every move (thousands of moves in an Expert search)."""
        if self.phase in ("turn", "free", "suit", "name"):
            seats = [self.turn]
        elif self.phase == "melee":
            seats = [seat for seat in self.players if self.melee_cards(seat)]
        else:
            seats = []
        calling = self.caller is not None and self.caller not in seats
        return [*seats, self.caller] if calling and self.caller is not None else seats

    def prompt(self, kind: LastOneKind) -> str:
        match kind:
            case LastOneKind.TURN:
                if self.can_draw():
                    return _(
                        "Your turn: play on {target} (same suit or rank; an 8 or a joker goes on "
                        "anything), or draw a card.",
                        target=self.target_text(),
                    )
                return _(
                    "Your turn: play on {target} (same suit or rank; an 8 or a joker goes on "
                    "anything), or pass (nothing is left to draw).",
                    target=self.target_text(),
                )
            case LastOneKind.FREE:
                return _("Your 3 lets you add any one card from your hand, or end your turn.")
            case LastOneKind.SUIT:
                return _("Name the suit the next player must play.")
            case LastOneKind.NAME:
                return _(
                    "Name the card your joker stands for (it has none of that card's effects)."
                )
            case LastOneKind.MELEE:
                melee = self.current_melee
                step = named_text(Rank(melee.rank + 1), melee.suit)
                return _(
                    "You may play {card} (or a joker as it) to become the aggressor.", card=step
                )
        return _("You hold one card: press Last one! before the next player plays, or draw two.")

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase in ("between", "over") or seat not in self.pending_seats():
            return []
        actions: list[Action] = []
        if self.phase == "melee":
            step = Rank(self.current_melee.rank + 1)
            actions += [Continue(card=card, rank=step) for card in self.melee_cards(seat)]
        elif seat == self.turn:
            actions += self.turn_actions(seat)
        if seat == self.caller:
            actions.append(Call())
        return actions

    def turn_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        match self.phase:
            case "turn":
                plays: list[Action] = [play_of(c) for c in hand if self.playable(c)]
                return [*plays, Draw()]
            case "free":
                return [*map(play_of, hand), EndTurn()]
            case "suit":
                return [NameSuit(suit=suit) for suit in SUITS]
            case "name":
                return [NameCard(rank=rank, suit=suit) for suit in SUITS for rank in Rank]
        return []

    def verify(self, seat: int, action: Action) -> None:
        """The rules' own reason for a move that isn't allowed now."""
        live = self.phase not in ("between", "over") and seat in self.players
        asked = live and (seat in self.pending_seats() or isinstance(action, Call | Continue))
        if asked:
            if action not in self.legal_actions(seat):
                raise IllegalAction(self.why_not(seat, action))
            if seat in self.pending_seats():
                return  # live, asked and legal: the base's checks would only list them again
        super().verify(seat, action)

    def why_not(self, seat: int, action: Action) -> str:
        holds = getattr(action, "card", None) in self.hands[seat]
        if isinstance(action, Call):
            if len(self.hands[seat]) != 1:
                return _("You can call Last one! only when you hold one card.")
            return _("You have already called Last one!")
        if isinstance(action, Continue) and self.phase != "melee":
            return _("There is no melee to continue.")
        if self.phase == "melee":
            if not isinstance(action, Continue):
                return _("Only melee cards can be played now.")
            melee = self.current_melee
            if melee.aggressor == seat:
                return _("You are the aggressor: someone else must continue the melee.")
            step = named_text(Rank(melee.rank + 1), melee.suit)
            if action.rank == melee.rank + 1 and not holds:
                return _("You don't hold that card.")
            return _("Only {card} (or a joker standing for it) continues this melee.", card=step)
        if seat != self.turn:
            return _("It is not your turn.")
        if isinstance(action, Play | Continue) and not holds:
            return _("You don't hold that card.")
        if self.phase == "turn" and isinstance(action, Play):
            return _(
                "{card} doesn't go on {target}.", card=action.card.label, target=self.target_text()
            )
        match self.phase:
            case "turn":
                return _("Play a card or draw.")
            case "free":
                return _("After your 3, add any card from your hand or end your turn.")
            case "suit":
                return _("Name a suit for your 8.")
        return _("Name the card your joker stands for.")

    def default_action(self, seat: int) -> Action:
        """On timeout: play your playable card worth the most (an 8 or a joker last), else
        draw; after a 3, end the turn; name your longest suit (a joker: your best card in
        it). Playing rather than drawing lets a table of absent players still finish."""
        match self.phase:
            case "free":
                return EndTurn()
            case "suit":
                return NameSuit(suit=self.longest_suit(seat))
            case "name":
                return self.default_name(seat)
        plays = [card for card in self.hands[seat] if self.playable(card)]
        if not plays:
            return Draw()
        return Play(card=min(plays, key=lambda card: (is_wild(card), -card_points(card))))

    def longest_suit(self, seat: int) -> Suit:
        naturals = [card for card in self.hands[seat] if not card.is_joker]
        return max(SUITS, key=lambda s: (sum(c.suit == s for c in naturals), -SUITS.index(s)))

    def default_name(self, seat: int) -> NameCard:
        suit = self.longest_suit(seat)
        ranks = [rank_of(card) for card in self.hands[seat] if card.suit == suit]
        return NameCard(rank=max(ranks, default=Rank.KING), suit=suit)

    def sample(self, seat: int, chooser) -> Action:
        """A random move that plays more often than it draws (random play that drew as often
        as it played would make hands drag on)."""
        actions = self.legal_actions(seat)
        plays = [a for a in actions if isinstance(a, Play | Continue)]
        if plays and chooser.random() < 0.95:
            return chooser.choice(plays)
        return chooser.choice(actions)

    # ---- acting ----------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Call):
            self.caller = None
            return [Called(seat=seat)]
        events = self.late_call(seat)
        match action:
            case Play():
                events += self.play(seat, action.card, free=self.phase == "free")
            case Draw():
                self.drawing_on_turn(seat)
                events += self.draw(seat, 1, "draw")
                self.turn = self.next_seat(seat)
            case EndTurn():
                events.append(EndedTurn(seat=seat))
                self.phase, self.turn = "turn", self.next_seat(seat)
            case NameSuit():
                self.suit, self.phase, self.turn = action.suit, "turn", self.next_seat(seat)
                events.append(SuitNamed(seat=seat, suit=action.suit))
            case NameCard():
                self.named = Named(rank=action.rank, suit=action.suit)
                self.phase, self.turn = "turn", self.next_seat(seat)
                events.append(CardNamed(seat=seat, rank=action.rank, suit=action.suit))
            case Continue():
                events += self.continue_melee(seat, action.card, action.rank)
        return events

    def late_call(self, seat: int) -> list[Event]:
        """Someone else plays while a one-card player hasn't called: two penalty cards."""
        if self.caller is None or self.caller == seat:
            return []
        late, self.caller = self.caller, None
        return self.draw(late, PENALTY_CARDS, "penalty")

    def discard(self, seat: int, card: FrenchCard) -> None:
        self.hands[seat].remove(card)
        self.discards.append(card)
        self.named = self.suit = None
        if len(self.hands[seat]) == 1:
            self.caller = seat

    def play(self, seat: int, card: FrenchCard, *, free: bool) -> list[Event]:
        self.discard(seat, card)
        left = len(self.hands[seat])
        events: list[Event] = [Played(seat=seat, card=card, left=left, free=free)]
        if not left:
            return events + self.end_hand(seat)
        return events + self.effect(seat, card)

    def effect(self, seat: int, card: FrenchCard, *, first: bool = False) -> list[Event]:
        """What a card played by `seat` does (the first upcard: as if the dealer played it,
        but a 3 gives no free card and a 4 starts no melee)."""
        self.phase, self.turn = "turn", self.next_seat(seat)
        if card.is_joker:
            self.phase, self.turn = "name", seat
            return []
        match card.rank:
            case Rank.EIGHT:
                self.phase, self.turn = "suit", seat
            case Rank.TWO:
                victim = self.next_seat(seat)
                self.turn = self.next_seat(seat, 2)
                return [*self.draw(victim, 2, "two"), Skipped(seat=victim)]
            case Rank.JACK:
                self.turn = self.next_seat(seat, 2)
                return [Skipped(seat=self.next_seat(seat))]
            case Rank.ACE if self.heads_up:
                self.turn = seat
                return [Skipped(seat=self.next_seat(seat))]
            case Rank.ACE:
                self.direction = -self.direction
                self.turn = self.next_seat(seat)
                return [Reversed(direction=self.direction)]
            case Rank.THREE if not first:
                self.phase, self.turn = "free", seat
            case Rank.FOUR if not first:
                return self.start_melee(seat, suit_of(card))
        return []

    # ---- the melee -------------------------------------------------------------------------

    def start_melee(self, seat: int, suit: Suit) -> list[Event]:
        defender = self.next_seat(seat)
        self.melee = Melee(suit=suit, rank=Rank.FOUR, aggressor=seat, defender=defender)
        self.phase = "melee"
        return [MeleeStarted(seat=seat, suit=suit, defender=defender)]

    def continue_melee(self, seat: int, card: FrenchCard, rank: Rank) -> list[Event]:
        melee = self.current_melee
        self.discard(seat, card)
        if card.is_joker:
            self.named = Named(rank=rank, suit=melee.suit)
        melee.defender, melee.aggressor, melee.rank = melee.aggressor, seat, rank
        left = len(self.hands[seat])
        events: list[Event] = [
            MeleeContinued(
                seat=seat,
                card=card,
                rank=rank,
                suit=melee.suit,
                defender=melee.defender,
                left=left,
            )
        ]
        if not left:
            return events + self.end_hand(seat)
        if rank == Rank.KING:
            return events + self.end_melee()
        return events

    def window_seconds(self) -> int | None:
        return self.options.melee_seconds if self.phase == "melee" else None

    def close_window(self) -> list[Event]:
        if self.phase != "melee":
            return super().close_window()
        return self.end_melee()

    def end_melee(self) -> list[Event]:
        """Nobody went on (or the King was played): the defender draws the last card's pips
        and play resumes after them."""
        melee, self.melee = self.current_melee, None
        self.phase, self.turn = "turn", self.next_seat(melee.defender)
        ended = MeleeEnded(defender=melee.defender, rank=melee.rank)
        return [ended, *self.draw(melee.defender, int(melee.rank), "melee")]

    # ---- the end of a hand -----------------------------------------------------------------

    def end_hand(self, winner: int) -> list[Event]:
        """`winner` is out of cards: everyone else with more than one card scores them."""
        points = [0] * self.seat_count
        for seat in self.players:
            if len(self.hands[seat]) > 1:
                points[seat] = sum(map(card_points, self.hands[seat]))
        still_in = set(self.match.seats_in())
        over = self.match.add_hand(points)
        eliminated = sorted(still_in - set(self.match.seats_in()))
        self.melee = self.caller = None
        self.last_points = points
        self.revealed = [list(hand) for hand in self.hands]
        events: list[Event] = [
            HandScored(
                winner=winner,
                hands=self.revealed,
                points=points,
                totals=list(self.match.scores),
                eliminated=eliminated,
            ),
            HandEnded(
                hand=self.hand,
                players=list(self.players),
                net_chips=[0] * self.seat_count,
                scores=[points[s] if s in self.players else None for s in range(self.seat_count)],
                winners=[winner],
            ),
        ]
        self.phase = "over" if over else "between"
        return events + ([self.standings()] if over else [])

    def closing_choice(self, seat: int) -> Call | None:
        """A table closing mid-hand calls "Last one!" for its players: nobody can press it."""
        return Call() if seat == self.caller else None

    def leave(self, seat: int) -> int:
        """Leaving between hands drops you out of the match; the others play on."""
        if not self.can_leave_now(seat):
            raise IllegalAction(_("You can leave between hands."))
        if self.phase == "between":
            self.match.drop(seat)
            if self.match.is_over():
                self.phase = "over"
        return 0


@functools.cache
def play_of(card: FrenchCard) -> Play:
    """The play of a card (frozen, so made once: the moves are listed at every step)."""
    return Play(card=card)


def new_last_one(
    options: LastOneOptions, stacks: list[int], rng: Rng
) -> tuple[LastOneState, list[Event]]:
    refusal = deal_refusal(options.hand_size, len(stacks))
    if refusal:
        raise IllegalAction(refusal)
    state = LastOneState(
        rng=rng,
        seat_count=len(stacks),
        options=options,
        match=Match.elimination(len(stacks), options.threshold),
    )
    return state, state.start_hand()
