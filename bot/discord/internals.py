"""Every use of discord.py's private API, in one place (pinned: discord.py 2.7.1).

Each was measured and is worth keeping (README, Measuring), but none is promised by discord.py:
the next upgrade may break any of them. `PRIVATE_API` names what this module relies on, and
tests/discord/test_discord_internals.py checks that the pinned version still has it and
behaves so; an upgrade that breaks one fails there, naming it.

- The gateway's table of event parsers (`Client._connection.parsers`): events the bot never
  reads are dropped before discord.py builds a Message from them, and interactions for a
  table another process holds are routed to it (bot/discord/routing.py), which builds them
  from the gateway's payload as discord.py does (`Interaction(data=..., state=...)`).
- A dynamic item's compiled template (`__discord_ui_compiled_template__`), which the bot's own
  dispatch of table controls matches a click's custom_id against.
- An interaction's cached response (`Interaction._cs_response`), freed once a click is handled.
- A slash command's callback made from a signature (`__signature__`, and `__qualname__`, which
  discord.py's `is_inside_class` reads to skip `self`).
- Answering a click and sending followups through discord.py's own webhook adapter without
  asking Discord for the message back (`_state`, `_session`, `_response_type`, the adapter).
- The REST client's `request`, wrapped to pace the bot's calls.
- A View that writes its components as Discord's JSON itself (`View.to_components`).
- The slash commands' sync, whose payload (every word in every Discord locale) a process
  builds once for a given set of commands and languages (`CommandTree._get_all_commands`,
  `_http`, `_state`).
"""

from __future__ import annotations

import contextlib
import inspect
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import discord
import orjson
from discord import app_commands
from discord.http import HTTPClient, Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

# What this module relies on, as (owner, attribute): the contract test checks each.
PRIVATE_API: tuple[tuple[str, str], ...] = (
    ("discord.Client", "_connection"),
    ("discord.state.ConnectionState", "parsers"),
    ("discord.state.ConnectionState", "prevent_view_updates_for"),
    ("discord.state.ConnectionState", "store_view"),
    ("discord.state.ConnectionState", "allowed_mentions"),
    ("discord.ui.DynamicItem", "__discord_ui_compiled_template__"),
    ("discord.Interaction", "_cs_response"),
    ("discord.Interaction", "_state"),
    ("discord.Interaction", "_session"),
    ("discord.InteractionResponse", "_response_type"),
    ("discord.Webhook", "_state"),
    ("discord.Webhook", "session"),
    ("discord.Webhook", "proxy"),
    ("discord.Webhook", "proxy_auth"),
    ("discord.http.HTTPClient", "request"),
    ("discord.http.HTTPClient", "proxy"),
    ("discord.http.HTTPClient", "proxy_auth"),
    ("discord.http.Route", "path"),
    ("discord.http.Route", "method"),
    ("discord.http", "handle_message_parameters"),
    ("discord.webhook.async_", "async_context"),
    ("discord.webhook.async_", "interaction_message_response_params"),
    ("discord.webhook.async_.AsyncWebhookAdapter", "request"),
    ("discord.webhook.async_.AsyncWebhookAdapter", "execute_webhook"),
    ("discord.webhook.async_.AsyncWebhookAdapter", "edit_original_interaction_response"),
    ("discord.ui.View", "to_components"),
    ("discord.ui.View", "is_dispatchable"),
    ("discord.utils", "is_inside_class"),
    ("discord.app_commands.CommandTree", "_get_all_commands"),
    ("discord.app_commands.CommandTree", "_http"),
    ("discord.app_commands.CommandTree", "_state"),
    ("discord.app_commands.Translator", "_checked_translate"),
    ("discord.http.HTTPClient", "bulk_upsert_global_commands"),
)

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


# ---- the gateway and dispatch -----------------------------------------------------------------


