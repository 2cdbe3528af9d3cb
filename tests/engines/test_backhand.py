"""Backhand's engine (bot/games/backhand/) against its rules text (bot/games/backhand/rules.md),
with stacked decks: ace replacement (a replacement ace kept), the automatic deal to 12 (five
cards there win), hitting, busting, five cards, calling backhand, push hands (pushing away,
again, playing the push), bets and their caps, the house covering each hand (the win of every
bet held until the hand ends), wins-only matches, leaving, and the odds of a fixed policy: an
exact enumeration of the two-card start against the engine's frequencies over many seeded hands."""

import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from pydantic import ValidationError

from bot.engine import HandEnded, HandStarted, IllegalAction, MatchEnded
from bot.games.backhand import (
    BACKHAND,
    AcesReplaced,
    AutoDealt,
    BackhandCalled,
    BackhandOptions,
    BackhandState,
    Bet,
    CallBackhand,
    Dealt,
    Hit,
    MatchOver,
    PlayPush,
    PushAway,
    PushedAway,
    PushHandDealt,
    PushPlayed,
    Settled,
    StockRefilled,
    bet_ladder,
    card_value,
    house_cover,
    new_backhand,
)
from tests.conformance import check_game

# The rule text's numbers, copied here as data.
AUTO_DEAL_TO = 12
PUSH_TOTALS = range(17, 21)
BUST_OVER = 21


def new(*deals: str, seats: int = 1, stacks: list[int] | None = None, **options) -> BackhandState:
    """A match whose hands are dealt from these decks (card codes in the order they come
    off the stock: two rounds of the deal, then each player's draws in turn)."""
    stacked = [deal.split() for deal in deals]
    shoe = {card.code for card in BACKHAND.deck_for(seats)}
    assert all(set(deck) <= shoe for deck in stacked), "write cards by their codes: 10h, not Th"
    stacks = stacks if stacks is not None else [50] * seats
    return BACKHAND.new_match(BackhandOptions(**options), stacks, seed=7, stacked=stacked)


def codes(cards) -> str:
    return " ".join(card.code for card in cards)


def kinds(events) -> list[str]:
    return [event.kind for event in events]


def of(events, kind):
    return [event for event in events if isinstance(event, kind)]


def bet_all(state: BackhandState, chips: int) -> list:
    events = []
    for seat in list(state.players):
        events += state.apply(seat, Bet(chips=chips))
    return events


# ---- options and the house ---------------------------------------------------------------------


def test_the_minimum_bet_cannot_exceed_the_maximum():
    with pytest.raises(ValidationError, match="can't be more than the maximum bet"):
        BackhandOptions(min_bet=6, max_bet=5)
    assert BackhandOptions(min_bet=5, max_bet=5).max_bet == 5


def test_the_house_stakes_nothing_and_holds_each_bets_win_until_the_hand_ends():
    chips, wins = BackhandOptions(max_bet=20), BackhandOptions(mode="wins")
    assert house_cover(chips) == BACKHAND.cover_for(chips) == 20  # a table opens with that
    assert house_cover(wins) == 0
    assert BACKHAND.chips_for(chips) and not BACKHAND.chips_for(wins)
    state = new("Kc Kd Kh 5c 5d 5h 7s 2s 8s", seats=3, max_bet=20)
    assert state.house_bank() == 0 and state.chip_total() == 150
    state.apply(0, Bet(chips=20))
    state.apply(1, Bet(chips=3))
    assert state.house_bank() == 23 and state.chip_total() == 150 + 23  # brought from its balance
    state.apply(2, Bet(chips=20))
    state.apply(0, CallBackhand())  # 15 + 7: wins 20
    state.apply(1, CallBackhand())  # 15 + 2: loses 3
    events = state.apply(2, CallBackhand())  # 15 + 8: wins 20
    assert of(events, HandEnded)[0].house_chips == -37
    assert state.stacks == [70, 47, 70] and state.house_bank() == 0  # the rest went back
    assert state.chip_total() == 150 + 37


