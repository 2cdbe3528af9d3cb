"""Crash end to end through the fake Discord: `/crash new` to the end of the game. Both players
set their hands in their DMs at the same time: one card by card (each tap into the first hand
with room, each complete hand named, an unfinished hand refused with the rules' reason), the
other choosing a suggestion, which only fills the four hands for review: nothing is set until
"Set these hands", and a card can be changed first. Nothing of a set shows in the channel or
the other player's DMs before the reveal; a timeout sets the default; a crash ends the game at
once; and `/crash rules`. Also: the clicks it takes to set (13 by hand, 5 with "Fill the rest",
2 from a suggestion; 16 by hand, 1 from a suggestion before the review existed), the refusals,
the review in an ephemeral My hand, a placing that survives a restart, six pairs declared and a
straight revealed beside the setting controls, and forged controls refused. The TableDriver
checks after every step that no channel message names a hidden card."""

import pytest

from bot.cards import parse_french
from bot.games import crash  # noqa: F401  (registers the game)
from bot.games.crash.ui import CrashUI
from tests.discord.test_games_forged_e2e import EXPIRED, INVALID, forged
from tests.tables_e2e import TableDriver, channel_text, dm_text, fields

UI = CrashUI()
REVIEW = "Your hands (not set yet)"
SET = "Set these hands"
# Alice: a prial of 3s, a run J-10-9 and pairs of 7s and 5s. Bob: a prial of aces, runs
# K-Q-J and 10-9-8, a 6-high flush: Bob takes positions 2 to 4.
ALICE = "3s 3h 3d 9s 10h Jd 7s 7h 2c 5s 5h 4c Kd"
BOB = "As Ah Ad 9d 10s Jh 8s 8h 2d Kc Qc 6d 4d"
BOB_SUGGESTED = "A♠ A♥ A♦ | K♣ Q♣ J♥ | 10♠ 9♦ 8♠ | 6♦ 4♦ 2♦"
BOB_NAMED = [
    "**Hand 1**: A♠ A♥ A♦ (prial of As)",
    "**Hand 2**: K♣ Q♣ J♥ (run K-Q-J)",
    "**Hand 3**: 10♠ 9♦ 8♠ (run 10-9-8)",
    "**Hand 4**: 6♦ 4♦ 2♦ (6-high flush)",
    "Left out (discarded when set): 8♥",
]
# Four prials for Alice against four lower ones for Bob: a crash.
ALICE_CRASHES = "3s 3h 3d As Ah Ad Ks Kh Kd Qs Qh Qd 2c"
BOB_CRASHED = "Js Jh Jd 10s 10h 10d 9s 9h 9d 8s 8h 8d 2d"


def deck(first: str, second: str) -> list[str]:
    """Thirteen cards to the dealer's left (first), then thirteen to the dealer."""
    return [card.code for card in parse_french(f"{first} {second}")]


def labels(text: str) -> list[str]:
    return [card.label for card in parse_french(text)]


def clicks(world, user) -> int:
    """The buttons pressed and selects chosen by `user` so far, as Discord received them."""
    return sum(1 for i in world.fake.interactions.values() if i.user is user and i.kind == 3)


async def deal_hand_one(world) -> TableDriver:
    """Alice deals: Bob gets BOB, Alice ALICE."""
    driver = TableDriver(world)
    await driver.open("crash new", world.alice, [world.bob])
    world.bot.runtime.stacked = [deck(BOB, ALICE)]
    await driver.start(world.alice)
    return driver


async def tap(world, user, message, *cards: str) -> None:
    """`user` taps these buttons, each redrawing `message` in place."""
    for label in cards:
        reply = await world.tester.click(user, message, label)
        assert reply.response is message, reply.text


async def take_suggestion(driver: TableDriver, user, seat: int) -> str:
    """`user` chooses the first suggested arrangement in their DM and sets it; returns its
    label."""
    label = UI.action_label(None, driver.table.state.suggestions(seat, 1)[0])
    dm = await driver.controls(user)
    await driver.press(user, dm, label)
    await driver.press(user, dm, SET)
    await driver.settle()
    return label


