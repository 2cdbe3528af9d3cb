"""The trick-game AI policies (Botifarra, Calabrasella, and their shared trick sense): every
answer legal over many self-play and AI-against-random matches, scripted situations that show
their sense, and choices that depend only on what the seat sees."""

import logging
import random

import pytest

from bot.cards import FrenchCard, Suit, italian_deck, parse_french, spanish_deck
from bot.engine import HandEnded, Rng
from bot.games.ai import random_move
from bot.games.botifarra import (
    BOTIFARRA,
    BotifarraOptions,
    ChooseTrumps,
    Double,
    NoDouble,
    PassChoice,
    new_botifarra,
)
from bot.games.botifarra import RULES as BOTIFARRA_RULES
from bot.games.botifarra import PlayCard as BotifarraCard
from bot.games.botifarra.ai import BotifarraPolicy
from bot.games.calabrasella import (
    CALABRASELLA,
    Declare,
    Discard,
    Name,
    Pass,
    PlayCard,
    Take,
    card_points,
)
from bot.games.calabrasella import RULES as CALABRASELLA_RULES
from bot.games.calabrasella.ai import CalabrasellaPolicy
from bot.games.simulate import Seats, play_match
from bot.games.tricks import Trick, TrickPlay, WonPiles
from bot.games.tricks_ai import Table, endgame, read_play

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
BOTIFARRA_AI = BotifarraPolicy()
CALABRASELLA_AI = CalabrasellaPolicy()


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def card(text: str) -> FrenchCard:
    return parse_french(text)[0]


def choice(policy, state, seat: int | None = None, seed: int = 0):
    """What the policy answers for `seat` (the first to decide) now, from its view only; the
    answer must be legal."""
    decision = next(d for d in state.pending() if seat is None or d.seat == seat)
    seat = decision.seat
    legal = state.legal_actions(seat)
    action = policy.choose(seat, state.view(seat), decision, legal, random.Random(seed))
    assert action is not None and state.can(seat, action), action
    return action


# ---- every answer is legal ------------------------------------------------------------------


def play_checked(spec, policy, ai_seats, seed: int, options=None, most_hands=None) -> int:
    """A match with `ai_seats` played by the policy (each answer checked with `state.can`)
    and the others by random legal players; returns how many AI answers were checked."""
    seats = spec.min_players
    stacks = [100] * seats if spec.uses_chips else [0] * seats
    state = spec.new_match(options, stacks, seed)
    rng = random.Random(seed)
    hands = checked = 0
    while not state.is_over():
        if state.awaiting_next_hand():
            if most_hands is not None and hands >= most_hands:
                break
            state.next_hand()
            continue
        seat = state.pending()[0].seat
        if seat in ai_seats:
            action = choice(policy, state, seat, seed=rng.randrange(1 << 30))
            checked += 1
        else:
            action = random_move(state, seat, rng)
        events = state.apply(seat, action)
        hands += sum(isinstance(event, HandEnded) for event in events)
    return checked


