"""Totit's engine (bot/games/totit/) against its rules text (bot/games/totit/rules.md), with
stacked deals: the 60-card deck and the deal (18 face up, 7 each or 11 with two players, the
rest set aside unseen), identical cards only on a player's first turn, the same rank after (A,
J, Q, K as one: the text's A♠/K♣ and J♣/Q♣), odd suits before a pair of identical cards, one
capture per turn or a trail (compulsory capture, and the option that lifts it), pairs of
identical captured cards scoring however they were captured (the text's two examples), the end
once everyone has dealt, the timeout defaults, what each seat sees, and the listing against a
brute force."""

import random
from collections import Counter

import pytest

from bot.cards import FrenchCard, Rank, Suit, parse_french, totit_deck
from bot.engine import HandEnded, IllegalAction, MatchEnded
from bot.games.totit import (
    TOTIT,
    Capture,
    Captured,
    Dealt,
    HandScored,
    TotitOptions,
    TotitState,
    Trail,
    Trailed,
    pairs_in,
)

HONOURS = {Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING}
TABLE_FILL = (2, 3, 4)  # ranks padding the table in the stacked deals
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


def pads(seat: int, players: int, filler: FrenchCard) -> bool:
    """Whether `filler` may pad `seat`'s hand: with two players the 6s and 8s or the 7s and 9s,
    with three a rank of 6-8 and the 9s of one suit. No seat's padding matches another's."""
    if players == 2:
        return filler.rank in ((6, 8), (7, 9))[seat]
    return filler.rank == 6 + seat or (filler.rank == 9 and filler.suit == SUITS[seat])


def card(code: str) -> FrenchCard:
    return FrenchCard.from_code(code)


def codes(cards) -> str:
    return " ".join(c.code for c in cards)


def deal(table: str, hands: dict[int, str], players: int = 3, dealer: int = 0) -> list[str]:
    """The stacked deck dealing `table` among the 18 face-up cards and `hands[seat]` into each
    hand (one card at a time from the dealer's left). The table is padded with 2s, 3s and 4s and
    each hand with cards of its own among the 6-9s (`pads`), so padding never takes a scenario
    card."""
    size = 11 if players == 2 else 7
    wanted = {c.code for text in [table, *hands.values()] for c in parse_french(text)}
    spare = [c for c in totit_deck() if c.code not in wanted]
    laid = [c.code for c in parse_french(table)]
    laid += [c.code for c in spare if c.rank in TABLE_FILL][: 18 - len(laid)]
    held = {}
    for seat in range(players):
        own = [c.code for c in parse_french(hands.get(seat, ""))]
        own += [c.code for c in spare if pads(seat, players, c)][: size - len(own)]
        assert len(own) == size, f"not enough padding for seat {seat}"
        held[seat] = own
    order = [(dealer + 1 + k) % players for k in range(players)]
    return laid + [held[seat][index] for index in range(size) for seat in order]


def new(
    table: str = "",
    hands: dict[int, str] | None = None,
    players: int = 3,
    trail_when_able: bool = False,
    seed: int = 7,
) -> TotitState:
    stacked = [deal(table, hands or {}, players)] if table or hands else None
    options = TotitOptions(trail_when_able=trail_when_able)
    return TOTIT.new_match(options, [0] * players, seed, stacked=stacked)


def refusal(state: TotitState, action, seat: int | None = None) -> str:
    with pytest.raises(IllegalAction) as refused:
        state.apply(state.turn if seat is None else seat, action)
    return str(refused.value)


def capture(state: TotitState, held: str, target: str) -> list:
    return state.apply(state.turn, Capture(card=card(held), target=card(target)))


def trail(state: TotitState, held: str) -> list:
    return state.apply(state.turn, Trail(card=card(held)))


def by_default(state: TotitState, turns: int = 1) -> None:
    for _ in range(turns):
        state.apply(state.turn, state.default_action(state.turn))


def captures_listed(state: TotitState) -> set[str]:
    return {
        f"{a.card.code}>{a.target.code}"
        for a in state.legal_actions(state.turn)
        if isinstance(a, Capture)
    }


# ---- the deck and the deal --------------------------------------------------------------------


def test_the_sixty_card_deck_is_two_copies_of_thirty():
    deck = totit_deck()
    assert len(deck) == 60 and len(set(deck)) == 60
    faces = Counter((c.rank, c.suit) for c in deck)
    assert set(faces.values()) == {2}
    # the text: A-9♠, A-9♦, A-9♥ and J-Q-K♣, from each of two packs
    expected = {(Rank(r), s) for r in range(1, 10) for s in SUITS}
    expected |= {(r, Suit.CLUBS) for r in (Rank.JACK, Rank.QUEEN, Rank.KING)}
    assert set(faces) == expected