@pytest.mark.both_backends
async def test_a_game_from_new_to_the_end(world):
    alice, bob = world.alice, world.bob
    driver = TableDriver(world)
    await driver.open("crash new", alice, [bob])
    assert "target: 7" in driver.message().text()
    world.bot.runtime.stacked = [
        deck(BOB, ALICE),  # hand 1: Alice deals, Bob is dealt first
        deck(ALICE, BOB),  # hand 2: Bob deals
        deck(BOB_CRASHED, ALICE_CRASHES),  # hand 3: Alice deals
    ]
    await driver.start(alice)
    assert driver.table.names() == ["Alice", "Bob"]
    assert sorted(driver.table.pending_seats()) == [0, 1]  # both set at the same time
    assert "**Alice** (dealer) · 0 points · setting…" in driver.message().text()

    # Alice taps her cards: each goes into the first hand with room, named once complete.
    dm = await driver.controls(alice)
    assert "How to set" in dm.text()
    await tap(world, alice, dm, "3♠", "3♥", "3♦")
    assert "**Hand 1**: 3♠ 3♥ 3♦ (prial of 3s)" in fields(dm)[REVIEW]
    assert {"3♠ ·1", "3♦ ·1", "J♦"} <= {b["label"] for b in dm.buttons()}
    await tap(world, alice, dm, "J♦", "10♥", "9♠", "7♠", "7♥", "2♣", "5♠", "5♥")
    review = fields(dm)[REVIEW]
    assert "**Hand 2**: J♦ 10♥ 9♠ (run J-10-9)" in review
    assert "**Hand 3**: 7♠ 7♥ 2♣ (pair of 7s)" in review
    assert "**Hand 4**: 5♠ 5♥\n" in review and "Hand 4 needs 1 more card." in review
    refused = await world.tester.click(alice, dm, SET)
    assert refused.response.ephemeral and refused.text == "A hand takes exactly 3 cards, not 2."
    await tap(world, alice, dm, "4♣")
    assert "**Hand 4**: 5♠ 5♥ 4♣ (pair of 5s)" in fields(dm)[REVIEW]
    assert "Left out (discarded when set): K♦" in fields(dm)[REVIEW]
    assert "Ready: nothing is set until you press" in fields(dm)[REVIEW]
    assert driver.table.state.sets[0] is None
    await driver.press(alice, dm, SET)
    await driver.settle()
    assert "Alice is ready." in driver.message().text()
    # Her set shows in her DM only: not in the channel, nor in Bob's DMs.
    assert "Your hands, as set" in world.fake.messages[dm.id].text()
    assert not world.fake.messages[dm.id].components  # set for good: nothing left to press
    for text in (channel_text(world), dm_text(world, bob)):
        for card in parse_french(ALICE):
            assert card.label not in text

    # Bob chooses a suggestion: it fills his four hands for review, and nothing is set yet.
    label = UI.action_label(None, driver.table.state.suggestions(1, 1)[0])
    assert label == BOB_SUGGESTED
    bob_dm = await driver.controls(bob)
    await driver.press(bob, bob_dm, label)
    await driver.settle()
    review = fields(bob_dm)[REVIEW]
    assert all(line in review for line in BOB_NAMED), review
    assert driver.table.state.sets[1] is None and driver.table.pending_seats() == [1]
    assert "Bob is ready." not in driver.message().text()
    assert "A♠ A♥ A♦" not in channel_text(world) + dm_text(world, alice)
    # A way back: he swaps the 8♠ for the 8♥ before setting.
    await tap(world, bob, bob_dm, "8♠ ·3")
    assert "Hand 3 needs 1 more card." in fields(bob_dm)[REVIEW]
    await tap(world, bob, bob_dm, "8♥")
    assert "**Hand 3**: 10♠ 9♦ 8♥ (run 10-9-8)" in fields(bob_dm)[REVIEW]
    await driver.press(bob, bob_dm, SET)
    await driver.settle()

    # The reveal.
    text = channel_text(world)
    assert "Hands revealed: 1st Alice, 2nd Bob, 3rd Bob, 4th Bob." in text
    assert "1. 3♠ 3♥ 3♦ (prial of 3s)" in text and "1. A♠ A♥ A♦ (prial of As)" in text
    assert "3. 10♠ 9♦ 8♥ (run 10-9-8)" in text  # as Bob changed it
    assert "1 card discarded" in text and "K♦" not in text  # Alice's discard stays hidden
    assert driver.table.state.match.scores == [1, 3]

    # Hand 2: Alice takes a suggestion; Bob runs out of time and gets the default.
    await world.bot.runtime.fire_deadline(driver.table.id)  # the next deal
    await driver.settle()
    assert "Hand 2: Bob deals. Set your hands!" in driver.message().text()
    await take_suggestion(driver, alice, 0)
    assert driver.table.state.pending_seats() == [1]
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    assert "Bob ran out of time" in channel_text(world)
    assert driver.table.state.match.scores == [2, 6]

    # Hand 3: four prials against four lower ones: Alice crashes and wins, 6 points to 6.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    await take_suggestion(driver, bob, 1)
    await take_suggestion(driver, alice, 0)
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None  # the game is over
    text = channel_text(world)
    assert "**1.** Alice · 6 points" in text  # a crash wins, whatever the scores
    assert "**Crash!** Alice won all four positions and the game." in text
    assert "Crash: Alice wins!" in text
    totals = await world.bot.ledger.totals(world.guild.id)
    assert totals.consistent and totals.escrows == 0


