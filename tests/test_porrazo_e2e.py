"""Porrazo end to end through the fake Discord: `/porrazo new` with partners chosen in the lobby,
a stacked first deal with the dealer's tendido, a capture picked card by card (the hand card,
then the table card, after a refused pick that must capture), a timeout playing the safe
default, a ronda declared out of turn with its button, a porrazo picked from the suggestions and
standing when the next card is played, then the game to its end by timeouts with standings per
side; and a three-player game, alone, to its end. The TableDriver checks after every step that
no channel message names a hidden card."""

from bot.games import porrazo  # noqa: F401  (registers the game)
from tests.tables_e2e import TableDriver

# Seats once Bob and Carol have switched sides: Alice, Carol, Bob, Admin (Alice & Bob against
# Carol & Admin). Alice deals: three each from Carol round to herself, then her tendido.
PARTNERS_DEAL = " ".join(
    [
        "10d 9d Kc",  # Carol
        "5h 9c 2d",  # Bob
        "2c 7d 7c",  # Admin: a ronda of 7s and a 2 for the porrazo
        "6s 8h Qd",  # Alice
        "3d Ah 4c 10s",  # the tendido: A first and 4 fourth once arranged
    ]
).split()


def channel_text(world) -> str:
    return "\n".join(m.text() for m in world.tester.channel_messages(world.channel))


def labels(message) -> list[str]:
    found = [b.get("label", "") for b in message.buttons()]
    for row in message.components:
        for item in row["components"]:
            found += [option["label"] for option in item.get("options") or []]
    return found


def to_act(driver: TableDriver) -> int:
    """The seat play waits for (others may hold an optional declaration)."""
    (seat,) = driver.table.required_seats()
    return seat


async def tap(driver: TableDriver, world, user, *cards: str):
    """`user` taps these buttons in their latest DM (cards, page turns), in order."""
    dm = await driver.controls(user)
    for label in cards:
        await world.tester.click(user, world.fake.messages[dm.id], label)
    return world.fake.messages[dm.id]


async def match_rows(world) -> list[tuple[int, int, int]]:
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    return [(row[0], row[1], row[2]) for row in rows]


async def test_a_partnership_game_from_new_to_the_end(world):
    driver = TableDriver(world)
    await driver.open(
        "porrazo new",
        world.alice,
        [world.bob, world.carol, world.admin],
        partnerships=True,
        target=15,
    )
    lobby = driver.message()
    assert "Side A" in lobby.text() and "two partnerships, game to 15" in lobby.text()
    for user in (world.bob, world.carol):  # Bob joins Alice's side, Carol Admin's
        await world.tester.click(user, driver.message(), "Switch side")
    world.bot.runtime.stacked = [PARTNERS_DEAL]
    await driver.start(world.alice)
    assert driver.table.names() == ["Alice", "Carol", "Bob", "Admin"]
    # Alice deals her tendido: A♥ first and 4♣ fourth score 1 + 4 for her side.
    await driver.play("Deal the tendido now", seat=to_act(driver))
    text = driver.message().text()
    assert "Alice deals the tendido: A♥ 3♦ 10♠ 4♣ (A♥ 4♣ in place)." in text
    assert "Alice scores 5 for the tendido · Alice & Bob: 5 points." in text
    # Admin declares a ronda out of turn, with the button in his DM; its rank stays hidden.
    admin = await driver.controls(world.admin)
    await driver.press(world.admin, admin, "Declare your ronda")
    await driver.settle()
    assert "Admin declares a ronda." in driver.message().text()
    assert "Admin a ronda" in driver.message().text()
    # Carol picks the 10♦ alone: it can capture, so it must; then with the 10♠ from the table.
    refused = await tap(driver, world, world.carol, "10♦")
    assert "can't be played: Your 10♦ can capture, so it must" in refused.text()
    ready = await tap(driver, world, world.carol, "Show the table", "10♠")
    assert "ready to play" in ready.text()
    await driver.press(world.carol, ready, "Play selected")
    await driver.settle()
    assert "Carol plays 10♦ and takes 10♠." in driver.message().text()
    # Bob runs out of time: with nothing to capture, his lowest card is placed.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = driver.message().text()
    assert "Bob ran out of time" in text and "Bob places 2♦." in text
    # Admin pairs the card Bob just placed: a porrazo, waiting on the table.
    admin_options = labels(await driver.controls(world.admin))
    assert "2♣ porrazo on 2♦" in admin_options and "2♣ takes 2♦ 3♦ 4♣" in admin_options
    await driver.take_suggestion("2♣ porrazo on 2♦")
    text = driver.message().text()
    assert "Admin plays 2♣ on 2♦: porrazo!" in text and "Admin's porrazo: 2♦ 2♣" in text
    # Alice doesn't counter: the porrazo stands, a ronda of 2s for Admin's side.
    await driver.take_suggestion("Place Q♦")
    text = driver.message().text()
    assert "Admin scores 1 for a porrazo (2♦ 2♣) · Carol & Admin: 1 point." in text
    assert "Alice places Q♦." in text
    await driver.finish_by_timeouts()
    everything = channel_text(world)
    assert "Final standings" in everything and "Porrazo · hand 1 over" in everything
    rows = await match_rows(world)
    assert rows[0][1:] == rows[2][1:] and rows[1][1:] == rows[3][1:]  # partners share
    assert sorted(row[1] for row in rows) == [1, 1, 2, 2] and max(r[2] for r in rows) >= 15


async def test_a_three_player_game_alone_to_the_end_and_the_rules(world):
    driver = TableDriver(world)
    await driver.open("porrazo new", world.alice, [world.bob, world.carol], target=20)
    assert "everyone for themselves, game to 20" in driver.message().text()
    await driver.start(world.alice)
    rules = await world.tester.slash(world.alice, world.channel, "porrazo rules")
    for decided in (
        "declared on every deal of three",
        "a queen",
        "never also a limpia",
        "at the latest with the last deal",
        "the capture taking most cards",
        "your lowest card placed",
        "your side forfeits",
        "game to 20",
    ):
        assert decided in rules.text, decided
    # The dealer keeps the tendido for later; it comes at the latest with the last deal.
    await driver.play("Not yet", seat=to_act(driver))
    assert "Alice keeps the tendido for a later deal." in driver.message().text()
    await driver.finish_by_timeouts()
    everything = channel_text(world)
    assert "Porrazo · hand 1 over" in everything
    rows = await match_rows(world)
    assert len(rows) == 3 and max(row[2] for row in rows) >= 20
    assert min(row[1] for row in rows) == 1
