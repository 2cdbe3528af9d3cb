"""The fake Discord behaves like Discord where the bot depends on it, and refuses what Discord
refuses. Test-only commands are added to the running bot's tree for this."""

import contextlib
import time

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import DiscordClientRefuses, DiscordRefusal
from tests.fakediscord.limits import check_commands, check_message
from tests.fakediscord.server import DIRECT_MESSAGES, GUILD_MESSAGES


class Feedback(discord.ui.Modal, title="Feedback"):
    answer = discord.ui.TextInput(label="Your answer", custom_id="answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"got {self.answer.value}", ephemeral=True)


class Pick(discord.ui.View):
    @discord.ui.select(
        custom_id="pick", options=[discord.SelectOption(label=x) for x in "abc"], max_values=2
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(
            content=f"picked {' '.join(select.values)}", view=None
        )


@app_commands.command(description="open a modal")
async def ask(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(Feedback())


@app_commands.command(description="a select")
async def choose(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick some", view=Pick())


@app_commands.command(description="defer, then follow up, edit and delete")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.edit_original_response(content="done thinking")
    extra = await interaction.followup.send("a followup", wait=True)
    await extra.edit(content="an edited followup")
    note = await interaction.channel.send("temporary")
    await note.delete()


@app_commands.command(description="answer, then hold the event loop")
async def hold(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("answered")
    time.sleep(0.3)  # what a busy process does to everything waiting on its loop


@pytest.fixture
async def probes(world):
    for command in (ask, choose, slow, hold):
        world.bot.tree.add_command(command)
    await world.bot.tree.sync()
    return world


async def test_modal_submission_reaches_on_submit(probes):
    opened = await probes.tester.slash(probes.alice, probes.channel, "ask")
    assert opened.modal["title"] == "Feedback"
    submitted = await probes.tester.submit_modal(probes.alice, opened, {"answer": "forty-two"})
    assert submitted.text == "got forty-two" and submitted.response.ephemeral


async def test_select_choices_reach_the_view_and_edit_the_message(probes):
    reply = await probes.tester.slash(probes.alice, probes.channel, "choose")
    with pytest.raises(DiscordClientRefuses):
        await probes.tester.choose(probes.alice, reply.response, ["a", "z"])
    chosen = await probes.tester.choose(probes.alice, reply.response, ["a", "c"])
    assert chosen.response is reply.response
    assert reply.response.content == "picked a c" and reply.response.components == []


async def test_defer_followup_edit_and_delete(probes):
    reply = await probes.tester.slash(probes.alice, probes.channel, "slow")
    await probes.tester.idle()
    assert reply.response.content == "done thinking"
    assert [m.content for m in reply.followups] == ["an edited followup"]
    posted = [m for m in probes.fake.messages.values() if m.content == "temporary"]
    assert len(posted) == 1 and posted[0].deleted
    assert probes.tester.count_calls("DELETE", f"/channels/{probes.channel.id}/messages") == 1


async def test_a_followup_returns_its_message_only_when_asked_to_wait(probes):
    reply = await probes.tester.slash(probes.alice, probes.channel, "slow")
    await probes.tester.idle()
    webhook = discord.Webhook.partial(probes.bot.application_id, reply.token, client=probes.bot)
    assert await webhook.send("not waited for") is None  # Discord answers 204
    waited = await webhook.send("waited for", wait=True)
    assert [m.content for m in reply.followups][-2:] == ["not waited for", "waited for"]
    assert waited.id == reply.followups[-1].id
    sent = [c for c in probes.fake.calls if c.method == "POST" and "/webhooks/" in c.path]
    assert [c.status for c in sent][-2:] == [204, 200]


async def test_an_answer_is_timed_when_its_callback_comes_in(probes):
    """Not when the waiting player next runs: the load bench's handling time is the bot's."""
    reply = await probes.tester.slash(probes.alice, probes.channel, "hold")
    assert reply.text == "answered"
    assert probes.tester.answer_times[-1] < 0.3


async def test_dms_arrive_or_fail_with_50007(world):
    world.carol.accepts_dms = False
    alice_dm = await world.bot.create_dm(discord.Object(world.alice.id))
    await alice_dm.send("your hand")
    assert [m.content for m in world.tester.dms(world.alice)] == ["your hand"]
    carol_dm = await world.bot.create_dm(discord.Object(world.carol.id))
    with pytest.raises(discord.Forbidden) as refused:
        await carol_dm.send("your hand")
    assert refused.value.code == 50007
    assert world.tester.dms(world.carol) == []


async def test_discord_limits_are_refused_with_400(world):
    with pytest.raises(discord.HTTPException) as refused:
        await world.bot.get_channel(world.channel.id).send("x" * 2001)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert world.tester.channel_messages(world.channel) == []


async def test_another_member_cannot_click_an_ephemeral_message(probes):
    probes.bot.tree.remove_command("choose")

    @app_commands.command(name="choose", description="a private select")
    async def private_choose(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick", view=Pick(), ephemeral=True)

    probes.bot.tree.add_command(private_choose)
    await probes.bot.tree.sync()
    reply = await probes.tester.slash(probes.alice, probes.channel, "choose")
    with pytest.raises(DiscordClientRefuses, match="ephemeral"):
        await probes.tester.choose(probes.bob, reply.response, ["a"])


def row(*items):
    return {"type": 1, "components": list(items)}


def button(custom_id, label="ok"):
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def select(count):
    return {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": str(i), "value": str(i)} for i in range(count)],
    }


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"content": "x" * 2001}, "content length"),
        ({"components": [row(button(f"b{i}")) for i in range(6)]}, "action row count"),
        ({"components": [row(*[button(f"b{i}") for i in range(6)])]}, "buttons in one action row"),
        ({"components": [row(select(26))]}, "select option count"),
        ({"components": [row(select(3), button("b"))]}, "alone in its action row"),
        ({"components": [row(button("x" * 101))]}, "custom_id length"),
        ({"components": [row(button("a"), button("a"))]}, "unique"),
        ({"components": [row(button("a", label="x" * 81))]}, "button label length"),
        ({"embeds": [{"title": "x" * 257}]}, "embed title length"),
        ({"embeds": [{"description": "x" * 4097}]}, "embed description length"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embed field count"),
        (
            {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]},
            "total embed text",
        ),
        ({"embeds": [{}] * 11}, "embed count"),
    ],
)
def test_limits(body, reason):
    with pytest.raises(DiscordRefusal, match=reason):
        check_message(body)


def test_limits_accept_what_discord_accepts():
    check_message(
        {
            "content": "x" * 2000,
            "components": [row(*[button(f"b{r}{i}") for i in range(5)]) for r in range(4)]
            + [row(select(25))],
            "embeds": [
                {
                    "title": "t" * 256,
                    "description": "d" * 4096,
                    "fields": [{"name": "n", "value": "v"}] * 25,
                }
            ],
        }
    )


async def gateway_client(fake, intents: int):
    """A bare gateway connection identified with `intents`, past READY and its guilds."""
    session = aiohttp.ClientSession()
    socket = await session.ws_connect(fake.gateway_url)
    await socket.receive_json()  # hello
    await socket.send_json({"op": 2, "d": {"token": fake.token, "intents": intents}})
    while (await socket.receive_json())["t"] != "GUILD_CREATE":
        pass
    return session, socket


async def heard(socket) -> list[tuple[str, str]]:
    """The message events that reach the client, by kind and message id, until it goes quiet."""
    events = []
    with contextlib.suppress(TimeoutError):
        while True:
            event = await socket.receive_json(timeout=0.2)
            events.append((event["t"], event["d"]["id"]))
    return events


@pytest.mark.parametrize(
    ("intents", "hears_guild", "hears_dms"),
    [(GUILD_MESSAGES, True, False), (DIRECT_MESSAGES, False, True), (1, False, False)],
)
async def test_message_events_reach_the_clients_whose_intents_ask_for_them(
    world, intents, hears_guild, hears_dms
):
    """As Discord: a message made, edited or deleted is an event for every client that asked
    for its kind of channel's messages, never for an ephemeral one."""
    fake = world.fake
    session, socket = await gateway_client(fake, intents)
    try:
        dm = fake._open_dm(world.alice.id)
        posted = fake._new_message(world.channel, {"content": "table"}, [])
        fake._edit(posted, {"content": "table, redrawn"}, [])
        fake._message_verb("DELETE", posted, None, [])
        fake._new_message(world.channel, {"content": "yours"}, [], visible_to=world.alice.id)
        prompt = fake._new_message(dm, {"content": "your turn"}, [])
        fake._edit(prompt, {"content": "played"}, [])
        events = await heard(socket)
    finally:
        await session.close()
    guild_events = [
        ("MESSAGE_CREATE", str(posted.id)),
        ("MESSAGE_UPDATE", str(posted.id)),
        ("MESSAGE_DELETE", str(posted.id)),
    ]
    dm_events = [("MESSAGE_CREATE", str(prompt.id)), ("MESSAGE_UPDATE", str(prompt.id))]
    assert events == guild_events * hears_guild + dm_events * hears_dms


def command_with(*options: dict) -> list[dict]:
    return [{"name": "game", "description": "A game", "options": list(options)}]


def option(name: str, **localized: str) -> dict:
    return {"name": name, "description": "An option", "type": 4, "name_localizations": localized}


@pytest.mark.parametrize(
    "commands",
    [
        command_with(option("new", **{"es-ES": "nueva"}), option("rules", **{"es-ES": "nueva"})),
        command_with(option("new", **{"es-ES": "Nueva"})),  # capitals
        command_with(option("new", **{"es-ES": "nueva mesa"})),  # a space
        command_with(option("new", **{"ca": "nova"})),  # not one of Discord's locales
        [{"name": "game", "description": "x" * 101}],
    ],
)
def test_the_fake_refuses_command_registrations_discord_refuses(commands):
    with pytest.raises(DiscordRefusal):
        check_commands(commands)


def test_the_fake_takes_well_formed_localized_commands():
    check_commands(command_with(option("new", **{"es-ES": "nueva", "zh-CN": "新建"})))
