"""`/table history` end to end through the fake Discord: a Triple Draw Lowball hand where alice
folds and bob and carol go to the showdown, then listed with who won what, replayed step by step
(First / Prev / Next / End) in an ephemeral message, exported as JSON Lines and PHH, refused to
a member who clicks someone else's replay (and to a forged control from another channel or for
a hand that doesn't exist), and still there after a restart.

Every step a member is shown is checked with the leak helpers: no card hidden from that member
at that step (the folded hand, the stub, the other hands before the showdown) is named.

Seats: alice 0 (deals, folds at once), bob 1 (small blind, wins), carol 2 (big blind)."""

from __future__ import annotations

import asyncio

import orjson
import pytest

from bot.cards import parse_french
from bot.discord.history import NOT_YOURS
from bot.engine import GameState, registry
from bot.games import lowball  # noqa: F401  (registers the game)
from bot.games.lowball.rules import LowballState, pokerkit_code
from bot.store.history import HistoryStore
from bot.tables.history import HandReplay, find_hand, replay_table
from tests.discord.test_lowball_e2e import ALICE, BOB, CAROL, open_table
from tests.fakediscord import Interaction, Message, User
from tests.tables_e2e import card_names, names_in

LOWBALL = registry.get("lowball")
NEXT, PREV, FIRST, END = "Next ▶", "◀ Prev", "⏮ First", "End ⏭"
BOB_WON = "**Triple Draw Lowball · table {table} · hand 1**: Bob won · "


def lowball_state(state: GameState | None) -> LowballState:
    assert isinstance(state, LowballState)
    return state


def state_at(hand: HandReplay, step: int) -> LowballState:
    return lowball_state(LOWBALL.restore(hand.steps[step].snapshot))


def labels_of(text: str) -> set[str]:
    return {name for card in parse_french(text) for name in card_names(card)}


async def play_to_the_showdown(world) -> int:
    """Alice folds; bob and carol check and stand pat to the showdown (bob's king-high beats
    carol's kings). The table's id."""
    driver = await open_table(world)
    await driver.play("Fold")  # alice
    await driver.play("Call 1")  # bob
    while not lowball_state(driver.table.state).awaiting_next_hand():
        drawing = lowball_state(driver.table.state).phase == "draw"
        await driver.play("Stand pat" if drawing else "Check")
    assert "Bob wins 4 chips." in driver.message().text()
    return driver.table.id


async def history(world, user: User, channel=None) -> Interaction:
    reply = await world.tester.slash(user, channel or world.channel, "table history")
    assert reply.response.ephemeral, reply.text
    return reply


async def open_replay(world, user: User, table_id: int) -> Message:
    """`user` runs /table history and picks the hand: their replay's message, at step 1."""
    listed = await history(world, user)
    picked = await world.tester.choose(user, listed.response, [f"{table_id}:1"])
    await settled(world, picked)  # the list becomes the replay
    assert listed.response is not None
    return listed.response


async def settled(world, clicked: Interaction) -> None:
    """The bot deferred `clicked`, then edited the message it was on (the replay is worked
    out in a thread meanwhile: no call to Discord tells when it is done but that edit)."""
    await asyncio.wait_for(clicked.followed_up.wait(), 5)
    await world.tester.idle()
    assert clicked.response_type == 6 and clicked.response is None, clicked.text


async def move(world, user: User, replay: Message, label: str) -> None:
    await settled(world, await world.tester.click(user, replay, label))


async def replayed_hand(world, table_id: int) -> HandReplay:
    """The hand as the store and the replay have it, for the states each step is checked on."""
    log = await HistoryStore(world.bot.database).table_log(table_id)
    assert log is not None
    hand = find_hand(replay_table(LOWBALL, log), 1)
    assert hand is not None and hand.ended
    return hand


def step_title(message: Message) -> str:
    return message.embeds[0]["title"]


async def every_step(world, user: User, replay: Message) -> list[str]:
    """`user` presses Next until the last step: each step's text, in order."""
    texts = [replay.text()]
    while any(button.get("label") == NEXT for button in replay.buttons()):
        await move(world, user, replay, NEXT)
        texts.append(replay.text())
    return texts


