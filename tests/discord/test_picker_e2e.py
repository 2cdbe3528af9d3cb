"""The card picker end to end: two zones (your hand, then the table on the same page and over
two more) and two groups, through a test-only game; and a pick that survives a restart of the
bot (Big Two)."""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace
from typing import Annotated, Literal

import discord
import pytest
from pydantic import BaseModel, Field, TypeAdapter

from bot.cards import FrenchCard, french_deck
from bot.discord.commands import table_game_cog
from bot.discord.controls import Controls
from bot.discord.picker import Group, Picked, Picker, PickerUI, Zone, add_picker, cards_text
from bot.engine import (
    Action,
    Decision,
    Event,
    GameSpec,
    GameState,
    IllegalAction,
    MatchEnded,
    Rng,
    Viewer,
    registry,
)
from bot.errors import UserError
from tests.discord.test_games_forged_e2e import INVALID, checksum, forged
from tests.tables_e2e import TableDriver, card_labels, fields

# ---- a test-only game: keep cards of one suit, give some away ---------------------------------

HAND, TABLE = 6, 22


class Arrange(Action):
    kind: Literal["arrange"] = "arrange"
    keep: list[FrenchCard]
    give: list[FrenchCard] = []


class Stop(Action):
    kind: Literal["stop"] = "stop"


class Arranged(Event):
    kind: Literal["arranged"] = "arranged"
    seat: int
    keep: list[FrenchCard]
    give: list[FrenchCard]


class KeepOptions(BaseModel):
    pass


class KeepView(BaseModel):
    turn: int | None
    table: list[FrenchCard]
    kept: list[list[FrenchCard]]
    my_hand: list[FrenchCard] | None = None


class KeepState(GameState):
    """Each player in turn keeps one card of their hand with up to two cards of the table of
    its suit, and may give up to two cards of the table away; or stops."""

    listable = False
    hands: list[list[FrenchCard]]
    table: list[FrenchCard]
    rest: list[FrenchCard]
    kept: list[list[FrenchCard]]
    given: list[list[FrenchCard]]
    turn: int = 0
    acted: int = 0

    def pending(self) -> list[Decision]:
        if self.is_over():
            return []
        return [Decision(seat=self.turn, kind="arrange", prompt="Keep cards of one suit")]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.is_over() or seat != self.turn:
            return []
        return [Stop(), Arrange(keep=[self.hands[seat][0]])]  # suggestions only

    def verify(self, seat: int, action: Action) -> None:
        if self.is_over():
            raise IllegalAction("This game is over.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn to act.")
        if isinstance(action, Stop):
            return
        if not isinstance(action, Arrange):
            raise IllegalAction("That move is not allowed right now.")
        cards = action.keep + action.give
        if len(set(cards)) != len(cards) or not set(cards) <= {*self.hands[seat], *self.table}:
            raise IllegalAction("You can't pick those cards.")
        if sum(card in self.hands[seat] for card in cards) != 1:
            raise IllegalAction("Pick exactly one card from your hand.")
        if not 1 <= len(action.keep) <= 3 or len(action.give) > 2:
            raise IllegalAction("Keep one to three cards and give at most two.")
        if len({card.suit for card in action.keep}) > 1:
            raise IllegalAction("The cards you keep must share a suit.")

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, Arrange):
            for card in action.keep + action.give:
                where = self.hands[seat] if card in self.hands[seat] else self.table
                where.remove(card)
            self.kept[seat] += action.keep
            self.given[seat] += action.give
            events.append(Arranged(seat=seat, keep=action.keep, give=action.give))
        self.acted += 1
        self.turn = (self.turn + 1) % self.seat_count
        if self.is_over():
            events.append(MatchEnded(placings=[1] * self.seat_count))
        return events

    def view(self, viewer: Viewer) -> KeepView:
        view = KeepView(
            turn=None if self.is_over() else self.turn, table=self.table, kept=self.kept
        )
        if viewer is not None:
            view.my_hand = self.hands[viewer]
        return view

    def default_action(self, seat: int) -> Action:
        return Stop()

    def is_over(self) -> bool:
        return self.acted >= self.seat_count

    def all_cards(self) -> list[FrenchCard]:
        piles = [*self.hands, *self.kept, *self.given]
        return [card for pile in piles for card in pile] + self.table + self.rest

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        hidden = set(self.rest)
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden |= set(hand)
        return hidden