def test_one_pack_for_every_two_players_and_the_whole_shoe_reshuffled_each_hand():
    assert [len(BACKHAND.deck_for(seats)) for seats in (1, 2, 3, 5, 7)] == [52, 52, 104, 156, 208]
    state = new("Kc 5d 7s")
    state.apply(0, Bet(chips=1))
    state.apply(0, CallBackhand())
    assert state.awaiting_next_hand() and len(state.stock) == 52 - 3
    state.next_hand()
    assert len(state.stock) == 52 and state.hands[0].every_card() == []


# ---- the deal: aces, the automatic deal --------------------------------------------------------


def test_aces_on_the_first_two_cards_are_replaced_and_a_replacement_ace_is_kept():
    state = new("As 7h Ad 4c")
    events = state.apply(0, Bet(chips=5))
    (replaced,) = of(events, AcesReplaced)
    assert codes(replaced.aces) == "As" and codes(replaced.replacements) == "Ad"
    hand = state.hands[0]
    assert codes(hand.cards) == "Ad 7h 4c" and codes(hand.discarded) == "As"
    assert hand.total == 12  # the kept ace counts 1: 1 + 7, dealt up to 12 with the 4
    assert of(events, AutoDealt)[0].total == 12
    assert state.legal_actions(0) == [Hit(), CallBackhand()]


def test_two_aces_are_both_replaced_in_the_order_of_the_cards():
    state = new("As Ah 9c Kd")
    state.apply(0, Bet(chips=5))
    assert codes(state.hands[0].cards) == "9c Kd" and codes(state.hands[0].discarded) == "As Ah"
    assert state.hands[0].total == 19 and state.hands[0].push  # the replaced hand is a push


def test_a_hand_of_11_or_less_is_dealt_cards_until_12():
    state = new("2c 3d 4h 9s")
    events = state.apply(0, Bet(chips=5))
    (dealt,) = of(events, AutoDealt)
    assert codes(dealt.cards) == "4h 9s" and dealt.total == 18 >= AUTO_DEAL_TO
    assert not state.hands[0].push  # 17-20 only counts on the first two cards
    assert state.legal_actions(0) == [Hit(), CallBackhand()]


def test_five_cards_reached_by_the_automatic_deal_win():
    state = new("2c 3d 4h 2s 5c")
    events = state.apply(0, Bet(chips=5))
    assert kinds(events) == [
        "bet_placed",
        "dealt",
        "auto_dealt",
        "settled",
        "hand_ended",
    ]
    assert of(events, Settled)[0].outcome == "five_cards"
    assert of(events, HandEnded)[0].net_chips == [5] and state.stacks == [55]


def test_two_players_are_dealt_in_turn_and_aces_are_replaced_when_their_turn_comes():
    state = new("Kc As 5h 8s 9c 2d 4d", seats=2)
    events = bet_all(state, 5)
    dealt = of(events, Dealt)[0].cards
    assert codes(dealt[0]) == "Kc 5h" and codes(dealt[1]) == "As 8s"
    assert codes(state.hands[1].cards) == "As 8s"  # not replaced before seat 1 plays
    events = state.apply(0, Hit())
    assert of(events, Settled)[0].outcome == "bust"  # 15 + 9
    (replaced,) = of(events, AcesReplaced)
    assert replaced.seat == 1 and codes(replaced.replacements) == "2d"
    assert codes(state.hands[1].cards) == "2d 8s 4d" and state.turn == 1


# ---- hit, bust, five cards, backhand --------------------------------------------------------


