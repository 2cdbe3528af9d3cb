"""What a player sees in their DM or My hand stays the same, byte for byte, while the code that
builds it is made cheaper: every game's private messages (each seat, in several positions and
languages) and its picker redrawn after a tap, written as Discord's JSON, match the digests
the code wrote when they were pinned (private_messages.json, beside this module).

After a change meant to alter what players see, write the digests again:

    .venv/bin/python -m tests.discord.test_private_message_payloads
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import discord

from bench.private_messages import Payload, desk_of, message, positions, redraw, taps
from bot.cards import french_deck
from bot.discord.picker import Choice, Picker, Zone
from bot.games import GAMES
from bot.games.climbing import Pass, Play
from bot.i18n import speaking
from tests.discord.test_picker import HANDS, Bet, desk

FIXTURE = Path(__file__).with_name("private_messages.json")
LANGUAGES = ("en", "es", "zh_Hans")


def payloads() -> Iterator[tuple[str, Payload]]:
    """(case, payload): each seat's message in each position and language, and where the
    seat deciding picks cards, its picker redrawn after each of a few taps; then pickers
    that no game shows in those positions."""
    for spec in GAMES:
        for number, position in enumerate(positions(spec)):
            for language in LANGUAGES:
                with speaking(language):
                    yield from position_payloads(f"{spec.id}/{number}/{language}", position)
    for language in LANGUAGES:
        with speaking(language):
            yield from picker_payloads(f"picker/{language}")


def position_payloads(case: str, position) -> Iterator[tuple[str, Payload]]:
    for record in position.table.seats:
        yield f"{case}/seat {record.seat}", message(position, record.seat)
    seat = position.deciding
    desk = None if seat is None else desk_of(position, seat)
    for tap, choice in enumerate(taps(desk) if desk else []):
        yield f"{case}/seat {seat} redraw {tap}", redraw(position, desk, choice)


def picker_payloads(case: str) -> Iterator[tuple[str, Payload]]:
    """Pickers drawn beside other choices in selects, with groups to fill and with zones
    over pages (tests/discord/test_picker.py's fake game), after a few taps each."""
    deck = french_deck(jokers=True)
    plays = [Play(cards=[card]) for card in deck[:30]]
    bets = [Bet(amount=amount) for amount in range(1, 51)]
    pickers = {
        "selects": (Picker(zones=[Zone("your hand", deck[:30])]), [Pass(), *bets, *plays]),
        "groups": (Picker(zones=[Zone("your hand", deck[:9])], groups=HANDS), [Pass()]),
        "zones": (
            Picker(zones=[Zone("your hand", deck[:3]), Zone("the table", deck[3:15])]),
            [Pass(), plays[0]],
        ),
    }
    for name, (picker, legal) in pickers.items():
        drawn = desk(picker, legal)
        digits = [number % picker.base for number in (1, 2, 3, 0, 1, 2, 3)]  # every group
        arranged = Choice(picker.selection(digits), group=picker.filled_groups - 1)
        for tap, choice in enumerate([*taps(drawn), arranged]):
            embed = discord.Embed()
            drawn.describe(embed, choice)
            components = drawn.controls(choice).to_components()
            yield f"{case}/{name} {tap}", {"embed": embed.to_dict(), "components": components}


def digest(payload: Payload) -> str:
    """The payload's JSON, keys in the order written, digested."""
    text = json.dumps(payload, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests() -> dict[str, str]:
    return {case: digest(payload) for case, payload in payloads()}


async def test_private_messages_are_what_they_were_when_pinned():
    pinned = json.loads(FIXTURE.read_text())
    now = dict(payloads())
    assert now.keys() == pinned.keys()  # every case still made, none left out
    changed = {case: payload for case, payload in now.items() if digest(payload) != pinned[case]}
    assert changed == {}
    assert len(pinned) > 500 and any("redraw" in case for case in pinned)


async def _write() -> None:
    FIXTURE.write_text(json.dumps(digests(), indent=0) + "\n")


if __name__ == "__main__":
    asyncio.run(_write())
