"""Last One end to end through the fake Discord: `/lastone new` to the last player standing
with stacked deals and a low threshold (a timeout, a draw told only to the drawer, an 8's
suit named with buttons, a joker's card named from a select per suit, the "Last one!" call,
the hand's summary and the final standings), and a melee window announced in the channel
whose continue buttons only the holders' DMs show, raced by two holders at once. The
TableDriver checks after every step that no channel message names a hidden card."""

import asyncio

from bot.games.last_one import LastOneOptions
from cogs.last_one import LastOneUI
from tests.fakediscord import Message
from tests.tables_e2e import TableDriver

# Seat 0 (Alice) deals; Bob, on her left, plays first; then Carol.
GAME = {1: "9h 3c 5c Ks", 2: "8c 6s 6d Qd", 0: "BJ 10s Js Qs"}
RACE = {1: "4s 9c 9d 9h", 2: "5s 7c 7d 7h", 0: "RJ Kc Kd Qc"}


def dealt(hands: dict[int, str], upcard: str, stock: str) -> list[str]:
    """The deck order that deals `hands` in blocks from the dealer's left, then the upcard,
    then the stock from its top."""
    order = [(1 + index) % len(hands) for index in range(len(hands))]
    return [code for seat in order for code in hands[seat].split()] + [upcard, *stock.split()]


def channel_text(world) -> str:
    return "\n".join(m.text() for m in world.tester.channel_messages(world.channel))


def dm_text(world, user) -> str:
    return "\n".join(m.text() for m in world.tester.dms(user))


def labels(message: Message | None) -> list[str]:
    if message is None:
        return []
    found = [b.get("label", "") for b in message.buttons()]
    for row in message.components:
        for item in row["components"]:
            found += [option["label"] for option in item.get("options") or []]
    return found


def live_controls(world, user) -> Message | None:
    """The member's latest DM that still has controls, if any."""
    with_controls = [m for m in world.tester.dms(user) if m.components]
    return with_controls[-1] if with_controls else None


async def act(driver: TableDriver, user, label: str):
    reply = await driver.press(user, await driver.controls(user), label)
    assert not reply.response.ephemeral, reply.text  # taken: the DM itself was redrawn
    await driver.settle()
    return reply


def field(message: Message, name: str) -> str:
    (embed,) = message.embeds
    return next(f["value"] for f in embed.get("fields", []) if f["name"] == name)


async def test_a_short_game_from_new_to_the_last_player_standing(world):
    world.bot.runtime.stacked = [dealt(GAME, "7h", "Kd")]
    driver = TableDriver(world)
    await driver.open(
        "lastone new", world.alice, [world.bob, world.carol], hand_size=4, threshold=10
    )
    lobby = driver.message().text()
    assert "hand size: 4, threshold: 10, melee seconds: 10" in lobby
    await driver.start(world.alice)
    assert driver.table.names() == ["Alice", "Bob", "Carol"]
    assert field(driver.message(), "Upcard") == "7♥"
    # Bob runs out of time: his playable card worth the most is played for him.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = driver.message().text()
    assert "Bob ran out of time" in text and "Bob plays 9♥ (3 left)." in text
    # Carol draws although she could play her 8: only she learns the card.
    assert labels(await driver.controls(world.carol)) == [
        "Play 8♣ (then name a suit)",
        "Draw a card",
    ]
    await act(driver, world.carol, "Draw a card")
    assert "Carol draws a card." in channel_text(world) and "K♦" not in channel_text(world)
    assert "You drew K♦." in dm_text(world, world.carol)
    # Alice's joker stands for the 5 of clubs, named from the clubs select.
    await act(driver, world.alice, "Play BJ (then name a card)")
    naming = await driver.controls(world.alice)
    placeholders = [item["placeholder"] for row in naming.components for item in row["components"]]
    assert placeholders == ["Name Spades…", "Name Hearts…", "Name Diamonds…", "Name Clubs…"]
    await act(driver, world.alice, "5♣")
    assert "Alice's joker stands for the 5 of clubs." in driver.message().text()
    assert field(driver.message(), "Upcard") == "BJ as the 5 of clubs"
    # Bob plays 3♣, adds 5♣ and is down to one card: he calls in time.
    await act(driver, world.bob, "Play 3♣")
    assert labels(await driver.controls(world.bob)) == ["Play K♠", "Play 5♣", "End your turn"]
    await act(driver, world.bob, "Play 5♣")
    assert labels(await driver.controls(world.bob)) == ["Last one!"]
    await act(driver, world.bob, "Last one!")
    assert "Bob calls Last one!" in driver.message().text()
    # Carol's 8 names spades; Alice follows; Bob goes out with his last card.
    await act(driver, world.carol, "Play 8♣ (then name a suit)")
    await act(driver, world.carol, "♠ Spades")
    assert field(driver.message(), "Upcard") == "8♣: spades named"
    await act(driver, world.alice, "Play 10♠")
    await act(driver, world.bob, "Play K♠")
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None  # the match is over
    everything = channel_text(world)
    assert "Bob goes out: the hand is over." in everything
    assert "**Alice** · J♠ Q♠ · 20 · total 20 · **out of the game**" in everything
    assert "**Carol** · 6♠ 6♦ Q♦ K♦ · 32 · total 32 · **out of the game**" in everything
    assert "Last One: Bob wins!" in everything
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    assert [(row[1], row[2]) for row in rows] == [(2, 20), (1, 0), (3, 32)]
    rules = await world.tester.slash(world.alice, world.channel, "lastone rules")
    for decided in ("aggressor can't continue", "no stacking", "stops short", "On timeout"):
        assert decided in rules.text, decided


