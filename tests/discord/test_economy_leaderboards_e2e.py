"""/leaderboard game:X ranks each kind of game the way it is won, and its page buttons refuse
custom_ids the bot never made."""

import copy
from datetime import timedelta

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.engine import registry
from bot.store import ResultRow


async def record(world, key: str, *rows: ResultRow) -> None:
    assert await world.bot.ledger.settle(world.guild.id, [], rows, key=key)


async def board_of(world, user, game: str) -> dict:
    reply = await world.tester.slash(user, world.channel, "leaderboard", game=game)
    assert not reply.response.ephemeral
    return reply.response.embeds[0]


def field(embed: dict, name: str) -> str:
    return next(f["value"] for f in embed["fields"] if f["name"].startswith(name))


# ---- each kind of game ---------------------------------------------------------------------


def western(member, placing: int, net: int, scope: str = "hand") -> ResultRow:
    return ResultRow("western", member.id, 0, placing, net, table_id=1, scope=scope)


@pytest.mark.both_backends
async def test_a_chip_game_ranks_chips_won_and_counts_only_hands(world):
    alice, bob = world.alice, world.bob
    await record(world, "h1", western(alice, 1, 30), western(bob, 2, -30))
    await record(world, "h2", western(alice, 2, -10), western(bob, 1, 10))
    # A carried pot shared out at the close, then the table's whole-session rows.
    await record(world, "close", western(alice, 2, 6, "settle"), western(bob, 2, 4, "settle"))
    await record(world, "match", western(alice, 1, 26, "match"), western(bob, 2, -16, "match"))
    embed = await board_of(world, alice, "western")
    assert embed["title"] == "Western Terrapin leaderboard"
    assert embed["description"].splitlines() == [
        f"**1.** <@{alice.id}> · +26 chips · 1 win in 2 hands",
        f"**2.** <@{bob.id}> · -16 chips · 1 win in 2 hands",
    ]
    assert field(embed, "Your place") == f"<@{alice.id}> is #1 · +26 chips · 1 win in 2 hands."
    assert embed["footer"]["text"] == "Page 1 of 1"


def big_two(member, placing: int, scope: str = "match") -> ResultRow:
    return ResultRow("bigtwo", member.id, 0, placing, 0, score=100 * placing, scope=scope)