def test_hitting_over_21_busts_and_loses_the_bet_to_the_house():
    state = new("Kc 5d 4h 9s")
    state.apply(0, Bet(chips=5))
    events = state.apply(0, Hit())
    assert of(events, Settled) == [] and state.hands[0].total == 19  # may hit again
    events = state.apply(0, Hit())
    assert of(events, Settled) == [Settled(seat=0, outcome="bust", chips=-5)]
    assert state.hands[0].final == 28 > BUST_OVER
    ended = of(events, HandEnded)[0]
    assert ended.net_chips == [-5] and ended.house_chips == 5 and ended.winners == []
    assert state.stacks == [45] and state.bank == 0  # the house took its hold and the bet


def test_hitting_to_five_cards_without_busting_wins():
    state = new("2c 3d 4h 3s 2h")
    state.apply(0, Bet(chips=5))
    assert len(state.hands[0].cards) == 4 and state.hands[0].total == 12
    events = state.apply(0, Hit())
    assert of(events, Settled)[0].outcome == "five_cards"
    assert state.hands[0].final == 14 and state.stacks == [55] and state.bank == 0


def test_calling_backhand_wins_when_the_card_would_bust():
    state = new("Kc 5d 7s")
    state.apply(0, Bet(chips=5))
    events = state.apply(0, CallBackhand())
    assert of(events, BackhandCalled)[0].total == 15
    assert of(events, Settled)[0].outcome == "backhand_won"
    hand = state.hands[0]
    assert codes(hand.cards) == "Kc 5d" and hand.backhand.code == "7s"  # not added to the hand
    assert state.stacks == [55] and of(events, HandEnded)[0].house_chips == -5


def test_calling_backhand_loses_when_the_card_would_not_bust():
    state = new("Kc 5d 6s")
    state.apply(0, Bet(chips=5))
    events = state.apply(0, CallBackhand())
    assert of(events, Settled)[0].outcome == "backhand_lost"  # 15 + 6 = 21 is no bust
    assert state.stacks == [45] and of(events, HandEnded)[0].house_chips == 5


def test_backhand_on_21_always_wins():
    state = new("Kc 4d 7h Ac")
    state.apply(0, Bet(chips=5))
    state.apply(0, Hit())
    assert state.hands[0].total == 21
    events = state.apply(0, CallBackhand())
    assert of(events, Settled)[0].outcome == "backhand_won"  # even an ace takes 21 to 22


# ---- push hands -------------------------------------------------------------------------------


@pytest.mark.parametrize("second", ["7d", "8d", "9d", "Kd"])
def test_17_to_20_on_the_first_two_cards_is_a_push_hand_without_backhand(second):
    state = new(f"Kc {second}")
    events = state.apply(0, Bet(chips=5))
    assert of(events, PushHandDealt)[0].total in PUSH_TOTALS
    assert state.legal_actions(0) == [PushAway(), PlayPush()]
    for refused in (Hit(), CallBackhand()):
        with pytest.raises(IllegalAction, match="push hand: push it away or play the push"):
            state.apply(0, refused)


def test_16_is_no_push_hand_and_cannot_be_pushed():
    state = new("Kc 6d")
    state.apply(0, Bet(chips=5))
    for refused in (PushAway(), PlayPush()):
        with pytest.raises(IllegalAction, match="Only a push hand"):
            state.apply(0, refused)


def test_pushing_away_deals_two_new_cards_and_a_second_push_may_be_pushed_again():
    state = new("Kc 8d Qs 9c As 5h 6c 10h")
    state.apply(0, Bet(chips=5))
    events = state.apply(0, PushAway())
    (pushed,) = of(events, PushedAway)
    assert codes(pushed.discarded) == "Kc 8d" and codes(pushed.cards) == "Qs 9c"
    assert state.hands[0].push and of(events, PushHandDealt)[0].total == 19
    events = state.apply(0, PushAway())
    assert codes(of(events, AcesReplaced)[0].aces) == "As"  # aces replaced as usual
    assert codes(state.hands[0].cards) == "6c 5h 10h" and state.hands[0].total == 21
    assert codes(state.hands[0].discarded) == "Kc 8d Qs 9c As"
    assert state.legal_actions(0) == [Hit(), CallBackhand()]
    state.apply(0, CallBackhand())
    assert state.hands[0].outcome == "backhand_won" and state.stacks == [55]


