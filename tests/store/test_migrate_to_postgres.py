"""`python -m bot migrate-to-postgres`: a community's SQLite database copied into an empty
PostgreSQL database (bot/store/migrate.py), down to tables that resume mid-hand there."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from pydantic import SecretStr

from bot.__main__ import migrate_to_postgres
from bot.engine import Action
from bot.store import (
    Account,
    ActionRecord,
    ChipOperation,
    Database,
    DMChannels,
    GuildSettings,
    Languages,
    Ledger,
    Move,
    PostgresDatabase,
    ResultRow,
    SeatRecord,
    SQLiteDatabase,
    TableRecord,
    TableStatus,
    TableStore,
    bundled_migrations,
)
from bot.store.migrate import MigrationRefused, copy_to_postgres
from bot.store.postgres import describe
from bot.store.tournaments import MatchRecord, TournamentRecord, TournamentStore
from tests import ROOT
from tests.tables_e2e import TableDriver

GUILD, CHANNEL = 1, 10
HOST, GUEST, NEWCOMER = 7, 8, 9
AI_SEAT = -1
# The tables whose ids are identity columns on PostgreSQL.
WITH_IDS = ("accounts", "ledger", "results", "game_tables", "table_actions", "tournaments")


def lobby() -> TableRecord:
    return TableRecord(0, GUILD, CHANNEL, "western", TableStatus.LOBBY, HOST, 40, "{}", 60)


async def community(path: Path) -> None:
    """A SQLite database as a community leaves it: chips given, the house funded, a hand
    played to the table's close with an AI seat, AI seats then turned off, a DM channel and
    a reply token kept at shutdown. Every table of the bot's gets a row."""
    database = await SQLiteDatabase.open(path)
    try:
        ledger = Ledger(database, starting_chips=1000)
        store = TableStore(database, ledger)
        assert await ledger.transfer(GUILD, HOST, GUEST, 30, key="gift")
        assert await ledger.fund_house(GUILD, 500, reason="bankroll", key="fund")
        table = await store.create(lobby(), "Host", key="open")
        await store.add_seat(table, GUEST, "Guest", key="join")
        await store.add_seat(table, AI_SEAT, "Robot", key="join-ai", ai_level="expert")
        await store.set_message(table, 555)
        await store.start(table, '{"hand": 1}', None)
        pot = [Move(Account.table(table.id), Account.member(GUEST), 120, "pot")]
        results = [
            ResultRow("western", HOST, 0, 2, -40, table_id=table.id, with_ai=True),
            ResultRow("western", GUEST, 1, 1, 80, score=12, table_id=table.id, with_ai=True),
            ResultRow("western", 0, 2, 2, -40, table_id=table.id, scope="house", with_ai=True),
        ]
        await store.commit(
            table,
            state='{"hand": 2}',
            deadline=None,
            action=ActionRecord(0, Action(kind="fold"), timed_out=True),
            chips=[ChipOperation("hand-1", "settle", pot, results)],
            status=TableStatus.CLOSED,
        )
        await store.close_drawn(table.id)
        # A match between members alone is rated: the ratings' tables get rows too.
        match = [
            ResultRow("bigtwo", m, s, s + 1, 0, scope="match") for s, m in enumerate([HOST, GUEST])
        ]
        assert await ledger.settle(GUILD, [], match, key="match-1")
        await a_tournament_under_way(database, ledger, store)
        await GuildSettings(database).set_ai_seats(GUILD, False)
        await Languages(database).set_server(GUILD, "ca")
        await Languages(database).set_member(GUEST, "zh_Hant")
        await DMChannels(database).remember(GUEST, 80)
        await DMChannels(database).keep_reply_tokens(
            {GUEST: ("token-8", 1_795_000_000.25)}, now=0.0
        )
    finally:
        await database.close()


