"""Calabrasella end to end through the fake Discord: `/calabrasella new` to the end of the
game, with the private exchange of cards (the third player's DMs and the channel never show
the card handed back), the declarer's exchange as one prompt edited step by step, the final
standings in chips, a default buy-in that covers a hand, an all-pass redeal, and
`/calabrasella rules`."""

from bot.cards import italian_deck, parse_french
from bot.games import calabrasella  # noqa: F401  (registers the game)
from bot.games.calabrasella.ui import WORST_CASE, CalabrasellaUI
from tests.fakediscord import Message, User
from tests.tables_e2e import TableDriver, channel_text, dm_text

# Dealt in blocks with Alice (seat 0) dealing: Bob's twelve, Carol's twelve, Alice's, the widow.
BOB = "3s 2s As Ks Qs Js 7s 6s 5s 4s 3h 2h"
CAROL = "Ah Kh Qh Jh 7h 6h 5h 4h 3d 2d Ad Kd"
ALICE = "Qd Jd 7d 6d 5d 4d 3c 2c Ac Kc Qc Jc"
WIDOW = "7c 6c 5c 4c"
UI = CalabrasellaUI()


def deal() -> list[str]:
    order = [c.code for text in (BOB, CAROL, ALICE, WIDOW) for c in parse_french(text)]
    assert sorted(order) == sorted(c.code for c in italian_deck())
    return order


def live_prompts(world, user: User) -> list[Message]:
    """The user's DMs that still carry controls."""
    return [m for m in world.tester.dms(user) if m.components]


async def play(driver: TableDriver, label: str) -> None:
    """The seat to act chooses `label`: a button, or else a suggested play (a card's own
    button only picks it, so a play is taken from the suggestions)."""
    user = driver.member(driver.turn())
    where = await driver.controls(user)
    for row in where.components:
        for item in row["components"]:
            for option in item.get("options") or []:
                if option["label"] == label:
                    await driver.world.tester.choose(
                        user, where, [option["value"]], item["custom_id"]
                    )
                    await driver.settle()
                    return
    await driver.play(label)


async def play_defaults(driver: TableDriver) -> None:
    """Every seat to act presses the control for its timeout default, until the hand ends."""
    while driver.table_id is not None and driver.table.state.phase not in ("between", "over"):
        state = driver.table.state
        seat = driver.turn()
        await play(driver, UI.action_label(None, state.default_action(seat)))


async def play_to_the_end(driver: TableDriver) -> None:
    """Hands go on, the first bidder declaring and everyone then pressing their timeout
    default, until a player has no chips left and the table closes."""
    world = driver.world
    for _ in range(40):
        if driver.table_id is None:
            break
        await world.bot.runtime.fire_deadline(driver.table.id)  # the next deal
        await driver.settle()
        if driver.table_id is None:
            break
        await driver.play("Play")
        await play_defaults(driver)
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None


async def test_a_game_from_new_to_the_end_with_the_private_exchange(world):
    world.bot.runtime.stacked = [deal()]
    driver = TableDriver(world)
    await driver.open("calabrasella new", world.alice, [world.bob, world.carol], buy_in=10)
    await driver.start(world.alice)
    assert driver.table.names() == ["Alice", "Bob", "Carol"]
    assert driver.turn() == 1  # the dealer's left speaks first
    await driver.play("Pass")  # bob
    await driver.play("Play")  # carol declares
    assert "Carol plays and is the declarer." in driver.message().text()
    await driver.play("Name 3♠")  # carol
    assert "Carol names a card; Bob hands it over." in driver.message().text()
    bob_dm = world.tester.dms(world.bob)[-1].text()
    assert "Just for you" in bob_dm and "Carol named 3♠: Bob hands it over." in bob_dm
    await play(driver, "Give back 4♥")  # through the picker's suggestions
    state = driver.table.state
    assert parse_french("4♥")[0] in state.hands[1]
    assert "Carol gives 4♥ back to Bob." in world.tester.dms(world.bob)[-1].text()
    assert "Carol gives Bob a card back." in driver.message().text()
    await play(driver, "Discard 5♥")
    await play(driver, "Take 7♣")
    assert "The widow is turned face up" in channel_text(world)
    # The card handed back, and the card named, never reached the third player or the channel.
    for text in (dm_text(world, world.alice), channel_text(world)):
        assert "4♥" not in text and "3♠" not in text and "5♥" not in text
    assert driver.table.state.phase == "playing" and driver.turn() == 0  # carol's left leads
    table_text = driver.message().text()
    assert "Alice leads" in table_text and "declarer 0 tricks, 0 points" in table_text
    await play_defaults(driver)
    assert "go to the" in channel_text(world)
    await play_to_the_end(driver)
    totals = await world.bot.ledger.totals(world.guild.id)
    assert totals.consistent and totals.escrows == 0


