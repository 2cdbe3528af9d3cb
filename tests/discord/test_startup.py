"""`python -m bot` stops with one sentence and status 2 when it cannot start."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot.__main__ as entry
from tests import ROOT


def run_bot_process(tmp_path: Path, **settings: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k.upper() not in ("DISCORD_TOKEN",)}
    env |= settings | {"PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_no_token_prints_one_sentence_and_exits_2(tmp_path):
    result = run_bot_process(tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN is not set" in lines[0] and ".env" in lines[0]


@pytest.mark.slow
def test_invalid_setting_prints_one_sentence_and_exits_2(tmp_path):
    result = run_bot_process(tmp_path, DISCORD_TOKEN="x", STARTING_CHIPS="-1")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "STARTING_CHIPS" in result.stderr


def test_rejected_token_prints_one_sentence_and_exits_2(
    fake_discord_in_a_thread, restore_logging, monkeypatch, tmp_path, capsys
):
    # The fake answers GET /users/@me with 401 for any token but its own, as Discord does.
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    monkeypatch.chdir(tmp_path)
    assert entry.main() == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines() == [
        "Discord rejected DISCORD_TOKEN: reset the token on your application's Bot page at "
        "https://discord.com/developers/applications and put the new one in .env."
    ]
