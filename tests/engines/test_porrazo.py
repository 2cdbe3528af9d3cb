"""Porrazo's engine (bot/games/porrazo/) against its rules text (bot/games/porrazo/rules.md), whose
examples are copied here as data: dealing three each and replenishing, the pack coming out even
with the tendido and the odd cards, rondas and rondines declared with the rank hidden, closing
with the deal's first card and scored once played out, captures by pair (one card of a pair) and
by run from its lowest card (7-8-9-10 by a 7, Q-K-A-2 by a queen), limpias (K-A-2-3-4 scores 1;
a porrazo on the only table card, falling if countered), playing in place, the tendido, porrazo,
counter-porrazo and san benito, the dealer's last card, the hand's score by difference, the game
ending at 61 mid-hand, partnerships, and the capture listing against brute force on random
tables."""

import random
from itertools import combinations

import pytest

from bot.cards import FrenchCard, Rank, french_deck, parse_french
from bot.engine import HandEnded, IllegalAction, MatchEnded
from bot.games.porrazo import (
    PORRAZO,
    DealTendido,
    Declaration,
    Declare,
    Declared,
    HandScored,
    NoTendido,
    OddCards,
    Play,
    Played,
    PorrazoOptions,
    PorrazoState,
    SanBenito,
    Scored,
    Swept,
    TendidoDealt,
    best_arrangement,
    in_place_points,
    meant_take,
    play_options,
    play_problem,
    set_points,
    tendido_sets,
)

# The rule text's bonus table: rank -> (ronda, rondine).
BONUSES = {"K": (4, 12), "Q": (3, 9), "J": (2, 6), "10": (1, 3), "7": (1, 3), "A": (1, 3)}
# Deals per hand, from the text: even tables exhaust the pack, odd ones leave three odd cards
# (once the tendido's four are out).
DEALS = {2: 8, 3: 5, 4: 4, 5: 3}


def cards(text: str) -> list[FrenchCard]:
    return parse_french(text)


def card(code: str) -> FrenchCard:
    return FrenchCard.from_code(code)


def play(code: str, take: str = "") -> Play:
    return Play(card=card(code), take=cards(take))


def codes(found) -> str:
    return " ".join(c.code for c in found)


def new(
    seats: int = 2,
    deck: list[str] | None = None,
    partnerships: bool = False,
    target: int = 61,
    seed: int = 7,
) -> PorrazoState:
    options = PorrazoOptions(partnerships=partnerships, target=target)
    return PORRAZO.new_match(options, [0] * seats, seed, stacked=[deck] if deck else None)


def dealt(*hands_from_left: str, then: str = "") -> list[str]:
    """A deck order dealing these hands (three each from the dealer's left), then `then`."""
    return " ".join([*hands_from_left, then]).split()


def at_play(
    hands: dict[int, str],
    table: str = "",
    seats: int = 2,
    turn: int = 1,
    stock: str | None = None,
    partnerships: bool = False,
    scores: list[int] | None = None,
) -> PorrazoState:
    """A hand in play with these hands and table cards, the tendido dealt, the stock the rest
    of the pack (or `stock`), nobody having played this deal yet."""
    state = new(seats, partnerships=partnerships)
    state.phase, state.tendido_dealt, state.turn = "play", True, turn
    state.hands = [cards(hands.get(seat, "")) for seat in range(seats)]
    state.table = cards(table)
    used = {c for hand in state.hands for c in hand} | set(state.table)
    rest = [c for c in french_deck() if c not in used]
    state.stock = rest if stock is None else cards(stock)
    state.won = [[] for _ in state.match.sides]
    state.played = [False] * seats
    if scores is not None:
        state.match.scores = scores
    return state


def of_kind(events, kind):
    return [event for event in events if isinstance(event, kind)]


def run_hand_by_defaults(state: PorrazoState) -> list:
    """Every decision times out (the default) until the hand is over."""
    events = []
    while state.phase in ("tendido", "play"):
        seat = state.required_seat()
        events += state.apply(seat, state.default_action(seat))
    return events


# ---- dealing -----------------------------------------------------------------------------------


