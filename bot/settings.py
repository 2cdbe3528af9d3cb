"""Settings from the environment and `.env` (see the table in README.md)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.store.db import Durability
from bot.tables.limits import TURN_SECONDS

TOKEN_HELP = (
    "create an application at https://discord.com/developers/applications, add a bot on its "
    "Bot page, copy the token and put DISCORD_TOKEN=<token> in .env (see README.md)"
)


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
POSTGRES_SCHEMES = ("postgresql", "postgres")


class SettingsError(Exception):
    """A setting is missing or invalid; the message is one sentence for the operator."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", env_ignore_empty=True, extra="ignore"
    )

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/cardtable.sqlite3")
    # postgresql://user[:password]@host[:port]/database: the store on that PostgreSQL server
    # instead of the SQLite file. Secret: it may hold a password.
    database_url: SecretStr | None = None
    dev_guild_id: int | None = Field(default=None, gt=0)
    starting_chips: int = Field(default=1000, ge=0, le=1_000_000_000)
    daily_chips: int = Field(default=100, ge=0, le=1_000_000_000)
    turn_timeout_seconds: int = Field(default=120, ge=TURN_SECONDS.low, le=TURN_SECONDS.high)
    # Least time between two edits of table messages in a channel: Discord allows five edits
    # per five seconds in a channel, and AI players can act faster than that. Four leave room
    # for the moment discord.py and Discord see a window's end differently.
    table_edit_seconds: float = Field(default=1.25, ge=0, le=10)
    # The bot's own REST calls per second: Discord allows a bot 50 in all (interaction answers
    # aside); a little under it keeps clear of 429s. Discord raises it for large bots on request.
    requests_per_second: int = Field(default=45, ge=1, le=100_000)
    # "full": every step is fsynced before it is acknowledged, and survives a power loss.
    # "normal": no fsync per step (WAL with synchronous=NORMAL): still safe against a crash or
    # kill -9, but a power loss may undo the last steps; for disks whose fsync stalls.
    # On PostgreSQL, synchronous_commit on and off: with "normal" a crash of the server (not
    # of the bot) may undo its last steps too.
    durability: Durability = "full"
    log_level: str = "INFO"

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            url = value.get_secret_value()
            if urlsplit(url).scheme not in POSTGRES_SCHEMES or not urlsplit(url).hostname:
                raise ValueError("should be a URL like postgresql://user@host/database")
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"should be one of {', '.join(LOG_LEVELS)}")
        return value.upper()


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read settings, turning validation errors into one readable sentence."""
    try:
        return Settings(_env_file=env_file)
    except ValidationError as error:
        raise SettingsError(describe_errors(error)) from None


# Never echoed back: a token, a URL with its password.
SECRET_SETTINGS = ("DISCORD_TOKEN", "DATABASE_URL")


def describe_errors(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        name = str(item["loc"][0]).upper() if item["loc"] else "a setting"
        message = item["msg"].removeprefix("Value error, ")
        got = "" if name in SECRET_SETTINGS else f" (got {item['input']!r})"
        problems.append(f"{name} {message[:1].lower()}{message[1:]}{got}")
    return "Invalid setting: " + "; ".join(problems) + ". Fix it in .env or the environment."


def require_token(settings: Settings) -> str:
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        raise SettingsError(f"DISCORD_TOKEN is not set: {TOKEN_HELP}.")
    return settings.discord_token.get_secret_value().strip()
