"""Backhand (bot/games/backhand/rules.md): blackjack without standing, against the
house.

Every player is dealt two cards face up from a shoe of one pack per two players. Aces among
those two are discarded and replaced (a replacement ace is kept); aces count 1, faces 10. A hand
of 11 or less is dealt cards until it reaches 12. Then the player hits (a card; over 21 busts
and loses, a fifth card without busting wins) or calls backhand: one card is turned, not added,
and the player wins if it would have busted them. Two cards totalling 17 to 20 make a push
hand: the player pushes it away (two new cards, aces replaced, may push again) or plays the
push (one card: 21 or less wins).

Two modes: for chips, each player bets between the table's minimum and maximum and the house
pays even money; or for wins only, the first to the target wins the match. The house deals
every hand, so play always starts with seat 0.

The house covers each hand from its guild balance (rules.md, For chips): every bet brings its
even-money win from the house to the table (`bank`, the house's hold), and when the hand ends
the hold and whatever the house won go back. The runtime moves those chips between the house's
account and the table with the step that brings or releases them, and refuses a bet the house
can't cover; so the table's limits hold as long as the house as a whole can cover them.
"""

from __future__ import annotations

import random
import re

from bot.cards import FrenchCard, Rank
from bot.engine import (
    Action,
    Decision,
    Event,
    HandEnded,
    HandStarted,
    IllegalAction,
    Rng,
    TextAnswers,
)
from bot.games.backhand.cards import (
    AUTO_DEAL_BELOW,
    BUST_OVER,
    FIVE_CARDS,
    MOST_DRAWN_PER_PLAYER,
    PUSH_HIGH,
    PUSH_LOW,
    bet_ladder,
    card_value,
    packs_for,
)
from bot.games.backhand.records import (
    EVERYONE_LEFT,
    LAST_HAND,
    NO_MINIMUM_BET,
    AcesReplaced,
    AutoDealt,
    BackhandCalled,
    BackhandKind,
    BackhandOptions,
    Bet,
    BetPlaced,
    CallBackhand,
    CardHit,
    Dealt,
    Hit,
    Outcome,
    PlayerHand,
    PlayPush,
    PushAway,
    PushedAway,
    PushHandDealt,
    PushPlayed,
    Settled,
    StockRefilled,
)
from bot.games.backhand.table import BackhandTable
from bot.i18n import _