def new_keep(options: KeepOptions, stacks: list[int], rng: Rng) -> KeepState:
    deck = rng.shuffled(french_deck())
    seats = len(stacks)
    hands = [deck[seat * HAND : (seat + 1) * HAND] for seat in range(seats)]
    dealt = seats * HAND
    return KeepState(
        rng=rng,
        seat_count=seats,
        hands=hands,
        table=deck[dealt : dealt + TABLE],
        rest=deck[dealt + TABLE :],
        kept=[[] for _ in range(seats)],
        given=[[] for _ in range(seats)],
    )


KEEP = GameSpec(
    id="fwkeep",
    name="Keep Test",
    min_players=2,
    max_players=2,
    options_model=KeepOptions,
    state_model=KeepState,
    actions=TypeAdapter(Annotated[Arrange | Stop, Field(discriminator="kind")]),
    deck=french_deck,
    create=new_keep,
)


class KeepUI(PickerUI):
    game_id = KEEP.id

    def public_embed(self, table, view: KeepView, names: list[str]) -> discord.Embed:
        return discord.Embed(title="Keep Test", description=f"Table: {cards_text(view.table)}")

    def private_embed(self, table, view: KeepView, names: list[str]) -> discord.Embed:
        return discord.Embed(title="Your hand", description=cards_text(view.my_hand or []))

    def picker(self, view: KeepView) -> Picker | None:
        if not view.my_hand:
            return None
        return Picker(
            zones=[Zone("your hand", view.my_hand, 1, 1), Zone("the table", view.table)],
            groups=[Group("Keep", "K", 1, 3), Group("Give", "G", 0, 2)],
            kinds=frozenset({"arrange"}),
            verb="Arrange",
        )

    def pick_action(self, view: KeepView, picked: Picked) -> Action:
        keep, give = picked.groups
        return Arrange(keep=list(keep), give=list(give))

    def pick_reason(self, view: KeepView, picked: Picked) -> str | None:
        if len({card.suit for card in picked.groups[0]}) > 1:
            return "The cards you keep must share a suit."
        return None

    def pick_of(self, view: KeepView, action: Action) -> list[list[FrenchCard]] | None:
        return [action.keep, action.give] if isinstance(action, Arrange) else None

    def action_label(self, view: KeepView, action: Action) -> str:
        return "Stop" if isinstance(action, Stop) else f"Keep {cards_text(action.keep)}"

    def event_line(self, event: Event, names: list[str]) -> str | None:
        if isinstance(event, Arranged):
            given = f" and gives {cards_text(event.give)}" if event.give else ""
            return f"{names[event.seat]} keeps {cards_text(event.keep)}{given}."
        return None


@pytest.fixture
async def keep_game(world):
    registry.register(KEEP)
    add_picker(world.bot)
    add_picker(world.bot)  # a second picking game's cog: harmless
    world.bot.presenter.register(KeepUI())
    await world.bot.add_cog(table_game_cog("fwkeep", KEEP, "A test-only game.")(world.bot))
    await world.bot.sync_commands()
    return world


REVIEW = KEEP.model_copy(update={"id": "fwreview", "name": "Review Test"})


class ReviewUI(KeepUI):
    """The same game with its arrangement under review, as Crash sets its hands: a tapped
    card goes into the first group with room (Keep, then Give), a suggestion fills the groups
    for review, "Give none" (the game's own button) empties Give, and only Arrange plays."""

    game_id = REVIEW.id

    def picker(self, view: KeepView) -> Picker | None:
        made = super().picker(view)
        if made is None:
            return None
        return replace(
            made, first_with_room=True, review=True, tool="Give none", suggested="To review…"
        )

    def pick_tool(self, view: KeepView, picked: Picked) -> list[list[FrenchCard]]:
        keep, give = picked.groups
        if not give:
            raise UserError("You give nothing already.")
        return [list(keep), []]


@pytest.fixture
async def review_game(world):
    registry.register(REVIEW)
    add_picker(world.bot)
    world.bot.presenter.register(ReviewUI())
    await world.bot.add_cog(table_game_cog("fwreview", REVIEW, "A test-only game.")(world.bot))
    await world.bot.sync_commands()
    return world


ALICE = "As 2h 3d 4c 5s 6h"
BOB = "7s 8h 9d 10c Js Qh"
ON_TABLE = "Ks Kh Kd Kc Qs Qd Qc Jh Jd Jc 10s 10h 10d 9s 9h 9c 8s 8d 8c 7h 7d 7c"


PICKER = KeepUI.picker