@pytest.mark.both_backends
async def test_a_points_game_ranks_matches_won_then_average_place_without_chips(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    for index, placings in enumerate([(1, 2, 3), (1, 3, 2), (2, 1, 3), (3, 2, 1), (1, 2, 3)]):
        rows = [big_two(m, p) for m, p in zip((alice, bob, carol), placings, strict=True)]
        await record(world, f"match-{index}", *rows)
    for hand in range(6):  # hands of a match are not matches
        await record(world, f"hand-{hand}", big_two(carol, 1, "hand"), big_two(bob, 2, "hand"))
    embed = await board_of(world, bob, "bigtwo")
    assert embed["description"].splitlines() == [
        f"**1.** <@{alice.id}> · 3 wins in 5 matches · average place 1.6",
        f"**2.** <@{bob.id}> · 1 win in 5 matches · average place 2.0",  # wins tie: the
        f"**3.** <@{carol.id}> · 1 win in 5 matches · average place 2.4",  # lower average
    ]
    assert (
        field(embed, "Your place") == f"<@{bob.id}> is #2 · 1 win in 5 matches · average place 2.0."
    )
    assert "chip" not in str(embed)


def board(member, score: int | None, day: str | None = None, scope="hand") -> ResultRow:
    variant = f"daily:{day}" if day else None
    return ResultRow("soliterrapin", member.id, 0, 1, 0, score=score, variant=variant, scope=scope)


@pytest.mark.both_backends
async def test_a_solo_game_ranks_best_scores_with_todays_daily_beside(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    today = world.clock.now.date()
    yesterday = (today - timedelta(days=1)).isoformat()
    await record(world, "a1", board(alice, 41))
    await record(world, "a2", board(alice, 35, today.isoformat()))
    await record(world, "b1", board(bob, 58, yesterday))
    await record(world, "b2", board(bob, 30, today.isoformat()))
    await record(world, "c1", board(carol, None))  # no score: not ranked
    await record(world, "m1", board(carol, 99, scope="match"), board(alice, 99, scope="match"))
    embed = await board_of(world, carol, "soliterrapin")
    assert embed["description"].splitlines() == [
        f"**1.** <@{bob.id}> · best 58 in 2 games",
        f"**2.** <@{alice.id}> · best 41 in 2 games",
    ]
    assert (
        field(embed, "Your place")
        == f"<@{carol.id}> has no Soliterrapin results yet: finish a game to join the board."
    )
    assert field(embed, f"Today's daily ({today.isoformat()})").splitlines() == [
        f"**1.** <@{alice.id}> · 35",
        f"**2.** <@{bob.id}> · 30",
    ]
    world.clock.now += timedelta(days=1)
    tomorrow = await board_of(world, carol, "soliterrapin")
    assert field(tomorrow, "Today's daily") == "Nobody has finished today's daily yet."


@pytest.mark.parametrize("game", sorted(spec.id for spec in registry.games()))
async def test_every_game_has_its_own_board(world, game):
    embed = await board_of(world, world.alice, game)
    assert registry.get(game).name in embed["title"]
    assert embed["description"] == "Nobody is ranked here yet."
    spec = registry.get(game)
    unit = "game" if spec.solo else "hand" if spec.uses_chips else "match"
    expected = (
        f"<@{world.alice.id}> has no {spec.name} results yet: finish a {unit} to join the board."
    )
    assert field(embed, "Your place") == expected


async def test_a_game_board_pages_and_keeps_its_game(world):
    players = [world.fake.add_member(world.guild, f"Player {i}") for i in range(12)]
    rows = [big_two(p, 1 if i < 6 else 2) for i, p in enumerate(players)]
    await record(world, "match", *rows)
    reply = await world.tester.slash(world.alice, world.channel, "leaderboard", game="bigtwo")
    page_two = await world.tester.click(world.bob, reply.response, "Next")
    embed = page_two.response.embeds[0]
    assert embed["title"] == "Big Two leaderboard"
    assert embed["description"].splitlines() == [
        f"**7.** <@{players[10].id}> · 0 wins in 1 match · average place 2.0",
        f"**7.** <@{players[11].id}> · 0 wins in 1 match · average place 2.0",
    ]
    assert embed["footer"]["text"] == "Page 2 of 2"


# ---- forged page buttons -------------------------------------------------------------------

FORGED = [
    "lb:1:poker",  # not a game
    "lb:one:western",  # not a page
    "lb:-1:",  # the bot never makes a page before the first
    "lb:01:",  # nor a number with a leading zero
    "lb:1:western:extra",
    "lb:1:western\n",
    "lb:",
    "lb:garbage",
    "lb:1:2:3:western",
    "lb:5:0:poker",  # the older form (a member id first), with a game that isn't one
    "lb:5:-1:",
]


def carry(message, custom_id: str) -> None:
    """Put `custom_id` on the board's Next button, as an older message could carry it (say, a
    game since removed) or a modified one: discord.py then hands the click to whatever
    template fits it."""
    message.payload["components"][0]["components"][1]["custom_id"] = custom_id


@pytest.mark.parametrize("custom_id", FORGED)
async def test_a_forged_page_button_is_refused(world, custom_id):
    reply = await world.tester.slash(world.alice, world.channel, "leaderboard")
    before = copy.deepcopy(reply.response.payload)
    forged = await world.tester.forge(world.bob, world.channel, custom_id, message=reply.response)
    assert forged.response.ephemeral
    assert forged.text == "This button is no longer valid."
    assert reply.response.payload == before  # the board itself was not touched


@pytest.mark.parametrize("custom_id", FORGED)
async def test_a_page_button_on_the_message_that_the_bot_never_made_is_refused(world, custom_id):
    reply = await world.tester.slash(world.alice, world.channel, "leaderboard")
    carry(reply.response, custom_id)
    forged = await world.tester.forge(world.bob, world.channel, custom_id, message=reply.response)
    assert forged.response.ephemeral
    assert forged.text == "This button is no longer valid."


async def test_a_forged_page_button_without_a_message_is_refused(world):
    forged = await world.tester.forge(world.bob, world.channel, "lb:x:")
    assert forged.text == "This button is no longer valid."


async def test_a_page_button_made_before_ranks_followed_the_clicker_still_works(world):
    reply = await world.tester.slash(world.alice, world.channel, "leaderboard", game="western")
    old_id = f"lb:{world.alice.id}:0:western"  # the opener's id, the page, the game
    carry(reply.response, old_id)
    page = await world.tester.forge(world.bob, world.channel, old_id, message=reply.response)
    assert not page.response.ephemeral
    assert page.response.embeds[0]["title"] == "Western Terrapin leaderboard"
    assert page.response.embeds[0]["fields"][0]["value"].startswith(f"<@{world.bob.id}>")