def test_three_cards_each_from_the_dealers_left_then_the_dealer_is_asked_for_the_tendido():
    deck = dealt("2s 3s 4s", "5h 6h 7h")
    state = new(2, deck)
    assert state.dealer == 0 and state.turn == 1
    assert codes(state.hands[1]) == "2s 3s 4s" and codes(state.hands[0]) == "5h 6h 7h"
    assert len(state.stock) == 52 - 6 and state.table == []
    assert state.phase == "tendido"
    (required,) = [d for d in state.pending() if not d.optional]
    assert required.seat == 0 and state.legal_actions(0)[:2] == [DealTendido(), NoTendido()]
    events = state.apply(0, NoTendido())
    assert [e.kind for e in events] == ["tendido_deferred"]
    assert state.phase == "play" and state.required_seat() == 1


def test_each_player_is_told_their_own_cards_only():
    state = new(3)
    hand_events = state.start_hand()
    private = [e for e in hand_events if e.kind == "dealt"]
    assert {e.audience for e in private} == {(0,), (1,), (2,)}
    assert all(e.cards == state.hands[e.seat] for e in private)
    public = state.view(None).model_dump_json()
    assert not any(c.code in public for hand in state.hands for c in hand)


@pytest.mark.parametrize("seats", sorted(DEALS))
@pytest.mark.parametrize("tendido_first", [False, True])
def test_the_pack_comes_out_even_with_the_tendido_and_the_odd_cards(seats, tendido_first):
    state = new(seats, seed=1)  # a seed whose hands play out (no san benito)
    events = state.start_hand()
    if tendido_first:
        events += state.apply(0, DealTendido())
    events += run_hand_by_defaults(state)
    assert max(e.deal for e in events if e.kind == "replenished") == DEALS[seats]
    (tendido,) = of_kind(events, TendidoDealt)
    assert len(tendido.cards) == 4
    odd = of_kind(events, OddCards)
    assert [len(e.cards) for e in odd] == ([3] if seats % 2 else [])
    assert state.stock == [] and state.table == [] and not any(state.hands)
    assert sum(map(len, state.won)) == 52
    assert len(of_kind(events, HandScored)) == 1 and state.phase in ("between", "over")


def test_without_a_tendido_it_is_dealt_with_the_last_deal_before_the_odd_cards():
    state = new(3)
    events = run_hand_by_defaults(state)  # the dealer never deals it when asked
    asked = [e for e in events if e.kind == "tendido_deferred"]
    assert len(asked) == DEALS[3] - 1
    kinds = [e.kind for e in events]
    last_deal = max(i for i, kind in enumerate(kinds) if kind == "replenished")
    assert kinds[last_deal:].index("tendido_dealt") < kinds[last_deal:].index("odd_cards")


# ---- rondas and rondines ----------------------------------------------------------------------


def test_ronda_and_rondine_values_from_the_rule_text():
    for label, (ronda, rondine) in BONUSES.items():
        rank = card(f"{label}s").rank
        assert (set_points(rank, 2), set_points(rank, 3)) == (ronda, rondine)
        assert set_points(rank, 4) == 2 * rondine  # four of a kind, in a tendido


def test_a_rondine_of_aces_outranks_a_ronda_of_kings_and_scores_once_played_out():
    state = at_play({1: "As Ah Ad", 0: "Ks Kh 5c"}, table="9c 10d")
    assert {d.seat for d in state.pending() if d.kind == "declare"} == {0}  # seat 1 is to play
    assert Declare() in state.legal_actions(1)
    assert state.apply(1, Declare()) == [Declared(seat=1, set_name="rondine")]
    assert state.apply(0, Declare()) == [Declared(seat=0, set_name="ronda")]
    public = state.view(None)
    assert [(d.seat, d.set_name) for d in public.declared] == [(1, "rondine"), (0, "ronda")]
    assert "As" not in public.model_dump_json() and "Ks" not in public.model_dump_json()
    state.apply(1, play("As"))
    state.apply(0, play("Ks"))
    state.apply(1, play("Ah", "As"))  # a card that can capture must
    events = state.apply(0, play("Kh", "Ks"))
    assert not of_kind(events, Scored)  # the aces are not all out yet
    events = state.apply(1, play("Ad"))
    (scored,) = of_kind(events, Scored)
    assert (scored.seat, scored.points, scored.why) == (1, 3, "rondine")
    assert codes(scored.cards) == "As Ah Ad"
    assert state.match.scores == [0, 3] and state.view(None).declared == []


