"""Temptation Terrapin scripted hands. Three seats; seat 0 deals, so seat 1 buys first."""

from bot.cards.decktet import parse
from bot.engine import HandEnded
from bot.games.poker import PotAwarded
from bot.games.terrapin.temptation import TEMPTATION, Buy, Decline
from tests.poker_play import play

SHARED = "Ace of Moons, Huntress, Mountain"  # suits: Moons, Suns


def rigged(hands: list[str], draws: str = "", stacks=None):
    state = TEMPTATION.new_match(None, stacks or [20] * len(hands), seed=2)
    fixed, shared, top = [parse(h) for h in hands], parse(SHARED), parse(draws)
    used = {c for hand in fixed for c in hand} | set(shared) | set(top)
    state.hands, state.shared, state.set_aside = fixed, shared, []
    state.deck = [c for c in state.all_cards() if c not in used] + top[::-1]
    return state


def test_everyone_antes_three_and_gets_two_cards_and_three_shared():
    state = TEMPTATION.new_match(None, [10, 10, 10], seed=4)
    assert state.stacks == [7, 7, 7] and state.pot == 9
    assert [len(h) for h in state.hands] == [2, 2, 2] and len(state.shared) == 3
    assert state.pending()[0].seat == 1 and state.price == 1


def test_the_kth_round_costs_k_and_anyone_may_buy_again():
    state = rigged(
        ["Author, Journey", "Sailor, Soldier", "Bard, Sea"], draws="Cave, Mill, Castle, Pact"
    )
    play(state, (1, Buy()), (2, Decline()), (0, Decline()))  # round 1: seat 1 pays 1
    assert state.price == 2 and state.pending()[0].seat == 1
    play(state, (1, Decline()), (2, Buy()), (0, Buy()))  # round 2: seats 2 and 0 pay 2
    assert state.price == 3
    assert state.stacks == [17 - 2, 17 - 1, 17 - 2] and state.pot == 9 + 1 + 2 + 2
    assert [len(h) for h in state.hands] == [3, 3, 3]


def test_a_round_without_a_buyer_ends_the_buying_with_a_showdown():
    state = rigged(["Ace of Suns, Bard", "Author, Journey", "Sailor, Soldier"])
    events = play(state, (1, Decline()), (2, Decline()), (0, Decline()))
    shown = [e.seat for e in events if e.kind == "revealed"]
    assert shown == [1, 2, 0]  # everyone shows, from the dealer's left
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert award.winners == [0] and award.amount == 9  # two Aces + two Crowns = 10 beats 6
    assert state.stacks == [17 + 9, 17, 17] and isinstance(events[-1], HandEnded)


def test_buying_stops_when_the_deck_runs_out():
    state = rigged(["Author, Journey", "Sailor, Soldier", "Bard, Sea"], draws="Cave")
    state.deck = state.deck[-1:]
    events = play(state, (1, Buy()))
    assert state.awaiting_next_hand() and any(e.kind == "revealed" for e in events)


def test_a_player_who_cannot_pay_is_skipped():
    state = rigged(["Author, Journey", "Sailor, Soldier", "Bard, Sea"], draws="Cave, Mill, Castle")
    state.stacks[2] = 1
    play(state, (1, Buy()), (2, Buy()), (0, Buy()))  # seat 2 spends its last chip
    assert state.price == 2 and state.pending()[0].seat == 1
    play(state, (1, Buy()))
    assert state.pending()[0].seat == 0  # seat 2 has nothing left: skipped


def test_ties_split_and_all_turtle_butt_carries_the_pot():
    tied = rigged(["Ace of Suns, Ace of Waves", "Bard, Sea", "Sailor, Soldier"])
    events = play(tied, (1, Decline()), (2, Decline()), (0, Decline()))
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert sorted(award.winners) == [0, 1] and award.carried == 1 and tied.carry == 1
    turtles = rigged(["Sailor, Soldier", "Battle, Origin", "Merchant, Darkness"])
    play(turtles, (1, Decline()), (2, Decline()), (0, Decline()))
    assert turtles.carry == 9 and turtles.stacks == [17, 17, 17]
    turtles.next_hand()
    assert turtles.dealer == 1 and turtles.pot + turtles.carry == 9 + 9


def test_timeout_declines():
    state = rigged(["Author, Journey", "Sailor, Soldier", "Bard, Sea"])
    assert state.default_action(1) == Decline()


def test_leaving_after_an_all_turtle_butt_hand_warns_that_the_pot_stays():
    turtles = rigged(["Sailor, Soldier", "Battle, Origin", "Merchant, Darkness"])
    assert turtles.leave_warning(0) is None
    play(turtles, (1, Decline()), (2, Decline()), (0, Decline()))
    assert turtles.leave_warning(0) == (
        "The pot of 9 chips carried to the next hand stays at the table: you give up your share."
    )
    won = rigged(["Ace of Suns, Ace of Knots", "Sailor, Soldier", "Battle, Origin"])
    play(won, (1, Decline()), (2, Decline()), (0, Decline()))
    assert won.awaiting_next_hand() and won.carry == 0 and won.leave_warning(1) is None