async def test_clicks_to_set_by_hand_with_fill_the_rest_and_from_a_suggestion(world):
    """By hand: twelve cards and Set (16 before: three "Fill Hand n" more). Bob sets only
    his top hand himself and lets "Fill the rest" make the others: 5 clicks. A suggestion
    reviewed and set: 2 clicks."""
    alice, bob = world.alice, world.bob
    driver = await deal_hand_one(world)
    dm = await driver.controls(alice)
    before = clicks(world, alice)
    await tap(world, alice, dm, *labels("3s 3h 3d Jd 10h 9s 7s 7h 2c 5s 5h 4c"))
    await driver.press(alice, dm, SET)
    await driver.settle()
    assert clicks(world, alice) - before == 13
    assert driver.table.state.sets[0] is not None

    bob_dm = await driver.controls(bob)
    before = clicks(world, bob)
    await tap(world, bob, bob_dm, "A♠", "A♥", "A♦", "Fill the rest")
    review = fields(bob_dm)[REVIEW]
    assert all(line in review for line in BOB_NAMED), review  # what the suggestion makes
    await driver.press(bob, bob_dm, SET)
    await driver.settle()
    assert clicks(world, bob) - before == 5
    assert "Hands revealed" in channel_text(world)

    await world.bot.runtime.fire_deadline(driver.table.id)  # hand 2: a suggestion
    await driver.settle()
    before = clicks(world, bob)
    await take_suggestion(driver, bob, 1)
    assert clicks(world, bob) - before == 2
    assert driver.table.state.sets[1] is not None


async def test_fill_the_rest_keeps_complete_hands_where_they_are(world):
    driver = await deal_hand_one(world)
    dm = await driver.controls(world.alice)
    # Hand 1 unfinished (taken apart again), Hand 2 a run of the player's own.
    await tap(world, world.alice, dm, "5♠", "2♣", "3♠", "J♦", "10♥", "9♠", "5♠ ·1")
    await tap(world, world.alice, dm, "Fill the rest")
    review = fields(dm)[REVIEW]
    assert "**Hand 2**: J♦ 10♥ 9♠ (run J-10-9)" in review
    assert "**Hand 1**: 3♠ 3♥ 3♦ (prial of 3s)" in review
    assert "pair of 7s" in review and "pair of 5s" in review
    assert "Ready" in review
    assert driver.table.state.sets[0] is None  # still only a review


async def test_what_cant_be_done_is_explained_and_changes_nothing(world):
    alice = world.alice
    driver = await deal_hand_one(world)
    dm = await driver.controls(alice)
    nothing = await world.tester.click(alice, dm, SET)
    assert nothing.text == "Tap cards into your hands first, or choose a suggestion."
    await tap(world, alice, dm, *labels("Kd 4c 2c 3s 3h 3d Jd 10h 9s 7s 7h 5s"))
    assert "Can't be set: K♦ 4♣ 2♣ is only K high" in fields(dm)[REVIEW]
    drawn = dm.payload
    for label, reason in (
        ("5♥", "Your four hands are full: tap a card in one to take it out."),
        ("Fill the rest", "Your four hands are full already."),
        (SET, "K♦ 4♣ 2♣ is only K high: every hand must be a pair or better."),
    ):
        refused = await world.tester.click(alice, dm, label)
        assert refused.response.ephemeral and refused.text == reason
        assert world.fake.messages[dm.id].payload == drawn  # nothing changed
    assert driver.table.state.sets[0] is None
    # Clear empties the four hands.
    await tap(world, alice, dm, "Clear")
    assert "**Hand 1**: empty" in fields(dm)[REVIEW]
    assert not any("·" in button["label"] for button in dm.buttons())


async def test_the_review_in_my_hand_stays_private_and_a_set_cant_be_changed(world):
    """Bob's DMs are closed: he reviews and sets in ephemeral My hand messages; once set,
    an older My hand's controls are refused."""
    world.bob.accepts_dms = False
    driver = await deal_hand_one(world)
    bob = world.bob
    older = (await world.tester.click(bob, driver.message(), "My hand")).response
    mine = (await world.tester.click(bob, driver.message(), "My hand")).response
    assert mine.ephemeral and mine.visible_to == bob.id
    await driver.press(bob, mine, BOB_SUGGESTED)
    await driver.settle()
    assert all(line in fields(mine)[REVIEW] for line in BOB_NAMED)
    assert REVIEW not in channel_text(world) and "A♠" not in channel_text(world)
    await driver.press(bob, mine, SET)
    await driver.settle()
    assert "Your hands, as set" in mine.text()
    changed = await world.tester.click(bob, older, "8♥")
    assert changed.response.ephemeral
    assert changed.text == "Your hands are set: a set can't be changed."
    assert driver.table.state.sets[1][2] == parse_french("10s 9d 8s")