def test_the_highest_declaration_wins_and_ties_go_to_the_first_from_the_dealers_left():
    state = at_play({}, seats=3)
    state.played = [True] * 3
    sevens = [Declaration(seat=2, cards=cards("7d 7c")), Declaration(seat=1, cards=cards("7s 7h"))]
    state.declared = [*sevens, Declaration(seat=0, cards=cards("9s 9h"))]
    events = state.settle_declarations()
    assert [(e.seat, e.why, e.points) for e in events] == [(0, "ronda", 1)]
    state.declared = list(sevens)  # a tie: seat 1 is first from the dealer's (seat 0) left
    assert [e.seat for e in state.settle_declarations()] == [1]
    state.dealer, state.declared = 1, list(sevens)  # now seat 2 is
    assert [e.seat for e in state.settle_declarations()] == [2]
    assert state.declared == []


def test_declaring_is_optional_out_of_turn_and_says_why():
    no_pair = at_play({1: "3d 5s 9h", 0: "2h 4h 6h"})
    assert [d.optional for d in no_pair.pending()] == [False]
    with pytest.raises(IllegalAction, match="no pair or three"):
        no_pair.apply(1, Declare())
    state = at_play({1: "3d 5s 5h", 0: "Qs Qh 2c"}, table="Kd")
    (holder,) = [d for d in state.pending() if d.optional]
    assert (holder.seat, holder.kind) == (0, "declare")
    assert state.legal_actions(0) == [Declare()]
    state.apply(1, Declare())
    with pytest.raises(IllegalAction, match="declared already"):
        state.apply(1, Declare())
    state.apply(0, Declare())  # out of turn, before the deal's first card
    assert state.view(0).my_declared == cards("Qs Qh") and state.view(1).my_declared == cards(
        "5s 5h"
    )
    state.apply(1, play("3d"))
    state.apply(0, play("2c"))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(0, Declare())


def test_declarations_close_when_the_deals_first_card_is_played():
    """The issue's case: seat 2 held a pair of 9s and declared it after seat 1 had played,
    before playing its own first card. rules.md: rondas are declared before the deal's first
    card is played (the text: "Before any cards are played, ... may declare")."""
    deck = dealt("3d 5s Jh", "9s 9h 2c", "4h 6h 8h", "Kc 7d 10s")
    state = new(4, deck)
    assert state.phase == "tendido" and state.view(2).my_declarable == "ronda"
    holders = {d.seat for d in state.pending() if d.kind == "declare"}
    assert holders == {2} and Declare() in state.legal_actions(2)  # the tendido is still open
    state.apply(0, NoTendido())
    assert Declare() in state.legal_actions(2)  # no card played yet: still open
    state.apply(1, play("3d"))  # the deal's first card
    assert [d.kind for d in state.pending()] == ["play"] and Declare() not in state.legal_actions(2)
    assert state.view(2).my_declarable is None
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="Declarations close when the deal's first card"):
        state.apply(2, Declare())
    assert state.snapshot() == before
    # The next deal opens them again, until its own first card.
    state.played, state.hands[3] = [False] * 4, cards("Qs Qh 4c")
    assert Declare() in state.legal_actions(3)


# ---- captures ---------------------------------------------------------------------------------


def test_a_third_card_takes_only_one_card_of_a_pair_on_the_table():
    state = at_play({1: "8d 2s 3s", 0: "4h 5h 6h"}, table="8s 8h Kc")
    takes = [codes(p.take) for p in state.legal_actions(1) if p.card == card("8d")]
    assert takes == ["8s", "8h"]
    with pytest.raises(IllegalAction, match="only one card of its rank"):
        state.apply(1, play("8d", "8s 8h"))
    state.apply(1, play("8d", "8h"))
    assert codes(state.table) == "8s Kc" and codes(state.won[1]) == "8h 8d"


