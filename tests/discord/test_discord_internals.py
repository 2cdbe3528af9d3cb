"""The contract bot/discord/internals.py has with discord.py's private API: if the pinned version
stops having what the bot relies on, these fail naming it."""

import importlib
import inspect

import discord
import pytest
from discord import app_commands

from bot.discord.controls import ActionButton
from bot.discord.internals import (
    PRIVATE_API,
    as_cog_method,
    compiled_template,
    forget_response,
    ignore_gateway_events,
    interaction_from,
    route_gateway_event,
    sync_global_commands,
)


@pytest.fixture
async def client():
    client = discord.Client(intents=discord.Intents(guilds=True))
    yield client
    await client.close()


def owner_of(path: str, client: discord.Client) -> object:
    """The object `path` names: a module, a class, or (for attributes discord.py sets on an
    instance) an instance made here."""
    made = {
        "discord.Client": client,
        "discord.state.ConnectionState": client._connection,
        "discord.http.HTTPClient": client.http,
        "discord.http.Route": discord.http.Route("GET", "/gateway"),
        "discord.ui.DynamicItem": ActionButton,  # set on each subclass, from its template
        "discord.app_commands.CommandTree": app_commands.CommandTree(client),
    }
    if path in made:
        return made[path]
    module, _, name = path.rpartition(".")
    try:
        return importlib.import_module(path)
    except ImportError:
        return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize(("owner", "attribute"), PRIVATE_API, ids=[a for _, a in PRIVATE_API])
def test_discord_py_still_has_the_private_attribute_the_bot_uses(owner, attribute, client):
    found = owner_of(owner, client)
    assert hasattr(found, attribute), f"discord.py {discord.__version__}: {owner} lost {attribute}"


def test_a_dropped_gateway_event_is_never_parsed(client):
    parse = client._connection.parsers["MESSAGE_CREATE"]
    ignore_gateway_events(client, ["MESSAGE_CREATE"])
    assert client._connection.parsers["MESSAGE_CREATE"] is not parse
    client._connection.parsers["MESSAGE_CREATE"]({"not": "a message"})  # nothing to parse


def test_a_routed_interaction_reaches_the_route_and_is_built_as_discord_py_builds_it(client):
    """A DM click as the gateway sends it: the route sees the payload first, and the parser
    it was put in front of, given the payload, dispatches the interaction discord.py built."""
    payload = {
        "id": "11",
        "application_id": "22",
        "type": 3,
        "token": "t",
        "version": 1,
        "attachment_size_limit": 10_485_760,
        "channel_id": "33",
        "user": {"id": "44", "username": "ann", "discriminator": "0", "avatar": None},
        "data": {"custom_id": "ta:5:1:fold", "component_type": 2},
    }
    seen, dispatched = [], []
    client._connection.dispatch = lambda event, *args: dispatched.append((event, *args))
    parser = route_gateway_event(client, "INTERACTION_CREATE", lambda parse: seen.append)
    client._connection.parsers["INTERACTION_CREATE"](payload)
    assert seen == [payload] and dispatched == []
    parser(payload)
    (interaction,) = [args[0] for event, *args in dispatched if event == "interaction"]
    built = interaction_from(client, payload)
    assert (
        (interaction.id, interaction.user.id, interaction.data)
        == (
            built.id,
            built.user.id,
            built.data,
        )
        == (11, 44, payload["data"])
    )


def test_a_dynamic_items_template_is_the_pattern_discord_py_compiled():
    assert compiled_template(ActionButton).fullmatch("ta:1:2:fold")
    assert compiled_template(ActionButton) is ActionButton.__discord_ui_compiled_template__


def test_the_cached_response_is_the_slot_discord_py_caches_it_in():
    """`Interaction.response` is cached in `_cs_response`, which `forget_response` frees."""
    cached = inspect.getattr_static(discord.Interaction, "response")
    assert getattr(cached, "name", None) == "_cs_response", (
        "discord.py caches the response elsewhere"
    )
    forget_response(object())  # an interaction whose response was never asked for: nothing to do


def test_a_callback_made_a_cogs_method_becomes_a_command_with_those_options():
    """discord.py reads the options from `__signature__`, skips `self` for a qualname inside a
    class, and takes the descriptions `describe` gives."""

    async def new(self, interaction, **values) -> None: ...

    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [
        inspect.Parameter("self", keyword),
        inspect.Parameter("interaction", keyword, annotation=discord.Interaction),
        inspect.Parameter("seats", keyword, annotation=app_commands.Range[int, 2, 6], default=4),
    ]
    as_cog_method(new, parameters, cog="TableGame")
    app_commands.describe(seats="How many seats")(new)
    command = app_commands.command(name="new", description="Open a table.")(new)
    (seats,) = command.parameters
    assert (seats.name, seats.min_value, seats.max_value, seats.default) == ("seats", 2, 6, 4)
    assert seats.description == "How many seats"


async def test_the_commands_sync_sends_what_tree_sync_sends_and_builds_it_once(client):
    """The same payload as discord.py's own sync, every word translated; asked again with
    the same commands and languages, it sends it without translating again."""
    tree = app_commands.CommandTree(client)

    @tree.command(name="deal", description="Deal a hand")
    @app_commands.describe(seats="How many seats")
    async def deal(interaction: discord.Interaction, seats: int) -> None: ...

    translated = []

    class Shouting(app_commands.Translator):
        async def translate(self, string, locale, context):
            translated.append(string.message)
            return string.message.upper() if locale is discord.Locale.french else None

    await tree.set_translator(Shouting())
    client._connection.application_id = 77
    sent = []

    async def upsert(application_id, *, payload):
        sent.append((application_id, payload))
        return [
            {**command, "id": "1", "application_id": "77", "version": "1"} for command in payload
        ]

    tree._http.bulk_upsert_global_commands = upsert
    await tree.sync()
    words = len(translated)
    synced = await sync_global_commands(tree, "one edition")
    assert sent[1] == sent[0] and sent[0][1][0]["name_localizations"] == {"fr": "DEAL"}
    assert [command.name for command in synced] == ["deal"]
    await sync_global_commands(tree, "one edition")
    assert len(translated) == 2 * words and sent[2] == sent[0]
    await sync_global_commands(tree, "another edition")
    assert len(translated) == 3 * words
