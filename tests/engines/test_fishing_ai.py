"""The fishing games' AI players (the ai.py of bot/games/porrazo, totit, turup): every answer
legal over many self-play and AI-against-random matches at several table sizes; scripted
situations from the rule texts (copied here as data) showing each policy's sense: Totit completes
pairs, denies an opponent's pair and trails the card it can take back; Turup makes the biggest
capture (built from the view: the text's massive addition, beyond the listed suggestions) and
the text's delayed match; Porrazo declares, makes the porrazo, the limpia and the san benito,
counters a porrazo only when the san benito is no real risk, and keeps its tendido for later;
and each policy sees only its view (moving the hidden cards around never changes its choice)."""

import logging
import random
from itertools import combinations

import pytest

from bot.cards import FrenchCard, Suit, parse_french
from bot.engine import IllegalAction
from bot.games.captures import verify_sum_capture
from bot.games.porrazo import (
    PORRAZO,
    DealTendido,
    Declare,
    NoTendido,
    Play,
    PorrazoOptions,
    PorrazoState,
    Stack,
)
from bot.games.porrazo.ai import PorrazoPolicy, gain
from bot.games.simulate import Seats, play_match
from bot.games.totit import TOTIT, Capture, TotitOptions, TotitState, Trail
from bot.games.totit.ai import TotitPolicy
from bot.games.turup import TURUP, Place, TurupOptions, TurupState
from bot.games.turup import Capture as TurupCapture
from bot.games.turup.ai import Table as TurupTable
from bot.games.turup.ai import TurupPolicy, most_taken, values_of

PORRAZO_AI, TOTIT_AI, TURUP_AI = PorrazoPolicy(), TotitPolicy(), TurupPolicy()


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def card(code: str) -> FrenchCard:
    return FrenchCard.from_code(code)


def decide(policy, state, seat: int | None = None, seed: int = 0):
    """The policy's answer for `seat` (the first pending seat by default), as ai_move asks."""
    decision = next(d for d in state.pending() if seat is None or d.seat == seat)
    view = state.view(decision.seat)
    legal = state.legal_actions(decision.seat)
    return policy.choose(decision.seat, view, decision, legal, random.Random(seed))


# ---- (1) every answer is legal --------------------------------------------------------------

# (spec, policy, players, options, matches, hands per match: None plays the match out)
SELF_PLAY = [
    (TOTIT, TOTIT_AI, 3, None, 12, None),
    (TOTIT, TOTIT_AI, 2, TotitOptions(trail_when_able=True), 6, None),
    (TOTIT, TOTIT_AI, 6, None, 4, 2),
    (TURUP, TURUP_AI, 3, None, 10, None),
    (TURUP, TURUP_AI, 2, TurupOptions(rounds=2), 6, None),
    (TURUP, TURUP_AI, 6, None, 4, None),  # two packs
    (TURUP, TURUP_AI, 9, None, 2, None),  # three packs
    (PORRAZO, PORRAZO_AI, 3, None, 12, 1),
    (PORRAZO, PORRAZO_AI, 3, PorrazoOptions(target=31), 2, None),
    (PORRAZO, PORRAZO_AI, 2, None, 6, 1),
    (PORRAZO, PORRAZO_AI, 4, PorrazoOptions(partnerships=True), 4, 1),
    (PORRAZO, PORRAZO_AI, 5, None, 4, 1),
]


@pytest.mark.parametrize("against", ["ai", "random"])
@pytest.mark.parametrize(
    ("spec", "policy", "players", "options", "matches", "hands"),
    SELF_PLAY,
    ids=[f"{row[0].id}-{row[2]}p-{index}" for index, row in enumerate(SELF_PLAY)],
)
@pytest.mark.slow
def test_every_ai_answer_is_legal(spec, policy, players, options, matches, hands, against, caplog):
    """ai_move logs a warning for an illegal answer and an error for a failure, then falls
    back to the default action: no record means every answer was the policy's own and legal."""
    caplog.set_level(logging.WARNING, logger="bot.games.ai")
    for seed in range(matches):
        seats = [policy if seat == 0 or against == "ai" else None for seat in range(players)]
        result = play_match(spec, Seats(seats, seed), seed, options=options, most_hands=hands)
        assert result.steps > 0
    assert [record.getMessage() for record in caplog.records] == []