def test_the_rule_texts_runs_seven_to_ten_and_q_k_a_2_by_a_queen():
    table = cards("7d 8c 9h 10s Kd")
    assert [codes(t) for t in play_options(card("7s"), table)] == [
        "7d 8c 9h 10s",
        "7d 8c 9h",
        "7d 8c",
        "7d",
    ]
    wrap = cards("Qs Kh Ad 2c 9d")
    assert [codes(t) for t in play_options(card("Qc"), wrap)] == [
        "Ad 2c Qs Kh",
        "Ad Qs Kh",
        "Qs Kh",
        "Qs",
    ]
    # rules.md: a card matches the run's lowest card; the text's jack takes nothing here.
    assert play_options(card("Jc"), wrap) == [[]]
    assert "consecutive" in play_problem(card("Jc"), cards("Qs Kh"), cards("Jc"), wrap)


def test_a_limpia_scores_a_ronda_of_the_last_rank_taken():
    state = at_play({1: "Kd 5s 6s", 0: "9h 10h Jh"}, table="Ks Ah 2d 3c 4s")
    events = state.apply(1, play("Kd", "Ks Ah 2d 3c 4s"))
    assert events[0].move == "limpia"
    (scored,) = of_kind(events, Scored)
    assert (scored.why, scored.points, scored.rank) == ("limpia", 1, Rank.FOUR)
    single = at_play({1: "Kd 5s 6s", 0: "9h 10h Jh"}, table="Ks")
    events = single.apply(1, play("Kd", "Ks"))
    assert [(e.why, e.points) for e in of_kind(events, Scored)] == [("limpia", 4)]
    partial = at_play({1: "Kd 5s 6s", 0: "9h 10h Jh"}, table="Ks Ah 9c")
    assert not of_kind(partial.apply(1, play("Kd", "Ks Ah")), Scored)


# The case (seed 100002, four players, hand 6): 2♥ placed on an empty table, 2♣ pairs it.
# Seat 1 places the 2♥, seat 2 makes the porrazo, seat 3 plays next.
LONE_CARD = ("2h 5s 9d", "2c 7s Jd")
DEALERS = "3d 6c 10h"


def lone_card_porrazo(seat_3: str) -> PorrazoState:
    state = new(4, dealt(*LONE_CARD, seat_3, DEALERS))
    state.apply(0, NoTendido())  # the table stays empty
    state.apply(1, play("2h"))
    events = state.apply(2, play("2c", "2h"))
    assert events[0].move == "porrazo" and state.table == [] and not of_kind(events, Scored)
    assert state.view(None).porrazo_limpia
    return state


def test_a_porrazo_taking_the_only_table_card_also_scores_a_limpia():
    """The text: "The simplest limpia occurs when there is one card on the table, and the
    player captures it by pairing." rules.md: the porrazo and the limpia both score."""
    state = lone_card_porrazo("9s Kh Qc")
    events = state.apply(3, play("9s"))  # no counter: the porrazo stands
    scored = [(e.seat, e.why, e.points, codes(e.cards)) for e in of_kind(events, Scored)]
    assert scored == [(2, "porrazo", 1, "2h 2c"), (2, "limpia", 1, "2h")]
    assert state.match.scores == [0, 0, 2, 0] and codes(state.won[2]) == "2h 2c"
    assert not state.view(None).porrazo_limpia


def test_the_lone_card_limpia_falls_with_a_countered_porrazo():
    state = lone_card_porrazo("2d Kh Qc")
    events = state.apply(3, play("2d", "2h 2c"))  # the counter-porrazo takes both
    assert events[0].move == "counter" and not state.view(None).porrazo_limpia
    events = state.apply(0, play("3d"))  # the counter-porrazo stands: a rondine, no limpia
    assert [(e.seat, e.why, e.points) for e in of_kind(events, Scored)] == [
        (3, "counter_porrazo", 3)
    ]
    assert state.match.scores == [0, 0, 0, 3]


def test_a_card_picked_alone_that_matches_a_pending_porrazo_means_the_counter():
    """The picker's reading of a lone card: the porrazo's cards lie apart from the table."""
    table, stack = cards("9s 10s"), cards("5s 5h")
    assert codes(meant_take(card("5d"), [], table, stack)) == "5s 5h"
    assert codes(meant_take(card("5d"), cards("5s"), table, stack)) == "5s"  # as picked
    assert meant_take(card("7c"), [], table, stack) == []  # not of the porrazo's rank
    # A 3 that lies in place as the third table card may pass up the counter: it does.
    assert meant_take(card("3d"), [], table, cards("3s 3h")) == []


