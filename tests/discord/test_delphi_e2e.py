"""Delphi end to end through the fake Discord: `/delphi new`, secret answers by DM with only
who has answered on the table, the reveal of answers and verdict together, timeouts that
abstain (and leave a card unjudged), the layout picture, a player oracle's rule written in the
modal and sealed until the hand ends (its SHA-256 checked from the summary), the bot drawing a
rule for an oracle, the oracle passing left, and the match to its standings. Hands are kept
short with the table's `cards` option and stacked decks (dealt in order, starter first). The
TableDriver checks after every step that no channel message names a card still in the stock."""

import hashlib
import io
import re

from PIL import Image

from bot.games.delphi import player_scores
from bot.games.delphi.library import BY_ID
from tests.tables_e2e import TableDriver, answer, channel_text, labels

BOT_DEAL = "5c Kh 2s 9d Qc Ah"
PLAYER_DEAL = "Kh 2s 9d Qc Ah 3h"
RULE = "Red cards are correct, whatever came before"


async def time_out(driver: TableDriver, world) -> None:
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()


def seal_checks(world, rule: str) -> None:
    """The hand's summary shows the salt and seal: the seal is the SHA-256 of salt:rule."""
    summary = next(
        m.text() for m in world.tester.channel_messages(world.channel) if "Salt:" in m.text()
    )
    salt = re.search(r"Salt:\*\* `([0-9a-f]+)`", summary)[1]
    seal = re.search(r"Seal:\*\* `([0-9a-f]{64})`", summary)[1]
    assert rule in summary
    assert hashlib.sha256(f"{salt}:{rule}".encode()).hexdigest() == seal