# ---- (2) Totit: pairs first --------------------------------------------------------------------


def totit(
    table: str,
    hand: str,
    *,
    mine: str = "",
    theirs: str = "",
    first_turn: bool = False,
) -> TotitState:
    """Seat 0 to play in a three-player hand: `table` face up, `hand` in seat 0's hand, `mine`
    in its captures and `theirs` in seat 1's (seat 2 holds the rest, unseen)."""
    state = TOTIT.new_match(None, [0, 0, 0], seed=3)
    state.table, state.hands[0] = cards(table), cards(hand)
    state.piles = [cards(mine), cards(theirs), []]
    state.turn, state.turns = 0, [0 if first_turn else 1, 1, 1]
    return state


def test_totit_takes_the_identical_card_for_a_pair():
    state = totit("5s 5h 3d", "5s#2 3h 8d")
    assert decide(TOTIT_AI, state) == Capture(card=card("5s#2"), target=card("5s"))


def test_totit_completes_a_pair_with_its_captures():
    """7♦ lies in its captures: taking 7♦#2 (with any 7) completes the pair, worth more than a
    capture whose twin is nowhere to be seen."""
    state = totit("7d#2 4s", "7h 4h 9s", mine="7d 2s")
    assert decide(TOTIT_AI, state) == Capture(card=card("7h"), target=card("7d#2"))


def test_totit_takes_a_card_an_opponent_would_pair():
    """6♠ waits alone in seat 1's captures: the AI takes 6♠#2 off the table before they can."""
    state = totit("6s#2 2d", "6h 2h", theirs="6s 8s")
    assert decide(TOTIT_AI, state) == Capture(card=card("6h"), target=card("6s#2"))


def test_totit_first_turn_takes_only_identical_cards():
    state = totit("5h 3d#2", "5s 3d 9h", first_turn=True)
    assert decide(TOTIT_AI, state) == Capture(card=card("3d"), target=card("3d#2"))


def test_totit_trails_the_card_it_can_take_back_as_a_pair():
    """Nothing to capture: it trails a 9♥ (holding its twin, it may take it back as a pair)
    and never the 4♦ whose twin lies in an opponent's captures."""
    state = totit("2s 3s 5s", "4d 9h 9h#2", theirs="4d#2 7s")
    assert decide(TOTIT_AI, state) in (Trail(card=card("9h")), Trail(card=card("9h#2")))


# ---- (2) Turup: the biggest capture, built from the view -----------------------------------------


def turup(pile: str, hand: str, players: int = 3) -> TurupState:
    """Seat 1 (the dealer's left) to play with `hand`; the community pile is `pile`."""
    state = TURUP.new_match(None, [0] * players, seed=5)
    state.pile, state.hands[1] = cards(pile), cards(hand)
    state.turn = 1
    return state


def test_turup_massive_addition_takes_the_whole_pile():
    """The rule text: A, 2, 3 and 4 add up to 10: the ten takes all four (five cards won),
    more than the four taking 4 and 3+A."""
    state = turup("As 2h 3d 4c", "10s 4h Kd")
    assert decide(TURUP_AI, state) == TurupCapture(card=card("10s"), cards=cards("As 2h 3d 4c"))


def test_turup_delayed_match_places_the_five():
    """The rule text's delayed match: K, 3, 6, J on the pile and a 5 and an 8 in hand, nothing
    to take: it places the 5, hoping for 3 + 5 with its 8 next turn."""
    state = turup("Ks 3h 6d Jc", "5s 8h")
    assert decide(TURUP_AI, state) == Place(card=card("5s"))


def test_turup_face_cards_take_every_match():
    """A king takes both kings on the pile (turup/rules.md): three cards won."""
    state = turup("Ks Kh 7d", "Kd 2c 3c")
    assert decide(TURUP_AI, state) == TurupCapture(card=card("Kd"), cards=cards("Ks Kh"))


def brute_most(held: FrenchCard, pile: list[FrenchCard]) -> int:
    """The most pile cards `held` may take, by trying every subset against the engine."""
    for size in range(len(pile), 0, -1):
        for taken in combinations(pile, size):
            try:
                verify_sum_capture(held, taken, pile)
            except IllegalAction:
                continue
            return size
    return 0