def tournament() -> TournamentRecord:
    return TournamentRecord(
        0,
        GUILD,
        CHANNEL,
        HOST,
        "bigtwo",
        "elimination",
        20,
        2,
        0,
        None,
        8,
        "winner",
        0,
        60,
        0,
        60,
        "{}",
        seed="ab",
        commitment="cd",
    )


async def a_tournament_under_way(database: Database, ledger: Ledger, store: TableStore) -> None:
    """Two members registered (their buy-ins in the pool) and their match's table in play."""
    tournaments = TournamentStore(database, ledger)
    record = await tournaments.create(tournament())
    for member, name in ((HOST, "Host"), (GUEST, "Guest")):
        await tournaments.register(record, member, name, key=f"register-{member}")
    match = MatchRecord(1, 1, (HOST, GUEST), 1)
    await tournaments.begin(record, [(HOST, 1.5), (GUEST, None)], [match], [GUEST])
    table = TableRecord(
        0,
        GUILD,
        CHANNEL + 1,
        "bigtwo",
        TableStatus.PLAYING,
        HOST,
        0,
        "{}",
        60,
        tournament_id=record.id,
    )
    seats = [SeatRecord(0, HOST, "Host"), SeatRecord(1, GUEST, "Guest")]

    async def link(tx, table_id: int) -> None:
        await tournaments.link_table(
            tx, record.id, match, table_id, datetime(2026, 12, 6, tzinfo=UTC)
        )

    await store.create_playing(table, seats, "{}", None, link)
    await tournaments.set_thread(record.id, match, CHANNEL + 1)


async def table_names(database: Database) -> list[str]:
    rows = await database.fetch_all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
    )
    return sorted(row[0] for row in rows)


async def rows_of(database: Database, table: str) -> list[str]:
    """The table's rows, each by column name (whatever order each side keeps its columns in),
    sorted."""
    rows = await database.fetch_all(f'SELECT * FROM "{table}"')
    return sorted(repr(sorted(dict(row).items())) for row in rows)


async def tables_of(path: Path) -> dict[str, list[str]]:
    """The rows of every table in the SQLite file."""
    database = await SQLiteDatabase.open(path)
    try:
        return {table: await rows_of(database, table) for table in await table_names(database)}
    finally:
        await database.close()


async def contents(url: str, tables: list[str]) -> dict[str, list[str]]:
    database = await PostgresDatabase.open(url)
    try:
        return {table: await rows_of(database, table) for table in tables}
    finally:
        await database.close()


def with_password(url: str, password: str) -> str:
    """The URL with a password, for checking it is never shown (the test server trusts any)."""
    parts = urlsplit(url)
    if parts.password:  # the server wants its own: that one must not be shown either
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:{password}@{host}"))


async def test_every_row_is_copied_and_the_ids_go_on_past_the_copied_ones(tmp_path, postgres_url):
    path = tmp_path / "cardtable.sqlite3"
    await community(path)
    report = await copy_to_postgres(path, postgres_url)

    source = await SQLiteDatabase.open(path)
    target = await PostgresDatabase.open(postgres_url)
    try:
        tables = await table_names(source)
        assert sorted(report.rows) == tables and report.target == describe(postgres_url)
        for table in tables:
            copied = await rows_of(source, table)
            assert copied, f"the test leaves {table} empty: give it a row"
            assert await rows_of(target, table) == copied, table
            assert report.rows[table] == len(copied), table
        totals = await Ledger(source, starting_chips=0).totals()
        assert totals.consistent and totals.house == 460 and totals.held == 2500
        assert report.totals == totals == await Ledger(target, starting_chips=0).totals()

        # New rows on PostgreSQL take ids past the copied ones (an id taken again would fail).
        before = {table: await largest_id(target, table) for table in WITH_IDS}
        ledger = Ledger(target, starting_chips=1000)
        store = TableStore(target, ledger)
        assert await ledger.transfer(GUILD, GUEST, NEWCOMER, 5, key="after")  # a new account
        table = await store.create(lobby(), "Host", key="open-again")
        await store.start(table, "{}", None)
        refund = [Move(Account.table(table.id), Account.member(HOST), 40, "pot")]
        await store.commit(
            table,
            state="{}",
            deadline=None,
            action=ActionRecord(0, Action(kind="fold")),
            chips=[
                ChipOperation("hand-2", "settle", refund, [ResultRow("western", HOST, 0, 1, 0)])
            ],
            status=TableStatus.CLOSED,
        )
        await TournamentStore(target, ledger).create(tournament())
        after = {table: await largest_id(target, table) for table in WITH_IDS}
        assert all(after[table] > before[table] for table in WITH_IDS), (before, after)
        assert (await Ledger(target, starting_chips=0).totals()).consistent
    finally:
        await source.close()
        await target.close()