async def test_a_placing_survives_a_restart(world):
    alice = world.alice
    driver = await deal_hand_one(world)
    dm = await driver.controls(alice)
    await tap(world, alice, dm, "3♠", "3♥", "3♦", "K♦")
    await world.stop_bot()
    await world.start_bot()
    await world.tester.idle()
    old = world.fake.messages[dm.id]  # the message drawn before the restart
    await tap(world, alice, old, "J♦")
    review = fields(world.fake.messages[dm.id])[REVIEW]
    assert "**Hand 1**: 3♠ 3♥ 3♦ (prial of 3s)" in review
    assert "**Hand 2**: K♦ J♦\n" in review


async def test_six_pairs_are_declared_and_a_straight_revealed_beside_no_setting(world):
    alice, bob = world.alice, world.bob
    driver = TableDriver(world)
    await driver.open("crash new", alice, [bob])
    world.bot.runtime.stacked = [
        deck("2s 2h 3s 3h 5s 5h 7s 7h 9s 9h Js Jh Kd", BOB),  # Bob six pairs, Alice dealer
        deck("As Kh Qd Jc 10s 9h 8d 7c 6s 5h 4d 3c 2s", "Ah Ad Ac Ks Kd Kc Qs Qh Qc Js Jh Jd 10h"),
    ]
    await driver.start(alice)
    dm = await driver.controls(bob)
    assert {SET, "Fill the rest", "Declare six pairs (void the hand)"} <= {
        button["label"] for button in dm.buttons()
    }
    await driver.press(bob, dm, "Declare six pairs (void the hand)")
    await driver.settle()
    assert "Bob is ready." in driver.message().text() and "You declared six pairs." in dm.text()
    await take_suggestion(driver, alice, 0)
    assert "Bob declared six pairs: the hand is void" in channel_text(world)
    await world.bot.runtime.fire_deadline(driver.table.id)  # Alice deals again
    await driver.settle()
    straight = await driver.controls(bob)  # dealt to the dealer's left: Bob
    assert [button["label"] for button in straight.buttons()] == [
        "Reveal your thirteen-card straight"
    ]


async def test_setting_controls_forged_by_a_modified_client_are_refused(world):
    """Crash's ids: cz:<table>:<prompt>:<cards>:<placed>:<card or verb>, and
    cz:<table>:<prompt>:<cards>:suggested whose values are placings."""
    alice, bob = world.alice, world.bob
    driver = await deal_hand_one(world)
    dm = await driver.controls(alice)
    table, prompt = driver.table.id, driver.table.seats[0].prompt
    cards = dm.buttons()[0]["custom_id"].split(":")[3]
    drawn = f"cz:{table}:{prompt}:{cards}"
    beyond = 5**13  # thirteen cards, each in no hand or one of four: placings below 5**13
    for custom_id in (
        f"{drawn}:0:13",  # a card past the end of the hand
        f"{drawn}:{beyond:x}:set",  # a placing no hand can have
        f"{drawn}:00:fill",  # not the form the bot writes
        f"cz:0{table}:{prompt}:{cards}:0:0",
        f"{drawn}:0:swap",  # no such verb
    ):
        assert await forged(world, alice, dm, custom_id) == INVALID, custom_id
    for values in ([], ["01"], ["zz"], [f"{beyond:x}"], ["1", "2"]):
        assert await forged(world, alice, dm, f"{drawn}:suggested", values=values) == INVALID
    assert await forged(world, alice, dm, f"cz:{table}:{prompt + 1}:{cards}:0:0") == EXPIRED
    # Alice's controls in Bob's hands: drawn for other cards.
    bob_dm = await driver.controls(bob)
    assert await forged(world, bob, bob_dm, f"{drawn}:0:0") == EXPIRED
    # Setting an arrangement the rules refuse changes nothing either.
    unpaired = driver.table.state.hands[0]  # K♦ J♦ 10♥ in Hand 1: only K high
    assert [card.label for card in unpaired[:3]] == ["K♦", "J♦", "10♥"]
    assert await forged(world, alice, dm, f"{drawn}:{1 + 5 + 25:x}:set") == (
        "K♦ J♦ 10♥ is only K high: every hand must be a pair or better."
    )


async def test_the_rules(world):
    rules = await world.tester.slash(world.alice, world.channel, "crash rules")
    assert "stick-up" in rules.text and "3-3-3 highest" in rules.text
    assert "**House decisions.**" in rules.text and "On timeout" in rules.text
    assert "nothing is set until you press **Set these hands**" in rules.text
    assert "**Fill the rest**" in rules.text