def test_playing_the_push_wins_with_21_or_less():
    state = new("Kc 8d 3h")
    state.apply(0, Bet(chips=5))
    events = state.apply(0, PlayPush())
    assert of(events, PushPlayed)[0].total == 21
    assert of(events, Settled)[0].outcome == "push_won" and state.stacks == [55]


def test_playing_the_push_loses_when_the_card_busts():
    state = new("Kc 8d 4h")
    state.apply(0, Bet(chips=5))
    events = state.apply(0, PlayPush())
    assert of(events, Settled)[0].outcome == "push_lost" and state.stacks == [45]


# ---- bets ---------------------------------------------------------------------------------------


WIN_BOTH = "Kc Kd 5c 5d 7s 8s"  # seats 0 and 1 on 15 each; both backhand cards bust


def test_bets_between_the_minimum_and_the_maximum_by_button_or_in_words():
    state = new(min_bet=2, max_bet=10)
    decision = state.pending()[0]
    assert decision.kind == "bet" and decision.text_question == "Your bet (2 to 10 chips)"
    assert [action.chips for action in state.legal_actions(0)] == [2, 5, 10]
    for refused in (1, 11, 0, -3):
        with pytest.raises(IllegalAction, match="Bet from 2 to 10 chips"):
            state.apply(0, Bet(chips=refused))
    assert state.text_action(0, " 7 chips ") == Bet(chips=7)
    for words in ("seven", "", "7.5", "x" * 300):
        with pytest.raises(IllegalAction, match="number of chips"):
            state.text_action(0, words)
    with pytest.raises(IllegalAction, match="Bet from 2 to 10"):
        state.text_action(0, "123")
    state.apply(0, state.text_action(0, "7"))
    assert state.stacks == [43] and state.chip_total() == 43 + 7 + 7  # the house holds 7


def test_bets_are_placed_together_and_the_cards_come_once_everyone_has_bet():
    state = new(WIN_BOTH, seats=2)
    assert [d.seat for d in state.pending()] == [0, 1]
    state.apply(1, Bet(chips=3))
    assert [d.seat for d in state.pending()] == [0] and state.phase == "betting"
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, Bet(chips=4))
    events = state.apply(0, Bet(chips=4))
    assert "dealt" in kinds(events) and state.turn == 0


def test_the_ladder_offers_the_minimum_round_steps_the_last_bet_and_the_maximum():
    assert bet_ladder(1, 10, 0) == [1, 2, 5, 10]
    assert bet_ladder(1, 1000, 0) == [1, 5, 20, 200, 1000]
    assert bet_ladder(1, 1000, 37) == [1, 10, 37, 100, 1000]
    assert bet_ladder(3, 3, 3) == [3]


def test_a_bet_is_capped_by_the_stack():
    state = new(seats=2, stacks=[6, 100])
    assert [hand.cap for hand in state.hands] == [6, 10]
    with pytest.raises(IllegalAction, match="at most 6 chips: that is all you have"):
        state.apply(0, Bet(chips=7))


def test_after_the_house_has_paid_wins_the_tables_maximum_still_holds():
    """The issue's example: at a 1-10 table whose house has paid out, a player may still bet
    10, hand after hand; the engine asks the house for each bet's win (the runtime refuses a
    bet the house's balance can't cover)."""
    state = new(WIN_BOTH, WIN_BOTH, WIN_BOTH, seats=2, min_bet=1, max_bet=10)
    for _ in range(3):
        assert [state.hands[seat].cap for seat in (0, 1)] == [10, 10]
        bet_all(state, 10)
        assert state.house_bank() == 20
        state.apply(0, CallBackhand())
        events = state.apply(1, CallBackhand())
        assert of(events, HandEnded)[0].house_chips == -20 and state.house_bank() == 0
        assert of(events, MatchOver) == [] and not state.is_over()
        state.next_hand()
    assert state.stacks == [80, 80] and state.phase == "betting"