GAMES = {
    "botifarra": (BOTIFARRA, BOTIFARRA_AI, BotifarraOptions(target=30), None),
    "calabrasella": (CALABRASELLA, CALABRASELLA_AI, None, 3),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.slow
def test_every_ai_answer_is_legal_in_self_play_and_against_random(game):
    spec, policy, options, most_hands = GAMES[game]
    every_seat = set(range(spec.min_players))
    checked = 0
    for seed in range(8):
        checked += play_checked(spec, policy, every_seat, seed, options, most_hands)
        checked += play_checked(spec, policy, {seed % spec.min_players}, 100 + seed, options)
    assert checked > 1000


@pytest.mark.parametrize("game", GAMES)
def test_the_simulator_never_falls_back_to_the_default(game, caplog):
    spec, policy, options, most_hands = GAMES[game]
    caplog.set_level(logging.WARNING, logger="bot.games.ai")
    for seed in range(3):
        seats = Seats([policy] * spec.min_players, seed)
        result = play_match(spec, seats, seed, options=options, most_hands=most_hands)
        assert result.hands >= 1
    assert not caplog.records


# ---- Botifarra: scripted situations ----------------------------------------------------------


def botifarra_at_play(hands: dict[int, str], trump: Suit | None, dealer: int, leader: int, **play):
    """A Botifarra state in the play, trumps chosen by the dealer's side: these hands, the
    finished tricks `history` ((seat, card) pairs), and the trick so far `played` from
    `leader`; the whole pack between them."""
    played, history = play.get("played", ""), play.get("history", [])
    state, _ = new_botifarra(BotifarraOptions(), [0] * 4, Rng(seed=1))
    state.played = [TrickPlay(seat=seat, card=card(code)) for seat, code in history]
    dealt = [c for text in hands.values() for c in cards(text)] + cards(played)
    dealt += [play.card for play in state.played]
    assert sorted(c.code for c in dealt) == sorted(c.code for c in spanish_deck())
    state.phase, state.trumps_chosen, state.trump, state.dealer = "play", True, trump, dealer
    state.hands = [cards(hands[seat]) for seat in range(4)]
    state.trick = Trick(leader=leader)
    for index, played_card in enumerate(cards(played)):
        state.trick.add((leader + index) % 4, played_card)
    return state


def played_card(state) -> str:
    action = choice(BOTIFARRA_AI, state)
    assert isinstance(action, BotifarraCard)
    return action.card.code


def partner_takes_a_sure_trick():
    """Seat 2 (seat 0's partner) wins with the 9♥ and seat 0 plays last."""
    return botifarra_at_play(
        {
            0: "Kh 4h 9s 8s 7s Qd Jd 8d 7c 6c 5c 2c",
            1: "Ah 6h 2s 3s 4s 5s 6s 3d 2d 4c 3c",
            2: "Qh Jh 8h As Ks Qs Js 9d Ad 9c Ac",
            3: "7h 3h Kd 7d 6d 5d 4d Kc Qc Jc 8c",
        },
        trump=C,
        dealer=0,
        leader=1,
        played="5h 9h 2h",
    )


def last_over_an_opponents_jack():
    """Seat 0 plays last over an opponent's J♥, holding the Q♥ and the 9♥."""
    return botifarra_at_play(
        {
            0: "9h Qh 4h 9s 8s 7s Qd Jd 8d Jc 7c 6c",
            1: "6h 2s 3s 4s 5s 6s 3d 2d 4c 3c 5c",
            2: "8h 7h As Ks Qs Js 9d Ad 9c Ac 2c",
            3: "Ah Kh 3h Kd 7d 6d 5d 4d Kc Qc 8c",
        },
        trump=C,
        dealer=0,
        leader=1,
        played="5h 2h Jh",
    )


def test_botifarra_loads_points_on_the_partners_sure_trick():
    assert played_card(partner_takes_a_sure_trick()) == "Kh"  # the K♥ goes to its partner


def test_botifarra_takes_the_trick_with_its_lowest_sure_winner():
    assert played_card(last_over_an_opponents_jack()) == "Qh"  # enough; the 9♥ is kept


def void_under_a_nine():
    """Botifarra (no trumps): seat 0 is void in diamonds under the 9♦, holding A♠ and K♠."""
    return botifarra_at_play(
        {
            0: "As Ks 2s 3h 4h 5h 6h 7c 6c 5c 4c 2c",
            1: "9s Qs 3s 4s 9h Ah Kh Qh 2h 8d 7d 3c",
            2: "Js 8s 7s 6s 5s Jh 8h 7h 2d 9c Ac 8c",
            3: "Ad Kd Qd Jd 6d 5d 4d 3d Kc Qc Jc",
        },
        trump=None,
        dealer=2,
        leader=3,
        played="9d",
    )


def test_botifarra_throws_a_card_worth_nothing_when_it_cannot_win():
    played = played_card(void_under_a_nine())  # the A♠ and K♠ are kept
    assert BOTIFARRA_RULES.card_points(card(played)) == 0


def leading_after_choosing_clubs():
    """Seat 0's side chose clubs; it won the first trick and leads."""
    return botifarra_at_play(
        {
            0: "Ks 8s 2s Kh Qh 8d 7d 9c Ac 5c 4c",
            1: "Qs 7s 6s Jh 8h 7h 6h Ad Kd Qd 3c",
            2: "9s As Js 5h 9d Jd 6d 5d Kc Qc Jc",
            3: "5s 4s 3s Ah 4d 3d 2d 8c 7c 6c 2c",
        },
        trump=C,
        dealer=2,
        leader=0,
        history=[(3, "2h"), (0, "9h"), (1, "3h"), (2, "4h")],
    )


def test_botifarra_draws_trumps_with_its_master_trump():
    assert played_card(leading_after_choosing_clubs()) == "9c"


def test_botifarra_cashes_a_nine_it_leads():
    # Botifarra chosen by the other side; seat 0 leads the first trick holding 9♥ A♥.
    state = botifarra_at_play(
        {
            0: "9h Ah 6h 5s 4s 3s 7d 6d 5d 4c 3c 2c",
            1: "Kh Qh 9s As Ks Qs 9d Ad Kd 9c Ac Kc",
            2: "Jh 8h 7h Js 8s 7s Qd Jd 8d Qc Jc 8c",
            3: "4h 3h 2h 6s 2s 4d 3d 2d 7c 6c 5c 5h",
        },
        trump=None,
        dealer=3,
        leader=0,
    )
    assert played_card(state) == "9h"


def botifarra_dealt(hands: dict[int, str]):
    """A new Botifarra hand (dealer seat 0) where these seats hold these cards; the rest of
    the pack goes round the other seats."""
    given = {seat: cards(text) for seat, text in hands.items()}
    rest = [c for c in spanish_deck() if not any(c in held for held in given.values())]
    for seat in range(4):
        if seat not in given:
            given[seat], rest = rest[:12], rest[12:]
    order = [c.code for seat in (1, 2, 3, 0) for c in given[seat]]  # from the dealer's left
    state = BOTIFARRA.new_match(None, [0] * 4, seed=1, stacked=[order])
    assert all(set(state.hands[seat]) == set(given[seat]) for seat in range(4))
    return state


def test_botifarra_names_its_long_strong_suit_trumps():
    state = botifarra_dealt({0: "9s Ks Qs 7s 5s 3s Kh 4h 4d 2d 5c 2c"})
    assert choice(BOTIFARRA_AI, state) == ChooseTrumps(suit=S)


def test_botifarra_chooses_botifarra_with_every_nine_and_ace():
    state = botifarra_dealt({0: "9s As 9h Ah 9d Ad 9c Ac Ks Kh 2d 2c"})
    assert choice(BOTIFARRA_AI, state) == ChooseTrumps(suit=None)


WEAK_BOTIFARRA = "8s 6s 4s Qh 7h 5h Jd 6d 3d Kc 7c 2c"


def test_botifarra_passes_a_weak_hand_to_its_partner_who_must_then_choose():
    assert choice(BOTIFARRA_AI, botifarra_dealt({0: WEAK_BOTIFARRA})) == PassChoice()
    state = botifarra_dealt({2: WEAK_BOTIFARRA})
    state.apply(0, PassChoice())
    assert isinstance(choice(BOTIFARRA_AI, state, seat=2), ChooseTrumps)


def test_botifarra_doubles_only_with_a_strong_hand_against_the_trumps():
    def asked(defender: str):
        state = botifarra_dealt({0: WEAK_BOTIFARRA, 1: defender})
        state.apply(0, ChooseTrumps(suit=H))
        return choice(BOTIFARRA_AI, state, seat=1)

    assert asked("9h Ah Kh Jh 6h 3h 9s As 9d Ad 2c 3c") == Double()
    assert asked("2h 3h 2s 3s 5s 7s 2d 4d 5d 4c 5c 6c") == NoDouble()


# ---- Calabrasella: scripted situations --------------------------------------------------------


def calabrasella_dealt(seat1: str, seat2: str, seat0: str, widow: str):
    """A deal by blocks (dealer seat 0): seat 1, seat 2, seat 0, then the widow."""
    order = [c.code for text in (seat1, seat2, seat0, widow) for c in cards(text)]
    assert sorted(order) == sorted(c.code for c in italian_deck())
    return CALABRASELLA.new_match(None, [500] * 3, seed=1, stacked=[order])


STRONG = "3s 2s As Ks 3h 2h Ah 3d 2d 7c 6c 5c"
WEAK = "7s 6s 5s 4s Jh 7h 6h 5h Jd 7d 6d 4c"
REST = "Qs Js Kh Qh 4h Ad Kd Qd 5d 4d 3c 2c Ac Kc Qc Jc"


def test_calabrasella_declares_a_strong_hand_and_passes_a_weak_one():
    seat0, widow = " ".join(REST.split()[:12]), " ".join(REST.split()[12:])
    state = calabrasella_dealt(STRONG, WEAK, seat0, widow)
    assert choice(CALABRASELLA_AI, state) == Declare()
    state = calabrasella_dealt(WEAK, STRONG, seat0, widow)
    assert choice(CALABRASELLA_AI, state) == Pass()


def test_calabrasella_names_the_3_that_heads_its_2_and_ace():
    # Seat 1 lacks 3♥ and 3♦: the 3♥ makes its 2♥ A♥ K♥ sure winners.
    seat1 = "3s 2s As 3c 2h Ah Kh 7h 4d 5d 6d 7c"
    seat2 = "Ks Qs Js 7s 6s 5s 4s 6h 5h 4h 3h Jd"
    seat0 = "3d 2d Ad Kd Qd 7d 2c Ac Kc Qc Jc 6c"
    state = calabrasella_dealt(seat1, seat2, seat0, "Qh Jh 5c 4c")
    state.apply(1, Declare())
    assert choice(CALABRASELLA_AI, state) == Name(card=card("3h"))


def test_calabrasella_discards_losers_and_takes_the_named_3_back_from_the_widow():
    # Seat 1 names 3♥, which lies in the widow with the 2♦: it keeps its winners, discards
    # low cards, and takes the 3♥ (and the 2♦ if it discarded two or more).
    seat1 = "3s 2s As Ks 3c 2c Ac 2h Ah 7d 5d 4d"
    seat2 = "Qs Js 7s 6s 5s 4s Kh Qh Jh 7h 6h 5h"
    seat0 = "3d Ad Kd Qd Jd 6d Kc Qc Jc 7c 6c 5c"
    state = calabrasella_dealt(seat1, seat2, seat0, "3h 2d 4h 4c")
    state.apply(1, Declare())
    state.apply(1, Name(card=card("3h")))
    discard = choice(CALABRASELLA_AI, state)
    assert isinstance(discard, Discard) and 1 <= len(discard.cards) <= 4
    assert not set(discard.cards) & set(cards("3s 2s As 3c 2c Ac 2h Ah"))
    state.apply(1, discard)
    take = choice(CALABRASELLA_AI, state)
    assert isinstance(take, Take) and card("3h") in take.cards
    if len(take.cards) >= 2:
        assert card("2d") in take.cards


def calabrasella_at_play(hands: dict[int, str], declarer: int, leader: int, played: str):
    """A Calabrasella state in the play: these hands, the widow's first two cards discarded
    and the other two left face up, and the trick so far from `leader`."""
    state = calabrasella_dealt(hands[1], hands[2], hands[0], hands["widow"])
    state.declarer, state.named_done, state.phase = declarer, True, "playing"
    state.bids = [seat == declarer for seat in range(3)]
    state.piles = WonPiles(sides=[[declarer], [(declarer + 1) % 3, (declarer + 2) % 3]])
    state.widow_up, state.discards, state.widow = True, state.widow[:2], state.widow[2:]
    state.trick = Trick(leader=leader)
    for index, played_card in enumerate(cards(played)):
        state.hands[(leader + index) % 3].remove(played_card)
        state.trick.add((leader + index) % 3, played_card)
    return state


def calabrasella_card(state) -> str:
    action = choice(CALABRASELLA_AI, state)
    assert isinstance(action, PlayCard)
    return action.card.code


def test_calabrasella_wins_with_the_ace_and_keeps_the_master_3():
    # Declarer seat 0 plays last over K♠: the A♠ takes it surely, the 3♠ stays master.
    hands = {
        1: "Ks 7s 3h 2h Ah Kh 3d 2d Ad Kd 3c 2c",
        2: "2s 6s Qh Jh 7h 6h Qd Jd 7d 6d Ac Kc",
        0: "3s As Qs Js 5s 4s 5h 4h 5d 4d Qc Jc",
        "widow": "7c 6c 5c 4c",
    }
    state = calabrasella_at_play(hands, declarer=0, leader=1, played="Ks 6s")
    assert calabrasella_card(state) == "As"


def test_calabrasella_defender_loads_an_ace_on_its_partners_sure_trick():
    # The declarer (seat 1) led 4♥, seat 2 took it over with the 3♥; seat 0, last and void in
    # hearts, gives its partner the A♣ (it would fall to the 3♣ or 2♣ anyway).
    hands = {
        1: "4h 3s 2s As Ks 2h Ah Kh 3d 2d 3c 2c",
        2: "3h Qh Jh 7h 6h Qs Js 7s 6s Ad Jd 7d",
        0: "Ac 5s 4s 6d 5d 4d Qd Kd Kc Qc Jc 7c",
        "widow": "6c 5c 4c 5h",
    }
    state = calabrasella_at_play(hands, declarer=1, leader=1, played="4h 3h")
    assert calabrasella_card(state) == "Ac"


def test_the_endgame_search_cashes_the_master_so_the_last_card_takes_the_last_trick():
    # Seat 0 leads with 3♥ 4♥; seat 1 holds 2♥ 5♠, seat 2 two spades (all known). Leading
    # the 3♥ draws the 2♥, and the 4♥ then takes the last trick and its 3 points.
    table = Table(
        rules=CALABRASELLA_RULES,
        points=card_points,
        seat=0,
        seats=range(3),
        side_of=lambda seat: 0 if seat == 0 else 1,
        hand=cards("4h 3h"),
        legal=cards("4h 3h"),
        trick=[],
        history=[],
        counts=[2, 2, 2],
        unseen=frozenset(cards("2h 5s 6s 7s")),
        known={card("2h"): 1, card("5s"): 1, card("6s"): 2, card("7s"): 2},
        last_bonus=3,
    )
    assert endgame(table, random.Random(0)) == card("3h")


def test_the_play_is_read_for_the_cards_it_proves_a_seat_lacks():
    # Botifarra, hearts trumps: seat 1 followed under seat 0's Q♠ (it holds no higher spade);
    # seat 2, its partner winning, played the 7♠, worth nothing (its lowest spade); seat 3
    # neither followed nor trumped (it holds no spade and no trump).
    table = Table(
        rules=BOTIFARRA_RULES,
        points=BOTIFARRA_RULES.card_points,
        seat=0,
        seats=range(4),
        side_of=lambda seat: seat % 2,
        hand=[],
        legal=[],
        trick=[],
        history=[
            TrickPlay(seat=seat, card=card(code))
            for seat, code in ((0, "Qs"), (1, "5s"), (2, "7s"), (3, "2d"))
        ],
        counts=[11, 11, 11, 11],
        unseen=frozenset(),
        trump=H,
    )
    reading = read_play(table)
    assert reading.highest[1] == {S: BOTIFARRA_RULES.power(card("Qs"))}
    assert reading.highest[2] == {} and reading.above[2] == {S: BOTIFARRA_RULES.power(card("7s"))}
    assert reading.highest[3] == {S: 0, H: 0} and reading.above[3] == {}
    assert not reading.may_hold(2, card("6s"), BOTIFARRA_RULES.power(card("6s")))
    assert reading.may_hold(2, card("8s"), BOTIFARRA_RULES.power(card("8s")))


# ---- the policies see only the view ---------------------------------------------------------


def with_hidden_cards_moved(state, seat: int, rng: random.Random):
    """A copy of `state` with every card hidden from `seat` shuffled among the places of the
    cards hidden from it (other hands, a face-down widow, unseen discards)."""
    other = state.model_copy(deep=True)
    hidden = state.hidden_from(seat)
    places = [hand for s, hand in enumerate(other.hands) if s != seat]
    places += [getattr(other, name) for name in ("widow", "discards") if hasattr(other, name)]
    slots = [(place, i) for place in places for i, c in enumerate(place) if c in hidden]
    moved = [place[i] for place, i in slots]
    rng.shuffle(moved)
    for (place, i), moved_card in zip(slots, moved, strict=True):
        place[i] = moved_card
    return other


@pytest.mark.parametrize("game", GAMES)
def test_choices_depend_only_on_the_seats_view(game):
    spec, policy, options, _ = GAMES[game]
    rng = random.Random(7)
    compared = 0
    for seed in range(2):
        stacks = [100] * spec.min_players if spec.uses_chips else [0] * spec.min_players
        state = spec.new_match(options, stacks, seed)
        for _ in range(40 if game == "botifarra" else 45):
            if state.is_over() or state.awaiting_next_hand():
                break
            seat = state.pending()[0].seat
            other = with_hidden_cards_moved(state, seat, rng)
            assert other.view(seat) == state.view(seat)
            mine, theirs = choice(policy, state, seat, seed), choice(policy, other, seat, seed)
            assert mine == theirs
            compared += 1
            state.apply(seat, mine)
    assert compared >= 60
