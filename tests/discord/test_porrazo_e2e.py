"""Porrazo end to end through the fake Discord: `/porrazo new` with partners chosen in the lobby,
a stacked first deal with the dealer's tendido, a capture picked card by card (the hand card,
then the table card on the same page, after a refused pick that must capture), a timeout
playing the safe default, a ronda declared out of turn with its button, a porrazo picked from
the suggestions and standing when the next card is played, then the game to its end by
timeouts with standings per side; a three-player game, alone, to its end; and a porrazo on the
only table card scoring a limpia too, a counter-porrazo played by tapping just its card, a
capture in three clicks, and a hand that says its deal without piling up a line per deal; and
AI seats declaring before the deal's first card. The TableDriver checks after every step that
no channel message names a hidden card."""

import asyncio

import pytest

from bot.games import porrazo  # noqa: F401  (registers the game)
from bot.games.porrazo.ui import PorrazoUI
from tests.tables_e2e import TableDriver, add_ai, channel_text, labels

UI = PorrazoUI()

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


@pytest.mark.slow  # a whole match, step by step
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
    # Carol picks the 10♦ alone: it can capture, so it must; then with the 10♠ from the table,
    # on the same page: her hand's row, then the table's.
    refused = await tap(driver, world, world.carol, "10♦")
    assert "can't be played: Your 10♦ can capture, so it must" in refused.text()
    assert "Your hand (row 1) · the table (row 2)" in refused.text()
    ready = await tap(driver, world, world.carol, "10♠")
    assert "ready to play: 10♦ takes 10♠" in ready.text()
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