@pytest.mark.parametrize(
    ("players", "each", "aside"), [(2, 11, 20), (3, 7, 21), (5, 7, 7), (6, 7, 0)]
)
def test_eighteen_face_up_then_seven_each_or_eleven_with_two(players, each, aside):
    state = new(players=players, seed=players)
    assert len(state.table) == 18
    assert [len(hand) for hand in state.hands] == [each] * players
    assert len(state.set_aside) == aside
    assert sorted(map(str, state.all_cards())) == sorted(map(str, totit_deck()))
    # the set-aside cards are never seen, by anyone
    for viewer in [None, *range(players)]:
        assert set(state.set_aside) <= state.hidden_from(viewer)
        assert not {c.code for c in state.set_aside} & set(
            state.view(viewer).model_dump_json().split('"')
        )


def test_the_deal_goes_one_card_at_a_time_from_the_dealers_left():
    order = deal("5s", {0: "Kc", 1: "5d", 2: "Qc"}, players=3)
    state = new("5s", {0: "Kc", 1: "5d", 2: "Qc"})
    assert codes(sorted(state.table, key=str)) == codes(
        sorted(parse_french(" ".join(order[:18])), key=str)
    )
    assert order[18:21] == ["5d", "Qc", "Kc"]  # seat 1, seat 2, then the dealer
    assert card("5d") in state.hands[1] and card("Qc") in state.hands[2]
    assert state.dealer == 0 and state.turn == 1  # the dealer's left plays first
    while state.phase == "play":
        by_default(state)
    dealt = next(e for e in state.next_hand() if isinstance(e, Dealt))  # the deal passes left
    assert (dealt.dealer, dealt.first, dealt.hand_size, dealt.set_aside) == (1, 2, 7, 21)


# ---- capturing --------------------------------------------------------------------------------


def test_a_first_turn_may_only_take_an_identical_card():
    state = new("5s 5h As", {1: "5s#2 Kc 5d", 2: "5d#2"})
    assert captures_listed(state) == {"5s#2>5s"}
    assert "first turn you may only take a card identical" in refusal(
        state, Capture(card=card("5s#2"), target=card("5h"))
    )
    assert "can't take A♠" in refusal(state, Capture(card=card("Kc"), target=card("As")))
    events = capture(state, "5s#2", "5s")
    assert events == [Captured(seat=1, card=card("5s#2"), target=card("5s"), pairs=1)]
    assert codes(state.piles[1]) == "5s#2 5s"
    # Seat 2's 5♦#2 has no identical card on the table: it can't take the 5♥ yet.
    assert state.turn == 2 and captures_listed(state) == set()
    assert {a.card.code for a in state.legal_actions(2)} == {c.code for c in state.hands[2]}
    assert trail(state, "5d#2") == [Trailed(seat=2, card=card("5d#2"))]


def first_turns_trail(state: TotitState) -> None:
    """Seat 1 trails padding (a 7), then seats 2 and 0 play their defaults: seat 1's turn
    again, its second."""
    trail(state, "7h")
    by_default(state, 2)
    assert state.turn == 1 and not state.first_turn(1)


def test_later_turns_take_the_same_rank_with_a_j_q_k_as_one_rank():
    # The text: "The A♠ can be captured by the K♣ and vice versa, the J♣ and Q♣ can capture
    # each other".
    state = new("As Jc 5h", {1: "Kc Qc 5d"})
    assert captures_listed(state) == set()  # a first turn: nothing identical
    first_turns_trail(state)
    listed = captures_listed(state)
    assert {"Kc>As", "Kc>Jc", "Qc>As", "Qc>Jc", "5d>5h"} <= listed
    assert "5d>As" not in listed and "does not match" in refusal(
        state, Capture(card=card("5d"), target=card("As"))
    )
    capture(state, "Kc", "As")
    assert codes(state.piles[1]) == "Kc As"
    state = new("Kc Qc", {1: "As Jc"})
    first_turns_trail(state)
    assert {"As>Kc", "As>Qc", "Jc>Kc", "Jc>Qc"} <= captures_listed(state)
    capture(state, "Jc", "Qc")
    assert codes(state.piles[1]) == "Jc Qc"


