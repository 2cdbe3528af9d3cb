"""Botifarra end to end through the fake Discord: `/botifarra new`, partners chosen in the lobby,
the trump choice passed to the partner, the doubling spoken aloud in turn order (each answer on
the table before the next player speaks), cards picked (and an
illegal pick refused with the rule's reason), timeouts playing the safe default, and the match
to its end with standings per side. The TableDriver checks after every step that no channel
message names a hidden card."""

from bot.games import botifarra  # noqa: F401  (registers the game)
from tests.tables_e2e import TableDriver, channel_text, labels

# Seats 0 & 2 (Alice & Carol) hold every card from the 8 up: at botifarra they take every
# trick, 36 over half, x2 for botifarra, x2 for Bob's double: 144, past 101 in one hand.
STRONG = {
    0: "9s As Ks Qs Js 8s 9h Ah Kh Qh Jh 8h",
    1: "7s 6s 5s 4s 3s 2s 7h 6h 5h 4h 3h 2h",
    2: "9d Ad Kd Qd Jd 8d 9c Ac Kc Qc Jc 8c",
    3: "7d 6d 5d 4d 3d 2d 7c 6c 5c 4c 3c 2c",
}


def stacked(hands: dict[int, str], dealer: int = 0) -> list[str]:
    """The deck order that deals `hands`: twelve cards each from the dealer's left."""
    return [code for i in range(4) for code in hands[(dealer + 1 + i) % 4].split()]


async def play_card(driver: TableDriver, world, label: str) -> None:
    """The seat to act taps the card in its picker, then presses Play selected."""
    user = driver.member(driver.turn())
    dm = await driver.controls(user)
    await world.tester.click(user, dm, label)
    await driver.press(user, world.fake.messages[dm.id], "Play selected")
    await driver.settle()


async def test_a_match_from_new_to_the_end_with_the_doubling_dialogue(world):
    driver = TableDriver(world)
    await driver.open("botifarra new", world.alice, [world.bob, world.carol, world.admin])
    lobby = driver.message().text()
    assert "Side A" in lobby and "Side B" in lobby and "target: 101" in lobby
    world.bot.runtime.stacked = [stacked(STRONG)]
    await driver.start(world.alice)
    assert driver.table.names() == ["Alice", "Bob", "Carol", "Admin"]  # partners across
    assert "Alice is choosing trumps" in driver.message().text()
    # The dealer passes the choice to her partner, who can't pass it back.
    alice = await driver.controls(world.alice)
    assert "Botifarra (no trumps)" in labels(alice) and "♠ trumps" in labels(alice)
    await driver.press(world.alice, alice, "Pass the choice to your partner")
    await driver.settle()
    assert "Alice passes the choice to Carol." in driver.message().text()
    carol = await driver.controls(world.carol)
    assert "Pass the choice to your partner" not in labels(carol)
    await driver.press(world.carol, carol, "Botifarra (no trumps)")
    await driver.settle()
    assert "Carol chooses botifarra (no trumps): x2." in driver.message().text()
    # Carol declared last: Admin, at her left, speaks first, openly; only he may act.
    assert driver.table.pending_seats() == [3]
    assert "Admin to speak" in driver.message().text()
    waiting = await world.tester.click(world.bob, driver.message(), "My hand")
    assert "Double" not in labels(waiting.response)  # Bob's turn to speak comes after
    admin = await driver.controls(world.admin)
    assert labels(admin) == ["Double", "Don't double"]
    await driver.press(world.admin, admin, "Don't double")
    await driver.settle()
    # Bob hears it (on the table and in his hand) before he answers.
    assert "Admin doesn't double: x2." in driver.message().text()
    assert "Bob to speak" in driver.message().text()
    bob = await driver.controls(world.bob)
    assert "Admin doesn't double" in bob.text() and "Your partner doesn't double" in bob.text()
    await driver.press(world.bob, bob, "Double")
    await driver.settle()
    assert "Bob doubles: x4." in driver.message().text()
    # Bob declared last: Carol, at his left, may redouble, then Alice. Both run out of time.
    assert driver.table.pending_seats() == [2]
    assert labels(await driver.controls(world.carol)) == ["Redouble", "Don't redouble"]
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = driver.message().text()
    assert "ran out of time" in text and "Carol doesn't redouble: x4." in text
    assert driver.table.pending_seats() == [0]
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    assert "Alice doesn't redouble: x4." in driver.message().text()
    # Bob (the dealer's left) leads with the picker; Carol, void, plays anything.
    await play_card(driver, world, "7♠")
    await driver.take_suggestion("8♦")
    # Admin's partner Bob is winning: a card worth nothing must be his lowest of its suit.
    admin = await driver.controls(world.admin)
    reply = await world.tester.click(world.admin, admin, "7♦")
    assert "can't be played: Your partner is winning" in world.fake.messages[admin.id].text()
    refused = await world.tester.click(world.admin, world.fake.messages[admin.id], "Play selected")
    assert refused.response.ephemeral and "partner is winning" in refused.text
    assert reply is not None
    await world.tester.click(world.admin, world.fake.messages[admin.id], "7♦")  # let it go
    await world.tester.click(world.admin, world.fake.messages[admin.id], "2♦")
    await driver.press(world.admin, world.fake.messages[admin.id], "Play selected")
    await driver.settle()
    assert "Admin plays 2♦." in driver.message().text()
    # Alice must head the trick: every spade she holds beats the 7♠.
    assert labels(await driver.controls(world.alice))[-1] != "2♦"
    await play_card(driver, world, "A♠")
    assert "Alice takes the trick (5 points)." in driver.message().text()
    await driver.finish_by_timeouts()
    everything = channel_text(world)
    assert "Side A 72 · Side B 0; Side A scores 144 (x4)." in everything
    standings = next(
        m.text()
        for m in world.tester.channel_messages(world.channel)
        if "Final standings" in m.text()
    )
    assert "Alice & Carol" in standings and "144 points" in standings
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    assert [(row[1], row[2]) for row in rows] == [(1, 144), (2, 0), (1, 144), (2, 0)]


async def test_a_low_target_match_played_out_by_timeouts_and_the_rules(world):
    driver = TableDriver(world)
    await driver.open(
        "botifarra new", world.alice, [world.bob, world.carol, world.admin], target=10
    )
    await driver.start(world.alice)
    rules = await world.tester.slash(world.alice, world.channel, "botifarra rules")
    text = rules.text
    for decided in (
        "botifarra doubles the hand",
        "passes the choice to their partner",
        "Players speak in turn order from the last player to declare",
        "Every answer is shown on the table before the next player speaks",
        "your longest suit becomes trumps",
        "asked to double, you don't",
        "your lowest playable card",
        "excess times the multiplier",
        "your side forfeits",
        "lowest of its suit",
        "target: 10",
    ):
        assert decided in text, decided
    await driver.finish_by_timeouts(400)
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    placings = [row[1] for row in rows]
    scores = [row[2] for row in rows]
    assert placings[0] == placings[2] and placings[1] == placings[3]
    assert sorted(placings) == [1, 1, 2, 2] and max(scores) >= 10
    assert "Final standings" in channel_text(world)