def ignore_gateway_events(client: discord.Client, events: Iterable[str]) -> None:
    """Drop `events` as they come from the gateway: discord.py would parse each into its models
    (a whole Message) before anything could ignore it."""
    parsers = client._connection.parsers
    for event in events:
        parsers[event] = _ignore


def _ignore(_: object) -> None:
    pass


GatewayParser = Callable[[dict[str, Any]], None]


def route_gateway_event(
    client: discord.Client, event: str, route: Callable[[GatewayParser], GatewayParser]
) -> GatewayParser:
    """Put `route(parser)` in front of discord.py's parser of `event`; returns that parser."""
    parsers = client._connection.parsers
    parser: GatewayParser = parsers[event]
    parsers[event] = route(parser)
    return parser


def interaction_from(client: discord.Client, payload: dict[str, Any]) -> discord.Interaction:
    """An interaction built from its gateway payload, as discord.py's parser builds it."""
    return discord.Interaction(data=payload, state=client._connection)  # type: ignore[arg-type]


def compiled_template(item: type[discord.ui.DynamicItem[Any]]) -> re.Pattern[str]:
    """The pattern a dynamic item's custom_id matches, as discord.py compiled it."""
    return item.__discord_ui_compiled_template__


def forget_response(interaction: discord.Interaction) -> None:
    """Let a handled interaction be freed at once. discord.py leaves a reference cycle per
    click: the interaction and its cached response. Left, it took some 35 objects per click
    (the message, users, embeds, buttons) to the garbage collector's full collections, which
    at 500 busy tables paused the loop for up to 0.6 s. Nothing uses either once handled."""
    with contextlib.suppress(AttributeError):
        # discord.py's cache of `interaction.response`, a slot its type stubs do not declare
        del interaction._cs_response  # type: ignore[attr-defined]


def as_cog_method(
    callback: Callable[..., Any], parameters: list[inspect.Parameter], cog: str
) -> None:
    """Make `callback(self, interaction, **options)` read as a method of the class `cog` with
    these parameters: discord.py builds a slash command's options from its signature, and
    skips `self` for a callback whose qualname places it in a class (`is_inside_class`)."""
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__qualname__ = f"{cog}.{callback.__name__}"


# ---- answers sent without reading the message back ------------------------------------------


async def update_clicked(interaction: discord.Interaction, fields: dict[str, Any]) -> None:
    """Answer a click by editing its message (Discord's UPDATE_MESSAGE), as
    `interaction.response.edit_message(**fields)` does, reading back only the 204."""
    response, state = interaction.response, interaction._state
    message_id = interaction.message.id if interaction.message else None
    view = fields.get("view", MISSING)
    if view is not MISSING and message_id is not None:
        state.prevent_view_updates_for(message_id)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        previous_allowed_mentions=state.allowed_mentions,
        **fields,
    )
    route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=state.http.proxy,
        proxy_auth=state.http.proxy_auth,
        payload=params.payload,
        multipart=params.multipart,
        files=params.files,
    )
    response._response_type = discord.InteractionResponseType.message_update
    _keep_view(state, view, message_id)


async def send_followup(
    webhook: discord.Webhook, *, embed: discord.Embed, view: discord.ui.View | None
) -> tuple[int, int]:
    """Send a followup message through an interaction's webhook, as `webhook.send` does;
    returns its channel's id and its own, read straight off Discord's answer."""
    sent = view or MISSING
    with _webhook_message(webhook, embed=embed, view=sent) as request:
        data = await async_context.get().execute_webhook(
            webhook.id,
            _token(webhook),
            **request,
            wait=True,
            with_components=sent is not MISSING,
        )
    assert data is not None  # with wait=True Discord answers with the message
    message_id = int(data["id"])
    _keep_view(webhook._state, sent, message_id)
    return int(data["channel_id"]), message_id


async def edit_clicked(
    webhook: discord.Webhook, *, embed: discord.Embed, view: discord.ui.View | None
) -> None:
    """Edit the message a click was answered on (its interaction's original response) through
    that click's webhook, as `interaction.edit_original_response` does, later and without the
    interaction: outside the bot's own rate limit, the message not read back. `view` None
    takes its controls off."""
    with _webhook_message(webhook, embed=embed, view=view) as request:
        await async_context.get().edit_original_interaction_response(
            webhook.id, _token(webhook), **request
        )


