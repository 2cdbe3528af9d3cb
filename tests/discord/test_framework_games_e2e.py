"""The framework's facilities end to end, through test-only games (tests/framework_games.py):
partnerships chosen in the lobby, a secret word written in a modal, private events, a points
match with standings per side, and a house that pays and collects through the ledger."""

import pytest

from bot.cards import french_deck
from tests.framework_cogs import load_framework_games
from tests.tables_e2e import TableDriver, channel_text


@pytest.fixture
async def games(world):
    await load_framework_games(world)
    return world


async def play_first(driver: TableDriver) -> None:
    """The seat to act presses the first of its controls."""
    user = driver.member(driver.turn())
    where = await driver.controls(user)
    items = [item for row in where.components for item in row["components"]]
    first = items[0]
    label = first["options"][0]["label"] if first["type"] == 3 else first["label"]
    await driver.press(user, where, label)
    await driver.settle()


async def test_partners_sides_a_secret_word_private_deals_and_side_standings(games):
    world = games
    partners = TableDriver(world)
    await partners.open(
        "fwpartners new", world.alice, [world.bob, world.carol, world.admin], target=2
    )
    lobby = partners.message()
    assert "Side A" in lobby.text() and "Side B" in lobby.text()
    switched = await world.tester.click(world.bob, lobby, "Switch side")
    assert switched.text == "You are on side A now."
    refused = await world.tester.click(world.alice, partners.message(), "Start")
    assert refused.text == "The sides must have the same number of players: switch sides first."
    await world.tester.click(world.bob, partners.message(), "Switch side")
    await partners.start(world.alice)
    names = partners.table.names()
    assert names == ["Alice", "Bob", "Carol", "Admin"]  # partners sit across
    # The dealer writes the secret word in a modal; a bad one is refused with the reason.
    alice_dm = world.tester.dms(world.alice)[-1]
    opened = await world.tester.click(world.alice, alice_dm, "Write your answer")
    bad = await world.tester.submit_modal(world.alice, opened, {"answer": "two words"})
    assert bad.text == "Write one word of letters only (at most 20)."
    opened = await world.tester.click(world.alice, alice_dm, "Write your answer")
    await world.tester.submit_modal(world.alice, opened, {"answer": "Banana"})
    await partners.settle()
    assert "banana" not in channel_text(world)  # sealed until the hand ends
    for _ in range(4):
        await play_first(partners)
    assert "the word was “banana”" in channel_text(world)
    # The next deal tells each player their cards privately (a private event).
    await world.bot.runtime.fire_deadline(partners.table.id)
    await partners.settle()
    bob_dm = world.tester.dms(world.bob)[-1].text()
    bob_cards = partners.table.state.hands[1]
    assert "Just for you" in bob_dm and all(card.label in bob_dm for card in bob_cards)
    assert "You were dealt" not in channel_text(world)
    await world.bot.runtime.fire_deadline(partners.table.id)  # the word: timed out
    for _ in range(4):
        await play_first(partners)
    if partners.table_id is not None:  # one point each: a third hand decides
        await world.bot.runtime.fire_deadline(partners.table.id)
        await world.bot.runtime.fire_deadline(partners.table.id)
        for _ in range(4):
            await play_first(partners)
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None
    standings = next(
        m.text()
        for m in world.tester.channel_messages(world.channel)
        if "Final standings" in m.text()
    )
    assert "Alice & Carol" in standings and "Bob & Admin" in standings
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    placings = [row[1] for row in rows]
    assert placings[0] == placings[2] and placings[1] == placings[3] and placings[0] != placings[1]
    assert rows[0][2] == rows[2][2] == 2 or rows[1][2] == rows[3][2] == 2


