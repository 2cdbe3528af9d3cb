"""Members' DM channels and reply tokens, on each backend (tests/store/conftest.py)."""

from bot.store import DMChannels


async def test_a_dm_channel_is_remembered_replaced_and_forgotten(database):
    channels = DMChannels(database)
    await channels.remember(7, 700)
    assert await DMChannels(database).get(7) == 700  # from the database, not memory
    await channels.remember(7, 701)
    assert await DMChannels(database).get(7) == 701
    await channels.forget(7)
    assert await DMChannels(database).get(7) is None
    assert channels.known == {}


async def test_reply_tokens_kept_at_shutdown_come_back_while_they_live(database):
    channels = DMChannels(database)
    await channels.keep_reply_tokens({7: ("old", 100.0), 8: ("live", 200.5)}, now=50.0)
    assert await channels.reply_tokens(now=150.0) == {8: ("live", 200.5)}
    # Another process keeps its own beside them: the expired go, a member's later token wins.
    await channels.keep_reply_tokens({9: ("other", 300.25), 8: ("earlier", 180.0)}, now=150.0)
    assert await channels.reply_tokens(now=0.0) == {8: ("live", 200.5), 9: ("other", 300.25)}
    await channels.keep_reply_tokens({8: ("later", 400.0)}, now=150.0)
    assert await channels.reply_tokens(now=0.0) == {8: ("later", 400.0), 9: ("other", 300.25)}
    await channels.keep_reply_tokens({}, now=350.0)
    assert await channels.reply_tokens(now=0.0) == {8: ("later", 400.0)}