async def test_the_exchange_is_one_prompt_the_declarers_clicks_edit(world):
    """Each step of the exchange answers in the DM clicked, which becomes the next step's
    prompt and says what the step told the declarer: no second DM with the same prompt, and
    no old DM left with buttons once the tricks start."""
    world.bot.runtime.stacked = [deal()]
    driver = TableDriver(world)
    await driver.open("calabrasella new", world.alice, [world.bob, world.carol], buy_in=10)
    await driver.start(world.alice)
    await driver.play("Pass")  # bob
    await driver.play("Play")  # carol declares
    (prompt,) = live_prompts(world, world.carol)
    sent = len(world.tester.dms(world.carol))
    told = {
        "Name 3♠": "Carol named 3♠: Bob hands it over.",
        "Give back 4♥": "Carol gives 4♥ back to Bob.",
        "Discard 5♥": "You discarded 5♥.",
    }
    for label, news in told.items():
        await play(driver, label)
        assert live_prompts(world, world.carol) == [prompt], label
        assert len(world.tester.dms(world.carol)) == sent, label
        assert news in prompt.text(), label
    await play(driver, "Take 7♣")
    assert driver.table.state.phase == "playing" and live_prompts(world, world.carol) == []
    assert "Bob hands it over" in world.tester.dms(world.bob)[-1].text()  # told by DM
    await play(driver, UI.action_label(None, driver.table.state.default_action(0)))  # alice
    await play(driver, UI.action_label(None, driver.table.state.default_action(1)))  # bob
    assert driver.turn() == 2 and len(live_prompts(world, world.carol)) == 1


async def test_the_final_standings_count_chips(world):
    """Calabrasella is played for chips: the standings give each player's chips won or lost,
    as `/table close` does, never "points"."""
    world.bot.runtime.stacked = [deal()]
    driver = TableDriver(world)
    await driver.open("calabrasella new", world.alice, [world.bob, world.carol], buy_in=10)
    await driver.start(world.alice)
    await driver.play("Pass")  # bob
    await driver.play("Play")  # carol declares, loses 1-34 and has no chips left
    await play_defaults(driver)
    await play_to_the_end(driver)
    standings = [  # wherever they are shown
        line
        for message in world.tester.channel_messages(world.channel)
        for line in message.text().splitlines()
        if line.startswith(("**1.**", "**2.**", "**3.**"))
    ]
    assert "**1.** Alice · +5 chips" in standings and "**1.** Bob · +5 chips" in standings
    assert "**3.** Carol · -10 chips" in standings
    assert not [line for line in standings if "point" in line]


async def test_the_default_buy_in_covers_the_costliest_hand(world):
    """Opened without a buy-in, a table brings every player enough for the worst hand (140
    chips for a declarer at 35-0): nobody is marked short at the first deal."""
    driver = TableDriver(world)
    await driver.open("calabrasella new", world.alice, [world.bob, world.carol])
    await driver.start(world.alice)
    buy_in = driver.table.record.buy_in
    assert buy_in >= WORST_CASE == 140 and driver.table.state.stacks == [buy_in] * 3
    assert " · short" not in driver.message().text()
    rules = await world.tester.slash(world.alice, world.channel, "calabrasella rules")
    assert f"The default buy-in, {buy_in}," in rules.text


async def test_all_pass_redeals_and_the_rules(world):
    driver = TableDriver(world)
    await driver.open("calabrasella new", world.alice, [world.bob, world.carol], buy_in=50)
    await driver.start(world.alice)
    await driver.play("Pass")  # bob
    await driver.play("Pass")  # carol
    await driver.play("Pass")  # alice, the dealer
    text = driver.message().text()
    assert "Bob deals; Carol speaks first." in text
    assert driver.turn() == 2
    rules = await world.tester.slash(world.alice, world.channel, "calabrasella rules")
    assert "the deal passes left" in rules.text and "Nobody pays more than they hold" in rules.text
    assert "35-0 pays 70 each way" in rules.text
