"""Western Terrapin scripted hands: each rule of its rules text
(bot/games/terrapin/western/rules.md) with fixed cards.

Three seats unless said; seat 0 deals first, so seat 1 (the dealer's left) opens the betting.
"""

import pytest

from bot.cards.decktet import parse
from bot.engine import HandEnded, IllegalAction
from bot.games.betting import Bet, Call, Check, Fold, Raise
from bot.games.poker import Muck, Mucked, PotAwarded, Show
from bot.games.terrapin.table import Revealed
from bot.games.terrapin.western import WESTERN, Stand, Take, WesternOptions
from tests.poker_play import play

SHARED = "Ace of Moons, Huntress, Mountain"  # suits: Moons, Suns
TENS = "Ace of Suns, Bard"  # + shared: two Aces, two Crowns = 10
SIXES = "Author, Journey"  # + shared: straight A-2-3-4 = 6
TURTLE = "Sailor, Soldier"  # + shared: all six suits


def rigged(hands: list[str], shared: str = SHARED, draws: str = "", stacks=None, **options):
    """A hand in progress (antes paid, first round open) with known cards.

    The deck is stacked so the shared cards come first, then the draws in order."""
    stacks = stacks or [20] * len(hands)
    state = WESTERN.new_match(WesternOptions(**options), stacks, seed=1)
    fixed = [parse(hand) for hand in hands]
    top = parse(shared) + parse(draws)
    used = {c for hand in fixed for c in hand} | set(top)
    rest = [c for c in state.all_cards() if c not in used]
    state.hands, state.shared, state.set_aside = fixed, [], []
    state.deck = rest + top[::-1]
    return state


def to_draw(state):
    """Round 1: seat 1 bets 1, the others call; round 2 likewise; the draw begins."""
    play(state, (1, Bet(amount=1)), (2, Call()), (0, Call()))
    play(state, (1, Bet(amount=1)), (2, Call()), (0, Call()))
    assert state.phase == "draw"


def test_everyone_antes_one_and_gets_two_private_cards():
    state = WESTERN.new_match(None, [10, 10, 10], seed=4)
    assert state.stacks == [9, 9, 9] and state.pot_size() == 3
    assert [len(hand) for hand in state.hands] == [2, 2, 2]
    assert state.pending()[0].seat == 1  # the dealer's left


def test_the_first_player_must_bet_or_fold():
    state = rigged([TENS, SIXES, TURTLE])
    assert state.legal_actions(1) == [Fold()] + [Bet(amount=n) for n in range(1, 6)]
    with pytest.raises(IllegalAction, match="Checking is not allowed: bet or fold"):
        state.apply(1, Check())
    with pytest.raises(IllegalAction, match="There is no bet to call"):
        state.apply(1, Call())


def test_bets_and_raises_stay_within_the_raise_limit():
    state = rigged([TENS, SIXES, TURTLE], raise_limit=3)
    with pytest.raises(IllegalAction, match="between 1 and 3 chips"):
        state.apply(1, Bet(amount=4))
    state.apply(1, Bet(amount=3))
    assert state.legal_actions(2) == [Fold(), Call()] + [Raise(amount=n) for n in (1, 2, 3)]
    with pytest.raises(IllegalAction, match="already a bet"):
        state.apply(2, Bet(amount=1))


def test_allow_check_option_lets_a_round_pass_without_a_bet():
    state = rigged([TENS, SIXES, TURTLE], allow_check=True)
    play(state, (1, Check()), (2, Check()), (0, Check()))
    assert state.betting_round == 2 and [c.name for c in state.shared] == [
        "Ace of Moons",
        "Huntress",
        "Mountain",
    ]
    assert state.last_aggressor == 1  # nobody bet: the dealer's left


def test_round_ends_when_all_match_and_the_next_starts_with_the_last_aggressor():
    state = rigged([TENS, SIXES, TURTLE])
    play(state, (1, Bet(amount=2)), (2, Raise(amount=3)), (0, Call()))
    assert state.betting_round == 1 and state.pending()[0].seat == 1  # owes 3 more
    play(state, (1, Call()))
    assert state.betting_round == 2 and state.shared
    assert state.stacks == [14, 14, 14] and state.pot_size() == 18
    assert state.pending()[0].seat == 2  # seat 2 raised last


def test_shared_cards_that_alone_are_turtle_butt_are_set_aside_and_redealt():
    state = rigged([TENS, SIXES, "Sailor, Forest"], shared="Author, Desert, Origin, " + SHARED)
    events = play(state, (1, Bet(amount=1)), (2, Call()), (0, Call()))
    dealt = next(e for e in events if e.kind == "shared_dealt")
    assert [c.name for c in dealt.set_aside] == ["Author", "Desert", "Origin"]
    assert [c.name for c in state.shared] == ["Ace of Moons", "Huntress", "Mountain"]
    assert state.view(None).set_aside == parse("Author, Desert, Origin")