def test_odd_suits_are_taken_before_a_pair_of_identical_cards():
    state = new("5s 5s#2 5h As As#2 Kc", {1: "5d 5d#2 Qc Jc"})
    first_turns_trail(state)
    listed = captures_listed(state)
    assert {"5d>5h", "5d#2>5h", "Qc>Kc"} <= listed
    assert not {"5d>5s", "5d>5s#2", "Qc>As", "Qc>As#2"} & listed
    assert "identical twin" in refusal(state, Capture(card=card("5d"), target=card("5s")))
    assert "identical twin" in refusal(state, Capture(card=card("Qc"), target=card("As#2")))
    capture(state, "5d", "5h")
    by_default(state, 2)
    # Only the two identical 5♠ are left of their rank: either may go now.
    assert {"5d#2>5s", "5d#2>5s#2"} <= captures_listed(state)
    capture(state, "5d#2", "5s#2")
    by_default(state, 2)
    # A J Q K are one rank here too: the K♣ goes first, then either A♠ may.
    assert {"Qc>Kc", "Jc>Kc"} <= captures_listed(state)
    assert not {"Qc>As", "Jc>As#2"} & captures_listed(state)
    capture(state, "Qc", "Kc")
    by_default(state, 2)
    assert {"Jc>As", "Jc>As#2"} <= captures_listed(state)


def test_one_capture_a_turn_then_the_turn_passes_left():
    state = new("5s", {1: "5s#2"})
    capture(state, "5s#2", "5s")
    assert state.turn == 2 and state.pending_seats() == [2]
    assert refusal(state, Trail(card=state.hands[1][0]), seat=1) == "It is not your turn to act."
    assert "You don't hold" in refusal(state, Trail(card=card("5s")))


# ---- trailing ---------------------------------------------------------------------------------


def test_a_player_who_can_capture_must_and_one_who_cannot_trails():
    state = new("5s 5h", {1: "5s#2 7s", 2: "5d"})
    assert refusal(state, Trail(card=card("7s"))) == (
        "You must capture when you can: your 5♠#2 can take 5♠."
    )
    assert all(isinstance(a, Capture) for a in state.legal_actions(1))
    capture(state, "5s#2", "5s")
    # Seat 2 can't take anything on its first turn: it trails, and the card joins the table
    # face up, where anyone may take it.
    assert not captures_listed(state)
    trail(state, "5d")
    assert card("5d") in state.table and state.view(None).table == state.table
    assert state.table == sorted(state.table, key=lambda c: (c.rank in HONOURS, c.rank))


def test_the_option_lets_a_player_trail_when_they_could_capture():
    state = new("5s", {1: "5s#2 7s"}, trail_when_able=True)
    legal = state.legal_actions(1)
    assert Capture(card=card("5s#2"), target=card("5s")) in legal
    assert Trail(card=card("5s#2")) in legal and Trail(card=card("7s")) in legal
    trail(state, "5s#2")
    assert card("5s#2") in state.table


# ---- scoring ----------------------------------------------------------------------------------


def test_pairs_are_two_identical_cards_however_captured():
    assert pairs_in(parse_french("5h 5h#2 5d As")) == 1
    assert pairs_in(parse_french("5h 5d 5s 5h#2 Kc Kc#2")) == 2
    assert pairs_in(parse_french("5h 5d Kc Qc As Ah")) == 0


def test_the_rule_texts_scoring_examples():
    """Both A♥ on the table at once, taken one at a time by different cards (K♣, then J♣); the
    5♥ captured early, its twin trailed by another player and captured later."""
    state = new("Ah Ah#2", {0: "Kc Jc", 1: "5d 5s", 2: "5h 5h#2"})
    trail(state, "7s")  # seat 1: nothing identical to take on a first turn
    trail(state, "5h")  # seat 2
    trail(state, "6s")  # seat 0: no A♥ in hand, so nothing to take yet
    assert capture(state, "5d", "5h")[0].pairs == 0  # seat 1 captures the 5♥ early
    trail(state, "5h#2")  # seat 2 can take nothing: it trails the twin
    assert capture(state, "Kc", "Ah")[0].pairs == 0  # seat 0: either A♥ (twins alone)
    events = capture(state, "5s", "5h#2")  # seat 1 takes the trailed twin
    assert events[0].pairs == 1
    by_default(state)  # seat 2
    events = capture(state, "Jc", "Ah#2")  # seat 0's second A♥, with another card
    assert events[0].pairs == 1
    while state.phase == "play":
        events = state.apply(state.turn, state.default_action(state.turn))
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.pairs == [pairs_in(pile) for pile in state.piles]
    assert scored.pairs[0] >= 1 and scored.pairs[1] >= 1
    assert {card("5h"), card("5h#2")} <= set(state.piles[1])
    assert {card("Ah"), card("Ah#2")} <= set(state.piles[0])
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.scores == scored.pairs and scored.totals == scored.pairs
    assert scored.discarded == len(state.table) and state.phase == "between"


# ---- the game ---------------------------------------------------------------------------------


def play_to_the_end(state: TotitState) -> list:
    events = []
    while not state.is_over():
        if state.awaiting_next_hand():
            events += state.next_hand()
        else:
            events += state.apply(state.turn, state.default_action(state.turn))
    return events


