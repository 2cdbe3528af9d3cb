"""Verifiable deals end to end (issue 43, point 3): the lobby shows the SHA-256 of the table's
secret seed before Start; the match deals from that seed and the Start click; the seed never
reaches a channel or a DM while the table is open; the closed table shows it, and
`/table verify` re-deals every hand from it (match), refuses another seed (mismatch), bad hex
and a commitment no closed table showed."""

import hashlib

from bot.engine.deals import DealSeed
from bot.store.records import TableStatus
from bot.tables.verification import deal_seed
from tests.e2e import eventually
from tests.tables_e2e import TableDriver, channel_text, dm_text

SEED = bytes.fromhex("5eed" * 16)
COMMITMENT = hashlib.sha256(SEED).hexdigest()
OTHER_SEED = bytes(32)


def assert_seed_unseen(world) -> None:
    everything = [channel_text(world), *(dm_text(world, user) for user in world.members.values())]
    assert not any(SEED.hex() in text for text in everything), "the seed was shown early"


async def logged_kinds(world, table_id: int) -> list[str]:
    rows = await world.bot.database.fetch_all(
        "SELECT action FROM table_actions WHERE table_id = ? ORDER BY version", table_id
    )
    return [row[0] for row in rows]


async def play_into_the_second_hand(world, driver: TableDriver) -> None:
    """Every decision times out (its default played) until the second hand is dealt, or the
    match ends in its first hand (a San Benito, about 1 deal in 70: the deal follows the Start
    click's id, which is the time), which closes the table and so shows the seed."""
    table = driver.table
    for _ in range(400):
        if '{"kind":"next_hand"}' in await logged_kinds(world, table.id):
            return
        await world.bot.runtime.fire_deadline(table.id)
        await driver.settle()
        if table.record.status != TableStatus.PLAYING:
            assert table.game_state.is_over(), table.record.status
            return
        assert_seed_unseen(world)
    raise AssertionError("no second hand was dealt")


async def verify(world, seed: str, commitment: str) -> str:
    reply = await world.tester.slash(
        world.carol, world.channel, "table verify", seed=seed, commitment=commitment
    )
    # The answer replaces the "thinking..." message once the replay, run off the event loop
    # where the tester's idle can't see it at work, is done.
    await eventually(lambda: bool(reply.text), what="the verdict")
    assert reply.response.ephemeral, reply.text
    return reply.text


async def test_a_match_is_dealt_from_its_committed_seed_and_verified_after_close(world):
    runtime = world.bot.runtime
    runtime.new_seed, runtime.table_seed = None, lambda: SEED  # the production way, seed known
    driver = TableDriver(world)
    await driver.open("porrazo new", world.alice, [world.bob, world.carol])
    assert COMMITMENT in driver.message().text()
    assert_seed_unseen(world)
    rules = await world.tester.slash(world.bob, world.channel, "porrazo rules")
    assert "Fair deals: every shuffle comes from a secret table seed" in rules.text

    start = await world.tester.click(world.alice, driver.message(), "Start")
    await driver.settle()
    table = driver.table
    assert table.record.deal_input == start.id  # the Start click is mixed into the deals
    first = table.game.open_match(table.options, [0] * 3, DealSeed(SEED, start.id))[0]
    assert table.state.rng.key == SEED.hex() and first.rng.draws == table.state.rng.draws
    assert_seed_unseen(world)
    assert f"Deals commitment {COMMITMENT[:16]}" in driver.message().text()  # kept in sight
    await play_into_the_second_hand(world, driver)

    if table.record.status == TableStatus.PLAYING:
        closed = await world.tester.slash(world.alice, world.channel, "table close")
        assert closed.text.startswith("The table is closed"), closed.text
        await world.tester.idle()
    shown = world.fake.messages[table.record.message_id].text()
    assert SEED.hex() in shown and COMMITMENT in shown

    assert (await verify(world, SEED.hex(), COMMITMENT)).startswith(
        f"Match: this is table #{table.id}'s seed"
    )
    assert (await verify(world, OTHER_SEED.hex(), COMMITMENT)).startswith("Mismatch")
    assert "64 hexadecimal characters" in await verify(world, "5eed", COMMITMENT)
    other_commitment = hashlib.sha256(OTHER_SEED).hexdigest()
    assert (await verify(world, OTHER_SEED.hex(), other_commitment)).startswith("No closed table")


async def test_a_table_whose_play_was_not_dealt_from_its_seed_mismatches(world):
    """A match dealt the old way (a fixed test seed) cannot pass for one dealt from its
    table seed."""
    world.bot.runtime.table_seed = lambda: SEED  # deals still from the tests' fixed number
    driver = TableDriver(world)
    await driver.open("porrazo new", world.alice, [world.bob])
    await driver.start(world.alice)
    table = driver.table
    assert table.state.rng.key == ""
    await world.tester.slash(world.alice, world.channel, "table close")
    await world.tester.idle()
    assert deal_seed(table.record).key == SEED
    assert (await verify(world, SEED.hex(), COMMITMENT)).startswith("Mismatch"), table.id