def test_draw_from_the_last_aggressor_until_everyone_stands():
    state = rigged([TENS, SIXES, TURTLE], draws="Sea, Castle, Cave")
    play(state, (1, Bet(amount=1)), (2, Call()), (0, Call()))
    play(state, (1, Bet(amount=1)), (2, Raise(amount=1)), (0, Call()), (1, Call()))
    assert state.phase == "draw" and state.pending()[0].seat == 2  # the last aggressor
    play(state, (2, Take()), (0, Stand()), (1, Take()))
    assert [len(h) for h in state.hands] == [2, 3, 3]
    play(state, (2, Take()))  # seat 0 stood, so seat 1 is next
    assert state.pending()[0].seat == 1
    play(state, (1, Stand()), (2, Stand()))
    assert state.phase == "betting" and state.betting_round == 3
    assert state.pending()[0].seat == 2
    assert [c.name for c in state.hands[2]] == ["Sailor", "Soldier", "Sea", "Cave"]


def test_draw_ends_when_the_deck_is_exhausted():
    state = rigged([TENS, SIXES, TURTLE], draws="Sea")
    to_draw(state)
    state.deck = state.deck[-1:]  # only the Sea is left
    play(state, (1, Take()))
    assert state.phase == "betting" and state.betting_round == 3 and not state.deck


def test_all_but_one_fold_and_the_last_takes_the_pot():
    state = rigged([TENS, SIXES, TURTLE])
    state.carry = 4
    events = play(state, (1, Bet(amount=2)), (2, Fold()), (0, Fold()))
    ended = events[-1]
    assert isinstance(ended, HandEnded) and ended.winners == [1]
    assert state.stacks == [19, 19 + 3 + 4, 19] and state.pot_size() == 0
    assert state.awaiting_next_hand() and state.result.shown == []


def showdown_of(state):
    to_draw(state)
    play(state, (1, Stand()), (2, Stand()), (0, Stand()))
    return play(state, (1, Bet(amount=1)), (2, Call()), (0, Call()))


def test_showdown_from_the_last_aggressor_and_a_losing_hand_may_be_mucked():
    state = rigged([TENS, SIXES, TURTLE])
    events = showdown_of(state)
    # Seat 1 bet last: it shows first (6); seat 2 (Turtle Butt) cannot beat it: its choice.
    assert [e.seat for e in events if isinstance(e, Revealed)] == [1]
    assert state.pending()[0].seat == 2 and state.legal_actions(2) == [Muck(), Show()]
    assert state.default_action(2) == Muck()
    events = play(state, (2, Muck()))
    assert isinstance(events[0], Mucked)
    # Seat 0's 10 beats the 6: shown without asking, and wins the 12-chip pot.
    assert [e.seat for e in events if isinstance(e, Revealed)] == [0]
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert award.winners == [0] and award.amount == 12
    assert state.stacks == [16 + 12, 16, 16]
    # The mucked hand stays hidden from everyone else.
    assert state.hands[2][0] in state.hidden_from(None)
    assert state.hands[0][0] not in state.hidden_from(None)


def test_a_muckable_hand_may_be_shown():
    state = rigged([TENS, SIXES, TURTLE])
    showdown_of(state)
    events = play(state, (2, Show()))
    assert events[0].seat == 2 and events[0].turtle_butt
    assert state.result.winners == [0]


def test_ties_split_the_pot_and_the_odd_chip_stays():
    state = rigged(["Ace of Suns, Ace of Waves", "Bard, Sea", TURTLE])
    play(state, (1, Bet(amount=1)), (2, Fold()), (0, Call()))
    play(state, (1, Bet(amount=1)), (0, Call()))
    play(state, (1, Stand()), (0, Stand()))
    events = play(state, (1, Bet(amount=1)), (0, Call()))
    # Both score 10 (three Aces / three Crowns). Pot: 3 antes + 2 x 3 = 9: 4 each, 1 carries.
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert sorted(award.winners) == [0, 1] and award.carried == 1
    assert state.stacks == [16 + 4, 16 + 4, 19] and state.carry == 1
    state.next_hand()
    assert state.pot_size() == 1 + 3


def test_when_every_shown_hand_is_turtle_butt_the_pot_stays_and_everyone_antes_again():
    state = rigged([TURTLE, "Battle, Origin", "Author, Journey"])
    play(state, (1, Bet(amount=1)), (2, Fold()), (0, Call()))
    play(state, (1, Bet(amount=1)), (0, Call()))
    play(state, (1, Stand()), (0, Stand()))
    events = play(state, (1, Bet(amount=1)), (0, Call()))
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert award.winners == [] and award.carried == 9
    assert state.stacks == [16, 16, 19]
    state.next_hand()
    assert state.stacks == [15, 15, 18] and state.pot_size() == 9 + 3
    assert state.dealer == 1