def test_a_porrazo_beside_other_table_cards_is_no_limpia():
    state = three_players()  # the K♦ stays on the table
    state.apply(1, play("5s"))
    state.apply(2, play("5h", "5s"))
    assert not state.view(None).porrazo_limpia
    events = state.apply(0, play("7h"))
    assert [e.why for e in of_kind(events, Scored)] == ["porrazo"]


@pytest.mark.parametrize(
    ("table", "code", "points"),
    [("", "Ac", 1), ("9s", "2c", 2), ("9s 10s", "3c", 3), ("9s 10s Js", "4c", 4)],
)
def test_an_ace_to_four_played_in_place_scores_its_pip(table, code, points):
    state = at_play({1: f"{code} 6d 7d", 0: "8h 8d Qh"}, table=table)
    events = state.apply(1, play(code))
    assert events[0].move == "in_place"
    assert [(e.why, e.points) for e in of_kind(events, Scored)] == [("in_place", points)]


def test_a_five_is_never_in_place_and_a_card_out_of_place_scores_nothing():
    fifth = at_play({1: "5c 6d 7d", 0: "8h 8d Qh"}, table="9s 10s Js Qs")
    assert fifth.apply(1, play("5c"))[0].move == "placed"
    early = at_play({1: "3c 6d 7d", 0: "8h 8d Qh"}, table="9s")
    assert not of_kind(early.apply(1, play("3c")), Scored)


def test_a_card_that_can_capture_must_unless_played_in_place():
    state = at_play({1: "7s 3h Kd", 0: "8h 8d Qh"}, table="7d 3s")
    with pytest.raises(IllegalAction, match="can capture, so it must"):
        state.apply(1, play("7s"))
    assert [codes(p.take) for p in state.legal_actions(1) if p.card == card("3h")] == ["3s", ""]
    events = state.apply(1, play("3h"))  # passes up the 3s: the third card, in place
    assert [(e.why, e.points) for e in of_kind(events, Scored)] == [("in_place", 3)]


# ---- the tendido ------------------------------------------------------------------------------


def test_the_tendido_arrangement_scores_cards_in_their_places_either_way():
    assert in_place_points(cards("Ah 3d 10s 4c")) == 5
    assert codes(best_arrangement(cards("3d Ah 4c 10s"))) == "Ah 3d 10s 4c"
    assert in_place_points(best_arrangement(cards("2s 9d Ac 5h"))) == 2  # 9-2 read first
    assert in_place_points(best_arrangement(cards("4s 3d 2c Ah"))) == 10  # read right to left
    assert in_place_points(best_arrangement(cards("9s 9d 9c 9h"))) == 0


def test_tendido_sets_count_the_table_and_four_of_a_kind_doubles_a_rondine():
    found = tendido_sets(cards("7d Qs Qh 2c"), cards("7s 7h 5c"))
    assert [(f.rank, f.count, f.points) for f in found] == [(Rank.SEVEN, 3, 3), (Rank.QUEEN, 2, 3)]
    (four,) = tendido_sets(cards("Kc 2d 5s 8h"), cards("Ks Kh Kd"))
    assert (four.count, four.points) == (4, 24)
    assert tendido_sets(cards("2d 5s 8h 9c"), cards("Ks Kh")) == []  # a pair it doesn't touch


def test_the_dealer_deals_the_tendido_once_and_scores_it():
    deck = dealt("5s 6s 7s", "8h 9h 10h", then="3d Ah 4c 10s")
    state = new(2, deck)
    events = state.apply(0, DealTendido())
    (tendido,) = of_kind(events, TendidoDealt)
    assert codes(tendido.cards) == "Ah 3d 10s 4c" and codes(tendido.in_place) == "Ah 4c"
    (scored,) = of_kind(events, Scored)
    assert (scored.seat, scored.points, scored.why) == (0, 5, "tendido")
    assert sorted(map(str, state.table)) == sorted(["Ah", "3d", "10s", "4c"])
    with pytest.raises(IllegalAction, match="once a hand"):
        state.apply(0, DealTendido())
    while state.deal == 1:
        seat = state.required_seat()
        state.apply(seat, state.default_action(seat))
    assert state.deal == 2 and state.phase == "play"  # not asked again this hand


