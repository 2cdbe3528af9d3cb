"""`python -m bot` stops with one sentence and status 2 when it cannot start."""

import asyncio
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


HOLD_THE_FILE = """
import asyncio, sys
from bot.store import SQLiteDatabase

async def main():
    await SQLiteDatabase.open(sys.argv[1])
    print("open", flush=True)
    sys.stdin.readline()

asyncio.run(main())
"""


@pytest.fixture
def another_process_on(tmp_path):
    """Opens the SQLite file at the path it is given in a process of its own, and holds it;
    None if that process could not open it."""
    processes = []

    def hold(path: Path) -> subprocess.Popen | None:
        process = subprocess.Popen(
            [sys.executable, "-c", HOLD_THE_FILE, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        processes.append(process)
        assert process.stdout is not None
        return process if process.stdout.readline().strip() == "open" else None

    yield hold
    for process in processes:
        process.kill()
        process.wait(10)


@pytest.mark.slow  # a process started and killed
async def test_a_sqlite_file_serves_one_process_and_is_free_once_that_one_is_killed(
    tmp_path, another_process_on
):
    from bot.store import DatabaseUnavailable, SQLiteDatabase

    path = tmp_path / "cardtable.sqlite3"
    holder = another_process_on(path)
    assert holder is not None
    with pytest.raises(DatabaseUnavailable, match="Another process is using the SQLite database"):
        await SQLiteDatabase.open(path)
    holder.kill()  # kill -9: nothing of it runs, the system drops its lock
    holder.wait(10)
    first = await SQLiteDatabase.open(path)
    second = await SQLiteDatabase.open(path)  # the same process may open it again
    await first.close()
    # The second still holds it for this process; once it closes, another process may open it.
    assert await asyncio.to_thread(another_process_on, path) is None
    await second.close()
    assert await asyncio.to_thread(another_process_on, path) is not None


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"DATABASE_PATH": "held.sqlite3"}, "Another process is using the SQLite database"),
        (
            {"DATABASE_URL": "postgresql://postgres@127.0.0.1:1/test"},
            "Could not connect to the PostgreSQL server at DATABASE_URL",
        ),
    ],
)
def test_a_database_the_bot_cannot_use_stops_it_with_one_sentence(
    fake_discord_in_a_thread,
    restore_logging,
    monkeypatch,
    tmp_path,
    capsys,
    another_process_on,
    settings,
    named,
):
    another_process_on(tmp_path / "held.sqlite3")
    monkeypatch.setenv("DISCORD_TOKEN", fake_discord_in_a_thread.token)
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    assert entry.main() == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert line.startswith(named) and line.endswith(".")


def test_a_postgresql_database_that_does_not_exist_stops_the_bot_with_one_sentence(
    fake_discord_in_a_thread, restore_logging, monkeypatch, tmp_path, capsys, postgres_server
):
    missing = postgres_server.url.rsplit("/", 1)[0] + "/no_such_cardtable_database"
    monkeypatch.setenv("DISCORD_TOKEN", fake_discord_in_a_thread.token)
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    monkeypatch.setenv("DATABASE_URL", missing)
    monkeypatch.chdir(tmp_path)
    assert entry.main() == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "DATABASE_URL" in line and "no_such_cardtable_database" in line
