"""Soliterrapin end to end: a whole board played through the fake Discord, the picture on the
table message, who may play, stale clicks, the daily challenge, scores and a restart."""

import copy
import io
import random
import sqlite3
from datetime import timedelta

from PIL import Image, ImageDraw

from tests.e2e import World
from tests.fakediscord import Message, User


def board_message(world: World, user: User) -> Message:
    table = next(t for t in world.bot.runtime.tables.values() if t.record.creator_id == user.id)
    return world.fake.messages[table.record.message_id]


def spot_options(message: Message) -> list[tuple[str, str, str]]:
    """(custom_id, value, label) of every spot offered by the board's selects."""
    return [
        (item["custom_id"], option["value"], option["label"])
        for row in message.components
        for item in row["components"]
        if item["type"] == 3
        for option in item["options"]
    ]


def png_of(world: World, message: Message) -> Image.Image:
    (attachment,) = message.attachments
    assert attachment["filename"] == "board.png"
    data = world.fake.uploads[attachment["id"]]
    Image.open(io.BytesIO(data)).verify()  # a valid PNG, not just bytes with the right name
    return Image.open(io.BytesIO(data))


async def place(world: World, user: User, rng: random.Random) -> str:
    """Put the card on a random open spot: from the selects, or the button of a lone spot."""
    message = board_message(world, user)
    options = spot_options(message)
    if options:
        custom_id, value, label = rng.choice(options)
        reply = await world.tester.choose(user, message, [value], custom_id)
    else:
        (label,) = [b["label"] for b in message.buttons() if b["label"] != "Abandon"]
        reply = await world.tester.click(user, message, label)
    assert not (reply.response and reply.response.ephemeral), reply.text
    await world.tester.idle()
    return label


async def test_a_whole_board_with_its_picture_then_the_score(world):
    start = await world.tester.slash(world.alice, world.channel, "soliterrapin play")
    assert start.response.ephemeral
    await world.tester.idle()
    message = board_message(world, world.alice)
    image = png_of(world, message)
    assert image.format == "PNG" and image.size[0] > 200
    assert "Card to place" in message.text() and "Board as text" in message.text()
    assert "Deals commitment" in message.text()  # a board dealt from its own seed
    assert sorted(label for _, _, label in spot_options(message)) == ["E6", "F5", "F7", "G6"]
    assert message.button("Abandon")
    rng = random.Random(11)
    for _ in range(35):
        await place(world, world.alice, rng)
    final = world.fake.messages[message.id]
    assert "Final score" in final.text() and final.components == []
    png_of(world, final)
    (row,) = await world.bot.database.fetch_all("SELECT member_id, score, variant FROM results")
    assert row[0] == world.alice.id and row[1] is not None and row[2] is None
    scores = await world.tester.slash(world.bob, world.channel, "soliterrapin scores")
    assert f"<@{world.alice.id}> · {row[1]}" in scores.text


async def test_only_the_owner_plays_and_a_stale_click_is_refused(world):
    await world.tester.slash(world.alice, world.channel, "soliterrapin play")
    await world.tester.idle()
    message = board_message(world, world.alice)
    custom_id, value, _ = spot_options(message)[0]
    refused = await world.tester.choose(world.bob, message, [value], custom_id)
    assert refused.text == "Only Alice can play this board."
    before = copy.deepcopy(message)  # what a slow client still shows
    await place(world, world.alice, random.Random(1))
    stale = await world.tester.choose(world.alice, before, [value], custom_id)
    assert stale.text == "This prompt has expired."


async def test_two_members_play_side_by_side_and_one_abandons(world):
    for member in (world.alice, world.bob):
        await world.tester.slash(member, world.channel, "soliterrapin play")
    await world.tester.idle()
    again = await world.tester.slash(world.alice, world.channel, "soliterrapin play")
    assert again.text == "You already have a game going in this channel."
    await place(world, world.bob, random.Random(2))
    message = board_message(world, world.alice)
    await world.tester.click(world.alice, message, "Abandon")
    await world.tester.idle()
    assert "abandoned this board (1 card down)." in world.fake.messages[message.id].text()
    assert await world.bot.database.fetch_all("SELECT * FROM results") == []