@pytest.mark.parametrize("players", [2, 4])
def test_the_game_ends_when_everyone_has_dealt_once(players):
    state = new(players=players, seed=11)
    events = play_to_the_end(state)
    dealt = [e for e in events if isinstance(e, Dealt)]
    assert [d.dealer for d in dealt] == list(range(1, players))  # after the first deal's
    assert [d.first for d in dealt] == [(d + 1) % players for d in range(1, players)]
    hands = [e for e in events if isinstance(e, HandScored)]
    assert len(hands) == players
    totals = [sum(h.pairs[seat] for h in hands) for seat in range(players)]
    (ended,) = [e for e in events if isinstance(e, MatchEnded)]
    assert ended.scores == totals == hands[-1].totals
    best = max(totals)
    assert [place == 1 for place in ended.placings] == [t == best for t in totals]
    assert state.pending() == [] and state.legal_actions(0) == []


def test_equal_top_scores_share_first_place():
    state = new(players=2)
    state.match.scores = [3, 3]
    state.match.played = 2
    assert state.final_standings().placings == [1, 1]


def test_leaving_between_hands_ends_the_game_with_the_leaver_last():
    state = new(players=3, seed=5)
    while state.phase == "play":
        by_default(state)
    state.match.scores = [0, 0, 9]
    with pytest.raises(IllegalAction):
        new(players=3).leave(1)  # not during a hand
    assert state.leave(2) == 0
    assert state.is_over() and state.final_standings().placings[2] == 3


# ---- timeouts and views -----------------------------------------------------------------------


def test_the_default_takes_the_capture_that_scores_else_trails_the_lowest_card():
    state = new("5h", {1: "5s 5h#2 Kc", 2: "As 9d"})
    by_default(state)  # seat 1's first turn: its 5♥#2 takes the identical 5♥
    assert codes(state.piles[1]) == "5h#2 5h"
    assert state.default_action(2) == Trail(card=card("8s"))  # 2-9 first, then A J Q K
    state = new("5h 5d", {1: "5s 5h#2 Kc"})
    state.turns[1] = 1  # a later turn: the 5♠ (listed first) could take either 5
    assert state.default_action(1) == Capture(card=card("5h#2"), target=card("5h"))


def test_each_seat_sees_its_own_hand_and_every_capture():
    state = new("5s", {1: "5s#2"})
    capture(state, "5s#2", "5s")
    public = state.view(None)
    assert public.my_cards is None and public.captured[1] == [card("5s#2"), card("5s")]
    assert public.pairs == [0, 1, 0] and public.first_turn == [True, False, True]
    for seat in range(3):
        assert state.view(seat).my_cards == state.hands[seat]
        others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
        assert state.hidden_from(seat) == others | set(state.set_aside)
    assert state.hidden_from(None) == {c for hand in state.hands for c in hand} | set(
        state.set_aside
    )


# ---- the listing against a brute force ----------------------------------------------------------


def allowed_by_the_text(held: FrenchCard, target: FrenchCard, table, first_turn: bool) -> bool:
    """The rules restated: identical on a first turn, else the same rank (A J Q K as one);
    a card with its identical twin among the candidates only when no odd card is left."""

    def rank(c: FrenchCard) -> object:
        return "honour" if c.rank in HONOURS else c.rank

    def same(a: FrenchCard, b: FrenchCard) -> bool:
        if first_turn:
            return (a.rank, a.suit) == (b.rank, b.suit)
        return rank(a) == rank(b)

    candidates = [c for c in table if same(held, c)]
    twinned = [
        c for c in candidates if sum((o.rank, o.suit) == (c.rank, c.suit) for o in candidates) == 2
    ]
    return target in candidates and (target not in twinned or len(twinned) == len(candidates))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.slow
def test_listed_actions_agree_with_a_brute_force_on_random_tables(seed):
    chooser = random.Random(seed)
    players = 2 + seed % 5
    state = new(players=players, seed=seed, trail_when_able=seed % 3 == 0)
    while not state.is_over():
        if state.awaiting_next_hand():
            state.next_hand()
            continue
        seat, first = state.turn, state.first_turn(state.turn)
        hand = state.hands[seat]
        captures = {
            Capture(card=h, target=t)
            for h in hand
            for t in state.table
            if allowed_by_the_text(h, t, state.table, first)
        }
        trails = (
            {Trail(card=h) for h in hand}
            if not captures or state.options.trail_when_able
            else set()
        )
        assert set(state.legal_actions(seat)) == captures | trails
        for h in hand:
            for t in state.table:
                assert state.can(seat, Capture(card=h, target=t)) == (
                    Capture(card=h, target=t) in captures
                )
            assert state.can(seat, Trail(card=h)) == (Trail(card=h) in trails)
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