def test_turup_builds_the_biggest_capture_beyond_the_suggestions():
    """The engine suggests five captures per card, the biggest seven cards for this 9; the AI
    builds its own from the view and takes eight: 9, 6+3, 6+3, 4+3+2 (the A and 10 stay)."""
    state = turup("3h 10h 9h 2c 3c 6d 3s Ac 6h 4d", "9c Kd")
    listed = [m for m in state.legal_actions(1) if isinstance(m, TurupCapture)]
    assert max(len(m.cards) for m in listed) == 7
    choice = decide(TURUP_AI, state)
    assert isinstance(choice, TurupCapture) and choice.card == card("9c")
    assert len(choice.cards) == 8 and state.can(1, choice)


def test_turup_counts_the_biggest_capture_like_a_brute_force():
    """On random piles the AI's count of the most cards a card takes, and the captures it
    builds, agree with every subset tried against the engine."""
    deck = [c for c in TURUP.deck_for(3) if int(c.rank) <= 10 or c.suit == Suit.SPADES]
    chooser = random.Random(11)
    for _ in range(15):
        dealt = chooser.sample(deck, 13)
        hand, pile = dealt[:4], dealt[4:]
        state = turup(" ".join(c.code for c in pile), " ".join(c.code for c in hand))
        built = TurupTable(state.view(1), 1).moves()
        for held in hand:
            most = brute_most(held, pile)
            assert most_taken(values_of(pile), int(held.rank)) == most
            ours = [m for m in built if isinstance(m, TurupCapture) and m.card == held]
            assert max((len(m.cards) for m in ours), default=0) == most
        assert all(state.can(1, move) for move in built)


# ---- (2) Porrazo: bonuses and risks ------------------------------------------------------------


def porrazo(
    hand: str,
    table: str,
    *,
    seats: int = 3,
    trailed: str | None = None,
    stack: str = "",
    stack_seat: int = 0,
    others: int = 3,
) -> PorrazoState:
    """Seat `seats - 1` to play `hand` on `table`, mid-deal (no declarations); `trailed` was
    just placed, `stack` is a pending porrazo of `stack_seat`; the other seats hold `others`
    cards each, drawn from the cards not named."""
    state = PORRAZO.new_match(PorrazoOptions(), [0] * seats, seed=9)
    me, named = seats - 1, cards(f"{hand} {table} {stack}")
    rest = [c for c in state.all_cards() if c not in named]
    state.phase, state.turn, state.tendido_dealt = "play", me, True
    state.hands = [rest[seat * others : (seat + 1) * others] for seat in range(seats)]
    state.hands[me] = cards(hand)
    state.stock = rest[seats * others :]
    state.table = cards(table)
    state.trailed = card(trailed) if trailed else None
    state.stack = Stack(seat=stack_seat, cards=cards(stack)) if stack else None
    state.played, state.declared = [True] * seats, []
    for pile in state.won:
        pile.clear()
    return state


def test_porrazo_makes_the_porrazo():
    """7♠ was just placed: the AI's 7♥ pairs it for a porrazo (a ronda and two cards), over
    taking the 9♣ with its 9♦."""
    state = porrazo("7h 9d Kc", "7s 2h 9c", trailed="7s")
    assert decide(PORRAZO_AI, state) == Play(card=card("7h"), take=cards("7s"))


def test_porrazo_takes_the_limpia():
    """5-6-7 on the table: its 5 takes the run and clears the table (a limpia)."""
    state = porrazo("5d 6c Js", "5s 6h 7c")
    assert decide(PORRAZO_AI, state) == Play(card=card("5d"), take=cards("5s 6h 7c"))


def test_porrazo_counts_the_limpia_of_a_porrazo_on_the_only_table_card():
    """porrazo/rules.md: a porrazo taking the only table card scores a limpia too (a ronda of
    2s)."""
    lone = gain("porrazo", card("2c"), cards("2h"), table_size=1)
    beside = gain("porrazo", card("2c"), cards("2h"), table_size=3)
    assert lone == beside + 1


def test_porrazo_plays_the_san_benito():
    """A counter-porrazo of 8s is pending and the AI holds the fourth 8: the game is its."""
    state = porrazo("8c Kd 2s", "3h 9h", stack="8s 8h 8d", stack_seat=1)
    assert decide(PORRAZO_AI, state) == Play(card=card("8c"), take=cards("8d 8h 8s"))