@pytest.mark.slow  # a whole match, step by step
async def test_a_three_player_game_alone_to_the_end_and_the_rules(world):
    driver = TableDriver(world)
    await driver.open("porrazo new", world.alice, [world.bob, world.carol], target=20)
    assert "everyone for themselves, game to 20" in driver.message().text()
    await driver.start(world.alice)
    rules = await world.tester.slash(world.alice, world.channel, "porrazo rules")
    for decided in (
        "declared on every deal of three",
        "a queen",
        "A porrazo taking the only table card is a limpia too",
        "before that deal's first card is played",
        "To counter, pick your card alone",
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


# Alice deals to Bob, Carol, Admin and herself; nobody holds a pair.
LONE_DEAL = " ".join(
    [
        "2h 5s Jc",  # Bob: the 2♥ placed on the empty table, then the 5♠
        "2c 5h Qc",  # Carol: a porrazo on each
        "9s 5d 3c",  # Admin: the 9♠ lets the first porrazo stand; the 5♦ counters the second
        "Kd 9d 4h",  # Alice
    ]
).split()


def suggestions(message) -> list[str]:
    return [
        option["label"]
        for row in message.components
        for item in row["components"]
        if item["type"] == 3 and item["custom_id"].startswith("ps:")
        for option in item["options"]
    ]


async def pick_and_play(driver: TableDriver, world, user, *labels: str) -> tuple[int, str]:
    """`user` taps `labels` in their DM, then Play selected: the clicks it took, and what the
    DM said just before Play."""
    dm = await tap(driver, world, user, *labels)
    shown = dm.text()
    await driver.press(user, dm, "Play selected")
    await driver.settle()
    return len(labels) + 1, shown


async def test_a_lone_card_limpia_a_counter_by_its_card_alone_and_captures_in_few_clicks(world):
    driver = TableDriver(world)
    await driver.open("porrazo new", world.alice, [world.bob, world.carol, world.admin])
    world.bot.runtime.stacked = [LONE_DEAL]
    await driver.start(world.alice)
    assert driver.table.names() == ["Alice", "Bob", "Carol", "Admin"]
    await driver.play("Not yet", seat=to_act(driver))  # the table stays empty
    await driver.take_suggestion("Place 2♥")
    # Carol's porrazo takes the only card on the table: a limpia too, if it stands.
    carol = await driver.controls(world.carol)
    assert "2♣ porrazo on 2♥, a limpia too if it stands" in suggestions(carol)
    await driver.take_suggestion("2♣ porrazo on 2♥, a limpia too if it stands")
    assert "(a 2 next counters it; a limpia too if it stands)" in driver.message().text()
    await driver.take_suggestion("Place 9♠")  # Admin doesn't counter: it stands
    text = driver.message().text()
    assert "Carol scores 1 for a porrazo (2♥ 2♣) · Carol: 1 point." in text
    assert "Carol scores 1 for a limpia (2♥) · Carol: 2 points." in text
    await driver.take_suggestion("Place K♦")
    await driver.take_suggestion("Place 5♠")
    await driver.take_suggestion("5♥ porrazo on 5♠")  # beside the 9♠ and K♦: no limpia
    # Admin taps his 5♦ alone: he means the counter-porrazo, which takes the porrazo's cards.
    admin = await driver.controls(world.admin)
    assert "5♦ takes 5♠ 5♥: counter-porrazo!" in suggestions(admin)  # it says what it takes
    clicks, shown = await pick_and_play(driver, world, world.admin, "5♦")
    assert "ready to play: 5♦ takes 5♠ 5♥: counter-porrazo!" in shown
    assert clicks == 2  # before: refused ("must capture"); 5 clicks through the table's page
    assert "Admin plays 5♦ on 5♠ 5♥: counter-porrazo!" in driver.message().text()
    # Alice's capture: her 9♦, the table's 9♠ on the same page, Play selected.
    clicks, shown = await pick_and_play(driver, world, world.alice, "9♦", "9♠")
    assert "ready to play: 9♦ takes 9♠" in shown
    assert clicks == 3  # before: 4, with "Show the table"
    text = driver.message().text()
    assert "Admin scores 3 for a counter-porrazo (5♠ 5♥ 5♦)" in text
    assert "Alice plays 9♦ and takes 9♠." in text
    # The next deal: each hand says which deal it is; no line per deal piles up.
    while driver.table.state.deal == 1:
        await world.bot.runtime.fire_deadline(driver.table.id)
        await driver.settle()
    bob = world.tester.dms(world.bob)[-1].text()
    assert "(3 cards, deal 2)" in bob
    assert "You are dealt" not in bob and "Just for you" not in bob


# Alice deals to AI 1, AI 2 and herself: no pairs on the first deal; on the second (after the
# tendido) AI 2 holds a pair of 7s and AI 1 plays first.
AI_DEALS = " ".join(
    [
        "2s 6h Jd",  # AI 1
        "3h 8c Kd",  # AI 2
        "4d 9s Qc",  # Alice
        "5c 7d 10h Ah",  # the tendido
        "5s 10s Ks",  # AI 1
        "7s 7h 2d",  # AI 2: a ronda
        "6c Jh 3c",  # Alice
    ]
).split()


async def settle_ai(driver: TableDriver, world) -> None:
    """Until every AI seat that may act has acted."""
    runtime = world.bot.runtime
    await driver.settle()
    while runtime.ai_turns:
        await asyncio.gather(*list(runtime.ai_turns))
        await driver.settle()


async def test_ai_seats_declare_before_the_deals_first_card(world):
    """Declarations close when the deal's first card is played: an AI seat holding a ronda
    declares before the AI on the dealer's left plays (the AI seats act in the order the
    game lists its decisions)."""
    driver = TableDriver(world)
    await driver.open("porrazo new", world.alice, [], ai_delay=0)
    for _ in range(2):
        reply = await add_ai(world, world.alice, driver.message())
        assert "sits down" in reply.text
    world.bot.runtime.stacked = [AI_DEALS]
    await driver.start(world.alice)
    await driver.play("Deal the tendido now", seat=0)
    await settle_ai(driver, world)
    while driver.table.state.deal == 1 or driver.table.required_seats() != [0]:
        state = driver.table.state  # Alice plays her default (a timeout would make her away)
        await driver.take_suggestion(UI.action_label(state.view(0), state.default_action(0)))
        await settle_ai(driver, world)
    state = driver.table.state
    assert state.deal == 2 and all(state.played[1:]) and not state.played[0]
    assert [d.seat for d in state.declared] == [2]  # before AI 1's first card of the deal
    assert "declares a ronda" in driver.message().text()
