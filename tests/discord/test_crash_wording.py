"""Crash's lines agree with how many players they name: two players who share a win by
thirteen-card straights ("Two holders would share the win") reveal and win, in the plural."""

from bot.cards import parse_french
from bot.games.crash import CRASH, CrashOptions, RevealStraight, StraightRevealed
from bot.games.crash.ui import CrashUI

NAMES = ["Ann", "Bob", "Cy"]
STRAIGHT = "As Kh Qd Jc 10s 9h 8d 7c 6s 5h 4d 3c 2s"
OTHER_STRAIGHT = "Ah Kd Qc Js 10h 9d 8c 7s 6h 5d 4c 3s 2h"
NO_STRAIGHT = "Ad Ac Ks Kc Qs Qh Jh Jd 10d 10c 9s 9c 8s"


def revealed(hands: list[str]) -> StraightRevealed:
    """Deal `hands` (seat 0 deals, thirteen each in blocks from its left) and let seat 0
    reveal its straight: the event that says who won by one."""
    order = [card.code for seat in (1, 2, 0) for card in parse_french(hands[seat])]
    assert len(set(order)) == 39
    state = CRASH.new_match(CrashOptions(), [0, 0, 0], 1, stacked=[order])
    (event,) = [e for e in state.apply(0, RevealStraight()) if isinstance(e, StraightRevealed)]
    return event


def test_two_players_sharing_the_win_by_straights_reveal_and_win():
    event = revealed([STRAIGHT, NO_STRAIGHT, OTHER_STRAIGHT])
    assert event.seats == [0, 2]
    line = CrashUI().event_line(event, NAMES)
    assert line == "Ann and Cy reveal a thirteen-card straight and win the game!"


def test_one_player_reveals_and_wins():
    swapped = [NO_STRAIGHT.replace("8s", "2h"), OTHER_STRAIGHT.replace("2h", "8s")]
    event = revealed([STRAIGHT, *swapped])
    assert event.seats == [0]
    line = CrashUI().event_line(event, NAMES)
    assert line == "Ann reveals a thirteen-card straight and wins the game!"