async def largest_id(database: Database, table: str) -> int:
    row = await database.fetch_aggregate(f"SELECT MAX(id) FROM {table}")
    return row[0]


async def test_a_target_holding_any_of_the_bots_rows_is_refused_and_left_as_it_was(
    tmp_path, postgres_url
):
    path = tmp_path / "cardtable.sqlite3"
    await community(path)
    target = await PostgresDatabase.open(postgres_url)
    try:
        await DMChannels(target).remember(HOST, 70)  # one row, and no chips at all
    finally:
        await target.close()
    tables = list(await tables_of(path))
    before = await contents(postgres_url, tables)

    with pytest.raises(MigrationRefused) as refused:
        await copy_to_postgres(path, with_password(postgres_url, "hunter2"))
    message = str(refused.value)
    assert "already holds the bot's data (rows in dm_channels)" in message
    assert describe(postgres_url) in message and "hunter2" not in message
    assert message.endswith(".") and ". " not in message and "\n" not in message  # one sentence
    assert await contents(postgres_url, tables) == before


async def test_a_value_postgresql_cannot_hold_undoes_the_whole_copy(tmp_path, postgres_url):
    path = tmp_path / "cardtable.sqlite3"
    await community(path)
    with sqlite3.connect(path) as database:  # SQLite's dynamic typing lets text in
        database.execute("UPDATE dm_channels SET channel_id = 'eighty'")
    with pytest.raises(MigrationRefused, match=r"dm_channels\.channel_id holds 'eighty'"):
        await copy_to_postgres(path, postgres_url)
    copied = await contents(postgres_url, ["accounts", "ledger", "dm_channels"])
    assert copied == {"accounts": [], "ledger": [], "dm_channels": []}


async def test_columns_one_side_lacks_are_named(tmp_path, postgres_url):
    path = tmp_path / "cardtable.sqlite3"
    await community(path)
    with sqlite3.connect(path) as database:
        database.execute("ALTER TABLE dm_channels ADD COLUMN note TEXT")
    with pytest.raises(MigrationRefused, match=r"dm_channels\.note only in SQLite"):
        await copy_to_postgres(path, postgres_url)


# ---- the command ----------------------------------------------------------------------------

UNREACHABLE = "postgresql://postgres@127.0.0.1:1/test"


