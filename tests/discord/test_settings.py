import re
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings, require_token
from tests import ROOT

NAMES = [name.upper() for name in Settings.model_fields]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults_without_any_setting():
    settings = load_settings(env_file=None)
    assert settings.discord_token is None
    assert settings.database_path == Path("data/cardtable.sqlite3")
    assert settings.dev_guild_id is None
    assert (settings.starting_chips, settings.daily_chips) == (1000, 100)
    assert settings.turn_timeout_seconds == 120 and settings.log_level == "INFO"
    assert settings.durability == "full"


def test_reads_env_file_and_the_environment_wins(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nSTARTING_CHIPS=500\nlog_level=debug\n")
    monkeypatch.setenv("STARTING_CHIPS", "700")
    settings = load_settings()
    assert require_token(settings) == "abc"
    assert settings.starting_chips == 700 and settings.log_level == "DEBUG"


def test_empty_values_fall_back_to_defaults(tmp_path):
    (tmp_path / ".env").write_text((ROOT / ".env.example").read_text())
    settings = load_settings()
    assert settings.dev_guild_id is None
    with pytest.raises(SettingsError, match="DISCORD_TOKEN is not set"):
        require_token(settings)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("STARTING_CHIPS", "-5"),
        ("DAILY_CHIPS", "lots"),
        ("TURN_TIMEOUT_SECONDS", "5"),
        ("LOG_LEVEL", "loud"),
        ("DEV_GUILD_ID", "0"),
        ("DURABILITY", "fast"),
    ],
)
def test_an_invalid_value_is_named_in_one_sentence(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as raised:
        load_settings(env_file=None)
    message = str(raised.value)
    assert name in message and repr(value) in message
    assert "\n" not in message and message.endswith(".")


def test_missing_token_message_says_how_to_get_one():
    with pytest.raises(SettingsError) as raised:
        require_token(load_settings(env_file=None))
    message = str(raised.value)
    assert "DISCORD_TOKEN" in message and "discord.com/developers/applications" in message


def test_env_example_and_readme_list_every_setting():
    example = re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M)
    readme_table = re.findall(r"^\| `([A-Z_]+)` \|", (ROOT / "README.md").read_text(), re.M)
    assert example == NAMES
    assert readme_table == NAMES
