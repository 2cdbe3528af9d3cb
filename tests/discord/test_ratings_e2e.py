"""Skill ratings end to end: a real Western Terrapin table played to its close rates its hand,
then /leaderboard's skill view and /stats show the ratings; bad requests get a sentence."""

import pytest
from openskill.models import PlackettLuce

from tests.tables_e2e import TableDriver

MODEL = PlackettLuce()


def skill_after(ranks: list[float]) -> list[str]:
    """Each newcomer's skill (mu - 3 sigma) after one result with these ranks, as shown."""
    rated = MODEL.rate([[MODEL.rating()] for _ in ranks], ranks=ranks)
    return [f"{team[0].mu - 3 * team[0].sigma:.1f}" for team in rated]


def field(embed: dict, name: str) -> str:
    return next(f["value"] for f in embed["fields"] if f["name"] == name)


async def skill_board(world, user, game: str = "western") -> dict:
    reply = await world.tester.slash(user, world.channel, "leaderboard", game=game, view="skill")
    assert not reply.response.ephemeral, reply.text
    return reply.response.embeds[0]


@pytest.mark.both_backends
async def test_a_table_played_to_its_close_shows_on_the_skill_board_and_in_stats(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    western = TableDriver(world)
    await western.open("western new", alice, [bob, carol], buy_in=50)
    await western.start(alice)
    await western.play("Fold")  # bob
    await western.play("Fold")  # carol: alice wins the hand
    await western.leave_one_player(bob, carol)  # the table closes
    first, second, _ = skill_after([1.0, 2.0, 2.0])

    # One hand each: below RATING_MIN_MATCHES (10), nobody is listed yet.
    embed = await skill_board(world, alice)
    assert embed["title"] == "Western Terrapin skill ratings"
    assert embed["description"] == "Nobody has 10 rated hands yet."
    assert field(embed, "Your place") == (
        f"<@{alice.id}> has skill {first} · 1 win in 1 hand: the board lists players from 10 hands."
    )
    world.bot.settings.rating_min_matches = 1
    embed = await skill_board(world, bob)
    assert embed["description"].splitlines() == [
        f"**1.** <@{alice.id}> · skill {first} · 1 win in 1 hand",
        f"**2.** <@{bob.id}> · skill {second} · 0 wins in 1 hand",  # a tie: the same rank
        f"**2.** <@{carol.id}> · skill {second} · 0 wins in 1 hand",
    ]
    assert field(embed, "Your place") == f"<@{bob.id}> is #2 · skill {second} · 0 wins in 1 hand."
    assert embed["footer"]["text"].startswith("Page 1 of 1 · skill: a cautious estimate")

    mine = (await world.tester.slash(alice, world.channel, "stats")).response.embeds[0]
    assert mine["title"] == "Skill ratings of Alice"
    assert field(mine, "Western Terrapin") == (
        f"skill {first} · 1 win in 1 hand · #1 on the board\nLast: 1st (+{first})"
    )
    theirs = await world.tester.slash(alice, world.channel, "stats", member=bob)
    assert field(theirs.response.embeds[0], "Western Terrapin") == (
        f"skill {second} · 0 wins in 1 hand · #2 on the board\nLast: 2nd ({second})"
    )


async def test_nothing_rated_yet_and_bad_requests_get_a_sentence(world):
    nobody = await world.tester.slash(world.alice, world.channel, "stats", member=world.bob)
    assert nobody.response.embeds[0]["description"].startswith(
        f"{world.bob.mention} has no rated results yet"
    )
    refusals = {
        "Skill ratings are per game: pick a game to see its skill board.": {"view": "skill"},
        "Backhand isn't rated: /backhand rules says why.": {"game": "backhand", "view": "skill"},
    }
    for sentence, options in refusals.items():
        reply = await world.tester.slash(world.alice, world.channel, "leaderboard", **options)
        assert reply.response.ephemeral and reply.text == sentence
    robot = await world.tester.slash(world.alice, world.channel, "stats", member=world.robot)
    assert robot.response.ephemeral and robot.text == "Bots aren't rated."
    # Refused before anything: not even an account was opened.
    assert await world.bot.leaderboards.member_count(world.guild.id) == 0


async def test_a_skill_board_pages_by_its_own_buttons(world):
    embed_reply = await world.tester.slash(
        world.alice, world.channel, "leaderboard", game="bigtwo", view="skill"
    )
    ids = [button["custom_id"] for button in embed_reply.response.buttons()]
    assert ids == ["lb:0:bigtwo:skill", "lb:1:bigtwo:skill"]
    page = await world.tester.forge(
        world.bob, world.channel, "lb:0:bigtwo:skill", message=embed_reply.response
    )
    assert page.response.embeds[0]["title"] == "Big Two skill ratings"
    forged = await world.tester.forge(
        world.bob, world.channel, "lb:0:backhand:skill", message=embed_reply.response
    )
    assert (
        forged.response.ephemeral
        and forged.text == "Backhand isn't rated: /backhand rules says why."
    )


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("western rules", "each hand rates its players, winners ahead of the rest"),
        ("doudizhu rules", "The player alone is rated against the other two as a team."),
        ("botifarra rules", "Partners are rated as one team."),
        ("backhand rules", "Backhand is not rated: each player plays against the house."),
    ],
)
async def test_the_rules_say_how_a_game_is_rated(world, command, said):
    reply = await world.tester.slash(world.alice, world.channel, command)
    assert said in reply.response.embeds[0]["footer"]["text"]
