"""Settings from the environment and `.env` (see the table in README.md)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.limits import TURN_SECONDS

# The setting DURABILITY (its field says what each keeps safe), which the store's backends read.
Durability = Literal["full", "normal"]

TOKEN_HELP = (
    "create an application at https://discord.com/developers/applications, add a bot on its "
    "Bot page, copy the token and put DISCORD_TOKEN=<token> in .env (see README.md)"
)


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
POSTGRES_SCHEMES = ("postgresql", "postgres")
MOST_SHARDS = 65536  # no bot has more; it also bounds what a range in SHARD_IDS expands to
SHARD_SPAN = re.compile(r"([0-9]{1,9})(?:\s*-\s*([0-9]{1,9}))?")  # "8" or "0-3"

# The exit status of a process that cannot start as configured: restarting it would not help.
EXIT_CONFIG = 2


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
    # Rated matches a member needs before a game's skill board lists them (one lucky win
    # shouldn't top it).
    rating_min_matches: int = Field(default=10, ge=1, le=1_000_000)
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
    # The gateway shards: SHARD_COUNT in all, of which this process connects SHARD_IDS (README,
    # Several processes). None: as many as Discord advises, all in this process.
    shard_count: int | None = Field(default=None, ge=1, le=MOST_SHARDS)
    # Written "0-3,8", not JSON: NoDecode hands the text to _shard_list as it is.
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    # The web pages (README, Web pages): served on WEB_PORT, when it is set, by the process
    # that runs shard 0; PUBLIC_URL is the address members open them at (a reverse proxy's).
    # 0: a free port the system picks (the tests' way).
    web_port: int | None = Field(default=None, ge=0, le=65535)
    web_host: str = "0.0.0.0"
    public_url: str | None = None
    # What signs the pages' links; by default one derived from DISCORD_TOKEN (bot/web/links.py).
    web_secret: SecretStr | None = None

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            url = value.get_secret_value()
            if urlsplit(url).scheme not in POSTGRES_SCHEMES or not urlsplit(url).hostname:
                raise ValueError("should be a URL like postgresql://user@host/database")
        return value

    @field_validator("public_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is not None and (
            urlsplit(value).scheme not in ("http", "https") or not urlsplit(value).hostname
        ):
            raise ValueError("should be the pages' address, like https://cards.example.org")
        return value

    @field_validator("web_secret")
    @classmethod
    def _long_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < 16:
            raise ValueError("should be at least 16 characters long")
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"should be one of {', '.join(LOG_LEVELS)}")
        return value.upper()

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        return parse_shard_ids(value) if isinstance(value, str) else value

    @field_validator("shard_ids")
    @classmethod
    def _unique_shards(cls, value: tuple[int, ...] | None) -> tuple[int, ...] | None:
        return None if value is None else sorted_unique(value)

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        problem = shard_problem(self.shard_count, self.shard_ids, self.database_url is not None)
        if problem:
            raise ValueError(problem)
        return self


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """SHARD_IDS as written, "0-3, 8", as (0, 1, 2, 3, 8): ranges inclusive, each shard once."""
    shards: list[int] = []
    for part in text.split(","):
        span = SHARD_SPAN.fullmatch(part.strip())
        if span is None:
            raise ValueError("should list shard numbers and ranges, like 0-3,8")
        first, last = int(span[1]), int(span[2] or span[1])
        if last < first:
            raise ValueError(f"has the range {first}-{last} backwards: write it {last}-{first}")
        if last >= MOST_SHARDS:
            raise ValueError(f"names shard {last}, but shards go up to {MOST_SHARDS - 1} at most")
        shards.extend(range(first, last + 1))
    return sorted_unique(shards)


def sorted_unique(shards: Iterable[int]) -> tuple[int, ...]:
    ordered = sorted(shards)
    for before, shard in pairwise(ordered):
        if shard == before:
            raise ValueError(f"names shard {shard} twice: list each shard once")
    return tuple(ordered)


def shard_problem(count: int | None, ids: tuple[int, ...] | None, postgres: bool) -> str | None:
    """Why SHARD_COUNT and SHARD_IDS don't fit together (or with the database), if they don't."""
    if ids is None:
        return None
    if count is None:
        return (
            "SHARD_IDS needs SHARD_COUNT, the number of shards all the bot's processes run "
            "together: set it too"
        )
    if ids[-1] >= count:
        return (
            f"SHARD_IDS names shard {ids[-1]}, but SHARD_COUNT's {count} shards are numbered "
            f"0 to {count - 1}: list only those, or raise SHARD_COUNT"
        )
    if len(ids) < count and not postgres:
        return (
            f"SHARD_IDS names {len(ids)} of SHARD_COUNT's {count} shards, so other processes run "
            "the rest: that needs PostgreSQL (set DATABASE_URL); SQLite serves one process"
        )
    return None


def configure_logging(settings: Settings) -> None:
    """The bot's (and `cluster`'s) log lines, at LOG_LEVEL."""
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # discord.py is chatty at INFO (gateway sessions); show its warnings unless debugging.
    if settings.log_level != "DEBUG":
        logging.getLogger("discord").setLevel(logging.WARNING)


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read settings, turning validation errors into one readable sentence."""
    try:
        return Settings(_env_file=env_file)
    except ValidationError as error:
        raise SettingsError(describe_errors(error)) from None


# Never echoed back: a token, a URL with its password.
SECRET_SETTINGS = ("DISCORD_TOKEN", "DATABASE_URL", "WEB_SECRET")


def describe_errors(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        message = item["msg"].removeprefix("Value error, ")
        if not item["loc"]:  # a rule across settings: its message names them, and its input
            problems.append(message)  # is every setting, secrets too
            continue
        name = str(item["loc"][0]).upper()
        got = "" if name in SECRET_SETTINGS else f" (got {item['input']!r})"
        problems.append(f"{name} {message[:1].lower()}{message[1:]}{got}")
    return "Invalid setting: " + "; ".join(problems) + ". Fix it in .env or the environment."


def require_token(settings: Settings) -> str:
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        raise SettingsError(f"DISCORD_TOKEN is not set: {TOKEN_HELP}.")
    return settings.discord_token.get_secret_value().strip()