# ---- porrazos ---------------------------------------------------------------------------------


def three_players(**extra) -> PorrazoState:
    return at_play({1: "5s 2c 9c", 2: "5h Jd Qd", 0: "5c 3h 7h"}, table="Kd", seats=3, **extra)


def test_a_porrazo_stands_when_the_next_player_does_not_counter():
    state = three_players()
    state.apply(1, play("5s"))
    assert state.view(None).trailed == card("5s")
    events = state.apply(2, play("5h", "5s"))
    assert events[0].move == "porrazo" and not of_kind(events, Scored)
    assert codes(state.view(None).porrazo) == "5s 5h" and state.view(None).porrazo_seat == 2
    events = state.apply(0, play("7h"))
    (scored,) = of_kind(events, Scored)
    assert (scored.seat, scored.why, scored.points) == (2, "porrazo", 1)
    assert codes(state.won[2]) == "5s 5h" and card("7h") in state.table


def test_a_counter_porrazo_takes_both_scores_a_rondine_and_cancels_the_porrazo():
    state = three_players()
    state.apply(1, play("5s"))
    state.apply(2, play("5h", "5s"))
    with pytest.raises(IllegalAction, match="all together"):
        state.apply(0, play("5c", "5h"))
    events = state.apply(0, play("5c", "5s 5h"))
    assert events[0].move == "counter" and not of_kind(events, Scored)
    events = state.apply(1, play("9c"))
    assert [(e.seat, e.why, e.points) for e in of_kind(events, Scored)] == [
        (0, "counter_porrazo", 3)
    ]
    assert codes(state.won[0]) == "5s 5h 5c" and state.match.scores == [3, 0, 0]


def test_a_san_benito_wins_the_game_at_once():
    state = at_play({1: "5s 5d 9c", 2: "5h Jd Qd", 0: "5c 3h 7h"}, table="Kd", seats=3)
    state.apply(1, play("5s"))
    state.apply(2, play("5h", "5s"))
    state.apply(0, play("5c", "5s 5h"))
    events = state.apply(1, play("5d", "5s 5h 5c"))
    assert events[0].move == "san_benito"
    assert of_kind(events, SanBenito)[0].seat == 1
    assert state.is_over() and state.pending() == []
    (ended,) = of_kind(events, MatchEnded)
    assert ended.placings[1] == 1 and sorted(ended.placings) == [1, 2, 2]


def test_only_the_next_player_makes_a_porrazo_and_a_new_deal_interrupts_it():
    state = three_players()
    state.apply(1, play("5s"))
    state.apply(2, play("Jd"))
    assert state.apply(0, play("5c", "5s"))[0].move == "pair"  # a turn late: a plain pair
    # A porrazo as the deal's last card stands when the deal ends; none across deals.
    last = at_play({1: "8s", 2: "9s", 0: "9h"}, table="Kd", seats=3)
    last.played = [True] * 3
    last.apply(1, play("8s"))
    last.apply(2, play("9s"))
    events = last.apply(0, play("9h", "9s"))
    assert [e.why for e in of_kind(events, Scored)] == ["porrazo"] and last.deal == 2
    assert last.view(None).trailed is None and last.stack is None


# ---- the end of the hand and of the game ------------------------------------------------------


def test_the_dealers_last_card_takes_every_card_left_and_is_no_limpia():
    state = at_play({1: "2c", 0: "9d"}, table="9s 10h", stock="")
    state.played = [True, True]
    state.won = [cards("Ks Kh Kd"), cards("Qs")]
    events = state.apply(1, play("2c"))
    last = [e for e in of_kind(events, Played) if e.seat == 0]
    assert [e.move for e in last] == ["last"]
    (swept,) = of_kind(events, Swept)
    assert sorted(map(str, swept.cards)) == sorted(["9s", "10h", "2c", "9d"])
    assert [e.why for e in of_kind(events, Scored)] == ["cards"]  # no limpia
    (hand,) = of_kind(events, HandScored)
    assert hand.result.won == [7, 1] and (hand.result.side, hand.result.points) == (0, 6)
    assert state.phase == "between" and state.match.scores == [6, 0]