async def test_banker_the_house_covers_each_bet_from_its_balance(games):
    world = games
    ledger, guild = world.bot.ledger, world.guild.id
    # An empty house can't cover even one player's largest bet: the table doesn't open.
    refused = await world.tester.slash(world.alice, world.channel, "fwbanker new", buy_in=20)
    assert "The house has 0 chips" in refused.text and "/chips bankroll" in refused.text
    assert world.bot.runtime.in_channel(world.channel.id) is None
    funded = await world.tester.slash(world.admin, world.channel, "chips bankroll", amount=4)
    assert "now has 4 chips" in funded.text
    refused = await world.tester.slash(world.bob, world.channel, "chips bankroll", amount=4)
    assert "Manage Server" in refused.text
    banker = TableDriver(world)
    members = (world.alice, world.bob, world.carol)
    await banker.open("fwbanker new", world.alice, members[1:], buy_in=20, hands=4)
    # The house stakes nothing at the start: it covers each bet as it is made.
    await banker.start(world.alice)
    assert await ledger.house_balance(guild) == 4
    assert await ledger.escrow(guild, banker.table.id) == 60
    await banker.press(world.alice, await banker.controls(world.alice), "Bet 3")
    assert await ledger.house_balance(guild) == 1  # Alice's win held at the table
    before = (banker.table.state.snapshot(), await ledger.house_balance(guild))
    short = await banker.press(world.bob, await banker.controls(world.bob), "Bet 3")
    assert short.text == (
        "The house can't cover this bet: it needs 3 chips and has 1. Bet less, or wait: "
        "a server manager can add chips with /chips bankroll."
    )
    assert (banker.table.state.snapshot(), await ledger.house_balance(guild)) == before
    await banker.press(world.bob, await banker.controls(world.bob), "Bet 1")
    assert await ledger.house_balance(guild) == 0
    await world.tester.slash(world.admin, world.channel, "chips bankroll", amount=96)
    banker.total_chips += 96  # the chips the driver checks are conserved from now on
    await banker.press(world.carol, await banker.controls(world.carol), "Bet 3")
    await banker.settle()  # checks the escrow equals the stacks and bank, and the totals
    await world.bot.runtime.fire_deadline(banker.table.id)
    await banker.settle()
    for _ in range(3):
        for member in members:
            await banker.press(member, await banker.controls(member), "Bet 3")
        await banker.settle()  # checks the escrow equals the stacks and bank, and the totals
        if banker.table_id is not None:
            await world.bot.runtime.fire_deadline(banker.table.id)
            await banker.settle()
    await world.tester.idle()
    totals = await ledger.totals(guild)
    assert totals.consistent and totals.escrows == 0
    (house_net,) = await world.bot.database.fetch_one(
        "SELECT SUM(chip_net) FROM results WHERE scope = 'house'"
    )
    players = sum([await ledger.balance(guild, m.id) for m in members])
    assert players - 3000 == -house_net  # what the players won, the house paid
    assert await ledger.house_balance(guild) == 100 + house_net  # its holds came back
    report = await world.tester.slash(world.admin, world.channel, "chips house")
    assert "Banker" in report.text and f"{house_net:+,}" in report.text
    assert f"Balance:** {100 + house_net:,} chips" in report.text
    refused = await world.tester.slash(world.bob, world.channel, "chips house")
    assert "Manage Server" in refused.text


async def test_snap_windows_optional_calls_and_private_draws(games):
    world = games
    snap = TableDriver(world)
    await snap.open("fwsnap new", world.alice, [world.bob], target=5)
    await snap.start(world.alice)
    state = snap.table.state
    first = snap.member(snap.turn())
    # A play opens a snap window for everyone alike: no one is waited for by name.
    await snap.press(first, await snap.controls(first), "Draw")
    await snap.settle()
    drawer_dm = world.tester.dms(first)[-1].text()
    assert "You drew" in drawer_dm  # the drawn card, told privately
    assert "draws a card" in channel_text(world) and "You drew" not in channel_text(world)
    second = snap.member(snap.turn())
    card = snap.table.state.hands[snap.turn()][0]
    await snap.press(second, await snap.controls(second), f"Play {card.label}")
    await snap.settle()
    state = snap.table.state
    assert state.phase == "window" and snap.table.required_seats() == []
    table_text = snap.message().text()
    assert "Anyone holding that rank may snap now." in table_text
    assert "Waiting for" not in table_text  # who may snap is never shown
    holders = set(state.snappers())
    for seat, member in enumerate((snap.member(0), snap.member(1))):
        controls = [m for m in world.tester.dms(member) if m.components]
        labels = [b.get("label", "") for b in controls[-1].buttons()] if controls else []
        has_snap = any(label.startswith("Snap ") for label in labels)
        assert has_snap == (seat in holders), (seat, labels)
    await world.bot.runtime.fire_deadline(snap.table.id)  # the window closes
    await snap.settle()
    assert snap.table.state.phase == "play" and snap.table.required_seats() == [snap.turn()]


def snap_deal(alice: list[str], bob: list[str]) -> list[str]:
    """A whole deck in order for Snap, whose deal pops from the end: alice's four, then bob's."""
    dealt = alice + bob
    rest = [card.code for card in french_deck() if card.code not in dealt]
    return rest + dealt[::-1]


async def test_only_holders_of_the_rank_see_a_snap_and_a_snap_scores(games):
    world = games
    world.bot.runtime.stacked = [snap_deal(["2c", "3c", "4c", "7h"], ["5d", "6d", "8d", "7s"])]
    snap = TableDriver(world)
    await snap.open("fwsnap new", world.alice, [world.bob], target=5)
    await snap.start(world.alice)
    assert [c.code for c in snap.table.state.hands[1]] == ["5d", "6d", "8d", "7s"]
    await snap.play("Play 7♠")  # bob: the window opens
    alice_controls = [m for m in world.tester.dms(world.alice) if m.components][-1]
    assert [b["label"] for b in alice_controls.buttons()] == ["Snap 7♥"]
    bob_buttons = [b["label"] for m in world.tester.dms(world.bob) for b in m.buttons()]
    assert not any(label.startswith("Snap") for label in bob_buttons)
    await snap.press(world.alice, alice_controls, "Snap 7♥")
    await snap.settle()
    state = snap.table.state
    assert state.points == [1, 0] and state.phase == "play"
    assert "Alice snaps 7♥." in snap.message().text()