class BackhandState(TextAnswers, BackhandTable):
    """Backhand's hands on its table: bets (answered in words too), deals, each player's turn
    and settlement."""

    # ---- starting a hand --------------------------------------------------------------------

    def next_dealer(self) -> int:
        return self.dealer  # the house deals every hand

    def start_hand(self) -> list[Event]:
        reason = self.why_no_hand()
        if reason is not None:
            return self.end_match(reason)
        self.stock = list(reversed(self.rng.shuffled(packs_for(self.seat_count))))
        self.hands = [PlayerHand() for _ in range(self.seat_count)]
        self.players = [seat for seat in range(self.seat_count) if self.can_bet(seat)]
        self.turn = None
        events: list[Event] = [HandStarted(hand=self.hand)]
        if not self.for_chips:
            return events + self.deal()
        for seat in self.players:
            self.hands[seat].cap = min(self.options.max_bet, self.stacks[seat])
        self.phase = "betting"
        return events

    def can_bet(self, seat: int) -> bool:
        """Dealt in: every seated player for wins, those with the minimum bet for chips."""
        if not self.seated[seat]:
            return False
        return not self.for_chips or self.stacks[seat] >= self.options.min_bet

    def why_no_hand(self) -> str | None:
        """Why no further hand can be dealt, or None."""
        if not any(self.seated):
            return EVERYONE_LEFT
        if not self.for_chips:
            return None
        if not any(self.can_bet(seat) for seat in range(self.seat_count)):
            return NO_MINIMUM_BET.format(min_bet=self.options.min_bet)
        return None

    def deal(self) -> list[Event]:
        """Two cards face up to each player in turn, then play starts with the first."""
        for _round in range(2):
            for seat in self.players:
                self.hands[seat].cards.append(self.draw())
        self.phase = "play"
        dealt = Dealt(cards={seat: list(self.hands[seat].cards) for seat in self.players})
        return [dealt, *self.next_turn()]

    def draw(self) -> FrenchCard:
        return self.stock.pop()

    # ---- decisions --------------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "betting":
            waiting = [seat for seat in self.players if self.hands[seat].bet is None]
            return [self.bet_decision(seat) for seat in waiting]
        if self.phase == "play" and self.turn is not None:
            hand = self.hands[self.turn]
            prompt = (
                _("Push hand ({total}): push it away or play the push", total=hand.total)
                if hand.push
                else _("Total {total}: hit or call backhand", total=hand.total)
            )
            return [Decision(seat=self.turn, kind=BackhandKind.PLAY, prompt=prompt)]
        return []

    def bet_decision(self, seat: int) -> Decision:
        low, high = self.options.min_bet, self.hands[seat].cap
        return Decision(
            seat=seat,
            kind=BackhandKind.BET,
            prompt=_("Bet {low} to {high} chips", low=low, high=high),
            text_question=_("Your bet ({low} to {high} chips)", low=low, high=high),
        )

    def legal_actions(self, seat: int) -> list[Action]:
        """Every play when playing; when betting, a ladder of suggested bets (see `verify`)."""
        if seat not in self.pending_seats():
            return []
        if self.phase == "betting":
            ladder = bet_ladder(self.options.min_bet, self.hands[seat].cap, self.last_bets[seat])
            return [Bet(chips=chips) for chips in ladder]
        if self.hands[seat].push:
            return [PushAway(), PlayPush()]
        return [Hit(), CallBackhand()]

    def verify(self, seat: int, action: Action) -> None:
        if isinstance(action, Bet) and self.phase == "betting" and seat in self.pending_seats():
            self.check_bet(seat, action.chips)
            return
        if self.phase == "play" and seat == self.turn and not self.is_over():
            self.check_play(self.hands[seat], action)
        super().verify(seat, action)

    @staticmethod
    def check_play(hand: PlayerHand, action: Action) -> None:
        if hand.push and isinstance(action, Hit | CallBackhand):
            raise IllegalAction(
                _(
                    "This is a push hand: push it away or play the push (one card, "
                    "{most} or less wins).",
                    most=BUST_OVER,
                )
            )
        if not hand.push and isinstance(action, PushAway | PlayPush):
            raise IllegalAction(
                _(
                    "Only a push hand ({low} to {high} on your first two cards) can be "
                    "pushed away or played as a push.",
                    low=PUSH_LOW,
                    high=PUSH_HIGH,
                )
            )

    def check_bet(self, seat: int, chips: int) -> None:
        low, high = self.options.min_bet, self.hands[seat].cap
        if low <= chips <= high:
            return
        if chips > high and high < self.options.max_bet:
            raise IllegalAction(
                _("You can bet at most {high} chips: that is all you have.", high=high)
            )
        raise IllegalAction(_("Bet from {low} to {high} chips.", low=low, high=high))

    def text_action(self, seat: int, text: str) -> Action:
        words = text.strip().lower()
        number = re.fullmatch(r"(\d{1,9})(?:\s*chips?)?", words)
        if number is None:
            raise IllegalAction(_("Write the number of chips you bet, like 5."))
        action = Bet(chips=int(number[1]))
        self.verify(seat, action)
        return action

    def sample(self, seat: int, chooser: random.Random) -> Action:
        if self.phase == "betting":
            return Bet(chips=chooser.randint(self.options.min_bet, self.hands[seat].cap))
        return chooser.choice(self.legal_actions(seat))

    def default_action(self, seat: int) -> Action:
        """Timeouts: the minimum bet; push a push hand away; otherwise call backhand."""
        if self.phase == "betting":
            return Bet(chips=self.options.min_bet)
        return PushAway() if self.hands[seat].push else CallBackhand()

    # ---- play -------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Bet):
            return self.place_bet(seat, action.chips)
        events = self.refill_stock()
        hand = self.hands[seat]
        if isinstance(action, Hit):
            card = self.draw()
            hand.cards.append(card)
            events.append(CardHit(seat=seat, card=card, total=hand.total))
            if hand.total > BUST_OVER:
                events.append(self.settle(seat, "bust"))
            elif len(hand.cards) == FIVE_CARDS:
                events.append(self.settle(seat, "five_cards"))
        elif isinstance(action, CallBackhand):
            hand.backhand = self.draw()
            events.append(BackhandCalled(seat=seat, card=hand.backhand, total=hand.total))
            busts = hand.total + card_value(hand.backhand) > BUST_OVER
            events.append(self.settle(seat, "backhand_won" if busts else "backhand_lost"))
        elif isinstance(action, PushAway):
            events += self.push_away(seat)
        else:
            hand.push = False
            card = self.draw()
            hand.cards.append(card)
            events.append(PushPlayed(seat=seat, card=card, total=hand.total))
            events.append(self.settle(seat, "push_won" if hand.total <= BUST_OVER else "push_lost"))
        if hand.outcome is not None:
            events += self.next_turn()
        return events

    def place_bet(self, seat: int, chips: int) -> list[Event]:
        """The bet goes on the table, and the house holds its even-money win beside it."""
        self.hands[seat].bet = chips
        self.stacks[seat] -= chips
        self.bank += chips
        self.last_bets[seat] = chips
        events: list[Event] = [BetPlaced(seat=seat, chips=chips)]
        if all(self.hands[player].bet is not None for player in self.players):
            events += self.deal()
        return events

    def next_turn(self) -> list[Event]:
        """The next player to act gets their hand ready; hands that settle without a
        decision (five cards in the automatic deal) pass the turn on; the hand ends after
        the last player."""
        events: list[Event] = []
        for seat in self.players:
            if self.hands[seat].outcome is None:
                self.turn = seat
                events += self.prepare(seat)
                if self.hands[seat].outcome is None:
                    return events
        self.turn = None
        return events + self.end_hand()

    def prepare(self, seat: int) -> list[Event]:
        """Before a player acts on two fresh cards: aces replaced, then a push hand waits
        for its choice, anything else is dealt up to 12."""
        events = self.replace_aces(seat)
        hand = self.hands[seat]
        if PUSH_LOW <= hand.total <= PUSH_HIGH:
            hand.push = True
            return [*events, PushHandDealt(seat=seat, total=hand.total)]
        return events + self.auto_deal(seat)

    def replace_aces(self, seat: int) -> list[Event]:
        """Aces among the first two cards are discarded and replaced; replacements stay,
        aces included."""
        hand = self.hands[seat]
        aces = [card for card in hand.cards if card.rank == Rank.ACE]
        if not aces:
            return []
        replacements = []
        for index, card in enumerate(hand.cards):
            if card.rank == Rank.ACE:
                hand.cards[index] = self.draw()
                replacements.append(hand.cards[index])
        hand.discarded += aces
        return [AcesReplaced(seat=seat, aces=aces, replacements=replacements)]

    def auto_deal(self, seat: int) -> list[Event]:
        """Cards until the hand reaches 12; five cards without busting win at once."""
        hand = self.hands[seat]
        drawn = []
        while hand.total < AUTO_DEAL_BELOW and len(hand.cards) < FIVE_CARDS:
            drawn.append(self.draw())
            hand.cards.append(drawn[-1])
        events: list[Event] = [AutoDealt(seat=seat, cards=drawn, total=hand.total)] if drawn else []
        if len(hand.cards) == FIVE_CARDS:
            events.append(self.settle(seat, "five_cards"))
        return events

    def push_away(self, seat: int) -> list[Event]:
        hand = self.hands[seat]
        old = hand.cards
        hand.discarded += old
        hand.cards = [self.draw(), self.draw()]
        hand.push = False
        return [PushedAway(seat=seat, discarded=old, cards=list(hand.cards)), *self.prepare(seat)]

    def refill_stock(self) -> list[Event]:
        """Before a play that could draw more cards than the stock holds, the cards out of
        play (settled hands, replaced aces, pushed-away and backhand cards) are shuffled
        back into it: the stock left and the gathered cards, put in the packs' fresh order
        (see Rng.shuffled_gathered), shuffled; cards are then drawn from its end."""
        if len(self.stock) >= MOST_DRAWN_PER_PLAYER * len(self.players):
            return []
        gathered: list[FrenchCard] = []
        for seat in self.players:
            hand = self.hands[seat]
            gathered += hand.discarded + ([hand.backhand] if hand.backhand else [])
            hand.discarded, hand.backhand = [], None
            if hand.outcome is not None:
                gathered += hand.cards
                hand.cards = []
        self.stock = self.rng.shuffled_gathered(self.stock + gathered, packs_for(self.seat_count))
        return [StockRefilled(cards=len(gathered))]

    def settle(self, seat: int, outcome: Outcome) -> Settled:
        """The hand is won or lost; its bet is paid or collected when the hand ends."""
        hand = self.hands[seat]
        hand.outcome, hand.final, hand.push = outcome, hand.total, False
        self.wins[seat] += hand.won
        bet = hand.bet or 0
        return Settled(seat=seat, outcome=outcome, chips=bet if hand.won else -bet)

    def end_hand(self) -> list[Event]:
        """Even money from the house's hold for every win, lost bets to the house; then the
        house takes its chips back (the hold and what it won): none stay between hands."""
        net = [0] * self.seat_count
        for seat in self.players:
            bet = self.hands[seat].bet or 0
            net[seat] = bet if self.hands[seat].won else -bet
            self.stacks[seat] += bet + net[seat]
        self.bank = 0
        self.phase = "between"
        events: list[Event] = [
            HandEnded(
                hand=self.hand,
                players=list(self.players),
                net_chips=net,
                winners=[seat for seat in self.players if self.hands[seat].won],
                house_chips=-sum(net),
            )
        ]
        if not self.for_chips and max(self.wins) >= self.options.target:
            return events + self.end_match(None)
        limit = self.options.hand_limit
        if limit and self.hand >= limit:
            return events + self.end_match(LAST_HAND.format(limit=limit))
        reason = self.why_no_hand()
        return events + (self.end_match(reason) if reason else [])


def new_backhand(
    options: BackhandOptions, stacks: list[int], rng: Rng
) -> tuple[BackhandState, list[Event]]:
    seats = len(stacks)
    state = BackhandState(
        rng=rng,
        seat_count=seats,
        options=options,
        phase="",
        stacks=list(stacks),
        seated=[True] * seats,
        wins=[0] * seats,
        last_bets=[0] * seats,
    )
    return state, state.start_hand()