def run_command(cwd: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate-to-postgres", *arguments],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
async def test_the_command_copies_and_says_how_to_use_the_copy(tmp_path, postgres_url):
    path = tmp_path / "cardtable.sqlite3"
    await community(path)
    target = with_password(postgres_url, "hunter2")
    done = run_command(tmp_path, "--from", str(path), "--to", target)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    tables = await tables_of(path)
    assert lines[0] == (
        f"Copied {sum(map(len, tables.values())):,} rows in {len(tables)} tables from {path} to "
        f"{describe(postgres_url)} (schema version {len(bundled_migrations())})."
    )
    assert lines[1].startswith(
        "Chips in play: 2,500 (members 2,000, tables 0, house 460, tournaments 40)"
    )
    assert "DATABASE_URL" in lines[2]
    assert "hunter2" not in done.stdout
    assert (await contents(postgres_url, ["results"]))["results"] != []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source", "target", "named"),
    [
        ("missing.sqlite3", "postgresql://postgres@127.0.0.1:5432/test", "missing.sqlite3"),
        ("cardtable.sqlite3", UNREACHABLE, "check --to, and that the server is running"),
        ("cardtable.sqlite3", "mysql://root@127.0.0.1/cardtable", "--to"),
    ],
)
async def test_the_command_says_in_one_line_why_it_cannot_copy(tmp_path, source, target, named):
    await community(tmp_path / "cardtable.sqlite3")
    done = run_command(tmp_path, "--from", source, "--to", target)
    assert done.returncode == 2
    assert done.stdout == "" and "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert named in line
    assert not (tmp_path / "missing.sqlite3").exists()  # never created by looking for it


def test_a_database_from_a_newer_bot_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "cardtable.sqlite3"
    with sqlite3.connect(path) as database:
        database.execute("PRAGMA user_version = 99")
    assert migrate_to_postgres(["--from", str(path), "--to", UNREACHABLE]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "schema version 99" in line


def test_the_commands_help_says_to_stop_the_bot_first(capsys):
    with pytest.raises(SystemExit) as exited:
        migrate_to_postgres(["--help"])
    assert exited.value.code == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "Stop the bot first" in help_text and "--from PATH" in help_text


# ---- end to end -----------------------------------------------------------------------------


async def test_tables_open_mid_hand_resume_on_postgresql_and_an_old_button_works(
    postgres_url, world
):
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob, world.carol], buy_in=50)
    await western.start(world.alice)
    await western.play("Bet 2")  # bob
    carol_prompt = world.tester.dms(world.carol)[-1]
    table_id, shown = western.table.id, western.message().text()
    await world.stop_bot()

    report = await copy_to_postgres(world.settings.database_path, postgres_url)
    assert report.rows["game_tables"] == 1 and report.totals.escrows == 150
    world.settings = world.settings.model_copy(update={"database_url": SecretStr(postgres_url)})
    calls = len(world.fake.calls)
    await world.start_bot()
    await world.tester.idle()
    assert world.bot.database.backend == "postgres"
    # What the table message showed came along: it is not drawn again.
    assert [c for c in world.fake.calls[calls:] if c.method == "PATCH"] == []
    assert western.message().text() == shown
    assert world.bot.runtime.get(table_id).state.pending()[0].seat == 2  # carol's turn

    reply = await western.press(world.carol, carol_prompt, "Call 2")  # from before the stop
    assert reply.response is carol_prompt, reply.text
    await western.settle()
    table = western.table
    while not table.state.awaiting_next_hand():  # the rest of the hand: everyone's default
        await world.bot.runtime.fire_deadline(table_id)
        await western.settle()  # chips conserved at every step, now on PostgreSQL

    nets = await world.bot.database.fetch_all(
        "SELECT member_id, chip_net FROM results WHERE table_id = ? AND scope = 'hand'", table_id
    )
    assert len(nets) == 3 and sum(net for _, net in nets) + table.state.carry == 0
    winner, won = max(nets, key=lambda row: row[1])
    assert won > 0 and table.state.stacks[table.seat_of(winner).seat] == 50 + won

    await western.leave_one_player(world.bob, world.carol)  # the table closes: stacks paid out
    for member in (world.alice, world.bob, world.carol):
        net = await world.bot.database.fetch_aggregate(
            "SELECT CAST(SUM(chip_net) AS BIGINT) FROM results"
            " WHERE table_id = ? AND member_id = ? AND scope IN ('hand', 'settle')",
            table_id,
            member.id,
        )
        assert await world.bot.ledger.balance(world.guild.id, member.id) == 1000 + net[0]
    totals = await world.bot.ledger.totals()
    assert totals.consistent and totals.held == western.total_chips
