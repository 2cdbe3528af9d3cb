"""Delphi's oracle through the fake Discord: "The oracle then declares whether the card was
correct" (delphi.md), so a player oracle is offered Correct and Incorrect only; a forged
"unjudged" button is refused with nothing changed; only when the oracle's time runs out is the
card set aside unjudged, with no payments (DECISIONS.md), and /delphi rules says so."""

import copy

from tests.tables_e2e import TableDriver, answer, labels

DEAL = "Kh 2s 9d Qc Ah 3h"  # the starter K♥, then 2♠ and 9♦ to judge
RULE = "Red cards are correct"


async def test_the_oracle_judges_correct_or_incorrect_and_only_a_timeout_sets_a_card_aside(world):
    driver = TableDriver(world)
    await driver.open("delphi new", world.alice, [world.bob, world.carol], cards=6)
    world.bot.runtime.stacked = [DEAL.split()]
    await driver.start(world.alice)
    opened = await world.tester.click(
        world.alice, world.tester.dms(world.alice)[-1], "Write your rule"
    )
    await world.tester.submit_modal(world.alice, opened, {"answer": RULE})
    await driver.settle()
    judging = await driver.controls(world.alice)
    assert "Card 1 of 5: 2♠. Judge it by your rule, in secret: correct or incorrect." in (
        judging.text()
    )
    assert labels(judging) == ["Correct", "Incorrect"]
    # A modified client sends "unjudged" anyway: refused, nothing changes.
    table = driver.table
    before, shown = table.state.snapshot(), copy.deepcopy(judging.payload)
    custom_id = f"ta:{table.id}:{table.seats[0].prompt}:unjudged"
    channel = world.fake.channels[judging.channel_id]
    forged = await world.tester.forge(world.alice, channel, custom_id, message=judging)
    assert forged.response.ephemeral and "not available" in forged.text
    assert table.state.snapshot() == before
    assert world.fake.messages[judging.id].payload == shown
    await answer(driver, world.alice, "Incorrect")
    await answer(driver, world.bob, "No")
    await answer(driver, world.carol, "Yes, correct")
    assert "2♠ is incorrect: it goes below the line · yes: Carol -1 · no: Bob +1" in (
        driver.message().text()
    )
    # On 9♦ the players answer but the oracle's time runs out: set aside, nobody paid.
    await answer(driver, world.bob, "Yes, correct")
    await answer(driver, world.carol, "No")
    tokens = list(driver.table.state.tokens)
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = driver.message().text()
    assert "ran out of time" in text
    assert "9♦ is left unjudged: set aside · yes: Bob · no: Carol" in text
    assert driver.table.state.tokens == tokens and driver.table.state.aside[0].code == "9d"
    rules = await world.tester.slash(world.alice, world.channel, "delphi rules")
    assert "The oracle judges every card **correct** or **incorrect**" in rules.text
    assert "Leaving a card unjudged is not a choice" in rules.text
