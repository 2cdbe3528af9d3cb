"""The bot losing access where it plays. A moderator removes it from the server (Discord's
GUILD_DELETE, not an outage): its tables there close and pay everyone out, its tournaments
are cancelled with every buy-in back, and each player hears why by DM; nothing can be shown
there any more (every call is refused 403), and nothing is logged as an error (the world
fixture). Before, the tables played on by timeouts, every write to the server refused, their
chips held until they ended. Or a moderator takes its permission to post in a channel: no
table or tournament opens there, with one sentence saying why, and no chip moves."""

import pytest

from bot.store.tournaments import TournamentStatus
from tests.discord.test_tournament_e2e import add_players, status, wait_for_round
from tests.e2e import eventually
from tests.fakediscord.server import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL
from tests.tables_e2e import TableDriver, balances


async def test_removed_from_a_server_the_bot_closes_its_tables_and_tournaments(world):
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob], buy_in=300)
    await western.start(world.alice)
    await western.play("Bet 2")
    lobby_channel = world.fake.add_channel(world.guild)
    await world.tester.slash(world.carol, lobby_channel, "lowball new", buy_in=200)
    players = add_players(world, 2)
    tournaments = world.fake.add_channel(world.guild)
    await world.tester.slash(
        world.admin, tournaments, "tournament new", game="bigtwo", format="elimination", buy_in=50
    )
    await world.tester.idle()
    (tournament,) = await world.bot.tournament_store.of_guild(world.guild.id)
    (message,) = [m for m in world.tester.channel_messages(tournaments) if m.buttons()]
    for player in players:
        await world.tester.click(player, message, "Register")
    await world.tester.click(world.admin, message, "Start")
    await wait_for_round(world, tournament.id, 1)
    await world.tester.idle()

    await world.fake.remove_bot(world.guild)
    # Each table in play finishes its hand as it closes, a commit a step.
    await eventually(lambda: not world.bot.runtime.tables, what="every table closed")
    await world.tester.idle()

    assert await status(world, tournament.id) == TournamentStatus.CANCELLED
    totals = await world.bot.ledger.totals(world.guild.id)
    assert totals.escrows == 0 and totals.consistent
    assert await balances(world, world.carol, *players) == [1000, 1000, 1000]
    assert sum(await balances(world, world.alice, world.bob)) == 2000
    told = {user.name: world.tester.dms(user)[-1].content for user in (world.alice, world.carol)}
    assert told["Alice"].startswith(
        "The bot was removed from the server of your Western Terrapin table, so the table closed: "
    ), told
    assert told["Carol"].startswith("The bot was removed from the server of your Triple Draw")
    for player in players:
        assert world.tester.dms(player)[-1].content == (
            "The bot was removed from the server of your Big Two match, so its tournament was "
            "cancelled and every buy-in went back."
        )


async def test_removed_while_the_bot_was_down_it_closes_the_tables_it_resumed_there(world):
    """Discord's list of the bot's servers, at its start, lacks one it was removed from
    meanwhile (one in an outage is listed): the tables it resumed there close all the same."""
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob], buy_in=300)
    await western.start(world.alice)
    other_guild = world.fake.add_guild("Other")
    elsewhere = world.fake.add_channel(other_guild)
    host = world.fake.add_member(other_guild, "Dana")
    await world.tester.slash(host, elsewhere, "lowball new", buy_in=200)
    await world.tester.idle()
    table_id = western.table.id
    await world.stop_bot()
    world.guild.bot_removed = True  # no GUILD_DELETE: nobody was there to hear it
    await world.start_bot()

    def closed() -> bool:
        return table_id not in world.bot.runtime.tables

    await eventually(closed, what="the resumed table closed")
    await world.tester.idle()
    assert sum(await balances(world, world.alice, world.bob)) == 2000  # its hand played out
    assert (await world.bot.ledger.totals(world.guild.id)).escrows == 0
    told = world.tester.dms(world.alice)[-1].content
    assert told.startswith("The bot was removed from the server of your Western Terrapin table")
    # The server it is still in keeps its table.
    assert [t.record.channel_id for t in world.bot.runtime.tables.values()] == [elsewhere.id]


CANT_POST = (
    "The bot can't post in this channel: it needs View Channel, Send Messages, Embed Links and "
    "Attach Files here. Ask a moderator, or use another channel."
)


@pytest.mark.parametrize("taken", [VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES])
async def test_no_table_or_tournament_opens_where_the_bot_cannot_post(world, taken):
    world.fake.deny_bot(world.channel, taken)

    table = await world.tester.slash(world.alice, world.channel, "western new", buy_in=300)
    tournament = await world.tester.slash(
        world.admin, world.channel, "tournament new", game="bigtwo", format="swiss", buy_in=50
    )

    assert table.text == tournament.text == CANT_POST
    assert table.response.ephemeral and tournament.response.ephemeral
    await world.tester.idle()
    assert world.bot.runtime.tables == {}
    assert await world.bot.tournament_store.of_guild(world.guild.id) == []
    assert await balances(world, world.alice) == [1000]
    elsewhere = world.fake.add_channel(world.guild)
    opened = await world.tester.slash(world.alice, elsewhere, "western new", buy_in=300)
    assert opened.text.startswith("Your Western Terrapin table is open"), opened.text


async def test_table_show_says_so_where_the_bot_can_no_longer_post(world):
    western = TableDriver(world)
    await western.open("western new", world.alice, [world.bob], buy_in=300)
    await western.start(world.alice)
    world.fake.deny_bot(world.channel, SEND_MESSAGES)

    reply = await world.tester.slash(world.alice, world.channel, "table show")

    assert reply.text == CANT_POST
    await western.play("Bet 2")  # the table plays on by DM
    closed = await world.tester.slash(world.admin, world.channel, "table close")
    assert closed.text.startswith("The table is closed"), closed.text
