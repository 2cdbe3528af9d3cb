"""`python -m bot`: start the bot, or say in one sentence why it cannot start.
`python -m bot simulate ...`: AI players play a game without Discord (bot/simulation.py)."""

from __future__ import annotations

import logging
import sys

import discord

from bot import eventloop
from bot.app import run_bot
from bot.settings import Settings, SettingsError, load_settings, require_token
from bot.store import DatabaseUnavailable, SchemaTooNew

EXIT_CONFIG = 2


def configure_logging(settings: Settings) -> None:
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # discord.py is chatty at INFO (gateway sessions); show its warnings unless debugging.
    if settings.log_level != "DEBUG":
        logging.getLogger("discord").setLevel(logging.WARNING)


def main() -> int:
    if sys.argv[1:2] == ["simulate"]:
        from bot.simulation import main as simulate

        return simulate(sys.argv[2:])
    try:
        settings = load_settings()
        token = require_token(settings)
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    configure_logging(settings)
    try:
        eventloop.run(run_bot(settings, token))
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN: reset the token on your application's Bot page "
            "at https://discord.com/developers/applications and put the new one in .env.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused an intent the bot asked for: check the Privileged Gateway "
            "Intents on your application's Bot page.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    except (SchemaTooNew, DatabaseUnavailable) as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