async def test_a_melee_window_is_announced_and_two_holders_race_for_it(world):
    world.bot.runtime.stacked = [dealt(RACE, "4h", "2c 3c 4c 5c 6c")]
    driver = TableDriver(world)
    await driver.open("lastone new", world.alice, [world.bob, world.carol], hand_size=4)
    await driver.start(world.alice)
    await act(driver, world.bob, "Play 4♠")
    table = driver.message()
    melee = field(table, "Melee!")
    assert melee.startswith("Bob attacks, Carol defends. Whoever holds the 5 of spades")
    assert "Alice" not in melee and "Waiting for" not in table.text()
    assert "Melee! Bob attacks, Carol defends" in table.text()
    # Only the holders' DMs show a continue button: Carol's 5♠, Alice's joker.
    assert labels(live_controls(world, world.carol)) == ["Continue with 5♠"]
    assert labels(live_controls(world, world.alice)) == ["Continue with RJ as the 5 of spades"]
    assert live_controls(world, world.bob) is None
    # Both press at the same moment: exactly one is taken.
    carol, alice = live_controls(world, world.carol), live_controls(world, world.alice)
    pressed = await asyncio.gather(
        driver.press(world.carol, carol, "Continue with 5♠"),
        driver.press(world.alice, alice, "Continue with RJ as the 5 of spades"),
    )
    await driver.settle()
    taken = [reply for reply in pressed if not reply.response.ephemeral]
    (late,) = [reply for reply in pressed if reply.response.ephemeral]
    # The loser's button is stale: a fresh prompt replaced it (the melee moved on to the 6),
    # or its holder has no choice now.
    assert len(taken) == 1
    assert late.text in ("This prompt has expired.", "It is not your turn.")
    # Whoever may go on now (with the 6, or a joker as it) has been sent that new choice.
    for decision in driver.table.state.pending():
        assert decision.prompt in world.tester.dms(driver.member(decision.seat))[-1].text()
    assert "continues the melee with" in driver.message().text()
    # The window passes: Bob, the last defender, draws the 5's pips, told the cards alone.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = channel_text(world)
    assert "Bob, the last defender, draws 5 cards." in text and "2♣" not in text
    assert "You drew 2♣ 3♣ 4♣ 5♣ 6♣." in dm_text(world, world.bob)
    assert driver.table.required_seats() == [2]  # play goes on after the defender: Carol
    assert "Waiting for Carol" in driver.message().text()


def test_nine_cards_are_agreed_to_by_joining_a_table_that_shows_them():
    ui = LastOneUI()
    assert ui.options_text(LastOneOptions()) == "hand size: 7, threshold: 250, melee seconds: 10"
    nine = ui.options_text(LastOneOptions(hand_size=9))
    assert nine.startswith("hand size: 9 (by joining, every player agrees to nine cards)")
