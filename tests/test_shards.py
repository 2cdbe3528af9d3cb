"""Which guilds, and so which tables, a process's shards own (bot/shards.py), and which table a
DM's click names (bot/discord/routing.py)."""

import asyncio
import re
import sqlite3

import pytest

from bot.app import CardTableBot
from bot.discord.controls import ACTION_BUTTON, TABLE_BUTTON, TEXT_FORM
from bot.discord.routing import InteractionRouter, table_named
from bot.settings import Settings
from bot.shards import EVERY_SHARD, Shards, shard_of, spans


def guild_on(shard: int, count: int, made_at_ms: int = 1_000_000) -> int:
    """A guild id whose timestamp bits put it on `shard` of `count`."""
    return ((made_at_ms - made_at_ms % count + shard) << 22) | 12345


@pytest.mark.parametrize("count", [1, 2, 4, 7])
def test_a_guild_is_owned_by_its_shard_only(count):
    for shard in range(count):
        guild = guild_on(shard, count)
        assert shard_of(guild, count) == shard
        owners = [s for s in range(count) if Shards(count, (s,)).owns(guild)]
        assert owners == [shard]


def test_every_shard_owns_everything_whatever_the_count():
    assert EVERY_SHARD.every and EVERY_SHARD.owns(guild_on(3, 4))
    assert Shards(4, (0, 1, 2, 3)).every and not Shards(4, (0, 1)).every
    assert (EVERY_SHARD.describe(), Shards(4, (2, 3)).describe()) == (
        "every shard",
        "shards 2-3 of 4",
    )


def test_processes_split_the_bots_rest_budget_by_the_shards_they_run():
    """Discord's global limit is the bot's, however many processes: 45 a second for 4 shards
    is 22 for a process running 2, 11 for one running 1; never none."""
    assert [Shards(4, ids).share_of(45) for ids in [(0, 1), (3,), (0, 1, 2, 3)]] == [22, 11, 45]
    assert EVERY_SHARD.share_of(45) == 45
    assert Shards(64, (5,)).share_of(45) == 1


def test_the_sql_test_picks_the_same_guilds_as_python():
    guilds = [guild_on(shard, 4, made_at_ms=ms) for shard in range(4) for ms in (10**6, 10**9)]
    shards = Shards(4, (1, 3))
    where, params = shards.where()
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE game_tables (guild_id INTEGER)")
        db.executemany("INSERT INTO game_tables VALUES (?)", [(g,) for g in guilds])
        rows = db.execute(f"SELECT guild_id FROM game_tables WHERE {where}", params).fetchall()
    assert sorted(row[0] for row in rows) == sorted(g for g in guilds if shards.owns(g))
    assert len(rows) == 4
    assert EVERY_SHARD.where() == ("1 = 1", ())


def test_shards_are_written_as_settings_take_them():
    assert [spans(ids) for ids in [(0,), (0, 1, 2, 3), (0, 1, 3), (2, 4, 5, 6, 9)]] == [
        "0",
        "0-3",
        "0-1,3",
        "2,4-6,9",
    ]


def test_a_click_or_form_names_its_table_by_its_custom_id():
    templates = [re.compile(kind.template) for kind in (TABLE_BUTTON, ACTION_BUTTON, TEXT_FORM)]
    click = {"type": 3, "data": {"custom_id": ACTION_BUTTON.format(42, 3, "fold")}}
    form = {"type": 5, "data": {"custom_id": TEXT_FORM.format(7, 1)}}
    assert (table_named(click, templates), table_named(form, templates)) == (42, 7)
    command = {"type": 2, "data": {"name": "western"}}
    other = {"type": 3, "data": {"custom_id": "lb:page:2"}}
    assert table_named(command, templates) is None and table_named(other, templates) is None
    # A forged id past 64 bits names the largest id the database holds (no table), rather
    # than fail the query routing makes for it (found by forged clicks on two processes).
    huge = {"type": 3, "data": {"custom_id": ACTION_BUTTON.format(10**30, 3, "fold")}}
    assert table_named(huge, templates) == 2**63 - 1


async def test_routing_asks_the_store_for_a_tables_guild_once():
    """A DM click on another process's table is forwarded to its shard; the table's guild is
    looked up once (it never changes), a table not found is looked up again next time."""
    far_guild = guild_on(1, 2)
    guilds = {42: far_guild}
    asked: list[int] = []
    forwarded: list[tuple[int, int]] = []
    handled: list[dict] = []

    class Owners:
        def holds_table(self, table_id):
            return False

        async def guild_of(self, table_id):
            asked.append(table_id)
            return guilds.get(table_id)

    class Courier:
        async def forward(self, shard_id, payload, wait_seconds):
            forwarded.append((shard_id, table_named(payload, templates)))
            return True

    templates = [re.compile(ACTION_BUTTON.template)]
    router = InteractionRouter(
        Shards(2, (0,)), Owners(), Courier(), templates, handled.append, lambda payload: None
    )

    def click(table_id):
        return {"type": 3, "data": {"custom_id": ACTION_BUTTON.format(table_id, 1, "fold")}}

    for table_id in (42, 42, 7, 7):
        router(click(table_id))
        await asyncio.gather(*router.forwarding)
    assert forwarded == [(1, 42), (1, 42)]
    assert asked == [42, 7, 7]
    assert [table_named(payload, templates) for payload in handled] == [7, 7]  # said as ever


def test_a_process_paces_its_own_rest_calls_at_its_share(tmp_path):
    settings = Settings(
        _env_file=None,
        discord_token="token",
        database_path=tmp_path / "bot.sqlite3",
        database_url="postgresql://bot@db.example/cards",
        shard_count=4,
        shard_ids=(2, 3),
        requests_per_second=45,
    )
    assert CardTableBot(settings).pacer.per_second == 22
