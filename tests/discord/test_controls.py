"""`Controls` writes a message's components itself, without building discord.ui items: what it
writes must be what discord.py writes for the same buttons and selects, laid out the same. And
one codec writes every control's custom_id and reads a click's back."""

from types import SimpleNamespace

import discord
import pytest

from bot.discord.controls import (
    ActionButton,
    ActionSelect,
    Controls,
    TableButton,
)
from bot.discord.game_ui import GameUI, action_controls
from bot.discord.internals import compiled_template
from bot.discord.picker import Choice, PickButton, PickSuggestions, PickToggle
from bot.discord.poker import PokerUI
from bot.discord.text_answers import TextAnswer, TextButton
from bot.games.betting import Call, Fold

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
    assert ActionButton(7, 3, "fold").custom_id == ActionButton.look(7, 3, "fold")["custom_id"]
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


# A custom_id as a control is drawn with (or as an older bot drew it), and what a click on it
# reads back: the control's constructor arguments.
CLICKED = {
    "tb:12:confirm_leave": (TableButton, {"table_id": 12, "verb": "confirm_leave"}),
    "ta:12:3:play.3d+3c": (ActionButton, {"table_id": 12, "prompt": 3, "token": "play.3d+3c"}),
    "ts:12:3:bid:2": (ActionSelect, {"table_id": 12, "prompt": 3, "kind": "bid", "part": 2}),
    "ts:12:3:bid": (ActionSelect, {"table_id": 12, "prompt": 3, "kind": "bid", "part": 0}),
    "tq:12:3": (TextButton, {"table_id": 12, "prompt": 3}),
    "tm:12:3": (TextAnswer, {"table_id": 12, "prompt": 3}),
}


@pytest.mark.parametrize(("custom_id", "clicked"), CLICKED.items(), ids=CLICKED.keys())
async def test_one_codec_draws_each_controls_custom_id_and_reads_a_click_back(custom_id, clicked):
    item, fields = clicked
    template = item.TEMPLATE if item is TextAnswer else compiled_template(item)
    match = template.fullmatch(custom_id)
    assert match is not None and item.CUSTOM_ID.read(match) == fields
    built = await item.from_custom_id(None, None, match)
    assert built.custom_id == item.CUSTOM_ID.format(*fields.values())
    assert built.custom_id.startswith(custom_id)  # an old select's id gains its part, 0


FORGED = ["tb:12:steal", "tb:12:join:1", "ta:x:3:fold", "ta:12:3:fold call", "ts:12:3:bid:2:9"]


@pytest.mark.parametrize("custom_id", FORGED)
def test_a_custom_id_no_control_draws_matches_no_controls_template(custom_id):
    items = (TableButton, ActionButton, ActionSelect, TextButton)
    assert not any(compiled_template(item).fullmatch(custom_id) for item in items)
    assert not TextAnswer.TEMPLATE.fullmatch(custom_id)


def seat_deciding(actions: list) -> SimpleNamespace:
    """A table whose seat 0 decides between `actions`, as `action_controls` reads it."""
    return SimpleNamespace(
        id=7,
        seats=[SimpleNamespace(prompt=3)],
        legal_actions=lambda seat: actions,
        decision=lambda seat: None,
        view=lambda seat: SimpleNamespace(to_call=2),
    )


def test_an_action_that_gives_something_up_is_red_where_its_game_says_so():
    """A fold is red in a poker game (PokerUI's `warning_kinds`); shared code names no game's
    actions, so a game that doesn't say so draws every action alike."""
    table = seat_deciding([Fold(), Call()])
    red, blue = discord.ButtonStyle.danger.value, discord.ButtonStyle.primary.value
    assert styles_drawn(PokerUI(), table) == {"ta:7:3:fold": red, "ta:7:3:call": blue}
    assert styles_drawn(GameUI(), table) == {"ta:7:3:fold": blue, "ta:7:3:call": blue}


def styles_drawn(ui: GameUI, table: SimpleNamespace) -> dict[str, int]:
    rows = action_controls(table, 0, ui).components()
    return {button["custom_id"]: button["style"] for row in rows for button in row["components"]}