def test_porrazo_counters_only_when_the_san_benito_is_no_real_risk():
    """Four players, seat 1's porrazo pending, the next player (seat 0) holding three cards.
    A counter-porrazo of kings is worth the risk of the san benito; of aces it is not; holding
    the fourth card itself the AI counters even aces."""
    kings = porrazo("Kd 9c 10h", "2s 5h", seats=4, stack="Ks Kh", stack_seat=1)
    assert decide(PORRAZO_AI, kings) == Play(card=card("Kd"), take=cards("Ks Kh"))
    aces = porrazo("Ad 9c 10h", "2s 5h", seats=4, stack="As Ah", stack_seat=1)
    assert decide(PORRAZO_AI, aces).card != card("Ad")
    both = porrazo("Ad Ac 10h", "2s 5h", seats=4, stack="As Ah", stack_seat=1)
    assert decide(PORRAZO_AI, both) in (
        Play(card=card("Ad"), take=cards("As Ah")),
        Play(card=card("Ac"), take=cards("As Ah")),
    )


def test_porrazo_declares_its_ronda():
    state = PORRAZO.new_match(PorrazoOptions(), [0, 0, 0], seed=9)
    state.phase, state.turn, state.played = "play", 1, [False] * 3
    state.hands[1] = cards("Qs Qh 4d")
    assert decide(PORRAZO_AI, state, seat=1) == Declare()


def test_porrazo_keeps_its_tendido_for_a_fuller_table():
    """An empty table promises no sets: the dealer keeps the tendido for a later deal; a table
    of pairs of kings, queens and jacks promises rondines: it deals now."""
    state = PORRAZO.new_match(PorrazoOptions(), [0, 0, 0], seed=9)
    state.played = [True] * 3  # nobody may declare: the tendido is the only choice
    assert state.phase == "tendido"
    assert decide(PORRAZO_AI, state) == NoTendido()
    state.table = cards("Ks Kh Qs Qh Js Jh")
    state.stock = [c for c in state.stock if c not in state.table]
    assert decide(PORRAZO_AI, state) == DealTendido()


# ---- (3) the policies see only their views ------------------------------------------------------


def shuffle_hidden(state, seat: int, chooser: random.Random):
    """A copy of `state` with the cards `seat` can't see dealt again among the places they
    lie (the other hands and the stock or the cards set aside), each place keeping its size."""
    other = state.model_copy(deep=True)
    seats = [s for s in range(len(other.hands)) if s != seat]
    if isinstance(other, PorrazoState):  # a declared set stays in its declarer's hand
        seats = [s for s in seats if all(d.seat != s for d in other.declared)]
    spare = "set_aside" if isinstance(other, TotitState) else "stock"
    places = [other.hands[s] for s in seats] + [getattr(other, spare)]
    hidden = [c for place in places for c in place]
    chooser.shuffle(hidden)
    for place in places:
        place[:], hidden = hidden[: len(place)], hidden[len(place) :]
    return other


@pytest.mark.parametrize(
    ("spec", "policy", "players"),
    [(TOTIT, TOTIT_AI, 3), (TURUP, TURUP_AI, 3), (PORRAZO, PORRAZO_AI, 3)],
    ids=["totit", "turup", "porrazo"],
)
def test_the_choice_depends_only_on_the_view(spec, policy, players):
    """Along a self-play match, every decision is taken again with the hidden cards moved: the
    seat's view is the same, and so is the AI's choice."""
    state = spec.new_match(None, [0] * players, seed=21)
    chooser, checked, moved = random.Random(4), 0, 0
    while not state.is_over() and checked < 60:
        if state.awaiting_next_hand():
            state.next_hand()
            continue
        decision = state.pending()[0]
        seat = decision.seat
        other = shuffle_hidden(state, seat, chooser)
        moved += other.hands != state.hands
        assert other.view(seat) == state.view(seat)
        choice = decide(policy, state, seat, seed=checked)
        assert decide(policy, other, seat, seed=checked) == choice
        state.apply(seat, choice if choice is not None else state.default_action(seat))
        checked += 1
    assert checked >= 30 and moved >= checked // 2
