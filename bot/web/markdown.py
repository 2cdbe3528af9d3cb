"""Discord's markdown, as the bot writes it in embeds, made into safe HTML for the web pages:
the text is escaped first, then bold, italics, underline, strikethrough and code spans become
tags, a member mention becomes their name and a Discord timestamp a date. Nothing the text holds
can become a tag, attribute or link of its own."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime

from markupsafe import Markup, escape

CODE = re.compile(r"`([^`\n]+)`")
STYLES = (
    (re.compile(r"\*\*(.+?)\*\*"), "strong"),
    (re.compile(r"__(.+?)__"), "u"),
    (re.compile(r"~~(.+?)~~"), "s"),
    (re.compile(r"(?<![\w*])\*(?![\s*])(.+?)(?<![\s*])\*(?![\w*])"), "em"),
)
MENTION = re.compile(r"&lt;@!?([0-9]{1,20})&gt;")
TIMESTAMP = re.compile(r"&lt;t:(-?[0-9]{1,12})(?::[tTdDfFR])?&gt;")
EMOJI = re.compile(r"&lt;a?:([A-Za-z0-9_]{1,32}):[0-9]{1,20}&gt;")
HEADING = re.compile(r"^#{1,3} ", re.MULTILINE)
QUOTE = re.compile(r"^&gt; ", re.MULTILINE)


def to_html(text: str, names: Mapping[int, str]) -> Markup:
    """`text` (Discord markdown) as HTML: lines kept, code spans untouched by other styles."""
    parts = CODE.split(str(escape(text)))
    html = []
    for index, part in enumerate(parts):
        html.append(f"<code>{part}</code>" if index % 2 else _styled(part, names))
    return Markup("".join(html).replace("\n", "<br>\n"))


def _styled(part: str, names: Mapping[int, str]) -> str:
    part = HEADING.sub("", QUOTE.sub("", part))
    for pattern, tag in STYLES:
        part = pattern.sub(rf"<{tag}>\1</{tag}>", part)
    part = MENTION.sub(lambda m: _member(names, int(m[1])), part)
    part = TIMESTAMP.sub(lambda m: _moment(int(m[1])), part)
    return EMOJI.sub(r":\1:", part)


def _member(names: Mapping[int, str], member_id: int) -> str:
    return f'<span class="who">@{escape(names.get(member_id, "?"))}</span>'


def _moment(seconds: int) -> str:
    try:
        moment = datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return "?"
    return f'<time datetime="{moment.isoformat()}">{moment:%Y-%m-%d %H:%M} UTC</time>'