async def test_the_daily_deck_is_shared_once_a_day_and_new_tomorrow(world):
    for member in (world.alice, world.bob):
        await world.tester.slash(member, world.channel, "soliterrapin daily")
    await world.tester.idle()
    first_cards = {
        board_message(world, m).embeds[0]["description"].split("**")[1]
        for m in (world.alice, world.bob)
    }
    assert len(first_cards) == 1  # the same card to place for both
    # Dealt from the date, not from a seed: no commitment that would promise nothing.
    board = board_message(world, world.alice)
    assert "commitment" not in board.text().lower()
    await world.tester.click(world.alice, board, "Abandon")
    await world.tester.idle()
    closed = world.fake.messages[board.id].text()
    assert "is dealt from its date, the same deck for everyone" in closed
    assert "Seed `" not in closed
    again = await world.tester.slash(world.alice, world.channel, "soliterrapin daily")
    assert again.text.startswith("You have already played today's daily challenge")
    world.clock.now += timedelta(days=1)
    tomorrow = await world.tester.slash(world.alice, world.channel, "soliterrapin daily")
    assert tomorrow.response.ephemeral and "2026-11-23" in tomorrow.text


async def test_a_board_resumes_after_a_restart(world):
    await world.tester.slash(world.alice, world.channel, "soliterrapin play")
    await world.tester.idle()
    await place(world, world.alice, random.Random(3))
    message = board_message(world, world.alice)
    await world.stop_bot()
    await world.start_bot()
    await world.tester.idle()
    custom_id, value, _ = spot_options(message)[0]  # a select posted before the restart
    reply = await world.tester.choose(world.alice, message, [value], custom_id)
    assert reply.response is message  # the answer redraws the board itself
    await world.tester.idle()
    assert len(world.bot.runtime.get(next(iter(world.bot.runtime.tables))).state.cells) == 3


async def choose_spot(world: World, user: User, label: str) -> None:
    message = board_message(world, user)
    custom_id, value = next((c, v) for c, v, name in spot_options(message) if name == label)
    reply = await world.tester.choose(user, message, [value], custom_id)
    assert not (reply.response and reply.response.ephemeral), reply.text
    await world.tester.idle()


async def test_spot_names_stay_as_the_board_grows_and_match_its_picture(world, monkeypatch):
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def record(self, xy, text, *args, **kwargs):
        drawn.append(text)
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    await world.tester.slash(world.alice, world.channel, "soliterrapin play")
    await world.tester.idle()
    await choose_spot(world, world.alice, "E6")  # left of the first card
    await choose_spot(world, world.alice, "E5")  # and up from there
    drawn.clear()
    await choose_spot(world, world.alice, "D5")  # further left: every name stays
    message = board_message(world, world.alice)
    labels = {label for _, _, label in spot_options(message)}
    assert {"G6", "F7", "F5", "C5", "D4", "E7"} <= labels
    assert labels <= set(drawn)  # each spot on the picture carries the select's name
    assert {"C", "D", "E", "F", "G", "4", "5", "6", "7"} <= set(drawn)  # the edges name them
    png_of(world, message)
    text = message.text()
    assert "Card to place" in text and "  D    E    F    G" in text  # the text board agrees


def edits_in(world: World, since: int) -> list[float]:
    """When the bot edited messages in the channel with its own token, since call `since`."""
    path = f"/channels/{world.channel.id}/messages/"
    return [c.at for c in world.fake.calls[since:] if c.method == "PATCH" and path in c.path]


async def test_a_move_redraws_the_board_in_its_answer_and_boards_share_the_channels_pace(world):
    """A move is answered by redrawing the board in the click's own answer, outside Discord's
    limits on the bot's edits; the edits the bot makes itself (here, after a restart) are paced
    per channel, which boards share: no closer together than TABLE_EDIT_SECONDS."""
    for member in (world.alice, world.bob):
        await world.tester.slash(member, world.channel, "soliterrapin play")
    await world.tester.idle()
    since, rng = len(world.fake.calls), random.Random(5)
    last_edit = world.bot.presenter.messages.last_edit
    turn = last_edit.get(world.channel.id)  # the channel's latest edit
    for member in (world.alice, world.bob, world.alice):
        before = board_message(world, member).text()
        await place(world, member, rng)
        assert board_message(world, member).text() != before
    assert edits_in(world, since) == []
    assert last_edit.get(world.channel.id) == turn  # nor took turns there
    world.settings.table_edit_seconds = 0.3
    await world.stop_bot()
    with sqlite3.connect(world.settings.database_path) as db:  # a crash: both boards redrawn
        db.execute("UPDATE game_tables SET drawn = NULL")
    since = len(world.fake.calls)
    await world.start_bot()
    await world.tester.idle()
    first, second = edits_in(world, since)  # both boards: "the bot restarted"
    # Turns are taken before each board is drawn, and drawing one takes a varying few ms: the
    # fake sees the edits up to that much closer (0.289 s once), never at once.
    assert second - first >= 0.25
