"""Crash end to end through the fake Discord: `/crash new` to the end of the game. Both players
set their hands in their DMs at the same time, one with the picker's four groups (a hand of
two refused with the rules' reason), the other taking a suggestion; nothing of a set shows in
the channel or the other player's DMs before the reveal; a timeout sets the default; a crash
ends the game at once; and `/crash rules`. The TableDriver checks after every step that no
channel message names a hidden card."""

from bot.cards import parse_french
from bot.games import crash  # noqa: F401  (registers the game)
from cogs.crash import CrashUI
from tests.tables_e2e import TableDriver

UI = CrashUI()
# Alice: a prial of 3s, a run J-10-9 and pairs of 7s and 5s. Bob: a prial of aces, runs
# K-Q-J and 10-9-8, a 6-high flush: Bob takes positions 2 to 4.
ALICE = "3s 3h 3d 9s 10h Jd 7s 7h 2c 5s 5h 4c Kd"
BOB = "As Ah Ad 9d 10s Jh 8s 8h 2d Kc Qc 6d 4d"
# Four prials for Alice against four lower ones for Bob: a crash.
ALICE_CRASHES = "3s 3h 3d As Ah Ad Ks Kh Kd Qs Qh Qd 2c"
BOB_CRASHED = "Js Jh Jd 10s 10h 10d 9s 9h 9d 8s 8h 8d 2d"


def deck(first: str, second: str) -> list[str]:
    """Thirteen cards to the dealer's left (first), then thirteen to the dealer."""
    return [card.code for card in parse_french(f"{first} {second}")]


def channel_text(world) -> str:
    return "\n".join(m.text() for m in world.tester.channel_messages(world.channel))


def dm_text(world, user) -> str:
    return "\n".join(m.text() for m in world.tester.dms(user))


def fields(message) -> dict[str, str]:
    return {f["name"]: f["value"] for e in message.embeds for f in e.get("fields", [])}


async def take_suggestion(driver: TableDriver, user, seat: int) -> str:
    """`user` chooses the first suggested arrangement in their DM; returns its label."""
    label = UI.action_label(None, driver.table.state.suggestions(seat, 1)[0])
    dm = await driver.controls(user)
    await driver.press(user, dm, label)
    await driver.settle()
    return label


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

    # Alice fills the four groups of her picker.
    dm = await driver.controls(alice)
    assert "How to set" in dm.text()
    empty = await world.tester.click(alice, dm, "Set these hands")
    assert empty.text == "Put three cards in a hand first, or choose a suggestion."

    async def tap(label: str) -> None:
        reply = await world.tester.click(alice, dm, label)
        assert reply.response is dm, reply.text

    for label in ("3♠", "3♥", "3♦", "Fill Hand 2", "J♦", "10♥", "9♠", "Fill Hand 3"):
        await tap(label)
    for label in ("7♠", "7♥", "2♣", "Fill Hand 4", "5♠", "5♥"):
        await tap(label)
    arrangement = fields(dm)["Arrangement"]
    assert "**Hand 1**: 3♠ 3♥ 3♦" in arrangement and "▶ **Hand 4**: 5♠ 5♥" in arrangement
    assert "can't be played: Hand 4 has 2 cards: a hand takes three." in arrangement
    refused = await world.tester.click(alice, dm, "Set these hands")
    assert refused.response.ephemeral and refused.text == "A hand takes exactly 3 cards, not 2."
    await tap("4♣")
    assert "ready to play" in fields(dm)["Arrangement"]
    await driver.press(alice, dm, "Set these hands")
    await driver.settle()
    assert "Alice is ready." in driver.message().text()
    # Her set shows in her DM only: not in the channel, nor in Bob's DMs.
    assert "Your hands, as set" in world.fake.messages[dm.id].text()
    for text in (channel_text(world), dm_text(world, bob)):
        for card in parse_french(ALICE):
            assert card.label not in text

    # Bob takes a suggestion: the reveal.
    label = await take_suggestion(driver, bob, 1)
    assert label == "A♠ A♥ A♦ | K♣ Q♣ J♥ | 10♠ 9♦ 8♠ | 6♦ 4♦ 2♦"
    text = channel_text(world)
    assert "Hands revealed: 1st Alice, 2nd Bob, 3rd Bob, 4th Bob." in text
    assert "1. 3♠ 3♥ 3♦ (prial of 3s)" in text and "1. A♠ A♥ A♦ (prial of As)" in text
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


async def test_the_rules(world):
    rules = await world.tester.slash(world.alice, world.channel, "crash rules")
    assert "stick-up" in rules.text and "3-3-3 highest" in rules.text
    assert "**House decisions.**" in rules.text and "On timeout" in rules.text