def test_the_dealers_last_card_still_makes_a_porrazo_or_counter_porrazo():
    state = at_play({1: "Qc", 0: "Qd"}, table="9s", stock="")
    state.played = [True, True]
    events = state.apply(1, play("Qc"))
    first = of_kind(events, Scored)[0]
    assert (first.seat, first.why, first.points) == (0, "porrazo", 3)
    # The dealer placed the Q♠ last round; seat 1's porrazo on it, countered by the last card.
    counter = at_play({1: "Qh", 0: "Qd"}, table="9s Qs", stock="")
    counter.played, counter.trailed = [True, True], card("Qs")
    events = counter.apply(1, play("Qh", "Qs"))
    assert [e.move for e in of_kind(events, Played)] == ["porrazo", "counter"]
    assert [(e.seat, e.why, e.points) for e in of_kind(events, Scored)] == [
        (0, "counter_porrazo", 9),
        (0, "cards", 4),
    ]


def test_the_hand_scores_the_difference_to_the_next_best_and_a_tie_scores_nothing():
    state = at_play({}, seats=3, stock="")
    state.won = [cards("2s") * 20, cards("3s") * 14, cards("4s") * 18]
    events = state.end_hand()
    (hand,) = of_kind(events, HandScored)
    assert (hand.result.side, hand.result.points) == (0, 2) and state.match.scores == [2, 0, 0]
    tie = at_play({}, seats=3, stock="")
    tie.won = [cards("2s") * 20, cards("3s") * 20, cards("4s") * 12]
    (hand,) = of_kind(tie.end_hand(), HandScored)
    assert hand.result.side is None and tie.match.scores == [0, 0, 0]


def test_the_game_ends_the_moment_a_side_reaches_61_even_mid_hand():
    state = at_play({1: "Kd 5s 6s", 0: "9h 10h Jh"}, table="Ks", scores=[40, 58])
    events = state.apply(1, play("Kd", "Ks"))  # a limpia of kings: 4
    assert state.match.scores == [40, 62] and state.is_over() and state.pending() == []
    (hand,) = of_kind(events, HandEnded)
    assert hand.winners == [1] and hand.scores == [0, 4]
    assert of_kind(events, MatchEnded)[0].placings == [2, 1]


def test_a_stacked_hand_with_a_tendido_porrazos_a_ronda_and_61_reached_mid_hand():
    deck = dealt("Ks Kh 5s", "5h 8d Jc", "5c 9h Qc", then="2d As 7c 10h")
    state = new(3, deck)
    state.match.scores = [50, 57, 0]
    tendido = state.apply(0, DealTendido())
    assert codes(of_kind(tendido, TendidoDealt)[0].cards) == "As 2d 7c 10h"
    assert state.match.scores == [53, 57, 0]  # the A and the 2 lie in their places
    state.apply(1, Declare())  # the kings; the table only hears "a ronda"
    steps = [
        (1, "5s", "", "placed"),
        (2, "5h", "5s", "porrazo"),
        (0, "5c", "5s 5h", "counter"),
        (1, "Ks", "", "placed"),  # the counter-porrazo stands: a rondine of 5s
        (2, "8d", "", "placed"),
        (0, "9h", "", "placed"),
    ]
    for seat, code, take, move in steps:
        assert of_kind(state.apply(seat, play(code, take)), Played)[0].move == move
    assert state.match.scores == [56, 57, 0] and codes(state.won[0]) == "5s 5h 5c"
    events = state.apply(1, play("Kh", "Ks As 2d"))  # K-A-2 wraps; the kings are out
    assert events[0].move == "sequence" and codes(events[0].taken) == "Ks As 2d"
    assert [(e.seat, e.why, e.points) for e in of_kind(events, Scored)] == [(1, "ronda", 4)]
    assert state.match.scores == [56, 61, 0] and state.is_over()
    assert state.hands[2] == cards("Jc") and state.deal == 1  # play stopped mid-deal
    assert of_kind(events, MatchEnded)[0].placings == [2, 1, 3]


