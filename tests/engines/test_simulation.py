"""`python -m bot simulate`: AI players play without Discord and the results are printed."""

import re
import subprocess
import sys

import pytest

from bot.simulation import main


def test_ai_against_random_players_prints_each_seats_chips(capsys):
    assert (
        main(["lowball", "--players", "3", "--hands", "20", "--seed", "1", "--policy", "random"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("Triple Draw Lowball: 20 matches, 20 hands, ")
    chips = [
        int(n.replace(",", ""))
        for n in re.findall(r"seat \d \((?:AI|random)\): ([+-][\d,]+) chips", out)
    ]
    assert len(chips) == 3 and sum(chips) == 0  # the chips one seat won, the others lost
    assert "seat 1 (AI)" in out and "seat 2 (random)" in out and "hands/s" in out


def test_a_points_game_prints_wins_and_a_bad_table_size_is_refused(capsys):
    assert main(["delphi", "--players", "3", "--hands", "1"]) == 0
    out = capsys.readouterr().out
    wins = [float(n) for n in re.findall(r"\(AI\): ([\d.]+) wins", out)]
    assert len(wins) == 3 and abs(sum(wins) - 1) < 0.02  # one match: one first place, shared
    assert main(["delphi", "--players", "9"]) == 2
    assert "3 to 7 players" in capsys.readouterr().out


@pytest.mark.slow
def test_python_dash_m_bot_simulate_runs_without_a_token(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot", "simulate", "backhand", "--hands", "3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Backhand: ")