def test_a_bet_the_house_cannot_cover_ends_the_match_with_the_bets_given_back():
    state = new(WIN_BOTH, seats=2, max_bet=10)
    state.apply(0, Bet(chips=10))
    events = state.house_cannot_cover("The house has 3 chips and can't cover the bet.")
    assert events == [MatchOver(reason="The house has 3 chips and can't cover the bet.")]
    assert state.is_over() and state.stacks == [50, 50] and state.hands[0].bet is None
    assert state.house_bank() == 10  # seat 0's hold: the runtime gives it back
    assert state.chip_total() == 100 + 10 and state.cash_out() == [50, 50]


def test_a_match_nobody_can_bet_in_ends_at_once_with_its_reason():
    state = new(stacks=[4], min_bet=5, max_bet=10)
    assert state.is_over() and "minimum bet of 5" in state.ended
    assert state.cash_out() == [4] and state.house_bank() == 0


def test_a_player_short_of_the_minimum_sits_out_and_may_leave_at_once():
    state = new(WIN_BOTH, seats=2, stacks=[50, 3], min_bet=5)
    assert state.players == [0] and state.hands[0].cap == 10
    assert state.can_leave_now(1) and not state.can_leave_now(0)
    assert state.leave(1) == 3 and not state.seated[1]
    with pytest.raises(IllegalAction, match="between hands"):
        state.leave(0)


# ---- wins only, leaving, the hand limit -----------------------------------------------------


def test_wins_only_the_first_to_the_target_wins_the_match():
    state = new("Kc 5d 7s", "Kc 5d 6s", "Kc 5d 8s", mode="wins", target=2, stacks=[0])
    assert state.phase == "play" and state.chip_total() == 0  # no bets, no bank
    state.apply(0, CallBackhand())
    state.next_hand()
    state.apply(0, CallBackhand())  # lost
    assert state.wins == [1] and not state.is_over()
    state.next_hand()
    events = state.apply(0, CallBackhand())
    assert events[-1] == MatchEnded(placings=[1], scores=[2]) and state.is_over()
    assert of(events, HandEnded)[0].house_chips == 0


def test_wins_only_two_players_reaching_the_target_in_one_hand_share_first_place():
    # Two packs for three players: seats 0 and 2 call backhand and bust, seat 1 doesn't.
    state = new("Kc Kd Kh 5c 5d 5h 7s 2s 8s", seats=3, mode="wins", target=1, stacks=[0] * 3)
    for seat in range(3):
        events = state.apply(seat, CallBackhand())
    assert events[-1] == MatchEnded(placings=[1, 3, 1], scores=[1, 0, 1])


def test_wins_only_a_player_who_leaves_places_after_those_who_stay():
    state = new("Kc Kd 5c 5d 7s 2s", seats=2, mode="wins", target=3, stacks=[0, 0])
    state.apply(0, CallBackhand())
    state.apply(1, CallBackhand())
    assert state.wins == [1, 0]
    assert state.leave(0) == 0 and state.final_standings() == MatchEnded(
        placings=[2, 1], scores=[1, 0]
    )
    with pytest.raises(IllegalAction, match="already left"):
        state.leave(0)
    state.next_hand()
    assert state.players == [1] and state.hands[0].cards == []


def test_leaving_between_hands_takes_the_stack_and_the_table_goes_on():
    state = new(WIN_BOTH, seats=2)
    bet_all(state, 5)
    with pytest.raises(IllegalAction, match="between hands"):
        state.leave(1)
    state.apply(0, CallBackhand())
    state.apply(1, CallBackhand())
    assert state.leave(1) == 55 and state.chip_total() == 55  # the house holds nothing now
    events = state.next_hand()
    assert isinstance(events[0], HandStarted) and state.players == [0]
    assert state.hands[0].cap == 10
    state.apply(0, Bet(chips=1))
    assert state.leave_warning(0) is None