def test_a_porrazo_standing_at_61_stops_play_before_the_next_card():
    state = three_players(scores=[0, 0, 60])
    state.apply(1, play("5s"))
    state.apply(2, play("5h", "5s"))
    events = state.apply(0, play("7h"))
    assert state.is_over() and state.match.scores == [0, 0, 61]
    assert card("7h") in state.hands[0] and not of_kind(events, Played)


def test_partners_share_their_captures_and_score():
    hands = {1: "2s 3s 4s", 2: "2h Qd 9c", 3: "5h 6h 7h", 0: "8c 8d 10c"}
    state = at_play(hands, table="Ks 9d", seats=4, partnerships=True, scores=[60, 0])
    assert state.match.sides == [[0, 2], [1, 3]] and len(state.view(None).won) == 2
    state.apply(1, play("2s"))
    state.apply(2, play("2h", "2s"))  # seat 2's porrazo waits
    events = state.apply(3, play("5h"))  # it stands: the side of seats 0 and 2 reaches 61
    (scored,) = of_kind(events, Scored)
    assert (scored.seat, scored.side, scored.side_seats, scored.total) == (2, 0, [0, 2], 61)
    assert codes(state.won[0]) == "2s 2h"
    (hand,) = of_kind(events, HandEnded)
    assert hand.winners == [0, 2] and hand.scores == [1, 0, 1, 0]
    (ended,) = of_kind(events, MatchEnded)
    assert ended.placings == [1, 2, 1, 2] and ended.scores == [61, 0, 61, 0]


def test_partnerships_need_an_even_table():
    with pytest.raises(ValueError):
        new(3, partnerships=True)


# ---- listing, refusals and defaults ----------------------------------------------------------


def accepted(c: FrenchCard, table: list[FrenchCard], stack: list[FrenchCard]) -> set:
    """Every take `c` may make, by trying every subset of the table and the porrazo."""
    pool = [*table, *stack]
    found = set()
    for size in range(len(pool) + 1):
        for take in combinations(pool, size):
            if play_problem(c, take, [c], table, stack) is None:
                found.add(frozenset(take))
    return found


def test_the_capture_listing_agrees_with_brute_force_on_random_tables():
    chooser = random.Random(15)
    deck = french_deck()
    for _ in range(120):
        drawn = chooser.sample(deck, 9)
        c, rest = drawn[0], drawn[1:]
        size = chooser.randint(0, 7)
        table = rest[:size]
        rank = c.rank if chooser.random() < 0.6 else chooser.choice(rest).rank
        same = [x for x in deck if x.rank == rank and x not in drawn]
        stack = same[: chooser.choice((2, 3))] if chooser.random() < 0.4 else []
        listed = play_options(c, table, stack)
        assert len({frozenset(t) for t in listed}) == len(listed)
        assert {frozenset(t) for t in listed} == accepted(c, table, stack)


def test_the_state_refuses_bad_plays_with_a_reason_and_changes_nothing():
    state = at_play({1: "7s 3h Kd", 0: "8h 9d Qh"}, table="7d 8s 3s")
    before = state.snapshot()
    for seat, action, reason in [
        (0, play("8h", "8s"), "not your turn"),
        (1, play("8h", "8s"), "don't hold"),
        (1, play("7s", "3s"), "does not match"),
        (1, play("7s", "7d 3s"), "consecutive"),
        (1, play("Kd", "Qs"), "on the table"),
        (1, DealTendido(), "once a hand"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(seat, action)
    assert state.snapshot() == before


def test_timeouts_counter_then_porrazo_then_the_biggest_capture_else_the_lowest_card():
    state = three_players()
    state.apply(1, play("5s"))
    assert state.default_action(2) == play("5h", "5s")  # the porrazo
    state.apply(2, play("5h", "5s"))
    assert state.default_action(0) == play("5c", "5s 5h")  # the counter-porrazo
    biggest = at_play({1: "7s 9h Kd", 0: "2h"}, table="7d 8c 9c 10c")
    assert biggest.default_action(1) == play("7s", "7d 8c 9c 10c")
    nothing = at_play({1: "9h 6s Kd", 0: "2h"}, table="2c 3c")
    assert nothing.default_action(1) == play("6s")
    asked = new(2)
    assert asked.default_action(0) == NoTendido()