def _token(webhook: discord.Webhook) -> str:
    # The webhooks here are interactions' own (`interaction.followup`): they have a token.
    assert webhook.token is not None
    return webhook.token


@contextlib.contextmanager
def _webhook_message(
    webhook: discord.Webhook, *, embed: discord.Embed, view: Any
) -> Iterator[dict[str, Any]]:
    """What the webhook adapter takes to send or edit a message through `webhook`: its session
    and proxy, and the message (its files stay open until the request is done)."""
    with handle_message_parameters(
        embed=embed,
        view=view,
        previous_allowed_mentions=getattr(webhook._state, "allowed_mentions", None),
    ) as params:
        yield {
            "session": webhook.session,
            "proxy": webhook.proxy,
            "proxy_auth": webhook.proxy_auth,
            "payload": params.payload,
            "multipart": params.multipart,
            "files": params.files,
        }


def _keep_view(state: Any, view: Any, message_id: int | None) -> None:
    """What discord.py does after sending a view: let its store route the view's clicks."""
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)


# ---- the REST client and views ---------------------------------------------------------------


def pace_requests(
    http: HTTPClient,
    slot: Callable[[str, str], contextlib.AbstractAsyncContextManager[None] | None],
) -> None:
    """Make every call of a client's `http` wait for `slot(method, path)` (None: it goes at
    once)."""
    request = http.request

    async def paced(route: Route, **kwargs: Any) -> Any:
        held = slot(route.method, route.path)
        if held is None:
            return await request(route, **kwargs)
        async with held:
            return await request(route, **kwargs)

    http.request = paced  # type: ignore[method-assign]


class WrittenView(discord.ui.View):
    """A View whose subclass writes its components as Discord's JSON (`components`) without
    building discord.ui items: discord.py sends what `to_components` returns, and keeps no
    copy of a view that has no items (`is_dispatchable`) for clicks to be routed to."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def components(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def to_components(self) -> list[dict[str, Any]]:
        return self.components()


# ---- the slash commands' sync -------------------------------------------------------------


# Each payload a process has synced, by its commands and languages: built anew it costs some
# 20 ms of CPU (discord.py awaits the translator for each word in each of Discord's 31
# locales, 13,000 calls), which a process that starts the bot more than once (the tests'
# hundreds) pays once. Discord's answer is read anew each time.
_synced_payloads: dict[bytes, list[dict[str, Any]]] = {}
MOST_PAYLOADS = 8


async def sync_global_commands(
    tree: app_commands.CommandTree[Any], languages: object
) -> list[app_commands.AppCommand]:
    """`tree.sync()` of the global commands, whose translator's words depend only on
    `languages` (the catalogs it reads, as a JSON-writable value)."""
    client = tree.client
    if client.application_id is None:
        raise app_commands.MissingApplicationID
    commands = tree._get_all_commands(guild=None)
    key = orjson.dumps([[command.to_dict(tree) for command in commands], languages])
    payload = _synced_payloads.get(key)
    if payload is None:
        translator = tree.translator
        assert translator is not None  # set in setup_hook, before the sync
        payload = [await command.get_translated_payload(tree, translator) for command in commands]
        if len(_synced_payloads) == MOST_PAYLOADS:  # the oldest goes
            del _synced_payloads[next(iter(_synced_payloads))]
        _synced_payloads[key] = payload
    try:
        data = await tree._http.bulk_upsert_global_commands(client.application_id, payload=payload)
    except discord.HTTPException as error:
        if error.status == 400 and error.code == 50035:  # as tree.sync says it
            raise app_commands.CommandSyncFailure(error, commands) from None
        raise
    return [app_commands.AppCommand(data=item, state=tree._state) for item in data]