def test_everyone_leaving_ends_the_match():
    state = new("Kc Kd 5c 5d 7s 2s", seats=2, mode="wins", stacks=[0, 0])
    state.apply(0, CallBackhand())
    state.apply(1, CallBackhand())
    state.leave(0)
    assert not state.is_over()
    state.leave(1)
    assert state.is_over() and state.ended == "Everyone has left the table."


def test_a_hand_limit_ends_the_match():
    state = new("Kc 5d 7s", "Kc 5d 7s", mode="wins", target=5, hand_limit=2, stacks=[0])
    state.apply(0, CallBackhand())
    state.next_hand()
    events = state.apply(0, CallBackhand())
    assert events[-2] == MatchOver(reason="That was hand 2 of 2, the last.")
    assert events[-1] == MatchEnded(placings=[1], scores=[2])


# ---- defaults, views, the stock, cashing out ---------------------------------------------------


def test_timeouts_bet_the_minimum_push_away_and_otherwise_call_backhand():
    state = new("Kc 8d Kd 5c", min_bet=3)
    assert state.default_action(0) == Bet(chips=3)
    state.apply(0, state.default_action(0))
    assert state.default_action(0) == PushAway()
    state.apply(0, state.default_action(0))
    assert state.hands[0].total == 15 and state.default_action(0) == CallBackhand()


def test_every_card_is_face_up_only_the_stock_is_hidden():
    state = new("Kc 5d 7s", seats=2)
    bet_all(state, 5)
    stock = set(state.stock)
    assert state.hidden_from(None) == stock == state.hidden_from(1)
    public = state.view(None).model_dump()
    for seat in range(2):
        assert state.view(seat).seat == seat
        assert {**state.view(seat).model_dump(), "seat": None} == public
    assert codes(state.view(None).players[0].cards) == codes(state.hands[0].cards)


def test_a_stock_running_low_is_refilled_from_the_cards_out_of_play():
    state = new("Kc 5d 2h", mode="wins", stacks=[0])
    hand = state.hands[0]
    hand.discarded, state.stock = state.stock[:-3], state.stock[-3:]  # as after many pushes
    before = Counter(state.all_cards())
    events = state.apply(0, Hit())
    assert events[0] == StockRefilled(cards=47)
    assert hand.discarded == [] and len(state.stock) == 49
    assert Counter(state.all_cards()) == before and hand.total == 15 + card_value(hand.cards[-1])


def test_cashing_out_mid_hand_gives_bets_back_and_leaves_the_houses_hold():
    state = new(WIN_BOTH, seats=2)
    bet_all(state, 5)
    assert state.chip_total() == 45 + 45 + 10 + 10
    assert state.cash_out() == [50, 50]
    assert state.chip_total() == state.house_bank() == 10 and state.is_over()


def test_chips_are_conserved_and_the_houses_report_is_what_it_won():
    """Players' chips change only by what the house reports it paid or won; the house holds
    every bet's win while the hand is played, and nothing between hands."""
    chooser = random.Random(3)
    for seed in range(12):
        seats = seed % 7 + 1
        stacks = [chooser.randint(5, 60) for _ in range(seats)]
        state = BACKHAND.new_match(BackhandOptions(max_bet=8), stacks, seed)
        players, left = sum(stacks), 0
        for _ in range(400):
            if state.is_over():
                break
            if state.awaiting_next_hand():
                if chooser.random() < 0.1:
                    left += state.leave(
                        chooser.choice([s for s in range(seats) if state.seated[s]])
                    )
                else:
                    state.next_hand()
                continue
            seat = state.pending()[0].seat
            events = state.apply(seat, state.sample(seat, chooser))
            players -= sum(e.house_chips for e in events if isinstance(e, HandEnded))
            assert sum(state.stacks) + state.in_play() + left == players
            assert state.chip_total() == sum(state.stacks) + state.in_play() + state.bank
            assert state.house_bank() == (state.in_play() if state.in_hand() else 0)
        payouts = state.cash_out()
        assert sum(payouts) + left == players


