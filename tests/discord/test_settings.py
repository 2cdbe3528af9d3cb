import re
from pathlib import Path

import pytest
from pydantic import ValidationError

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
    assert settings.shard_count is None and settings.shard_ids is None


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


POSTGRES = "postgresql://bot:secret@db.example/cardtable"


@pytest.mark.parametrize(
    ("written", "shards"),
    [("0-3,8", (0, 1, 2, 3, 8)), (" 1 , 2 ", (1, 2)), ("9", (9,)), ("8, 0 - 1", (0, 1, 8))],
)
def test_shard_ids_are_read_as_sorted_shards(monkeypatch, written, shards):
    monkeypatch.setenv("SHARD_COUNT", "16")
    monkeypatch.setenv("SHARD_IDS", written)
    monkeypatch.setenv("DATABASE_URL", POSTGRES)
    settings = load_settings(env_file=None)
    assert (settings.shard_count, settings.shard_ids) == (16, shards)


def test_one_process_may_hold_every_shard_on_sqlite(tmp_path):
    (tmp_path / ".env").write_text("SHARD_COUNT=2\nSHARD_IDS=1,0\n")
    assert load_settings().shard_ids == (0, 1)


def test_shard_ids_given_in_code_are_sorted_and_checked_too():
    settings = Settings(_env_file=None, shard_count=4, shard_ids=(3, 1), database_url=POSTGRES)
    assert settings.shard_ids == (1, 3)
    with pytest.raises(ValidationError, match="names shard 1 twice"):
        Settings(_env_file=None, shard_count=4, shard_ids=(1, 1), database_url=POSTGRES)


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"SHARD_IDS": "0-x"}, "SHARD_IDS should list shard numbers and ranges, like 0-3,8"),
        ({"SHARD_IDS": "0,,1"}, "SHARD_IDS should list shard numbers and ranges"),
        ({"SHARD_IDS": "3-1"}, "SHARD_IDS has the range 3-1 backwards: write it 1-3"),
        ({"SHARD_IDS": "0-2,2"}, "SHARD_IDS names shard 2 twice"),
        ({"SHARD_IDS": "0-70000"}, "SHARD_IDS names shard 70000, but shards go up to 65535"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT input should be greater than or equal to 1"),
        ({"SHARD_COUNT": "65537"}, "SHARD_COUNT input should be less than or equal to 65536"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "2-4", "DATABASE_URL": POSTGRES},
            "SHARD_IDS names shard 4, but SHARD_COUNT's 4 shards are numbered 0 to 3",
        ),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "0-1"},
            "SHARD_IDS names 2 of SHARD_COUNT's 4 shards, so other processes run the rest: that "
            "needs PostgreSQL (set DATABASE_URL); SQLite serves one process.",
        ),
    ],
)
def test_a_shard_setting_that_cannot_work_is_refused_in_one_sentence(
    monkeypatch, settings, expected
):
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as raised:
        load_settings(env_file=None)
    message = str(raised.value)
    assert message.startswith("Invalid setting: " + expected)
    assert "\n" not in message and message.endswith(".")
    assert "secret" not in message  # a rule across settings must not echo what it was given


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
