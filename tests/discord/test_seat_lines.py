"""The seat lines games share: a betting seat's marks in one order (bot/discord/poker.py) and a
points game's player line (bot/discord/points.py), the pointer on the seat to act."""

from types import SimpleNamespace

from bot.discord.points import player_line
from bot.games.lowball import SeatView as LowballSeat
from bot.games.lowball.ui import LowballUI
from bot.games.terrapin.western import SeatView as WesternSeat
from bot.games.terrapin.western.ui import WesternUI

NAMES = ["Ann", "Bob", "Cy"]


def lowball_seat(seat: int, **fields) -> LowballSeat:
    basics = dict(seated=True, stack=20, in_hand=True, folded=False, bet=0, cards=5, draws=[])
    return LowballSeat(seat=seat, **{**basics, **fields})


def test_a_betting_seat_is_marked_dealer_roles_status_game_marks_then_its_bet():
    view = SimpleNamespace(dealer=0, small_blind=0, big_blind=1, to_act=0)
    seat = lowball_seat(0, stack=0, draws=[2, 0], bet=1)
    line = LowballUI()._seat_line(view, seat, NAMES)
    assert line == "▶ **Ann** · 0 chips · 5 cards · dealer, small blind, all-in, drew 2, 0, bet 1"


def test_a_folded_seat_keeps_its_blind_and_shows_no_cards():
    view = SimpleNamespace(dealer=0, small_blind=0, big_blind=1, to_act=2)
    seat = lowball_seat(1, in_hand=False, folded=True, cards=0, bet=2)
    line = LowballUI()._seat_line(view, seat, NAMES)
    assert line == "**Bob** · 20 chips · big blind, folded, bet 2"


def test_a_western_seat_that_left_is_marked_left_before_standing():
    view = SimpleNamespace(dealer=1, to_act=None)
    fields = dict(stack=0, in_hand=False, folded=False, bet=0, cards=2, standing=True)
    seat = WesternSeat(seat=2, seated=False, **fields)
    assert WesternUI()._seat_line(view, seat, NAMES) == "**Cy** · 0 chips · 2 cards · left, stands"


def test_a_points_game_player_line_points_at_the_turn_and_names_the_dealer():
    line = player_line("Ann", ["5 cards", "3 points"], turn=True, dealer=True)
    assert line == "▶ **Ann** (dealer) · 5 cards · 3 points"
    assert player_line("Bob", ["not dealt"], turn=False, dealer=False) == "**Bob** · not dealt"
