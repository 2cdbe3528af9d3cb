"""`python -m bot`: start the bot, or say in one sentence why it cannot start.
`python -m bot simulate ...`: AI players play a game without Discord (bot/simulation.py).
`python -m bot migrate-to-postgres ...`: the SQLite database copied into PostgreSQL
(bot/store/migrate.py).
`python -m bot cluster --processes N`: the bot's shards over N processes (bot/cluster.py).
`python -m bot rebuild-ratings`: every skill rating again from every recorded result."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot import eventloop
from bot.settings import (
    EXIT_CONFIG,
    POSTGRES_SCHEMES,
    Settings,
    SettingsError,
    configure_logging,
    load_settings,
    require_token,
)
from bot.text import plural
from bot.web import links_of

if TYPE_CHECKING:
    from bot.store.migrate import CopyReport
    from bot.store.ratings import RatingsRebuilt

# The bot itself (discord.py, the games, the store: a second to import) is imported once it is
# needed, so that a missing or wrong setting is said at once.

EXIT_SHARDS_LOST = 1  # worth starting again: not a setting's fault


def main() -> int:
    if sys.argv[1:2] == ["simulate"]:
        from bot.simulation import main as simulate

        return simulate(sys.argv[2:])
    if sys.argv[1:2] == ["migrate-to-postgres"]:
        return migrate_to_postgres(sys.argv[2:])
    if sys.argv[1:2] == ["cluster"]:
        from bot.cluster import main as cluster

        return cluster(sys.argv[2:])
    if sys.argv[1:2] == ["rebuild-ratings"]:
        return rebuild_ratings(sys.argv[2:])
    try:
        settings = load_settings()
        token = require_token(settings)
        links_of(settings)  # the web pages' settings hold together
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    configure_logging(settings)
    return start(settings, token)


def start(settings: Settings, token: str) -> int:
    """Runs the bot until it stops; the exit status says why."""
    import discord

    from bot.app import ShardsLost, run_bot
    from bot.store import DatabaseUnavailable, SchemaTooNew
    from bot.store.shards import ShardLayoutConflict

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
    except (SchemaTooNew, DatabaseUnavailable, ShardLayoutConflict) as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    except ShardsLost:
        print(
            "The bot lost its connection to PostgreSQL, and with it the hold on its shards: "
            "another process may act on its tables now, so it stopped; start it again (python "
            "-m bot cluster does).",
            file=sys.stderr,
        )
        return EXIT_SHARDS_LOST
    except KeyboardInterrupt:
        pass
    return 0


MIGRATE_HELP = """Copy the bot's SQLite database into an empty PostgreSQL database. Stop the bot
first: what it writes during the copy would not be copied. The copy is one transaction (all or
nothing) and checks that the chips add up to the same totals on both sides; it refuses a
database that already holds the bot's data. Then start the bot with DATABASE_URL set to the
--to URL: its tables go on where they were, even mid-hand."""


def migrate_to_postgres(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-to-postgres", description=MIGRATE_HELP
    )
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        required=True,
        metavar="PATH",
        help="the SQLite file (the bot's DATABASE_PATH, data/cardtable.sqlite3 by default)",
    )
    parser.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="URL",
        help="the PostgreSQL database: postgresql://user[:password]@host[:port]/database",
    )
    arguments = parser.parse_args(argv)
    if urlsplit(arguments.target).scheme not in POSTGRES_SCHEMES:
        print("--to should be a URL like postgresql://user@host/database.", file=sys.stderr)
        return EXIT_CONFIG
    from bot.store import DatabaseUnavailable, SchemaTooNew
    from bot.store.migrate import MigrationRefused, copy_to_postgres

    try:
        report = eventloop.run(copy_to_postgres(arguments.source, arguments.target))
    except (MigrationRefused, DatabaseUnavailable, SchemaTooNew) as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    print(copied(report))
    return 0


REBUILD_HELP = """Work out every skill rating again from every result the bot has recorded, in
order: results recorded before ratings existed count too. Stop the bot first (on SQLite the
command refuses a file a running bot holds). One transaction: all or nothing."""


def rebuild_ratings(argv: list[str]) -> int:
    argparse.ArgumentParser(
        prog="python -m bot rebuild-ratings", description=REBUILD_HELP
    ).parse_args(argv)
    from bot.store import DatabaseUnavailable, SchemaTooNew

    try:
        settings = load_settings()
        rebuilt = eventloop.run(_rebuild(settings))
    except (SettingsError, DatabaseUnavailable, SchemaTooNew) as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    results = plural(rebuilt.rated, "member's result", "members' results")
    operations = plural(rebuilt.operations, "recorded operation")
    ratings = plural(rebuilt.ratings, "rating")
    print(f"Rated {results} of {operations} again: {ratings} (one per server, game and member).")
    return 0


async def _rebuild(settings: Settings) -> RatingsRebuilt:
    from bot.store import Ratings, open_database

    database = await open_database(settings)
    try:
        return await Ratings(database).rebuild()
    finally:
        await database.close()


def copied(report: CopyReport) -> str:
    totals = report.totals
    return "\n".join(
        [
            f"Copied {plural(report.row_count, 'row')} in {plural(len(report.rows), 'table')} "
            f"from {report.source} to {report.target} (schema version {report.schema_version}).",
            f"Chips in play: {totals.held:,} (members {totals.balances:,}, tables "
            f"{totals.escrows:,}, house {totals.house:,}, tournaments {totals.tournaments:,}), "
            "the same on both sides.",
            "Start the bot with DATABASE_URL set to the --to URL to use it; keep the SQLite file "
            "as a backup.",
        ]
    )


if __name__ == "__main__":
    sys.exit(main())
