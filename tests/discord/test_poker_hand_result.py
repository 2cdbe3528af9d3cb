"""The end-of-hand result of the poker games (issue 39): each player's net for the hand, as
Backhand says it, with the pot they took where they took one: "Won: carol +4 chips (took the
pot of 6)". Lowball's is checked end to end in tests/discord/test_lowball_e2e.py."""

from types import SimpleNamespace

from bot.discord.poker import result_lines
from bot.games.betting import Bet, Fold
from bot.games.terrapin.western.ui import WesternUI
from tests.engines.test_western import SIXES, TENS, TURTLE, rigged
from tests.poker_play import play

NAMES = ["alice", "bob", "carol"]


def test_the_winner_shows_the_net_and_the_pot_taken_and_the_losers_their_net():
    assert result_lines([0, 0, 6], [-2, -2, 4], 0, NAMES) == [
        "Won: carol +4 chips (took the pot of 6)",
        "Lost: alice -2 chips, bob -2 chips",
    ]


def test_a_split_pot_and_side_pots_show_the_share_each_took():
    assert result_lines([3, 3, 0], [1, 1, -2], 0, NAMES) == [
        "Won: alice +1 chip (took 3 of the pot of 6), bob +1 chip (took 3 of the pot of 6)",
        "Lost: carol -2 chips",
    ]
    # tests/engines/test_lowball.py's side pots: bob's all-in wins the main pot, alice the side pot.
    assert result_lines([20, 12, 0], [6, 8, -14], 0, NAMES) == [
        "Won: bob +8 chips (took 12 of the pot of 32), alice +6 chips (took 20 of the pot of 32)",
        "Lost: carol -14 chips",
    ]
    # A side pot smaller than what its winner put in: a net loss all the same.
    assert result_lines([0, 4, 9], [-4, -2, 6], 0, NAMES)[1] == (
        "Lost: alice -4 chips, bob -2 chips (took 4 of the pot of 13)"
    )


def test_chips_back_to_even_and_a_pot_nobody_won():
    assert result_lines([3, 3], [0, 0], 0, NAMES) == [
        "Won: alice ±0 chips (took 3 of the pot of 6), bob ±0 chips (took 3 of the pot of 6)"
    ]
    assert result_lines([0, 0, 0], [-1, -1, -1], 3, NAMES) == [
        "Won: nobody · 3 chips stay in the pot",
        "Lost: alice -1 chip, bob -1 chip, carol -1 chip",
    ]


def test_a_western_hand_result_shows_each_players_net():
    state = rigged([TENS, SIXES, TURTLE])  # everyone antes 1
    play(state, (1, Bet(amount=1)), (2, Fold()), (0, Fold()))
    summary = WesternUI().hand_summary(SimpleNamespace(id=7), state.view(None), NAMES)
    assert summary.description.splitlines()[-2:] == [
        "Won: bob +2 chips (took the pot of 4)",
        "Lost: alice -1 chip, carol -1 chip",
    ]