def assert_nothing_hidden(hand: HandReplay, seat: int, texts: list[str]) -> None:
    """No step names a card hidden from `seat` at that step (as the live table's check)."""
    assert len(texts) == len(hand.steps)
    for step, text in enumerate(texts):
        hidden = state_at(hand, step).hidden_from(seat)
        names = {name for card in hidden for name in card_names(card)}
        leaked = names_in(text, names)
        assert not leaked, f"seat {seat} sees hidden cards {leaked} at step {step + 1}:\n{text}"


async def test_a_member_replays_the_hand_step_by_step_and_sees_no_hidden_card(world):
    table_id = await play_to_the_showdown(world)
    listed = await history(world, world.bob)
    assert BOB_WON.format(table=table_id) + "Alice ±0 chips, Bob +2 chips, Carol -2 chips" in (
        listed.text
    ), listed.text
    hand = await replayed_hand(world, table_id)
    seen = {}
    for user, seat in ((world.bob, 1), (world.carol, 2), (world.alice, 0)):
        replay = await open_replay(world, user, table_id)
        assert step_title(replay) == f"Replay · hand 1 · step 1 of {len(hand.steps)}"
        assert {FIRST, PREV}.isdisjoint(button["label"] for button in replay.buttons())
        seen[seat] = await every_step(world, user, replay)
        assert_nothing_hidden(hand, seat, seen[seat])
        assert not names_in(seen[seat][0], labels_of(CAROL if seat == 1 else BOB))
    # Each sees their own hand from the deal on; alice's folded hand, nobody else ever.
    for seat, own in ((0, ALICE), (1, BOB), (2, CAROL)):
        assert names_in(seen[seat][0], labels_of(own)) == sorted(labels_of(own))
    for seat in (1, 2):
        assert not names_in("\n".join(seen[seat]), labels_of(ALICE))
    # Bob and carol show at the end: each sees the other's hand there.
    assert "Carol shows K♥ K♣ 8♣ 6♠ 3♦" in seen[1][-1] and "Bob shows" in seen[2][-1]
    assert "Bob wins 4 chips." in seen[1][-1]


async def test_first_prev_next_and_end_move_through_the_steps(world):
    table_id = await play_to_the_showdown(world)
    replay = await open_replay(world, world.bob, table_id)
    steps = len((await replayed_hand(world, table_id)).steps)
    for label, step in ((END, steps), (PREV, steps - 1), (FIRST, 1), (NEXT, 2)):
        await move(world, world.bob, replay, label)
        assert step_title(replay) == f"Replay · hand 1 · step {step} of {steps}", label
    await move(world, world.bob, replay, END)
    assert NEXT not in [b["label"] for b in replay.buttons()]
    assert "Export" in [b["label"] for b in replay.buttons()]


async def test_someone_elses_replay_controls_are_refused_and_change_nothing(world):
    table_id = await play_to_the_showdown(world)
    replay = await open_replay(world, world.bob, table_id)
    shown = replay.payload
    with pytest.raises(Exception, match="another's ephemeral message"):
        await world.tester.click(world.carol, replay, NEXT)  # Discord's client won't
    for button in replay.buttons():  # a modified client sends bob's custom_ids
        custom_id = button["custom_id"]
        forged = await world.tester.forge(world.carol, world.channel, custom_id, message=replay)
        assert forged.text == NOT_YOURS and forged.response.ephemeral, forged.text
        assert not forged.response.attachments  # the export isn't sent either
    select = f"histpick:{world.bob.id}"
    forged = await world.tester.forge(
        world.carol, world.channel, select, values=[f"{table_id}:1"], message=replay
    )
    assert forged.text == NOT_YOURS
    await world.tester.idle()
    assert replay.payload == shown


async def test_a_forged_replay_control_reaches_no_other_channel_and_no_missing_hand(world):
    table_id = await play_to_the_showdown(world)
    replay = await open_replay(world, world.bob, table_id)
    shown = replay.payload
    elsewhere = world.fake.add_channel(world.guild)  # not the table's channel
    forgeries = [
        (elsewhere, f"hist:next:{table_id}:1:0:{world.bob.id}", "wasn't played in this channel"),
        (elsewhere, f"histx:{table_id}:1:{world.bob.id}", "wasn't played in this channel"),
        (world.channel, f"hist:next:{table_id}:7:0:{world.bob.id}", "has no such hand"),
    ]
    for channel, custom_id, refusal in forgeries:
        forged = await world.tester.forge(world.bob, channel, custom_id, message=replay)
        answer = await forged.followup()
        assert answer.ephemeral and refusal in answer.text(), answer.text()
        assert not answer.attachments
    await world.tester.idle()
    assert replay.payload == shown