async def test_three_players_and_the_bot_as_oracle(world):
    driver = TableDriver(world)
    await driver.open(
        "delphi new",
        world.alice,
        [world.bob, world.carol],
        oracle="bot",
        cards=6,
        difficulty="easy",
    )
    assert "oracle: the bot (easy rules, 1 hand), cards per hand: 6" in driver.message().text()
    world.bot.runtime.stacked = [BOT_DEAL.split()]
    await driver.start(world.alice)
    state = driver.table.state
    judge = BY_ID[state.library_rule].judge
    table = driver.message().text()
    assert "Oracle: **the bot** (an easy rule)" in table
    assert "Card 1 of 5: **K♥**" in table and state.seal in table
    assert "Answered: nobody" in table
    (attachment,) = driver.message().attachments
    picture = Image.open(io.BytesIO(world.fake.uploads[attachment["id"]]))
    assert picture.format == "PNG" and picture.size[0] > 500
    # Everyone answers in secret; the table shows only who has answered.
    assert labels(await driver.controls(world.alice)) == ["Yes, correct", "No", "Abstain"]
    await answer(driver, world.alice, "Yes, correct")
    assert "Answered: Alice" in driver.message().text()
    assert "yes:" not in channel_text(world)
    assert "yes (waiting for the others)" in world.tester.dms(world.alice)[-1].text()
    await answer(driver, world.bob, "No")
    await answer(driver, world.carol, "Abstain")
    if judge(state.line, state.current):
        reveal = "K♥ is correct: it extends the line · yes: Alice +1 · no: Bob -1"
        tokens = [2, 0, 1]
    else:
        reveal = "K♥ is incorrect: it goes below the line · yes: Alice -1 · no: Bob +1"
        tokens = [0, 2, 1]
    assert f"{reveal} · abstained: Carol" in driver.message().text()
    # Time runs out on the next card: everyone abstains.
    await time_out(driver, world)
    text = driver.message().text()
    assert "ran out of time" in text and "2♠ is" in text
    assert "abstained: Alice, Bob, Carol" in text
    # Three more cards: everyone says yes.
    for _ in range(3):
        state = driver.table.state
        correct = judge(state.line, state.current)
        tokens = [count + 1 if correct else max(0, count - 1) for count in tokens]
        for user in (world.alice, world.bob, world.carol):
            await answer(driver, user, "Yes, correct")
    assert driver.table_id is None  # one hand with the bot: the match is over
    seal_checks(world, BY_ID[state.library_rule].text)
    expected = player_scores(tokens)
    assert "Final standings" in channel_text(world)
    rows = await world.bot.database.fetch_all(
        "SELECT seat, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    assert [row[1] for row in rows] == expected


async def test_a_player_oracle_writes_the_rule_in_a_modal_then_the_oracle_passes_left(world):
    driver = TableDriver(world)
    await driver.open("delphi new", world.alice, [world.bob, world.carol], cards=6)
    world.bot.runtime.stacked = [PLAYER_DEAL.split()]
    await driver.start(world.alice)
    assert "**Alice** is the oracle and is writing a secret rule." in driver.message().text()
    alice_dm = world.tester.dms(world.alice)[-1]
    assert labels(alice_dm) == ["Write your rule", "Let the bot draw a rule"]
    opened = await world.tester.click(world.alice, alice_dm, "Write your rule")
    bad = await world.tester.submit_modal(world.alice, opened, {"answer": "   "})
    assert bad.text.startswith("Write your rule:")
    opened = await world.tester.click(world.alice, alice_dm, "Write your rule")
    await world.tester.submit_modal(world.alice, opened, {"answer": RULE})
    await driver.settle()
    seal = driver.table.state.seal
    assert f"Alice has written the rule: sealed `{seal[:12]}…`." in driver.message().text()
    assert seal in driver.message().text() and "Red cards" not in channel_text(world)
    # The oracle sees their rule, and judges 2♠ in secret while the players answer.
    judging = await driver.controls(world.alice)
    assert RULE in judging.text() and "Card 1 of 5: 2♠. Judge it by your rule" in judging.text()
    assert labels(judging) == ["Correct", "Incorrect"]
    await answer(driver, world.alice, "Incorrect")
    assert "Alice has judged" in driver.message().text()
    await answer(driver, world.bob, "No")
    await answer(driver, world.carol, "Yes, correct")
    assert "2♠ is incorrect: it goes below the line · yes: Carol -1 · no: Bob +1" in (
        driver.message().text()
    )
    # Nobody acts on 9♦: the oracle leaves it unjudged, the players abstain.
    await time_out(driver, world)
    assert "9♦ is left unjudged: set aside · abstained: Bob, Carol" in driver.message().text()
    for card, verdict in (("Q♣", "Incorrect"), ("A♥", "Correct"), ("3♥", "Correct")):
        assert f"**{card}**" in driver.message().text()
        await answer(driver, world.alice, verdict)
        await answer(driver, world.bob, "Yes, correct")
        await answer(driver, world.carol, "No")
    seal_checks(world, RULE)
    summary = channel_text(world)
    assert "Bob (3 tokens): +3" in summary and "Carol (0 tokens): -3" in summary
    assert "Alice (oracle): +3" in summary
    # Hand 2: Bob is the oracle and lets the bot draw his rule; then everyone times out.
    await time_out(driver, world)
    assert driver.table.state.oracle == 1
    await answer(driver, world.bob, "Let the bot draw a rule")
    assert "The bot drew a medium rule for Bob and judges it" in driver.message().text()
    assert sorted(driver.table.pending_seats()) == [0, 2]
    oracles = {}
    for _ in range(40):
        if driver.table_id is None:
            break
        oracles[driver.table.state.hand] = driver.table.state.oracle
        await time_out(driver, world)
    assert driver.table_id is None and oracles == {2: 1, 3: 2}
    summaries = [
        m.text() for m in world.tester.channel_messages(world.channel) if "Salt:" in m.text()
    ]
    assert len(summaries) == 3
    assert "(drawn by the bot)" in summaries[1] and "Bob (oracle): +0" in summaries[1]
    # Carol, away after her timeouts, wrote no rule: the bot drew one for her.
    assert "(drawn by the bot)" in summaries[2] and "Carol (oracle): +0" in summaries[2]
    assert "Final standings" in channel_text(world)
    rows = await world.bot.database.fetch_all(
        "SELECT seat, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    assert [row[1] for row in rows] == [3, 3, -3]  # hands 2 and 3: everyone abstained


async def test_the_rules_command_states_the_rules_and_house_decisions(world):
    reply = await world.tester.slash(world.alice, world.channel, "delphi rules")
    text = reply.text
    for phrase in (
        "3-7 players",
        "every player is the oracle once",
        "The host is the first oracle",
        "library of 24 rules",
        "SHA-256 of `salt:rule`",
        "yes** (correct), **no**, or **abstain",
        "a correct card extends the line",
        "nothing if you have none",
        "n x your tokens - T",
        "the oracle 174",
        "when time runs out you abstain (no payout, no penalty)",
        "leaves the card unjudged",
        "The starter is correct by definition",
        "Let the bot draw a rule",
        "300 characters",
        "30 s",
        "forfeits",
    ):
        assert phrase in text, phrase


async def test_delphi_turns_are_quick_but_an_oracle_has_minutes_to_write_a_rule(world):
    driver = TableDriver(world)
    await driver.open("delphi new", world.alice, [world.bob, world.carol], cards=6)
    assert driver.table.record.turn_seconds == 30  # the game's own default, not the bot's
    started = world.bot.runtime.clock()
    await driver.start(world.alice)
    deadline = driver.table.record.deadline
    assert (deadline - started).total_seconds() >= 300  # Alice, the oracle, writes a rule


async def test_each_card_is_edited_into_the_dm_answered_in_and_a_missed_one_comes_anew(world):
    """A hand asks every player about each card in turn. The card after a player's own answer
    moments ago is edited into the DM they answered in: they are watching it, and a new DM
    per card would pile up (51 a full hand). After a card they let time out, or a while
    after their answer, the next comes as a new DM, which Discord notifies (an edit it
    doesn't), and the one before loses its buttons."""
    driver = TableDriver(world)
    players = (world.alice, world.bob, world.carol)
    await driver.open("delphi new", world.alice, list(players[1:]), oracle="bot", cards=6)
    world.bot.runtime.stacked = [BOT_DEAL.split()]
    await driver.start(world.alice)

    def dms() -> list[int]:
        return [len(world.tester.dms(user)) for user in players]

    assert dms() == [1, 1, 1]
    for user in players:
        await answer(driver, user, "Yes, correct")
    assert dms() == [1, 1, 1]
    for user in players:
        (prompt,) = world.tester.dms(user)
        assert "Card 2 of 5" in prompt.text() and labels(prompt) == [
            "Yes, correct",
            "No",
            "Abstain",
        ]
    await time_out(driver, world)  # card 2: nobody answers
    assert dms() == [2, 2, 2]
    for user in players:
        first, second = world.tester.dms(user)
        assert first.components == [] and "Card 3 of 5" in second.text() and labels(second)
    world.bot.presenter.hands.watching_seconds = 0  # now every answer is "a while ago"
    for user in players:
        await answer(driver, user, "No")
    # Carol's answer turned the card: her own click's answer shows the next one
    assert dms() == [3, 3, 2]
    assert "Card 4 of 5" in world.tester.dms(world.alice)[-1].text()
