"""What a member can do in the fake Discord: run a slash command, click, choose, submit a modal.

Each action sends a real INTERACTION_CREATE over the gateway and waits until the bot answers
(failing after Discord's 3-second limit). It refuses what Discord's own client would not send
(missing required options, values out of range, clicking a disabled button). An interaction
whose shard no connection holds fails at once (NotAnswered), as nothing could answer it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from tests.fakediscord.server import (
    ANSWER_WITHIN,
    Channel,
    FakeDiscord,
    Interaction,
    Message,
    User,
)

OPTION_TYPES = {3: str, 4: int, 5: bool, 10: float}
DEFERRED_MESSAGE = 5  # Discord's callback type for "thinking...", edited into the answer later
FOLLOWED_UP_WITHIN = 10.0  # Discord waits 15 minutes for it; a test, this long


class DiscordClientRefuses(ValueError):
    """Discord's client would not let a member send this."""


class NotAnswered(AssertionError):
    """The bot did not answer an interaction in time (Discord shows "interaction failed")."""


IDLE_POLL_SECONDS = 0.005  # how often `idle` looks for signs of the bot at work


class Tester:
    __test__ = False  # not a test class, whatever pytest makes of its name where imported

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        # Seconds from sending each interaction to its callback coming in (as Discord sees it).
        self.answer_times: list[float] = []
        # When each interaction was sent, by id (time.monotonic(): one clock for every process
        # on this machine, so a bot in a process of its own can be timed from here).
        self.sent_at: dict[int, float] = {}
        # Whether the bot is still working on something it will show (set by the test world).
        self.bot_busy: Callable[[], bool] = lambda: False

    # ---- actions ----------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        *,
        checked: bool = True,
        age: float = 0.0,
        **options: object,
    ) -> Interaction:
        """Run `/command` (with a space for subcommands: "chips grant") with named options.
        `checked=False` sends what a modified client could: values of any type or size, and
        required options left out. `age`: seconds it took to reach the bot."""
        top, *path = command.split()
        definition = self._command(channel, top)
        data = {"id": definition["id"], "name": top, "type": 1}
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        holder, nest = definition, data
        for name in path:
            holder = next((o for o in holder.get("options", []) if o["name"] == name), None)
            if holder is None:
                raise DiscordClientRefuses(f"/{command}: no subcommand {name!r}")
            child = {"name": name, "type": holder["type"]}
            nest["options"] = [child]
            nest = child
        nest["options"], resolved = self._options(channel, command, holder, options, checked)
        if resolved:
            data["resolved"] = resolved
        return await self._send(user, channel, 2, data, age=age)

    async def click(
        self, user: User, message: Message, label: str, *, age: float = 0.0
    ) -> Interaction:
        """Press a button. `age`: seconds the click took to reach the bot (Discord's 3 s to
        answer count from when it was made)."""
        button = message.button(label)
        if button.get("disabled"):
            raise DiscordClientRefuses(f"the {label!r} button is disabled")
        return await self.press_id(user, message, button["custom_id"], age=age)

    async def press_id(
        self, user: User, message: Message, custom_id: str, *, age: float = 0.0
    ) -> Interaction:
        """Press the button of `message` with this custom_id (one with no label, too)."""
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send(user, self._channel(message), 3, data, message, age=age)

    async def choose(
        self,
        user: User,
        message: Message,
        values: list[str],
        custom_id: str | None = None,
        *,
        age: float = 0.0,
    ) -> Interaction:
        selects = [c for row in message.components for c in row["components"] if c["type"] == 3]
        select = next((s for s in selects if custom_id in (None, s["custom_id"])), None)
        if select is None:
            raise LookupError(f"no select {custom_id or ''} on message {message.id}")
        allowed = {option["value"] for option in select["options"]}
        if not set(values) <= allowed:
            raise DiscordClientRefuses(f"{values} are not all options of the select")
        if not select.get("min_values", 1) <= len(values) <= select.get("max_values", 1):
            raise DiscordClientRefuses(f"{len(values)} values is outside the select's bounds")
        data = {"custom_id": select["custom_id"], "component_type": 3, "values": values}
        return await self._send(user, self._channel(message), 3, data, message, age=age)

    async def forge(
        self,
        user: User,
        channel: Channel,
        custom_id: str,
        *,
        values: list[str] | None = None,
        message: Message | None = None,
        age: float = 0.0,
    ) -> Interaction:
        """A component interaction a modified client could send: any custom_id, from any
        channel the member is in, a select with any values. With a `message`, the forged
        component stands on it (the worst case: as if Discord had accepted it there)."""
        kind = 2 if values is None else 3
        data: dict = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = values
        if message is not None:
            component = {"type": kind, "custom_id": custom_id}
            if kind == 2:
                component |= {"style": 1, "label": "forged"}
            else:
                component["options"] = [{"label": v, "value": v} for v in values or ["-"]]
            payload = {**message.payload, "components": [{"type": 1, "components": [component]}]}
            message = Message(message.id, message.channel_id, message.author, payload)
        return await self._send(user, channel, 3, data, message, checked=False, age=age)

    async def forge_form(
        self, user: User, channel: Channel, custom_id: str, answer: str = ""
    ) -> Interaction:
        """A form's submit a modified client could send without the bot having opened it: any
        custom_id, one text input named "answer"."""
        field = {"type": 4, "custom_id": "answer", "value": answer}
        data = {"custom_id": custom_id, "components": [{"type": 18, "component": field}]}
        return await self._send(user, channel, 5, data, checked=False)

    async def submit_modal(
        self, user: User, opened: Interaction, values: dict[str, str], *, age: float = 0.0
    ) -> Interaction:
        modal = opened.modal
        if modal is None:
            raise LookupError("that interaction did not open a modal")
        rows = []
        for row in modal["components"]:
            inputs = row.get("components") or [row["component"]]
            answers = [
                {"type": 4, "custom_id": i["custom_id"], "value": values.get(i["custom_id"], "")}
                for i in inputs
            ]
            rows.append(
                {"type": 1, "components": answers}
                if row["type"] == 1
                else {"type": row["type"], "component": answers[0]}
            )
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self._send(user, opened.channel, 5, data, opened.source, age=age)

    # ---- reading --------------------------------------------------------------------------

    def dms(self, user: User) -> list[Message]:
        channels = {
            c.id for c in self.fake.channels.values() if c.type == 1 and c.recipient.id == user.id
        }
        return [
            m for m in self.fake.messages.values() if m.channel_id in channels and not m.deleted
        ]

    def channel_messages(self, channel: Channel) -> list[Message]:
        """Messages everyone in the channel can see (not ephemeral, not deleted)."""
        return [
            m
            for m in self.fake.messages.values()
            if m.channel_id == channel.id and not m.ephemeral and not m.deleted
        ]

    def commands(self, guild_id: int | None = None) -> dict[str, dict]:
        """Every command a member can run there (the global ones and the guild's), by its
        path ("table close"): what was synced for it, its options among it."""
        found = {}
        for command in [*self.fake.commands.get(None, []), *self.fake.commands.get(guild_id, [])]:
            nested = [o for o in command.get("options", []) if o["type"] in (1, 2)]
            if not nested:
                found[command["name"]] = command
            for sub in nested:
                path = f"{command['name']} {sub['name']}"
                if sub["type"] == 1:
                    found[path] = sub
                else:  # a group of subcommands
                    found |= {f"{path} {leaf['name']}": leaf for leaf in sub.get("options", [])}
        return found

    def count_calls(self, method: str | None = None, prefix: str = "") -> int:
        return sum(
            1
            for call in self.fake.calls
            if (method is None or call.method == method) and call.path.startswith(prefix)
        )

    async def idle(self, quiet: float = 0.03, timeout: float = 5.0) -> None:
        """Wait until the bot is not busy and has made no REST call for `quiet` seconds: the
        quiet is counted from the last sign of work, looked for every few milliseconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen, since = len(self.fake.calls), loop.time()
        while loop.time() < deadline:
            await asyncio.sleep(IDLE_POLL_SECONDS)
            if self.fake.in_flight or len(self.fake.calls) != seen or self.bot_busy():
                seen, since = len(self.fake.calls), loop.time()
            elif loop.time() - since >= quiet:
                return
        raise AssertionError("the bot kept calling Discord; it never went idle")

    # ---- building interactions -------------------------------------------------------------

    def _command(self, channel: Channel, name: str) -> dict:
        for scope in (channel.guild_id, None):
            for command in self.fake.commands.get(scope, []):
                if command["name"] == name:
                    return command
        raise DiscordClientRefuses(f"no synced command /{name}")

    def _channel(self, message: Message) -> Channel:
        return self.fake.channels[message.channel_id]

    def _options(
        self, channel: Channel, command: str, holder: dict, given: dict, checked: bool = True
    ) -> tuple[list, dict]:
        declared = {o["name"]: o for o in holder.get("options", [])}
        unknown = set(given) - set(declared)
        if unknown:
            raise DiscordClientRefuses(f"/{command} has no option {sorted(unknown)}")
        options, resolved = [], {}
        for name, option in declared.items():
            if name not in given or given[name] is None:
                if option.get("required") and checked:
                    raise DiscordClientRefuses(f"/{command} needs the option {name!r}")
                continue
            value = given[name]
            if option["type"] == 6:  # a user
                guild = self.fake.guild_of(channel)
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if value.id in guild.members:  # Discord resolves a member only if still one
                    member = self.fake.member_payload(guild, value)
                    resolved.setdefault("members", {})[str(value.id)] = {
                        k: v for k, v in member.items() if k != "user"
                    }
                value = str(value.id)
            elif checked:
                self._check_value(command, option, value)
            options.append({"name": name, "type": option["type"], "value": value})
        return options, resolved

    @staticmethod
    def _check_value(command: str, option: dict, value: object) -> None:
        expected = OPTION_TYPES.get(option["type"])
        if expected and not isinstance(value, expected):
            raise DiscordClientRefuses(f"/{command} {option['name']} must be {expected.__name__}")
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise DiscordClientRefuses(f"/{command} {option['name']} must be in [{low}, {high}]")
        choices = [choice["value"] for choice in option.get("choices") or []]
        if choices and value not in choices:
            raise DiscordClientRefuses(f"/{command} {option['name']} must be one of {choices}")

    @staticmethod
    def _refuse_unseen(user: User, channel: Channel, message: Message | None) -> None:
        if message is not None and message.ephemeral and message.visible_to != user.id:
            raise DiscordClientRefuses(
                "a member cannot see, let alone click, another's ephemeral message"
            )
        if channel.type == 1 and channel.recipient.id != user.id:
            raise DiscordClientRefuses("a member cannot see, let alone click, another member's DMs")

    async def _send(
        self,
        user: User,
        channel: Channel,
        kind: int,
        data: dict,
        message: Message | None = None,
        *,
        checked: bool = True,
        age: float = 0.0,
    ) -> Interaction:
        if checked:
            self._refuse_unseen(user, channel, message)
        guild = self.fake.guild_of(channel)
        if guild is not None and guild.bot_removed:
            raise DiscordClientRefuses("the bot is no longer in that server")
        fake = self.fake
        interaction = Interaction(
            fake.snowflake(age), f"token-{fake.snowflake()}", user, channel, kind, message
        )
        fake.interactions[interaction.token] = interaction
        payload = {
            "id": str(interaction.id),
            "application_id": str(fake.application_id),
            "type": kind,
            "token": interaction.token,
            "version": 1,
            "attachment_size_limit": 25 * 1024 * 1024,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "data": data,
            "locale": user.locale,
            "app_permissions": str(fake.app_permissions(channel)),
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 0 if channel.guild_id else 1,
        }
        guild = fake.guild_of(channel)
        if guild is not None:
            payload |= {
                "guild_id": str(guild.id),
                "guild_locale": guild.locale,
                "member": fake.member_payload(guild, user, channel),
            }
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = message.payload
        started = self.sent_at[interaction.id] = time.monotonic()
        if not await fake.dispatch("INTERACTION_CREATE", payload):
            # Its shard has no connection: nothing can answer (the fake keeps it undelivered).
            where = f"guild {channel.guild_id}" if channel.guild_id else "DMs"
            raise NotAnswered(f"no connection holds the shard of {where}: {data}")
        try:
            await asyncio.wait_for(interaction.answered.wait(), max(ANSWER_WITHIN - age, 0.0))
        except TimeoutError:
            raise NotAnswered(f"the bot did not answer within {ANSWER_WITHIN} s: {data}") from None
        self.answer_times.append(interaction.answered_at - started)
        if interaction.response_type == DEFERRED_MESSAGE:  # "thinking...": its answer follows
            try:
                await asyncio.wait_for(interaction.followed_up.wait(), FOLLOWED_UP_WITHIN)
            except TimeoutError:
                raise NotAnswered(f"a deferred answer never came: {data}") from None
        return interaction
