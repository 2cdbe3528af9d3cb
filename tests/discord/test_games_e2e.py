"""The games' slash groups through the fake Discord: guild-only as a whole, a DM refused, the
rules' table line, and the claims Liar's Terrapin offers in its select. And every game's deal
event is the engine's HandStarted, which the presenter treats as a new deal."""

import sys

import pytest
from pydantic import BaseModel

import bot.games  # noqa: F401  (registers every game)
from bot.engine import Event, HandStarted, registry
from tests.fakediscord import Message
from tests.tables_e2e import TableDriver

GAME_GROUPS = sorted(spec.id for spec in registry.games())  # each game's group is its id


def deal_events(module) -> list[type[BaseModel]]:
    """The events of a game module whose kind is "hand_started"."""
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Event) and value is not Event
        if value.model_fields["kind"].default == "hand_started"
    ]


def test_every_games_deal_event_is_the_engines_hand_started():
    found = {
        spec.id: deal_events(sys.modules[spec.state_model.__module__]) for spec in registry.games()
    }
    own = {game: [e for e in events if e is not HandStarted] for game, events in found.items()}
    # the scan finds the games known to have a deal event of their own
    assert {"bigtwo", "doudizhu", "western"} <= {game for game, events in own.items() if events}
    assert all(issubclass(event, HandStarted) for events in own.values() for event in events), own


def synced(world, name: str) -> dict:
    return next(c for c in world.fake.commands[None] if c["name"] == name)


@pytest.mark.parametrize("group", GAME_GROUPS)
async def test_every_game_group_is_guild_only_and_refused_in_a_dm(world, group):
    command = synced(world, group)
    assert command["dm_permission"] is False and command["contexts"] == [0]  # 0: servers
    dm = world.fake._open_dm(world.alice.id)
    subcommands = [option["name"] for option in command["options"]]
    for subcommand in subcommands:
        reply = await world.tester.slash(world.alice, dm, f"{group} {subcommand}", checked=False)
        assert reply.text == "This command works only in a server.", (subcommand, reply.text)
        assert reply.response.ephemeral
    await world.tester.idle()
    assert world.bot.runtime.tables == {} and world.tester.channel_messages(world.channel) == []


async def test_the_rules_table_line_has_no_stray_separator(world):
    driver = TableDriver(world)
    await driver.open("doudizhu new", world.alice, [world.bob], buy_in=40)
    rules = await world.tester.slash(world.alice, world.channel, "doudizhu rules")
    (field,) = rules.response.embeds[0]["fields"]
    assert field["value"] == "buy-in 40 · turn time 120 s", field["value"]


def claims_offered(message: Message) -> list[str]:
    return [
        option["label"]
        for row in message.components
        for item in row["components"]
        if item["type"] == 3
        for option in item["options"]
    ]


async def test_liars_offers_claims_at_most_24_above_the_last(world):
    driver = TableDriver(world)
    await driver.open("liars new", world.alice, [world.bob, world.carol], buy_in=30)
    await driver.start(world.alice)
    first = claims_offered(await driver.controls(world.alice))
    assert first == [f"Claim {n}" for n in range(1, 25)]
    await driver.play("Claim 1")  # alice
    await driver.play("Accept")  # bob takes the hand
    await driver.play("Done discarding")
    after_one = claims_offered(await driver.controls(world.bob))
    assert after_one == [f"Claim {n}" for n in range(2, 26)]  # not up to 26
    rules = await world.tester.slash(world.alice, world.channel, "liars rules")
    assert "at most 24 above the last one" in rules.text
