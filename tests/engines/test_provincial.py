"""Provincial Terrapin scripted hands. Three seats; seat 0 deals and sets the stake; the
dealer's left is seat 1."""

import pytest

from bot.cards.decktet import card, parse
from bot.engine import IllegalAction
from bot.games.poker import PotAwarded
from bot.games.terrapin.provincial import (
    PROVINCIAL,
    Discard,
    DrawDeck,
    DrawDiscard,
    Fist,
    ProvincialOptions,
    SetStake,
)

SHARED = "Pact, Merchant"  # the two 9s of the rule text's example


def rigged(hands: list[str], draws: str = "", stacks=None, **options):
    state = PROVINCIAL.new_match(ProvincialOptions(**options), stacks or [20] * len(hands), seed=5)
    fixed, shared, top = [parse(h) for h in hands], parse(SHARED), parse(draws)
    used = {c for hand in fixed for c in hand} | set(shared) | set(top)
    state.hands, state.shared = fixed, shared
    state.deck = [c for c in state.all_cards() if c not in used] + top[::-1]
    return state


def fists(state, **chosen):
    events = []
    for seat, chips in chosen.items():
        events += state.apply(int(seat[1:]), Fist(chips=chips))
    return events


FIVE_SUITS = "Journey, Mountain, Forest"  # 3, 4, 5 + the two 9s: 9 points (the rule text)
PAIR_OF_ACES = "Ace of Suns, Ace of Knots, Huntress"  # + 9s: two pairs 10 + 9-10 straight 2
TURTLE = "Sailor, Battle, Savage"


def test_ante_three_cards_two_shared_and_the_dealer_sets_the_stake():
    state = PROVINCIAL.new_match(None, [10, 10, 10], seed=1)
    assert state.stacks == [9, 9, 9] and state.pot == 3
    assert [len(h) for h in state.hands] == [3, 3, 3] and len(state.shared) == 2
    assert [d.seat for d in state.pending()] == [0]
    assert state.legal_actions(0) == [SetStake(chips=n) for n in (1, 2, 3)]
    with pytest.raises(IllegalAction):
        state.apply(0, SetStake(chips=4))


def test_fists_are_secret_until_everyone_has_chosen():
    state = rigged([FIVE_SUITS, PAIR_OF_ACES, TURTLE])
    state.apply(0, SetStake(chips=2))
    pending = state.pending()
    assert [d.seat for d in pending] == [0, 1, 2] and all(d.secret for d in pending)
    events = fists(state, s1=2)
    assert [e.kind for e in events] == ["fist_closed"]
    public = state.view(None)
    assert [s.chosen for s in public.seats] == [False, True, False]
    assert all(s.fist is None for s in public.seats) and public.pot == 3
    assert state.view(1).my_fist == 2 and state.view(0).my_fist is None


def test_the_rule_texts_example_discard_to_keep_seven_points():
    # Seat 0 (3,4,5,9,9: 9 points) pays to play, seat 1 calls: seat 0 must discard or draw first.
    state = rigged([FIVE_SUITS, PAIR_OF_ACES, TURTLE])
    state.apply(0, SetStake(chips=2))
    events = fists(state, s0=1, s1=2, s2=0)
    opened = next(e for e in events if e.kind == "fists_opened")
    assert opened.fists == {0: 1, 1: 2, 2: 0} and opened.paid == {0: 2, 1: 4}
    assert state.stacks == [19 - 2, 19 - 4, 19] and state.pot == 3 + 6
    assert state.pending()[0].seat == 0
    legal = state.legal_actions(0)
    assert [a.card.name for a in legal if isinstance(a, Discard)] == [
        "Journey",
        "Mountain",
        "Forest",
    ]
    assert DrawDeck() in legal and DrawDiscard() not in legal  # no discard pile yet
    events = state.apply(0, Discard(card=card("Journey")))
    shown = {e.seat: e.score for e in events if e.kind == "revealed"}
    assert shown == {1: 12, 0: 7}  # seat 1 called: it shows first; seat 0 kept 7 points
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert award.winners == [1] and award.amount == 9
    assert state.discards == [card("Journey")]


def test_nobody_called_so_another_round_of_fists():
    state = rigged([FIVE_SUITS, PAIR_OF_ACES, TURTLE], draws="Sea")
    state.apply(0, SetStake(chips=1))
    fists(state, s0=1, s1=1, s2=0)
    assert [d.seat for d in state.pending()] == [1]  # payers from the dealer's left
    state.apply(1, Discard(card=card("Huntress")))
    state.apply(0, DrawDiscard())  # takes the Huntress: everyone saw it
    assert card("Huntress") in state.hands[0] and card("Huntress") not in state.hidden_from(None)
    assert state.view(None).seats[0].known == [card("Huntress")]
    assert state.phase == "fists" and state.fist_round == 2
    assert [d.seat for d in state.pending()] == [0, 1]  # the folded seat 2 is out
    assert state.stake == 1  # fixed for the hand


def test_a_player_alone_after_the_reveal_takes_the_pot():
    state = rigged([FIVE_SUITS, PAIR_OF_ACES, TURTLE])
    state.carry = 2
    state.apply(0, SetStake(chips=3))
    fists(state, s0=0, s1=1, s2=0)
    assert state.awaiting_next_hand()
    assert state.stacks == [19, 19 - 3 + 3 + 3 + 2, 19] and state.pot == 0 and state.carry == 0


def test_when_everyone_folds_the_pot_stays_and_everyone_antes_again():
    state = rigged([FIVE_SUITS, PAIR_OF_ACES, TURTLE])
    state.apply(0, SetStake(chips=1))
    fists(state, s0=0, s1=0, s2=0)
    assert state.awaiting_next_hand() and state.carry == 3
    state.next_hand()
    assert state.dealer == 1 and state.pot + state.carry == 3 + 3
    assert [d.seat for d in state.pending()] == [1]  # the new dealer sets the stake


def test_payers_take_part_in_the_showdown_from_the_first_caller_on():
    state = rigged([PAIR_OF_ACES, FIVE_SUITS, TURTLE], draws="Cave")
    state.apply(0, SetStake(chips=1))
    events = fists(state, s0=1, s1=1, s2=2)
    assert state.pending()[0].seat == 1
    events = state.apply(1, DrawDeck()) + state.apply(0, DrawDeck())
    shown = [e.seat for e in events if e.kind == "revealed"]
    assert shown == [2, 0, 1]  # seat 2 is the only caller: it starts


def test_you_cannot_signal_chips_you_do_not_have():
    state = rigged([FIVE_SUITS, PAIR_OF_ACES, TURTLE], stacks=[20, 4, 20])
    state.apply(0, SetStake(chips=3))
    assert state.legal_actions(1) == [Fist(chips=0), Fist(chips=1)]  # 3 chips left after the ante


def test_timeout_defaults():
    state = rigged([FIVE_SUITS, PAIR_OF_ACES, TURTLE])
    assert state.default_action(0) == SetStake(chips=1)
    state.apply(0, SetStake(chips=1))
    assert state.default_action(1) == Fist(chips=0)
    fists(state, s0=1, s1=2, s2=0)
    assert state.default_action(0) == DrawDeck()


def test_leaving_when_everyone_folded_warns_that_the_pot_stays():
    state = rigged([FIVE_SUITS, PAIR_OF_ACES, TURTLE])
    state.apply(0, SetStake(chips=1))
    assert state.leave_warning(1) is None
    fists(state, s0=0, s1=0, s2=0)
    assert state.leave_warning(1) == (
        "The pot of 3 chips carried to the next hand stays at the table: you give up your share."
    )
