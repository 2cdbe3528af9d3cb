"""The pages' signed links (bot/web/links.py) and the settings that make them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl, urlsplit

import pytest
from pydantic import SecretStr

from bot.settings import Settings, SettingsError, load_settings
from bot.web import links_of
from bot.web.links import LIFETIME, Links, SignedPage

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
LINKS = Links(b"k" * 32, "https://cards.example.org/")


def parts(url: str) -> tuple[str, dict[str, str]]:
    split = urlsplit(url)
    return split.path, dict(parse_qsl(split.query))


def test_a_link_opens_its_page_in_its_language_until_a_week_has_passed():
    url = LINKS.url(42, "/member/7", "es", NOW)
    assert url.startswith("https://cards.example.org/42/member/7?l=es&x=")
    path, query = parts(url)
    expires = int((NOW + LIFETIME).timestamp())
    assert LINKS.check(path, query, NOW) == SignedPage(42, "/member/7", "es", expires)
    assert LINKS.check(path, query, NOW + LIFETIME - timedelta(seconds=1)) is not None
    assert LINKS.check(path, query, NOW + LIFETIME) is None


def test_any_change_to_a_link_voids_it():
    path, query = parts(LINKS.url(42, "/table/3", "en", NOW))
    changed = [
        ("/43/table/3", query),
        ("/42/table/4", query),
        ("/42/hand/3/1", query),
        (path, {**query, "l": "fr"}),
        (path, {**query, "x": str(int(query["x"]) + 1)}),
        (path, {**query, "s": query["s"][:-1] + ("A" if query["s"][-1] != "A" else "B")}),
        (path, {"l": query["l"], "x": query["x"]}),
        (path, {**query, "extra": "1"}),
    ]
    for changed_path, changed_query in changed:
        assert LINKS.check(changed_path, changed_query, NOW) is None, (changed_path, changed_query)
    other_secret = Links(b"j" * 32, "https://cards.example.org")
    assert other_secret.check(path, query, NOW) is None


def test_a_link_between_pages_keeps_the_expiry_of_the_one_that_opened_it():
    path, query = parts(LINKS.url(42, "/board/chips", "de", NOW))
    opened = LINKS.check(path, query, NOW)
    assert opened is not None
    later = LINKS.path(SignedPage(42, "/member/9", "de", opened.expires))
    assert f"x={opened.expires}" in later
    assert LINKS.check(*parts(later), NOW) == SignedPage(42, "/member/9", "de", opened.expires)


def test_pages_are_off_without_web_port_and_signed_with_the_secret_or_the_token():
    assert links_of(Settings(_env_file=None, discord_token=SecretStr("token"))) is None
    by_token = links_of(Settings(_env_file=None, discord_token=SecretStr("token"), web_port=80))
    other_token = links_of(Settings(_env_file=None, discord_token=SecretStr("other"), web_port=80))
    assert by_token is not None and other_token is not None
    assert by_token.public_url == "http://localhost:80"
    assert by_token.secret != other_token.secret and b"token" not in by_token.secret
    chosen = links_of(
        Settings(
            _env_file=None,
            discord_token=SecretStr("token"),
            web_port=80,
            web_secret=SecretStr("s" * 20),
            public_url="https://cards.example.org",
        )
    )
    assert chosen is not None and chosen.secret == b"s" * 20
    with pytest.raises(SettingsError, match="set WEB_SECRET"):
        links_of(Settings(_env_file=None, web_port=80))


def test_bad_web_settings_are_one_sentence(monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", "cards.example.org")
    monkeypatch.setenv("WEB_SECRET", "short")
    with pytest.raises(SettingsError) as refused:
        load_settings(env_file=None)
    message = str(refused.value)
    assert "PUBLIC_URL should be the pages' address, like https://cards.example.org" in message
    assert "WEB_SECRET should be at least 16 characters long" in message
    assert "short" not in message  # a secret is never echoed back