def test_the_dealer_moves_left_and_skips_seats_that_left():
    state = rigged([TENS, SIXES, TURTLE, "Cave, Mill"], stacks=[20, 20, 20, 20])
    play(state, (1, Bet(amount=1)), (2, Fold()), (3, Fold()), (0, Fold()))
    with pytest.raises(IllegalAction, match="between hands"):
        WESTERN.new_match(None, [5, 5], seed=1).leave(0)
    assert state.leave(2) == 19
    state.next_hand()
    assert state.dealer == 1 and state.pending()[0].seat == 3  # seat 2 is gone
    assert state.hands[2] == []


def test_an_all_in_player_wins_only_the_main_pot():
    # Seat 1 (TENS) has 3 chips: ante 1, then all-in for 2. Seats 0 and 2 bet on.
    state = rigged([SIXES, TENS, TURTLE], stacks=[20, 3, 20])
    play(state, (1, Bet(amount=2)), (2, Raise(amount=3)), (0, Call()))
    assert state.stacks == [14, 0, 14]
    play(state, (2, Bet(amount=2)), (0, Call()))  # seat 1 is all-in and skipped
    play(state, (2, Stand()), (0, Stand()), (1, Stand()))
    events = play(state, (2, Bet(amount=1)), (0, Call()))
    if state.phase == "showdown":
        events += play(state, (state.pending()[0].seat, Muck()))
    awards = [e for e in events if isinstance(e, PotAwarded)]
    # Main pot: 3 from each = 9, to seat 1's 10. Side pot: the 6 more that seats 0 and 2
    # each put in = 12, to seat 0's 6 (seat 2 is Turtle Butt).
    assert awards[0].amount == 9 and awards[0].winners == [1]
    assert awards[1].amount == 12 and awards[1].winners == [0]
    assert state.stacks == [11 + 12, 9, 11]


def test_timeout_defaults():
    state = rigged([TENS, SIXES, TURTLE])
    assert state.default_action(1) == Fold()  # must bet or fold
    state.apply(1, Bet(amount=1))
    assert state.default_action(2) == Fold()  # facing a bet
    checking = rigged([TENS, SIXES, TURTLE], allow_check=True)
    assert checking.default_action(1) == Check()
    drawing = rigged([TENS, SIXES, TURTLE])
    to_draw(drawing)
    assert drawing.default_action(1) == Stand()


def test_views_hide_other_hands_and_show_your_own_with_its_score():
    state = rigged([TENS, SIXES, TURTLE])
    play(state, (1, Bet(amount=1)), (2, Call()), (0, Call()))
    public, mine = state.view(None), state.view(0)
    assert public.my_cards is None and [s.cards for s in public.seats] == [2, 2, 2]
    assert mine.my_cards == parse(TENS) and mine.my_score == 10
    assert state.view(2).my_score is None  # Turtle Butt
    text = public.model_dump_json()
    assert not any(card.name in text for hand in state.hands for card in hand)


def test_closing_the_table_shares_the_pot_left_over_from_the_dealers_left():
    state = rigged([TENS, SIXES, TURTLE])
    play(state, (1, Bet(amount=1)), (2, Fold()), (0, Fold()))  # seat 1: 22
    state.carry, state.stacks[1] = 2, state.stacks[1] - 2  # as if two odd chips had stayed
    total = state.chip_total()
    payouts = state.cash_out()
    assert payouts == [19, 20 + 1, 19 + 1] and sum(payouts) == total
    assert state.is_over() and state.chip_total() == 0


def test_leaving_with_chips_carried_in_the_pot_warns_that_your_share_stays():
    state = rigged(["Ace of Suns, Ace of Waves", "Bard, Sea", TURTLE])
    assert state.leave_warning(0) is None  # nothing carried
    play(state, (1, Bet(amount=1)), (2, Fold()), (0, Call()))
    play(state, (1, Bet(amount=1)), (0, Call()))
    play(state, (1, Stand()), (0, Stand()))
    play(state, (1, Bet(amount=1)), (0, Call()))  # the tie of the test above: 1 chip carries
    assert state.awaiting_next_hand() and state.carry == 1
    expected = (
        "The pot of 1 chip carried to the next hand stays at the table: you give up your share."
    )
    assert [state.leave_warning(seat) for seat in range(3)] == [expected] * 3
    state.leave(2)
    assert state.leave_warning(2) is None  # gone already
    state.next_hand()
    assert state.leave_warning(0) is None  # in play again: no longer carried
