"""`python -m bot` stops with one sentence and status 2 when it cannot start."""

import asyncio
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import discord.http
import pytest
from aiohttp import web

import bot.__main__ as entry

ROOT = Path(__file__).resolve().parents[1]


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


def test_no_token_prints_one_sentence_and_exits_2(tmp_path):
    result = run_bot_process(tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN is not set" in lines[0] and ".env" in lines[0]


def test_invalid_setting_prints_one_sentence_and_exits_2(tmp_path):
    result = run_bot_process(tmp_path, DISCORD_TOKEN="x", STARTING_CHIPS="-1")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "STARTING_CHIPS" in result.stderr


@pytest.fixture
def discord_that_rejects_tokens():
    """A local HTTP server answering Discord's login call with 401, as Discord does."""

    async def unauthorized(_request: web.Request) -> web.Response:
        body = json.dumps({"message": "401: Unauthorized", "code": 0})
        return web.Response(status=401, text=body, content_type="application/json")

    loop = asyncio.new_event_loop()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", unauthorized)
    runner = web.AppRunner(app)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = site._server.sockets[0].getsockname()[1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}/api/v10"
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.run_until_complete(runner.cleanup())
    loop.close()


def test_rejected_token_prints_one_sentence_and_exits_2(
    discord_that_rejects_tokens, restore_logging, monkeypatch, tmp_path, capsys
):
    monkeypatch.setattr(discord.http.Route, "BASE", discord_that_rejects_tokens)
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
