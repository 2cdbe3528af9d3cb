"""What real Discord refuses with 400 / 50035, checked on every message and modal the bot sends.

Figures from Discord's documentation (messages, embeds, message components, modals).
"""

from __future__ import annotations

import unicodedata


class DiscordRefusal(Exception):
    """The payload breaks a Discord limit; the fake answers 400 with this text."""


def at_most(what: str, size: int, limit: int) -> None:
    if size > limit:
        raise DiscordRefusal(f"{what} is {size}, more than Discord's limit of {limit}")


def check_message(body: dict) -> None:
    at_most("content length", len(body.get("content") or ""), 2000)
    check_embeds(body.get("embeds") or [])
    check_components(body.get("components") or [])


def check_embeds(embeds: list[dict]) -> None:
    at_most("embed count", len(embeds), 10)
    total = 0
    for embed in embeds:
        texts = {
            "embed title": (embed.get("title") or "", 256),
            "embed description": (embed.get("description") or "", 4096),
            "embed footer": ((embed.get("footer") or {}).get("text") or "", 2048),
            "embed author": ((embed.get("author") or {}).get("name") or "", 256),
        }
        fields = embed.get("fields") or []
        at_most("embed field count", len(fields), 25)
        for index, field in enumerate(fields):
            if not field.get("name") or not field.get("value"):
                raise DiscordRefusal(f"embed field {index} needs a name and a value")
            texts[f"field {index} name"] = (field["name"], 256)
            texts[f"field {index} value"] = (field["value"], 1024)
        for what, (text, limit) in texts.items():
            at_most(f"{what} length", len(text), limit)
            total += len(text)
    at_most("total embed text", total, 6000)


def check_components(rows: list[dict]) -> None:
    at_most("action row count", len(rows), 5)
    custom_ids: list[str] = []
    for row in rows:
        if row.get("type") != 1:
            raise DiscordRefusal("top-level components must be action rows")
        items = row.get("components") or []
        if not items:
            raise DiscordRefusal("an action row cannot be empty")
        selects = [item for item in items if item["type"] in (3, 5, 6, 7, 8)]
        if selects and len(items) > 1:
            raise DiscordRefusal("a select menu must be alone in its action row")
        at_most("buttons in one action row", len(items), 5)
        for item in items:
            check_component(item)
            if "custom_id" in item:
                custom_ids.append(item["custom_id"])
    if len(custom_ids) != len(set(custom_ids)):
        raise DiscordRefusal("custom_ids must be unique within a message")


def check_component(item: dict) -> None:
    if "custom_id" in item:
        at_most("custom_id length", len(item["custom_id"]), 100)
    if item["type"] == 2:
        at_most("button label length", len(item.get("label") or ""), 80)
        if item.get("style") == 5:
            if "url" not in item:
                raise DiscordRefusal("a link button needs a url")
            at_most("link button url length", len(item["url"]), 512)
        elif "custom_id" not in item:
            raise DiscordRefusal("a button needs a custom_id")
        if not item.get("label") and not item.get("emoji"):
            raise DiscordRefusal("a button needs a label or an emoji")
    if item["type"] == 3:
        options = item.get("options") or []
        at_most("select option count", len(options), 25)
        if not options:
            raise DiscordRefusal("a select menu needs at least one option")
        at_most("select placeholder length", len(item.get("placeholder") or ""), 150)
        at_most("select max_values", item.get("max_values", 1), len(options))
        for option in options:
            at_most("select option label length", len(option["label"]), 100)
            at_most("select option value length", len(option["value"]), 100)
            at_most("select option description length", len(option.get("description") or ""), 100)


def check_modal(data: dict) -> None:
    at_most("modal title length", len(data.get("title") or ""), 45)
    at_most("modal custom_id length", len(data.get("custom_id") or ""), 100)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        raise DiscordRefusal("a modal needs 1 to 5 components")
    for row in rows:
        if row.get("type") == 18:  # a label around its component
            at_most("label length", len(row.get("label") or ""), 45)
        for item in row.get("components") or [row.get("component") or {}]:
            if item.get("type") == 4:
                at_most("text input label length", len(item.get("label") or ""), 45)
                at_most("text input custom_id length", len(item.get("custom_id") or ""), 100)


# The locales Discord accepts in name_localizations and description_localizations.
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


def check_commands(commands: list[dict]) -> None:
    """Command registrations: names lower-case letters, digits, - and _ (up to 32), the
    descriptions and choices 1 to 100 characters, at most 25 choices, in every localization."""
    if commands in _ACCEPTED:  # every test's bot registers the same commands: checked once
        return
    for command in commands:
        _check_command_part(command, described=command.get("type", 1) == 1)
    _ACCEPTED.append(commands)
    del _ACCEPTED[:-4]


_ACCEPTED: list[list[dict]] = []  # the last few registrations accepted


def _check_command_part(part: dict, *, described: bool) -> None:
    for locale, name in {None: part["name"], **(part.get("name_localizations") or {})}.items():
        _check_locale(locale)
        _check_name(name)
    if described:
        descriptions = {None: part["description"], **(part.get("description_localizations") or {})}
        for locale, text in descriptions.items():
            _check_locale(locale)
            if not 1 <= len(text) <= 100:
                raise DiscordRefusal(f"description {text!r} ({locale}): not 1 to 100 characters")
    choices = part.get("choices") or []
    at_most("choice count", len(choices), 25)
    for choice in choices:
        for locale, name in {
            None: choice["name"],
            **(choice.get("name_localizations") or {}),
        }.items():
            _check_locale(locale)
            if not 1 <= len(name) <= 100:
                raise DiscordRefusal(f"choice name {name!r} ({locale}): not 1 to 100 characters")
    options = part.get("options") or []
    at_most("option count", len(options), 25)
    _check_unique_names(options)
    for option in options:
        _check_command_part(option, described=True)


def _check_unique_names(options: list[dict]) -> None:
    """Discord refuses two options (or subcommands) of one command named alike in a locale."""
    locales = {None, *(k for o in options for k in o.get("name_localizations") or {})}
    for locale in locales:
        names = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in options]
        if len(set(names)) < len(names):
            raise DiscordRefusal(f"two options named alike ({locale}): {sorted(names)}")


def _check_locale(locale: str | None) -> None:
    if locale is not None and locale not in DISCORD_LOCALES:
        raise DiscordRefusal(f"{locale!r} is not a Discord locale")


def _check_name(name: str) -> None:
    fits = all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    if not (1 <= len(name) <= 32 and fits and name == name.lower()):
        raise DiscordRefusal(f"command name {name!r}: not 1 to 32 lower-case letters, - or _")
