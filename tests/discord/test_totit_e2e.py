"""Totit end to end through the fake Discord: `/totit new` to the final standings with a stacked
first deal: a first-turn capture picked card by card (hand card, then the table's card on its
own page), a pick the first-turn rule refuses with its reason, a timeout trailing the lowest
card, a capture chosen among the suggestions, then each player's default chosen among the
suggestions to the end of the game (everyone deals once); and a three-player table with the
trail option (a card trailed that could have captured), played out by timeouts, with
`/totit rules`; and the table's wording when nothing is set aside or captured. The TableDriver
checks after every step that no channel message names a hidden card."""

from bot.games.totit import TOTIT, Dealt
from bot.games.totit.ui import TotitUI
from tests.engines.test_totit import deal
from tests.tables_e2e import TableDriver, card_labels, channel_text, fields

# Alice deals; Bob, on her left, plays first. Bob's 2♠#2 is identical to the table's 2♠.
TABLE = "2s 5h As"
HANDS = {0: "5s", 1: "2s#2 5d Kc"}
UI = TotitUI()


async def play_out(driver: TableDriver, world, limit: int = 200) -> list[str]:
    """Each player in turn chooses their timeout default among the suggested plays, and the
    next hand is dealt when its time comes, until the table closes. Returns every line the
    table message showed on the way (its latest lines scroll away)."""
    seen: dict[str, None] = {}
    for _ in range(limit):
        if driver.table_id is None:
            return [*seen, *channel_text(world).splitlines()]
        seen |= dict.fromkeys(driver.message().text().splitlines())
        state = driver.table.state
        if state.awaiting_next_hand():
            await world.bot.runtime.fire_deadline(driver.table.id)
            await driver.settle()
            continue
        await driver.play(UI.action_label(None, state.default_action(driver.turn())))
    raise AssertionError("the game did not end")


async def test_a_game_from_new_to_the_end_with_a_picked_capture_and_a_timeout(world):
    driver = TableDriver(world)
    await driver.open("totit new", world.alice, [world.bob])
    assert "trail when able: no" in driver.message().text()
    world.bot.runtime.stacked = [deal(TABLE, HANDS, players=2)]
    await driver.start(world.alice)
    state = driver.table.state
    assert [len(hand) for hand in state.hands] == [11, 11] and len(state.table) == 18
    table_text = driver.message().text()
    assert "Totit · hand 1 of 2" in table_text and "**Alice** (dealer)" in table_text
    assert "▶ **Bob** · 11 cards · first turn" in table_text and driver.turn() == 1
    assert "20 cards set aside" in table_text

    # Bob picks his 2♠#2, turns to the table and first tries the 2♥, of the same rank but not
    # identical: refused on a first turn.
    bob = world.bob
    dm = await driver.controls(bob)

    async def tap(label: str) -> None:
        reply = await world.tester.click(bob, dm, label)
        assert reply.response is dm, reply.text

    assert "2♠#2" in card_labels(dm) and "2♥" not in card_labels(dm)  # the hand's page
    await tap("2♠#2")
    await tap("Show the table")
    assert fields(dm)["Showing"].startswith("The table: cards 1-")
    await tap("2♥")
    selected = fields(dm)["Selected"]
    assert "your hand: 2♠#2; the table: 2♥" in selected
    assert "can't be played: On your first turn you may only take a card identical" in selected
    refused = await world.tester.click(bob, dm, "Play selected")
    assert refused.response.ephemeral and "first turn" in refused.text
    await tap("2♥")  # let it go
    await tap("2♠")
    assert "ready to play" in fields(dm)["Selected"]
    await driver.press(bob, dm, "Play selected")
    await driver.settle()
    assert "Bob takes 2♠ with 2♠#2. 1 pair of identical cards!" in driver.message().text()
    assert "captured 2, 1 pair" in driver.message().text()

    # Alice can take nothing on her first turn and runs out of time: her lowest card trails.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    table_text = driver.message().text()
    assert "Alice ran out of time: Trail 5♠." in table_text and "Alice trails 5♠." in table_text

    # Bob's second turn: any card of the same rank, A J Q K as one. He takes a suggestion.
    await driver.play("Take A♠ with K♣")
    assert "Bob takes A♠ with K♣." in driver.message().text()
    lines = await play_out(driver, world)
    assert any("Hand 2 of 2: Bob deals 18 cards face up" in line for line in lines)
    assert len([line for line in lines if "Hand over:" in line]) == 2
    standings = next(
        m.text()
        for m in world.tester.channel_messages(world.channel)
        if "Final standings" in m.text()
    )
    assert "Alice" in standings and "Bob" in standings
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    scores = [row[2] for row in rows]
    assert [row[1] for row in rows] == [1 if s == max(scores) else 2 for s in scores]
    assert scores[1] >= 1  # Bob's first-turn pair


async def test_three_players_with_the_trail_option_and_the_rules(world):
    driver = TableDriver(world)
    await driver.open("totit new", world.alice, [world.bob, world.carol], trail_when_able=True)
    assert "trail when able: yes" in driver.message().text()
    world.bot.runtime.stacked = [deal("5s", {1: "5s#2"}, players=3)]
    await driver.start(world.alice)
    assert [len(hand) for hand in driver.table.state.hands] == [7, 7, 7]
    assert "21 cards set aside" in driver.message().text()
    # Bob could take the 5♠ with his 5♠#2, but the option lets him trail it instead.
    bob = await driver.controls(world.bob)
    await driver.press(world.bob, bob, "Trail 5♠#2")
    await driver.settle()
    assert "Bob trails 5♠#2." in driver.message().text()
    rules = await world.tester.slash(world.alice, world.channel, "totit rules")
    for decided in (
        "first turn of a hand you may only take a card identical",
        "A, J, Q and K count as one rank",
        "the odd cards must be taken first",
        "You must capture when you can",
        "trail when able",
        "every player has dealt once",
        "Equal top totals share first place",
        "On timeout you make the capture that completes the most pairs",
        "trail when able: yes",
    ):
        assert decided in rules.text, decided
    await driver.finish_by_timeouts()
    assert "Final standings" in channel_text(world)
    rows = await world.bot.database.fetch_all(
        "SELECT placing FROM results WHERE scope = 'match' ORDER BY seat"
    )
    assert len(rows) == 3 and min(row[0] for row in rows) == 1


def test_the_table_says_nothing_empty():
    """Six players leave no card aside, and nobody has captured yet: neither is counted."""
    state = TOTIT.new_match(None, [0] * 6, seed=3)
    names = ["A", "B", "C", "D", "E", "F"]
    embed = UI.public_embed(None, state.view(None), names)
    text = "\n".join([embed.description, embed.footer.text])
    assert "set aside" not in text and "0 pairs" not in text
    assert text.count("nothing captured") == 6
    line = UI.event_line(Dealt(hand=1, deals=6, dealer=0, first=1, hand_size=7, set_aside=0), names)
    assert line == "Hand 1 of 6: A deals 18 cards face up and 7 to each player; B plays first."
