"""`Controls` writes a message's components itself, without building discord.ui items: what it
writes must be what discord.py writes for the same buttons and selects, laid out the same."""

import discord
import pytest

from bot.discord.picker import Choice, PickButton, PickSuggestions, PickToggle
from bot.discord.tables import ActionButton, ActionSelect, Controls, TableButton, TextButton

GREY, GREEN = discord.ButtonStyle.secondary, discord.ButtonStyle.success


def button(look: dict, row: int | None = None) -> tuple:
    return ("button", look, row)


def select(look: dict) -> tuple:
    return ("select", look, None)


def drawn(specs: list[tuple]) -> list[dict]:
    controls = Controls()
    for kind, look, row in specs:
        if kind == "button":
            controls.button(**look, row=row)
        else:
            controls.select(**look)
    return controls.to_components()


def by_discord_py(specs: list[tuple]) -> list[dict]:
    view = discord.ui.View(timeout=None)
    for kind, look, row in specs:
        if kind == "button":
            view.add_item(discord.ui.Button(**look, row=row))
        else:
            options = [discord.SelectOption(label=label, value=v) for v, label in look["options"]]
            view.add_item(
                discord.ui.Select(
                    custom_id=look["custom_id"], placeholder=look["placeholder"], options=options
                )
            )
    return view.to_components()


def picker_like() -> list[tuple]:
    """Cards on rows 0-1, the picker's buttons under them, selects in the rows left."""
    choice = Choice(selection=5, page=0, group=1)
    cards = [
        button({**PickToggle.look(7, 3, "abc123", choice, i, f"{i}♠"), "style": GREY}, i // 5)
        for i in range(7)
    ]
    cards[2] = button({**PickToggle.look(7, 3, "abc123", choice, 2, ""), "style": GREEN}, 0)
    buttons = [
        button(PickButton.look(7, 3, "abc123", choice, "play", "Play"), 2),
        button(ActionButton.look(7, 3, "pass", "Pass"), 2),
        button(PickButton.look(7, 3, "abc123", choice, "clear", "Clear"), 2),
    ]
    options = [(f"play.{n}", f"Play {n}") for n in range(25)]
    suggestions = PickSuggestions.look(7, 3, "abc123", [(5, "Pair of 3s"), (0x1F, "Run")])
    return [*cards, *buttons, select(ActionSelect.look(7, 3, "play", options, 1)),
            select(suggestions)]  # fmt: skip


LAYOUTS = {
    "buttons and selects, placed where there is room": [
        button(ActionButton.look(1, 2, "fold", "Fold")),
        select(ActionSelect.look(1, 2, "bid", [("bid.1", "Bid 1"), ("bid.2", "Bid 2")])),
        button(ActionButton.look(1, 2, "call", "Call 2")),
        select(ActionSelect.look(1, 2, "empty", [])),
        button(TextButton.look(1, 2)),
    ],
    "a picker's page": picker_like(),
    "a row given, then the first with room": [
        *[button(ActionButton.look(4, 0, f"bet.{n}", f"Bet {n}"), 0) for n in (2, 4)],
        button(TextButton.look(4, 0, "Other amount")),
        *[button(TableButton.look(4, verb)) for verb in ("join", "leave", "start", "cancel")],
    ],
}


@pytest.mark.parametrize("specs", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_controls_write_what_discord_py_writes_for_the_same_items(specs):
    expected = by_discord_py(specs)
    assert drawn(specs) == expected
    assert len(expected) >= 2  # several rows: the layout is compared, not only the items


def test_the_dynamic_items_built_from_a_click_look_as_they_were_drawn():
    """discord.py builds the item from the custom_id it was drawn with; both take the look."""
    choice = Choice(9, 1, 0)
    assert PickToggle(7, 3, "abc123", choice, 4).custom_id == "pc:7:3:abc123:9:1:0:4"
    assert PickButton(7, 3, "abc123", choice, "page").custom_id == "pb:7:3:abc123:9:1:0:page"
    assert ActionButton(7, 3, "fold").item.style is discord.ButtonStyle.danger
    assert ActionSelect(7, 3, "bid", part=2).custom_id == "ts:7:3:bid:2"


OVERFULL = {
    "a sixth button in a row": [button(ActionButton.look(1, 1, f"a{n}"), 0) for n in range(6)],
    "a select with no row free": [
        *[button(ActionButton.look(1, 1, f"a{n}"), n) for n in range(5)],
        select(ActionSelect.look(1, 1, "bid", [("b", "B")])),
    ],
    "a twenty-sixth item": [button(ActionButton.look(1, 1, f"a{n}")) for n in range(26)],
}


@pytest.mark.parametrize("specs", OVERFULL.values(), ids=OVERFULL.keys())
def test_controls_refuse_what_does_not_fit_as_discord_py_does(specs):
    with pytest.raises(ValueError):
        by_discord_py(specs)
    with pytest.raises(ValueError):
        drawn(specs)