async def test_two_zones_two_groups_pages_and_the_rules_reason(keep_game):
    world = keep_game
    templates = world.bot.component_templates
    assert len(templates) == len(set(templates))  # every control registered once
    driver = TableDriver(world)
    await driver.open("fwkeep new", world.alice, [world.bob])
    world.bot.runtime.stacked = [(ALICE + " " + BOB + " " + ON_TABLE).split()]
    await driver.start(world.alice)
    alice = world.alice
    dm = await driver.controls(alice)

    async def tap(label: str) -> None:
        reply = await world.tester.click(alice, dm, label)
        assert reply.response is dm, reply.text

    # The first page is the hand's two rows and the table's first row; the buttons say where
    # the others go.
    assert card_labels(dm) == ["A♠", "2♥", "3♦", "4♣", "5♠", "6♥", "K♠", "K♥", "K♦", "K♣", "Q♠"]
    assert dm.button("More cards") and dm.button("Fill Give") and dm.button("Stop")
    await tap("A♠")
    assert fields(dm)["Arrangement"].startswith("▶ **Keep**: A♠\n**Give**: none")
    assert "ready to play" in fields(dm)["Arrangement"]
    assert fields(dm)["Showing"] == "Your hand (rows 1-2) · the table: cards 1-5 of 22 (row 3)"
    await tap("2♥")
    assert "Pick 1 card from your hand (you picked 2)." in fields(dm)["Arrangement"]
    await tap("2♥ ·K")  # let it go
    await tap("K♥")
    arrangement = fields(dm)["Arrangement"]
    assert "**Keep**: A♠ K♥" in arrangement
    assert "can't be played: The cards you keep must share a suit." in arrangement
    refused = await world.tester.click(alice, dm, "Arrange")  # the runtime's own verdict
    assert refused.response.ephemeral and refused.text == "The cards you keep must share a suit."
    # K♥ moves to Give; K♠ and, on the next page, 8♠ go to Keep.
    await tap("Fill Give")
    assert fields(dm)["Arrangement"].startswith("**Keep**: A♠ K♥\n▶ **Give**: none")
    await tap("K♥ ·K")
    await tap("Fill Keep")
    await tap("K♠")
    await tap("More cards")  # the rest of the table, on two pages of its own
    assert fields(dm)["Showing"] == "The table: cards 6-20 of 22"
    assert card_labels(dm)[0] == "Q♦" and len(card_labels(dm)) == 15
    await tap("8♠")
    arrangement = fields(dm)["Arrangement"]
    assert "▶ **Keep**: A♠ K♠ 8♠" in arrangement and "**Give**: K♥" in arrangement
    assert "ready to play" in arrangement
    await driver.press(alice, dm, "Arrange")
    await driver.settle()
    state = driver.table.state
    assert [c.code for c in state.kept[0]] == ["As", "Ks", "8s"]
    assert [c.code for c in state.given[0]] == ["Kh"]
    assert "Alice keeps A♠ K♠ 8♠ and gives K♥." in driver.message().text()
    # Bob takes the suggestion: a selection of his first card into Keep, played at once.
    bob = await driver.controls(world.bob)
    await driver.press(world.bob, bob, "Keep 7♠")
    await driver.settle()
    assert world.bot.runtime.in_channel(world.channel.id) is None  # the game is over
    assert "Bob keeps 7♠." in "\n".join(
        m.text() for m in world.tester.channel_messages(world.channel)
    )


async def test_taps_redraw_the_picker_laid_out_once_for_the_state(keep_game, monkeypatch):
    world = keep_game
    driver = TableDriver(world)
    await driver.open("fwkeep new", world.alice, [world.bob])
    world.bot.runtime.stacked = [(ALICE + " " + BOB + " " + ON_TABLE).split()]
    await driver.start(world.alice)
    dm = await driver.controls(world.alice)
    laid_out = []
    monkeypatch.setattr(KeepUI, "picker", lambda ui, view: laid_out.append(1) or PICKER(ui, view))
    for label in ("A♠", "K♠", "More cards"):
        reply = await world.tester.click(world.alice, dm, label)
        assert reply.response is dm, reply.text
    assert "**Keep**: A♠ K♠" in fields(dm)["Arrangement"]
    assert len(laid_out) <= 1  # three taps, one state: not laid out again for each


