"""Which guilds, and so which tables, a process's shards own (bot/shards.py), and which table a
DM's click names (bot/discord/routing.py)."""

import re
import sqlite3

import pytest

from bot.discord.controls import ACTION_BUTTON, TABLE_BUTTON, TEXT_FORM
from bot.discord.routing import table_named
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
