"""Turup end to end through the fake Discord: a five-player game with two packs from `/turup
new` to the final standings, with the rule text's add-and-match capture picked card by card
(the hand card, then the pile's cards on the same page) after a pick the rules refuse, a
timeout taking the default capture, a suggested play, and the rest played by timeouts; a
two-round game where a player leaves between rounds and the others play on; and `/turup
rules`. The TableDriver checks after every step that chips are conserved and no channel
message names a hidden card."""

import pytest

from bot.games import turup  # noqa: F401  (registers the game)
from bot.games.turup.ui import TurupUI
from tests.tables_e2e import TableDriver, card_labels, channel_text, fields

UI = TurupUI()

# Alice deals (seat 0): four each to Bob, Carol, Dave, Erin and Alice, then the pile.
HANDS = {
    "bob": "5h 10s Qd 9c",
    "carol": "Kd 7c 8h 4s#2",
    "dave": "2h 2h#2 Jd 3c",
    "erin": "4d 9h 10d Jh#2",
    "alice": "Ac 8s 7h 6c",
}
PILE = "3d 2c Kh 5s"  # the add-and-match example's pile: 3, 2, K and 5


def stacked() -> list[str]:
    order = ("bob", "carol", "dave", "erin", "alice")
    return [code for name in order for code in HANDS[name].split()] + PILE.split()


@pytest.mark.slow  # a whole match, step by step
async def test_five_players_two_packs_from_new_to_the_end(world):
    dave = world.fake.add_member(world.guild, "Dave")
    erin = world.fake.add_member(world.guild, "Erin")
    driver = TableDriver(world)
    await driver.open("turup new", world.alice, [world.bob, world.carol, dave, erin])
    assert "rounds: 1" in driver.message().text()
    world.bot.runtime.stacked = [stacked()]
    await driver.start(world.alice)
    assert driver.table.names() == ["Alice", "Bob", "Carol", "Dave", "Erin"]
    assert len(driver.table.state.all_cards()) == 104  # two packs for five players
    text = driver.message().text()
    assert "**Alice** (dealer) · 4 cards · 0 won\n▶ **Bob** · 4 cards · 0 won" in text
    assert "Community pile 3♦ 2♣ K♥ 5♠  (4 cards)" in text
    assert "Stock 80 cards" in text and "5♥" not in text  # Bob's hand stays private
    assert driver.turn() == 1

    # Bob picks his 9♣ with the 3♦: the preview gives the rules' reason.
    bob = world.bob
    dm = await driver.controls(bob)

    async def tap(label: str) -> None:
        reply = await world.tester.click(bob, dm, label)
        assert reply.response is dm, reply.text

    # His hand, lowest first, on a row of its own; the pile's row below it.
    assert card_labels(dm) == ["5♥", "9♣", "10♠", "Q♦", "3♦", "2♣", "K♥", "5♠"]
    assert "Show the pile" not in [b["label"] for b in dm.buttons()]
    await tap("9♣")
    assert fields(dm)["Showing"] == "Your hand (row 1) · the pile (row 2)"
    await tap("3♦")
    assert (
        "can't be played: Those cards don't split into groups that each make 9"
        in (fields(dm)["Selected"])
    )
    refused = await world.tester.click(bob, dm, "Play selected")
    assert refused.response.ephemeral and "each make 9" in refused.text
    # The add-and-match example: his 5♥ takes 2 + 3 and the 5♠, four cards won: five clicks
    # with Play selected (six before: "Show the pile" between the hand card and the pile's).
    await tap("Clear")
    for label in ("5♥", "3♦", "2♣", "5♠"):
        await tap(label)
    assert fields(dm)["Selected"] == "your hand: 5♥; the pile: 3♦ 2♣ 5♠ · ready to play"
    await driver.press(bob, dm, "Play selected")
    await driver.settle()
    assert "Bob's 5♥ takes 3♦ 2♣ 5♠ (4 cards won)." in driver.message().text()

    # Carol runs out of time: her K♦ takes the K♥ (the biggest capture).
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = driver.message().text()
    assert "Carol ran out of time" in text and "Carol's K♦ takes K♥ (2 cards won)." in text
    assert "empty: the next player places a card" in text

    # Dave takes a suggested play, a card of the second pack.
    await driver.play("Place 2♥#2 on the pile")
    assert "Dave places 2♥#2 on the pile." in driver.message().text()

    # The others play their suggested default until every hand is empty: four more each.
    while len(driver.table.state.stock) == 80:
        state = driver.table.state
        await driver.play(UI.action_label(None, state.default_action(driver.turn())))
    assert "Every hand is empty: 4 more cards each, 60 cards left in the stock." in (
        driver.message().text()
    )
    # Erin's new hand reaches her DMs, with no "You are dealt" line piling up deal by deal.
    dealt = world.tester.dms(erin)[-1].text()
    hand = driver.table.state.hands[4]
    assert len(hand) == 4 and all(card.label in dealt for card in hand)
    assert "You are dealt" not in dealt

    await driver.finish_by_timeouts()
    everything = channel_text(world)
    assert "Turup · round 1 over" in everything and "Final standings" in everything
    assert "cards won" in everything and " points" not in everything  # what Turup counts
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    scores = [row[2] for row in rows]
    assert len(rows) == 5 and scores[1] >= 4 and scores[2] >= 2
    (summary,) = [
        m for m in world.tester.channel_messages(world.channel) if "round 1 over" in m.text()
    ]
    left = fields(summary)["Left on the pile (counts for nobody)"]
    assert sum(scores) + len(left.split()) == 104  # every card won or left on the pile
    assert [row[1] for row in rows] == [1 + sum(s > mine for s in scores) for mine in scores]


@pytest.mark.slow  # a whole match, step by step
async def test_a_player_leaves_between_rounds_and_the_others_play_on(world):
    driver = TableDriver(world)
    await driver.open("turup new", world.alice, [world.bob, world.carol], rounds=2)
    await driver.start(world.alice)
    await finish_by_timeouts_until_between(driver, world)
    await driver.leave(world.carol)
    await driver.settle()
    for player in (world.alice, world.bob):  # back from away: My hand
        await world.tester.click(player, driver.message(), "My hand")
    await world.bot.runtime.fire_deadline(driver.table.id)  # the next round is dealt
    await driver.settle()
    state = driver.table.state
    assert state.hand == 2 and state.dealer == 1 and state.hands[2] == []
    table_text = driver.message().text()  # the deal passed left; Alice, on Bob's left, plays
    assert "▶ **Alice** · 4 cards · 0 won · total" in table_text
    assert "**Bob** (dealer) · 4 cards" in table_text and "Carol · left the game" in table_text
    rules = await world.tester.slash(world.alice, world.channel, "turup rules")
    for decided in (
        "one French pack for 2-4 players, two for 5-7, three for 8-12",
        "Capturing is never compulsory",
        "J, Q and K take only matching faces",
        "one card at a time round the table",
        "count for nobody",
        "forfeits and is placed last",
        "On timeout: the suggested capture taking the most cards",
        "rounds: 2",
    ):
        assert decided in rules.text, decided
    await driver.finish_by_timeouts()
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing FROM results WHERE scope = 'match' ORDER BY seat"
    )
    assert rows[2][1] == 3  # the leaver forfeits: last


async def finish_by_timeouts_until_between(driver: TableDriver, world) -> None:
    for _ in range(60):
        if driver.table.state.awaiting_next_hand():
            return
        await world.bot.runtime.fire_deadline(driver.table.id)
        await driver.settle()
    raise AssertionError("the round did not end")