async def test_a_pick_survives_a_restart(world):
    driver = TableDriver(world)
    await driver.open("bigtwo new", world.alice, [world.bob])
    world.bot.runtime.stacked = [["3d", "3c", "5h"]]  # to the first seat dealt: it leads
    await driver.start(world.alice)
    seat = driver.turn()
    leader = driver.member(seat)
    dm = await driver.controls(leader)
    await world.tester.click(leader, dm, "3♦")
    await world.stop_bot()
    await world.start_bot()
    await world.tester.idle()
    old = world.fake.messages[dm.id]  # the message drawn before the restart
    await world.tester.click(leader, old, "3♣")
    assert "Selected 3♦ 3♣ · ready to play" in world.fake.messages[dm.id].text()
    await driver.press(leader, world.fake.messages[dm.id], "Play selected")
    await driver.settle()
    assert "plays pair of 3s: 3♦ 3♣" in driver.message().text()


async def test_views_sent_and_clicks_handled_are_freed_at_once_not_left_to_the_collector(
    keep_game, monkeypatch
):
    """A view and its items refer to each other, and so do discord.py's interaction and its
    response; left so, every redraw and click waits for a full collection (at 500 busy
    tables, pauses of up to 0.6 s). With the collector off, every
    view built for a DM, a reply, a redraw or the table message, and every click, must be
    gone once the bot is idle."""
    world = keep_game
    built: list[weakref.ref] = []
    build = Controls.__init__

    def tracked(view: Controls) -> None:
        build(view)
        built.append(weakref.ref(view))

    monkeypatch.setattr(Controls, "__init__", tracked)
    gc.collect()
    gc.disable()
    try:
        driver = TableDriver(world)
        await driver.open("fwkeep new", world.alice, [world.bob])  # the lobby's table message
        world.bot.runtime.stacked = [(ALICE + " " + BOB + " " + ON_TABLE).split()]
        await driver.start(world.alice)  # DMs, and the table message edited
        dm = await driver.controls(world.alice)
        await world.tester.click(world.alice, dm, "A♠")  # a picker redraw
        await driver.press(world.alice, dm, "Arrange")  # a play, answered in its reply
        await driver.settle()
        alive = [ref() for ref in built if ref() is not None]
        clicks = [
            o
            for o in gc.get_objects()
            if isinstance(o, discord.Interaction) and o.type is discord.InteractionType.component
        ]
    finally:
        gc.enable()
    assert len(built) >= 5
    assert alive == []
    assert clicks == []


async def test_an_arrangement_under_review_over_several_pages(review_game):
    """Over several pages the ids stay paged (pc/pb/ps); cards find their own group, with no
    Fill button; the suggestion is only shown, the game's button remakes the pick, and the
    verb plays it."""
    world, alice = review_game, review_game.alice
    driver = TableDriver(world)
    await driver.open("fwreview new", alice, [world.bob])
    world.bot.runtime.stacked = [(ALICE + " " + BOB + " " + ON_TABLE).split()]
    await driver.start(alice)
    dm = await driver.controls(alice)

    async def tap(label: str) -> None:
        reply = await world.tester.click(alice, dm, label)
        assert reply.response is dm, reply.text

    verbs = [b["label"] for b in dm.buttons() if b["custom_id"].startswith(("pb:", "ta:"))]
    assert verbs == ["Arrange", "Give none", "Clear", "Stop", "More cards"]
    for label in ("A♠", "K♠", "Q♠", "K♥"):  # three fill Keep, the fourth goes to Give
        await tap(label)
    assert fields(dm)["Arrangement"].startswith("**Keep**: A♠ K♠ Q♠\n**Give**: K♥\n")
    assert {"A♠ ·K", "K♥ ·G"} <= set(card_labels(dm))
    await tap("Give none")
    assert fields(dm)["Arrangement"].startswith("**Keep**: A♠ K♠ Q♠\n**Give**: none\n")
    refused = await world.tester.click(alice, dm, "Give none")
    assert refused.response.ephemeral and refused.text == "You give nothing already."
    # A compact id for these cards is refused: this picker is drawn with paged ids.
    compact = f"cz:{driver.table.id}:{driver.table.seats[0].prompt}:{checksum(dm)}:0:0"
    assert await forged(world, alice, dm, compact) == INVALID
    await driver.take_suggestion("Keep A♠")  # shown for review: nothing is played
    assert driver.table.state.acted == 0
    assert fields(dm)["Arrangement"].startswith("**Keep**: A♠\n**Give**: none\n")
    await driver.press(alice, dm, "Arrange")
    await driver.settle()
    assert [c.code for c in driver.table.state.kept[0]] == ["As"]