class KeepsItsHold(BackhandState):
    """Broken on purpose: the house's hold stays at the table after the hand."""

    def end_hand(self) -> list:
        hold = self.bank
        events = super().end_hand()
        self.bank = hold
        return events


def test_the_conformance_test_catches_a_house_that_keeps_its_hold_between_hands():
    def create(options, stacks, rng):
        state, events = new_backhand(options, stacks, rng)
        return KeepsItsHold.model_validate_json(state.snapshot()), events

    spec = BACKHAND.model_copy(update={"state_model": KeepsItsHold, "create": create})
    with pytest.raises(AssertionError, match=r"the house holds [0-9]+ between hands"):
        check_game(spec, seeds=2)


# ---- the odds of a fixed policy: exact against simulated ------------------------------------

ONE_PACK = (4,) * 9 + (16,)  # how many cards of each value 1 (ace) ... 10 (10, J, Q, K)


def draws(counts: tuple[int, ...]):
    """(value, probability, the counts left) for each value the next card may have."""
    left = sum(counts)
    for index, count in enumerate(counts):
        if count:
            rest = (*counts[:index], count - 1, *counts[index + 1 :])
            yield index + 1, Fraction(count, left), rest


def after_replacing(value: int, counts: tuple[int, ...]):
    """An ace among the first two cards is replaced by the next card, which stays."""
    if value == 1:
        yield from draws(counts)
    else:
        yield value, Fraction(1), counts


@cache
def backhand_at_once(counts: tuple[int, ...], total: int, cards: int) -> Fraction:
    """P(win) dealt up to 12 (five cards win), then calling backhand."""
    if total < AUTO_DEAL_TO and cards < 5:
        return sum(
            (
                p * backhand_at_once(rest, total + value, cards + 1)
                for value, p, rest in draws(counts)
            ),
            Fraction(0),
        )
    if cards == 5:
        return Fraction(1)
    return sum((p for value, p, _ in draws(counts) if total + value > BUST_OVER), Fraction(0))


def exact_odds() -> tuple[Fraction, Fraction]:
    """One player, one pack: P(a push hand on the first two cards) and P(win) when calling
    backhand at once and playing every push."""
    push = win = Fraction(0)
    for first, p1, rest1 in draws(ONE_PACK):
        for second, p2, rest2 in draws(rest1):
            for a, p3, rest3 in after_replacing(first, rest2):
                for b, p4, rest4 in after_replacing(second, rest3):
                    chance, total = p1 * p2 * p3 * p4, a + b
                    if total in PUSH_TOTALS:
                        push += chance
                        safe = (p for value, p, _ in draws(rest4) if total + value <= BUST_OVER)
                        win += chance * sum(safe, Fraction(0))
                    else:
                        win += chance * backhand_at_once(rest4, total, 2)
    return push, win


def test_the_exact_odds_of_the_start():
    push, win = exact_odds()
    assert 0 < push < 1 and 0 < win < 1
    assert round(float(push), 4) == 0.2934 and round(float(win), 4) == 0.4296


def test_the_engines_frequencies_match_the_exact_odds():
    hands = 8000
    pushes = wins = 0
    options = BackhandOptions(mode="wins", target=50)
    for seed in range(hands):
        state = BACKHAND.new_match(options, [0], seed)
        pushes += state.hands[0].push
        while state.phase == "play":
            state.apply(0, PlayPush() if state.hands[0].push else CallBackhand())
        wins += state.hands[0].won
    for observed, exact in ((pushes, exact_odds()[0]), (wins, exact_odds()[1])):
        p = float(exact)
        error = (p * (1 - p) / hands) ** 0.5
        assert abs(observed / hands - p) < 4 * error, (observed / hands, p)