async def test_a_replay_control_forged_onto_the_table_message_is_refused(world):
    """A member's own replay controls sent from a message the whole channel sees (the table
    message) would draw there the replay, and in it their own cards: refused, with nothing
    drawn. (Random forged clicks found the same for a seat's own controls.)"""
    table_id = await play_to_the_showdown(world)
    replay = await open_replay(world, world.bob, table_id)
    table_message = world.tester.channel_messages(world.channel)[0]  # the table's, kept
    shown = table_message.payload
    forgeries = [(b["custom_id"], None) for b in replay.buttons()]
    forgeries.append((f"histpick:{world.bob.id}", [f"{table_id}:1"]))
    for custom_id, values in forgeries:
        forged = await world.tester.forge(
            world.bob, world.channel, custom_id, values=values, message=table_message
        )
        assert forged.text == "This button is no longer valid.", custom_id
        assert forged.response.ephemeral and not forged.response.attachments
    await world.tester.idle()
    assert table_message.payload == shown


def json_strings(value) -> set[str]:
    """Every string in a parsed JSON value, keys included."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | set().union(*map(json_strings, value.values()))
    if isinstance(value, list):
        return set().union(*map(json_strings, value))
    return set()


async def test_the_export_sends_the_public_record_and_the_phh(world):
    table_id = await play_to_the_showdown(world)
    replay = await open_replay(world, world.bob, table_id)
    exported = await world.tester.click(world.bob, replay, "Export")
    sent = await exported.followup()
    assert sent.ephemeral and "JSON Lines" in sent.text() and "Poker Hand History" in sent.text()
    files = {a["filename"]: world.fake.uploads[a["id"]].decode() for a in sent.attachments}
    stem = f"table-{table_id}-hand-1"
    assert set(files) == {f"{stem}.jsonl", f"{stem}.phh"}
    hand = await replayed_hand(world, table_id)
    lines = [orjson.loads(line) for line in files[f"{stem}.jsonl"].splitlines()]
    assert [line["step"] for line in lines] == list(range(len(hand.steps)))
    for step, line in enumerate(lines):
        hidden = state_at(hand, step).hidden_from(None)
        leaked = {card.code for card in hidden} & json_strings(line)
        assert not leaked, f"the JSON Lines show hidden cards {leaked} at step {step}"
    assert not {card.code for card in parse_french(ALICE)} & json_strings(lines)  # folded: never
    assert {card.code for card in parse_french(CAROL)} <= json_strings(
        lines[-1]
    )  # shown at the end
    # The PHH is bob's: his own cards from the deal, alice's never.
    phh = files[f"{stem}.phh"]
    assert "".join(pokerkit_code(card) for card in parse_french(BOB)) in phh
    assert not any(pokerkit_code(card) in phh for card in parse_french(ALICE))


async def test_a_channel_with_no_hand_played_says_so(world):
    reply = await history(world, world.alice)
    assert reply.text == "No hand has been played in this channel yet."
    assert reply.response is not None and not reply.response.components
    other = world.fake.add_channel(world.guild)
    await play_to_the_showdown(world)  # a hand here is not one of the other channel's
    reply = await history(world, world.bob, other)
    assert reply.text == "No hand has been played in this channel yet."


@pytest.mark.both_backends
async def test_the_history_survives_a_restart(world):
    table_id = await play_to_the_showdown(world)
    before = await open_replay(world, world.bob, table_id)
    steps = await every_step(world, world.bob, before)
    await move(world, world.bob, before, FIRST)
    await world.stop_bot()
    await world.start_bot()
    await world.tester.idle()
    await move(world, world.bob, before, NEXT)  # the old replay's buttons work
    assert before.text() == steps[1]
    listed = await history(world, world.bob)
    assert BOB_WON.format(table=table_id) in listed.text
    after = await open_replay(world, world.bob, table_id)
    assert await every_step(world, world.bob, after) == steps
