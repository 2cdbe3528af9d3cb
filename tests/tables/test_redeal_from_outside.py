"""Every hand of every game dealt hand after hand, re-dealt from the outside (issue 50).

A match dealt from a known table seed and Start click is played over several hands. For each
hand, the draw number of its deal is read from the hand's public record (the JSON Lines export
of `/table history`), the game's fresh deck (its spec's `deck_for`, README "Verifiable deals")
is written as card codes, and docs/verify_deal.py itself (not the bot's dealing code) re-deals
it. The cards each seat was dealt, as its own view or the events told to it show them, must be
where the README says the re-dealt order puts them. A mid-hand reshuffle (Lowball's stub, Last
One's stock, Liar's Terrapin's deck, Backhand's refill) is re-dealt the same way from the cards
it gathered, put in the fresh-deck order: the cards drawn from it must come in that order.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import random
import runpy
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import orjson
import pytest

from bot.engine import Action, Event, GameSpec, GameState, HandStarted, registry
from bot.engine.deals import DealSeed
from bot.games import GAMES
from bot.games.backhand.records import Dealt as BackhandDealt
from bot.games.backhand.records import StockRefilled
from bot.games.botifarra.records import Dealt as BotifarraDealt
from bot.games.calabrasella.records import Dealt as CalabrasellaDealt
from bot.games.delphi.records import CardTurned, StarterTurned
from bot.games.last_one.records import Dealt as LastOneDealt
from bot.games.last_one.records import Drew as LastOneDrew
from bot.games.last_one.records import MeleeContinued, Played, StockRebuilt
from bot.games.lowball.rules import CardsDrawn, StubReshuffled
from bot.games.porrazo.records import Dealt as PorrazoDealt
from bot.games.porrazo.records import HandDealt as PorrazoHandDealt
from bot.games.terrapin.liars.rules import Draw
from bot.games.terrapin.table import SharedDealt
from bot.games.totit.rules import Dealt as TotitDealt
from bot.store.history import LoggedStep
from bot.tables.actions import NEXT_HAND, WINDOW_CLOSED, take_table_step
from bot.tables.history import HandReplay, replay_steps, split_hands
from tests.conformance import uses_sample

SCRIPT = Path(__file__).parents[2] / "docs" / "verify_deal.py"
SEED, CLICK = bytes(range(32)), 1234567890123456789
HANDS = 3  # hands played per table (a match that ends sooner has fewer)
MOST_STEPS = 3000
STACK = 400

# The games a table plays hand after hand, and the table size each is played at here (more
# players draw more cards: Lowball's six throw enough to reshuffle the stub).
SEATS = {
    "backhand": 7,
    "bigtwo": 4,
    "botifarra": 4,
    "calabrasella": 3,
    "crash": 4,
    "delphi": 4,
    "doudizhu": 3,
    "lastone": 6,
    "liars": 7,
    "lowball": 6,
    "porrazo": 4,
    "provincial": 5,
    "temptation": 5,
    "totit": 3,
    "turup": 5,
    "western": 6,
}
OPTIONS: dict[str, dict[str, Any]] = {
    "backhand": {"mode": "wins"},
    "delphi": {"cards": 12},
    "turup": {"rounds": HANDS},
}


def test_every_game_played_hand_after_hand_is_here():
    """A single-deal game (Soliterrapin) is all its first shuffle; every other game is here."""
    assert {spec.id for spec in GAMES} - set(SEATS) == {"soliterrapin"}


# ---- the script, run as a player runs it -----------------------------------------------------


def code(card: Any) -> str:
    """How a card is written for the script: its code, spaces left out (the README's
    `AceofMoons` for the Decktet's Ace of Moons)."""
    return str(card.code).replace(" ", "")


def codes(cards: Sequence[Any]) -> list[str]:
    return [code(card) for card in cards]


def verify_deal(draw: int, cards: Sequence[str]) -> list[str]:
    """docs/verify_deal.py on the seed, the Start click, the draw number and `cards` (in the
    fresh-deck order): the order it prints. Run in this process, as `python3 verify_deal.py`
    runs it, so that a hundred re-deals take a moment."""
    argv = [str(SCRIPT), SEED.hex(), str(CLICK), str(draw), *cards]
    printed = io.StringIO()
    with mock.patch.object(sys, "argv", argv), contextlib.redirect_stdout(printed):
        runpy.run_path(str(SCRIPT), run_name="__main__")
    commitment, dealt = printed.getvalue().splitlines()
    assert commitment == f"commitment {hashlib.sha256(SEED).hexdigest()}"
    return dealt.split(" ")


def fresh_deck(spec: GameSpec, seats: int) -> list[str]:
    return codes(spec.deck_for(seats))


def in_fresh_order(cards: Sequence[Any], deck: Sequence[str]) -> list[str]:
    """Gathered cards as a player writes them for the script: in the fresh deck's order."""
    return sorted(codes(cards), key=deck.index)


# ---- a keyed match, played and logged as a table logs it ---------------------------------------


def pick(state: GameState, seat: int, chooser: random.Random) -> Action:
    """A random legal move, but players stay in (no fold, no bet or raise: nobody goes broke)
    and Lowball's throw all they can: a hand then lasts, and its stub runs out."""
    if uses_sample(state):
        return state.sample(seat, chooser)
    legal = state.legal_actions(seat)
    staying = [action for action in legal if action.kind != "fold"] or legal
    staying = [action for action in staying if action.kind not in ("bet", "raise")] or staying
    throws = [action for action in staying if action.kind == "draw" and hasattr(action, "cards")]
    if throws:
        return max(throws, key=lambda action: len(getattr(action, "cards", ())))
    return chooser.choice(staying)


def play(spec: GameSpec, seats: int) -> tuple[str, list[Event], list[LoggedStep]]:
    """The match's first state, the first deal's events (the table shows them at Start) and
    its logged steps, over HANDS hands."""
    chooser = random.Random(spec.id)
    options = spec.options_model(**OPTIONS.get(spec.id, {}))
    stacks = [STACK if spec.chips_for(options) else 0] * seats
    state, dealt = spec.open_match(options, stacks, DealSeed(SEED, CLICK))
    assert state.rng.key == SEED.hex() and state.rng.fresh_order
    first, log = state.snapshot(), []
    while not state.is_over() and state.hand <= HANDS:
        assert len(log) < MOST_STEPS, f"{spec.id}: no end after {MOST_STEPS} steps"
        required = state.required_seats()
        if required:
            seat = required[0]
            action = pick(state, seat, chooser)
            state.apply(seat, action)
            log.append(LoggedStep(len(log) + 1, seat, action.model_dump_json(), False))
            continue
        if state.awaiting_next_hand() and state.hand == HANDS:
            break
        step = NEXT_HAND if state.awaiting_next_hand() else WINDOW_CLOSED
        take_table_step(state, step)
        log.append(LoggedStep(len(log) + 1, None, step.model_dump_json(), False))
    return first, dealt, log


# ---- what the players saw of a hand --------------------------------------------------------------


@dataclass
class Hand:
    """One replayed hand, as its players saw it, and its deal re-dealt by the script."""

    spec: GameSpec
    replay: HandReplay
    seats: int
    deck: list[str]  # the fresh deck, as codes
    dealt: list[str]  # the deal's re-dealt order, from the script
    draws: list[list[int]]  # per step, the draw numbers its public record names
    # The match's first deal's events, which the table shows at Start (its replay starts
    # from the state they left); None for the later hands, whose deal is a logged step.
    first_events: list[Event] | None = None
    last_view: Any = None  # the public view as the hand before ended (None for the first)

    def public(self, step: int = 0) -> Any:
        return self.replay.seen(self.spec, step, None).public

    def own(self, seat: int, step: int = 0) -> Any:
        return self.replay.seen(self.spec, step, seat).own

    def mine(self, seat: int, step: int = 0) -> set[str]:
        """The cards `seat`'s own view shows it holding."""
        return set(codes(self.own(seat, step).my_cards or []))

    def events(self, kind: type[Event], seat: int | None = None, step: int | None = None) -> list:
        """The events of `kind` told to `seat` (None: the public), over the hand or one step."""
        steps = range(len(self.replay.steps)) if step is None else [step]
        return [
            event
            for number in steps
            for event in self.told(number, seat)
            if isinstance(event, kind)
        ]

    def told(self, step: int, seat: int | None) -> Sequence[Event]:
        if step == 0 and self.first_events is not None:
            return [e for e in self.first_events if e.audience is None or seat in e.audience]
        return self.replay.seen(self.spec, step, seat).events

    def started(self) -> Any:
        (started,) = self.events(HandStarted, step=0)
        return started

    def state_before(self, step: int) -> GameState:
        """The table's state before `step` (what a reshuffle gathered: the re-dealt match's)."""
        return self.replay.state_at(self.spec, step - 1)


def from_left(dealer: int, seats: int) -> list[int]:
    """Every seat from the dealer's left round to the dealer."""
    return [(dealer + 1 + index) % seats for index in range(seats)]


def in_blocks(hand: Hand, order: Sequence[int], size: int, start: int = 0) -> None:
    """`order`'s seats were dealt `size` cards each, one block after another from `start`."""
    for index, seat in enumerate(order):
        block = hand.dealt[start + index * size : start + (index + 1) * size]
        assert hand.mine(seat) == set(block), (seat, index)


def one_at_a_time(hand: Hand, order: Sequence[int], each: int, cards: Sequence[str]) -> None:
    """`order`'s seats were dealt `each` cards from `cards`, one at a time round the table."""
    for index, seat in enumerate(order):
        assert hand.mine(seat) == set(cards[index : each * len(order) : len(order)]), seat


# ---- where each game deals the re-dealt cards (README, Verifiable deals) -----------------------


def lowball(hand: Hand) -> None:
    """From the front, one at a time from the dealer's left (HandStarted.players)."""
    order = hand.started().players
    one_at_a_time(hand, order, 5, hand.dealt)


def terrapin_private(hand: Hand, each: int) -> None:
    """From the end, one at a time from the dealer's left."""
    order = hand.started().players
    one_at_a_time(hand, order, each, hand.dealt[::-1])


def western(hand: Hand) -> None:
    terrapin_private(hand, 2)
    for shared in hand.events(SharedDealt):  # the next cards from the end, after the hands
        taken = 2 * len(hand.started().players)
        turned = codes([*shared.set_aside, *shared.cards])
        assert turned == hand.dealt[::-1][taken : taken + len(turned)]


def provincial(hand: Hand) -> None:
    terrapin_private(hand, 3)
    taken = 3 * len(hand.started().players)
    assert codes(hand.public().shared) == hand.dealt[::-1][taken : taken + 2]


def temptation(hand: Hand) -> None:
    terrapin_private(hand, 2)
    (shared,) = hand.events(SharedDealt, step=0)
    taken = 2 * len(hand.started().players)
    turned = codes([*shared.set_aside, *shared.cards])
    assert turned == hand.dealt[::-1][taken : taken + len(turned)]


def liars(hand: Hand) -> None:
    """The holder draws three from the end."""
    holder = hand.started().holder
    assert hand.mine(holder) == set(hand.dealt[::-1][:3])


def backhand(hand: Hand) -> None:
    """The stock is the re-dealt order from its first card: two rounds of one card each."""
    (dealt,) = hand.events(BackhandDealt)
    players = list(dealt.cards)
    for index, seat in enumerate(players):
        first, second = hand.dealt[index], hand.dealt[len(players) + index]
        assert codes(dealt.cards[seat]) == [first, second], seat


def calabrasella(hand: Hand) -> None:
    (dealt,) = hand.events(CalabrasellaDealt, step=0)
    in_blocks(hand, from_left(dealt.dealer, 3), 12)


def doudizhu(hand: Hand) -> None:
    """One at a time from the dealer's left; the face-up card's place is the next draw."""
    started = hand.started()
    one_at_a_time(hand, from_left(started.dealer, 3), 17, hand.dealt)
    assert code(started.face_up) in hand.dealt[:51]
    assert len(hand.draws[0]) == 2  # the shuffle, then where the face-up card is


def bigtwo(hand: Hand) -> None:
    """Thirteen each in blocks from the dealer's left; seat 1 deals first, the deal passes
    left."""
    dealer = (hand.replay.number - 1) % hand.seats
    in_blocks(hand, from_left(dealer, hand.seats), 13)


def botifarra(hand: Hand) -> None:
    (dealt,) = hand.events(BotifarraDealt, step=0)
    in_blocks(hand, from_left(dealt.dealer, 4), 12)


def crash(hand: Hand) -> None:
    in_blocks(hand, from_left(hand.started().dealer, hand.seats), 13)


def lastone(hand: Hand) -> None:
    """Blocks from the player after the dealer in the direction play went when the last hand
    ended (left at first); then the upcard; the first upcard may make a player draw at once
    (from the cards after it, in order)."""
    (dealt,) = hand.events(LastOneDealt, step=0)
    players, each = hand.public().players, dealt.cards_each
    direction = hand.last_view.direction if hand.last_view is not None else 1
    at = players.index(dealt.dealer)
    order = [players[(at + direction * step) % len(players)] for step in range(1, len(players) + 1)]
    after = len(players) * each
    assert code(dealt.upcard) == hand.dealt[after]
    drawn = {seat: [] for seat in players}
    for seat in players:
        for told in hand.events(LastOneDrew, seat=seat, step=0):
            if told.audience == (seat,):
                drawn[seat] += codes(told.cards)
    for index, seat in enumerate(order):
        block = hand.dealt[index * each : (index + 1) * each]
        assert hand.mine(seat) == set(block + drawn[seat]), seat
    turned = [card for seat in players for card in drawn[seat]]
    assert turned == hand.dealt[after + 1 : after + 1 + len(turned)]


def porrazo(hand: Hand) -> None:
    """Three each from the front, from the dealer's left (the first of the hand's deals)."""
    dealer = hand.events(PorrazoHandDealt, step=0)[0].dealer
    for index, seat in enumerate(from_left(dealer, hand.seats)):
        (told,) = hand.events(PorrazoDealt, seat=seat, step=0)
        assert set(codes(told.cards)) == set(hand.dealt[3 * index : 3 * index + 3]), seat


def totit(hand: Hand) -> None:
    """The table's cards from the front, then one at a time from the dealer's left."""
    (dealt,) = hand.events(TotitDealt, step=0)
    assert set(codes(hand.public().table)) == set(hand.dealt[:18])
    order = from_left(dealt.dealer, hand.seats)
    one_at_a_time(hand, order, dealt.hand_size, hand.dealt[18:])


def turup(hand: Hand) -> None:
    """Four each in blocks from the dealer's left; then the pile."""
    started = hand.started()
    in_blocks(hand, from_left(started.dealer, hand.seats), 4)
    pile = 4 * hand.seats
    assert codes(started.pile) == hand.dealt[pile : pile + 4]


def delphi(hand: Hand) -> None:
    """Turned from the front: the starter, then every card judged, in order."""
    turned = [*hand.events(StarterTurned), *hand.events(CardTurned)]
    assert turned, "no card was turned"
    assert codes([event.card for event in turned]) == hand.dealt[: len(turned)]


# ---- mid-hand reshuffles -------------------------------------------------------------------


def reshuffled(hand: Hand, step: int, gathered: Sequence[Any]) -> list[str]:
    """The step's reshuffle re-dealt by the script: its gathered cards in the fresh-deck order,
    with the step's draw (its only one)."""
    (draw,) = hand.draws[step]
    return verify_deal(draw, in_fresh_order(gathered, hand.deck))


def lowball_reshuffles(hand: Hand) -> int:
    """The stub made again from the discards: the drawing player takes the rest of the old stub,
    then the re-dealt cards from the front."""
    seen = 0
    for step in range(1, len(hand.replay.steps)):
        if not hand.events(StubReshuffled, step=step):
            continue
        before = hand.state_before(step)
        (told,) = hand.events(CardsDrawn, seat=hand.replay.steps[step].seat, step=step)
        left = before.view(None).stub_left
        new = reshuffled(hand, step, before.discards)
        assert codes(told.cards)[left:] == new[: len(told.cards) - left]
        seen += 1
    return seen


def lastone_reshuffles(hand: Hand) -> int:
    """The discards under the upcard (the cards played before, all public) become the stock,
    drawn in the re-dealt order once the old stock's last cards are drawn."""
    seen = 0
    for step in range(1, len(hand.replay.steps)):
        if not hand.events(StockRebuilt, step=step):
            continue
        before = hand.state_before(step)
        discards, left = list(before.discards), len(before.stock)
        public = hand.told(step, None)
        for at, event in enumerate(public):  # the step's plays and draws up to the rebuild
            if isinstance(event, (Played, MeleeContinued)):
                discards.append(event.card)
            elif isinstance(event, LastOneDrew):
                left -= event.count
            elif isinstance(event, StockRebuilt):
                assert event.count == len(discards) - 1
                drawer = next(e for e in public[at:] if isinstance(e, LastOneDrew)).seat
                break
        new = reshuffled(hand, step, discards[:-1])
        (told, *_) = [e for e in hand.events(LastOneDrew, drawer, step) if e.audience]
        cards = codes(told.cards)
        assert cards[left:] == new[: len(cards) - left]
        seen += 1
    return seen


def liars_reshuffles(hand: Hand) -> int:
    """The discard pile becomes the deck, drawn from its end."""
    seen = 0
    for step in range(1, len(hand.replay.steps)):
        draws = hand.draws[step]
        if not draws:
            continue
        before, after = hand.state_before(step), hand.replay.state_at(hand.spec, step)
        holder = after.holder
        new = reshuffled(hand, step, before.discards)
        old = len(before.deck)
        gained = [c for c in codes(after.hands[holder]) if c not in codes(before.hands[holder])]
        assert set(gained[old:]) == set(new[::-1][: len(gained) - old])
        seen += 1
    return seen


def backhand_reshuffles(hand: Hand) -> int:
    """The stock left and the cards gathered, re-dealt; then drawn from its end."""
    seen = 0
    for step in range(1, len(hand.replay.steps)):
        if not hand.events(StockRefilled, step=step):
            continue
        before, after = hand.state_before(step), hand.replay.state_at(hand.spec, step)
        gathered = list(before.stock)
        for seat in before.players:
            held = before.hands[seat]
            gathered += held.discarded + ([held.backhand] if held.backhand else [])
            gathered += held.cards if held.outcome is not None else []
        new = reshuffled(hand, step, gathered)
        assert codes(after.stock) == new[: len(after.stock)]
        seen += 1
    return seen


DEALS: dict[str, Callable[[Hand], None]] = {
    "backhand": backhand,
    "bigtwo": bigtwo,
    "botifarra": botifarra,
    "calabrasella": calabrasella,
    "crash": crash,
    "delphi": delphi,
    "doudizhu": doudizhu,
    "lastone": lastone,
    "liars": liars,
    "lowball": lowball,
    "porrazo": porrazo,
    "provincial": provincial,
    "temptation": temptation,
    "totit": totit,
    "turup": turup,
    "western": western,
}
RESHUFFLES: dict[str, Callable[[Hand], int]] = {
    "backhand": backhand_reshuffles,
    "lastone": lastone_reshuffles,
    "liars": liars_reshuffles,
    "lowball": lowball_reshuffles,
}


@functools.cache
def hands_of(game: str) -> list[Hand]:
    """The game's match played over its hands (once: several tests read it)."""
    spec, seats = registry.get(game), SEATS[game]
    first, first_events, log = play(spec, seats)
    deck = fresh_deck(spec, seats)
    hands: list[Hand] = []
    for replay in split_hands(replay_steps(spec, first, log), 1):
        record = [orjson.loads(line) for line in replay.jsonl(spec, table_id=1).splitlines()]
        draws = [line["draws"] for line in record]
        assert draws[0], f"hand {replay.number}'s record names no draw for its deal"
        dealt = verify_deal(draws[0][0], deck)
        opening = None if hands else first_events
        last = hands[-1].public(len(hands[-1].replay.steps) - 1) if hands else None
        hands.append(Hand(spec, replay, seats, deck, dealt, draws, opening, last))
    return hands


@pytest.mark.parametrize("game", sorted(SEATS))
def test_every_hand_re_deals_from_the_fresh_deck_with_its_draw_number(game):
    hands = hands_of(game)
    assert len({hand.replay.number for hand in hands}) >= 2, "a single hand was played"
    for hand in hands:
        try:
            DEALS[game](hand)
        except AssertionError as failure:
            where = f"{game} hand {hand.replay.number} (draw {hand.draws[0][0]})"
            raise AssertionError(f"{where}: the cards dealt are not the re-dealt ones") from failure


@pytest.mark.parametrize("game", sorted(RESHUFFLES))
def test_every_mid_hand_reshuffle_re_deals_from_the_cards_it_gathered(game):
    reshuffles = 0
    for hand in hands_of(game):
        try:
            reshuffles += RESHUFFLES[game](hand)
        except AssertionError as failure:
            where = f"{game} hand {hand.replay.number}"
            raise AssertionError(
                f"{where}: a reshuffle's cards are not the re-dealt ones"
            ) from failure
    if game in ("lowball", "lastone"):  # the others' are rare: see the test below
        assert reshuffles, "nothing was reshuffled: the test plays too few draws"


def test_the_draw_numbers_are_every_shuffle_and_random_draw_in_order():
    """Hand after hand the records' draw numbers run on from 0 without a gap or a repeat, so a
    player counting draws as the README says finds the same numbers."""
    for game in SEATS:
        named = [draw for hand in hands_of(game) for step in hand.draws for draw in step]
        assert named == list(range(len(named))), game


# ---- the reshuffles random play hardly reaches, brought about ------------------------------------


def test_liars_terrapin_reshuffles_its_discard_pile_from_the_fresh_deck_order():
    """The holder draws from an empty deck: the discard pile (here every card left, put there
    in the deck's shuffled order) is re-dealt from the Decktet's fresh order; cards come off its
    end."""
    spec = registry.get("liars")
    state = spec.new_match(None, [STACK] * 3, DealSeed(SEED, CLICK))
    holder = state.holder
    assert Draw() in state.legal_actions(holder)
    state.discards, state.deck = state.deck[:], []
    gathered, draw = list(state.discards), state.rng.draws
    held = set(codes(state.hands[holder]))
    state.apply(holder, Draw())
    (drawn,) = set(codes(state.view(holder).my_cards)) - held
    new = verify_deal(draw, in_fresh_order(gathered, fresh_deck(spec, 3)))
    assert drawn == new[-1]


def test_a_backhand_refill_reshuffles_from_the_fresh_deck_order():
    """A play that could draw more than the stock holds: the stock left and the cards out of
    play are re-dealt from the packs' fresh order, then drawn from the end."""
    spec = registry.get("backhand")
    options = spec.options_model(mode="wins")
    state = spec.new_match(options, [0], DealSeed(SEED, CLICK))
    assert state.phase == "play" and state.turn == 0
    hand = state.hands[0]
    hand.discarded, state.stock = state.stock[3:], state.stock[:3]  # as if pushed away, say
    gathered, draw = state.stock + hand.discarded, state.rng.draws
    action = next(a for a in state.legal_actions(0) if a.kind in ("hit", "push_away", "play_push"))
    events = state.apply(0, action)
    assert any(isinstance(event, StockRefilled) for event in events)
    new = verify_deal(draw, in_fresh_order(gathered, fresh_deck(spec, 1)))
    drawn = [code(card) for card in state.hands[0].cards[2:]] or [code(state.hands[0].backhand)]
    assert codes(state.stock) == new[: len(state.stock)]
    assert set(drawn) <= set(new[len(state.stock) :])
