"""Last One end to end through the fake Discord: `/lastone new` to the last player standing
with stacked deals and a low threshold (a timeout, a draw told only to the drawer, an 8's
suit named with buttons, a joker's card named from a select per suit, the "Last one!" call,
the hand's summary and the final standings), and a melee window announced in the channel
whose continue buttons only the holders' DMs show, raced by two holders at once; nine cards
accepted by joining and refused at six players; out-of-turn choices for players on My hand
(the table says a call is open) and for AI players (they call at once, before anyone plays),
and an absent player's turn waiting for a call still open. The TableDriver checks after
every step that no channel message names a hidden card."""

import asyncio

from bot.engine import Event
from bot.games.last_one import Called, Drew, HandScored, LastOneOptions
from bot.games.last_one.ui import CALL_OPEN, LastOneUI
from tests.e2e import eventually
from tests.fakediscord import Message
from tests.tables_e2e import TableDriver, add_ai, answer, channel_text, dm_text, labels

# Seat 0 (Alice) deals; Bob, on her left, plays first; then Carol.
GAME = {1: "9h 3c 5c Ks", 2: "8c 6s 6d Qd", 0: "BJ 10s Js Qs"}
RACE = {1: "4s 9c 9d 9h", 2: "5s 7c 7d 7h", 0: "RJ Kc Kd Qc"}
# Alice deals to two AI players: AI 1 is down to one card when AI 2 is next to play.
AI_CALL = {1: "3h 9h 9c 5c", 2: "10h Qh Kc 9s", 0: "6h 6d 9d 10c"}
# Heads up with an AI: its defaults play 10♥, K♥, then 9♥, leaving it 5♣ with Alice to play.
HEADS_UP = {1: "9h 10h Kh 5c", 0: "6h 6d 9s 10c"}


def dealt(hands: dict[int, str], upcard: str, stock: str) -> list[str]:
    """The deck order that deals `hands` in blocks from the dealer's left, then the upcard,
    then the stock from its top."""
    order = [(1 + index) % len(hands) for index in range(len(hands))]
    return [code for seat in order for code in hands[seat].split()] + [upcard, *stock.split()]


async def open_game(world, **options) -> TableDriver:
    """GAME dealt to Alice, Bob and Carol, four cards each, the upcard 7♥; Bob's first turn
    times out, and he plays 9♥."""
    world.bot.runtime.stacked = [dealt(GAME, "7h", "Kd")]
    driver = TableDriver(world)
    await driver.open("lastone new", world.alice, [world.bob, world.carol], hand_size=4, **options)
    await driver.start(world.alice)
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    return driver


def live_controls(world, user) -> Message | None:
    """The member's latest DM that still has controls, if any."""
    with_controls = [m for m in world.tester.dms(user) if m.components]
    return with_controls[-1] if with_controls else None


async def act(driver: TableDriver, user, label: str):
    reply = await answer(driver, user, label)
    assert not reply.response.ephemeral, reply.text  # taken: the DM itself was redrawn
    return reply


def field(message: Message, name: str) -> str | None:
    (embed,) = message.embeds
    return next((f["value"] for f in embed.get("fields", []) if f["name"] == name), None)


async def settle_ai(world) -> None:
    """Until every AI seat that may act has acted."""
    await world.tester.idle()
    while world.bot.runtime.ai_turns:
        await asyncio.gather(*list(world.bot.runtime.ai_turns))
        await world.tester.idle()


def record_shown(world, monkeypatch) -> list[Event]:
    """Every event the runtime shows from now on (the table message keeps only the latest)."""
    core, shown = world.bot.runtime.core, []  # what every stage tells the listener through
    show = core.show

    def recording(table, events):
        shown.extend(events)
        show(table, events)

    monkeypatch.setattr(core, "show", recording)
    return shown


def penalties(shown: list[Event]) -> list[int]:
    """The seats that drew the two cards for a call not made in time."""
    return [e.seat for e in shown if isinstance(e, Drew) and e.reason == "penalty" and e.public]


async def test_a_short_game_from_new_to_the_last_player_standing(world):
    world.bot.runtime.stacked = [dealt(GAME, "7h", "Kd")]
    driver = TableDriver(world)
    await driver.open(
        "lastone new", world.alice, [world.bob, world.carol], hand_size=4, threshold=10
    )
    lobby = driver.message().text()
    assert "hand size: 4, threshold: 10, melee seconds: 10" in lobby
    await driver.start(world.alice)
    assert driver.table.names() == ["Alice", "Bob", "Carol"]
    assert field(driver.message(), "Upcard") == "7♥"
    # Bob runs out of time: his playable card worth the most is played for him.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = driver.message().text()
    assert "Bob ran out of time" in text and "Bob plays 9♥ (3 left)." in text
    # Carol draws although she could play her 8: only she learns the card.
    assert labels(await driver.controls(world.carol)) == [
        "Play 8♣ (then name a suit)",
        "Draw a card",
    ]
    await act(driver, world.carol, "Draw a card")
    assert "Carol draws a card." in channel_text(world) and "K♦" not in channel_text(world)
    assert "You drew K♦." in dm_text(world, world.carol)
    # Alice's joker stands for the 5 of clubs, named from the clubs select.
    await act(driver, world.alice, "Play BJ (then name a card)")
    naming = await driver.controls(world.alice)
    placeholders = [item["placeholder"] for row in naming.components for item in row["components"]]
    assert placeholders == ["Name Spades…", "Name Hearts…", "Name Diamonds…", "Name Clubs…"]
    await act(driver, world.alice, "5♣")
    assert "Alice's joker stands for the 5 of clubs." in driver.message().text()
    assert field(driver.message(), "Upcard") == "BJ as the 5 of clubs"
    # Bob plays 3♣, adds 5♣ and is down to one card: he calls in time.
    await act(driver, world.bob, "Play 3♣")
    assert labels(await driver.controls(world.bob)) == ["Play K♠", "Play 5♣", "End your turn"]
    await act(driver, world.bob, "Play 5♣")
    assert labels(await driver.controls(world.bob)) == ["Last one!"]
    await act(driver, world.bob, "Last one!")
    assert "Bob calls Last one!" in driver.message().text()
    # Carol's 8 names spades; Alice follows; Bob goes out with his last card.
    await act(driver, world.carol, "Play 8♣ (then name a suit)")
    await act(driver, world.carol, "♠ Spades")
    assert field(driver.message(), "Upcard") == "8♣: spades named"
    await act(driver, world.alice, "Play 10♠")
    await act(driver, world.bob, "Play K♠")
    await world.tester.idle()
    assert world.bot.runtime.in_channel(world.channel.id) is None  # the match is over
    everything = channel_text(world)
    assert "Bob goes out: the hand is over." in everything
    assert "**Alice** · J♠ Q♠ · 20 · total 20 · **out of the game**" in everything
    assert "**Carol** · 6♠ 6♦ Q♦ K♦ · 32 · total 32 · **out of the game**" in everything
    assert "Last One: Bob wins!" in everything
    rows = await world.bot.database.fetch_all(
        "SELECT seat, placing, score FROM results WHERE scope = 'match' ORDER BY seat"
    )
    assert [(row[1], row[2]) for row in rows] == [(2, 20), (1, 0), (3, 32)]
    rules = await world.tester.slash(world.alice, world.channel, "lastone rules")
    for decided in ("aggressor can't continue", "no stacking", "stops short", "On timeout"):
        assert decided in rules.text, decided


async def test_a_melee_window_is_announced_and_two_holders_race_for_it(world):
    world.bot.runtime.stacked = [dealt(RACE, "4h", "2c 3c 4c 5c 6c")]
    driver = TableDriver(world)
    await driver.open("lastone new", world.alice, [world.bob, world.carol], hand_size=4)
    await driver.start(world.alice)
    await act(driver, world.bob, "Play 4♠")
    table = driver.message()
    melee = field(table, "Melee!")
    assert melee.startswith("Bob attacks, Carol defends. Whoever holds the 5 of spades")
    assert "Alice" not in melee and "Waiting for" not in table.text()
    assert "Melee! Bob attacks, Carol defends" in table.text()
    # Only the holders' DMs show a continue button: Carol's 5♠, Alice's joker.
    assert labels(live_controls(world, world.carol)) == ["Continue with 5♠"]
    assert labels(live_controls(world, world.alice)) == ["Continue with RJ as the 5 of spades"]
    assert live_controls(world, world.bob) is None
    # Both press at the same moment: exactly one is taken.
    carol, alice = live_controls(world, world.carol), live_controls(world, world.alice)
    pressed = await asyncio.gather(
        driver.press(world.carol, carol, "Continue with 5♠"),
        driver.press(world.alice, alice, "Continue with RJ as the 5 of spades"),
    )
    await driver.settle()
    taken = [reply for reply in pressed if not reply.response.ephemeral]
    (late,) = [reply for reply in pressed if reply.response.ephemeral]
    # The loser's button is stale: a fresh prompt replaced it (the melee moved on to the 6),
    # or its holder has no choice now.
    assert len(taken) == 1
    assert late.text in ("This prompt has expired.", "It is not your turn.")
    # Whoever may go on now (with the 6, or a joker as it) has been sent that new choice.
    for decision in driver.table.state.pending():
        assert decision.prompt in world.tester.dms(driver.member(decision.seat))[-1].text()
    assert "continues the melee with" in driver.message().text()
    # The window passes: Bob, the last defender, draws the 5's pips, told the cards alone.
    await world.bot.runtime.fire_deadline(driver.table.id)
    await driver.settle()
    text = channel_text(world)
    assert "Bob, the last defender, draws 5 cards." in text and "2♣" not in text
    assert "You drew 2♣ 3♣ 4♣ 5♣ 6♣." in dm_text(world, world.bob)
    assert driver.table.required_seats() == [2]  # play goes on after the defender: Carol
    assert "Waiting for Carol" in driver.message().text()


async def test_nine_cards_are_accepted_by_joining_and_refused_at_six_players(world):
    """DECISIONS: nine cards only if every seated player agrees; a hand size the deck can't
    deal with an upcard left (9 at 6 players) is refused. The lobby says that joining is
    accepting nine cards; Start at six players is refused with a sentence, changing nothing."""
    ui = LastOneUI()
    assert ui.options_text(LastOneOptions()) == "hand size: 7, threshold: 250, melee seconds: 10"
    driver = TableDriver(world)
    await driver.open("lastone new", world.alice, [world.bob], hand_size=9, ai_delay=0)
    accepted = "hand size: 9 (by joining, every player accepts nine cards; five players at most)"
    assert accepted in driver.message().text()
    for _ in range(4):
        await add_ai(world, world.alice, driver.message())
    assert len(driver.table.seats) == 6
    refused = await world.tester.click(world.alice, driver.message(), "Start")
    assert refused.response.ephemeral and refused.text == (
        "The pack can't deal 9 cards each to 6 players and keep an upcard: start with 5 "
        "players or fewer, or open a table with a smaller hand size."
    )
    assert driver.table.record.status == "lobby" and driver.table.state is None
    await world.tester.click(world.alice, driver.message(), "Remove AI")
    await driver.start(world.alice)
    assert [len(hand) for hand in driver.table.state.hands] == [9] * 5
    rules = await world.tester.slash(world.alice, world.channel, "lastone rules")
    assert "joining it is accepting nine cards" in rules.text
    assert "Start is refused at six" in rules.text


# ---- out-of-turn choices: players on My hand, AI players ----------------------------------------


async def test_a_player_without_dms_is_told_a_call_is_open_and_calls_from_my_hand(world):
    """Bob's DMs are closed: the table message says a call is open (not whose), and his My
    hand offers Last one!; a melee window also points its holders to My hand."""
    world.bob.accepts_dms = False
    driver = await open_game(world)
    await act(driver, world.carol, "Draw a card")
    await act(driver, world.alice, "Play BJ (then name a card)")
    await act(driver, world.alice, "5♣")
    assert field(driver.message(), "Last one!") is None
    await driver.play("Play 3♣")
    await driver.play("Play 5♣", seat=1)  # one card left
    assert field(driver.message(), "Last one!") == CALL_OPEN  # open, and nobody named
    calls = world.tester.channel_messages(world.channel)
    assert not [
        m for m in calls if "your move at the table" in m.text()
    ]  # nor called in the channel
    hand = await world.tester.click(world.bob, driver.message(), "My hand")
    assert hand.response.ephemeral and labels(hand.response) == ["Last one!"]
    await driver.press(world.bob, hand.response, "Last one!")
    await driver.settle()
    assert "Bob calls Last one!" in driver.message().text()
    assert field(driver.message(), "Last one!") is None


async def test_a_melee_window_points_its_holders_to_my_hand(world):
    world.bot.runtime.stacked = [dealt(RACE, "4h", "2c 3c 4c 5c 6c")]
    world.carol.accepts_dms = False
    driver = TableDriver(world)
    await driver.open("lastone new", world.alice, [world.bob, world.carol], hand_size=4)
    await driver.start(world.alice)
    await act(driver, world.bob, "Play 4♠")
    assert "may continue now, from their DM or My hand" in field(driver.message(), "Melee!")
    calls = world.tester.channel_messages(world.channel)
    assert not [
        m for m in calls if "your move at the table" in m.text()
    ]  # who holds the 5 stays unsaid
    hand = await world.tester.click(world.carol, driver.message(), "My hand")
    assert labels(hand.response) == ["Continue with 5♠"]
    await driver.press(world.carol, hand.response, "Continue with 5♠")
    await driver.settle()
    assert "Carol continues the melee with 5♠" in driver.message().text()


async def test_an_ai_player_calls_before_the_next_ai_player_plays(world, monkeypatch):
    world.bot.runtime.stacked = [dealt(AI_CALL, "7h", "Qd Qs Jd 10d 7c 7s")]
    driver = TableDriver(world)
    await driver.open("lastone new", world.alice, [], hand_size=4, threshold=40, ai_delay=0)
    for _ in range(2):
        await add_ai(world, world.alice, driver.message())
    shown = record_shown(world, monkeypatch)
    await driver.start(world.alice)
    while not any(isinstance(e, HandScored) for e in shown):
        await settle_ai(world)
        if driver.table.required_seats() in ([0], []):  # Alice's turn, or a melee window
            await world.bot.runtime.fire_deadline(driver.table.id)
    assert Called(seat=1) in shown and Called(seat=2) in shown
    assert not [seat for seat in penalties(shown) if seat != 0]


async def test_an_ai_player_with_a_long_delay_still_calls_before_a_quick_player(world, monkeypatch):
    """An out-of-turn choice doesn't wait for the AI's delay: Alice, next to play, may press
    at once."""
    world.bot.runtime.stacked = [dealt(HEADS_UP, "7h", "Qc Qd Qs")]
    driver = TableDriver(world)
    await driver.open("lastone new", world.alice, [], hand_size=4, ai_delay=10)
    await add_ai(world, world.alice, driver.message())
    shown = record_shown(world, monkeypatch)
    await driver.start(world.alice)
    table, runtime = driver.table, world.bot.runtime
    for alice in ("Play 6♥", "Draw a card", None):
        if table.required_seats() == [1]:  # the AI's turn, played now rather than in 10 s
            await runtime.fire_deadline(table.id)
            await driver.settle()
        if alice:
            await act(driver, world.alice, alice)
    assert [len(hand) for hand in table.state.hands] == [4, 1]  # the AI holds one card
    await eventually(lambda: table.state.caller is None, timeout=2, what="the AI's call")
    await act(driver, world.alice, "Draw a card")
    assert Called(seat=1) in shown and not penalties(shown)


async def test_an_away_player_s_turn_waits_for_a_call_still_open(world, monkeypatch):
    """Carol is leaving (her turns played for her at once), but Bob, down to one card just
    before her turn, still gets a player's time to call: her turn waits for her deadline,
    and is played the moment he calls."""
    driver = await open_game(world)
    await driver.leave(world.carol)  # her 8♣ and its suit, diamonds, are played for her
    await driver.settle()
    await act(driver, world.alice, "Play BJ (then name a card)")
    await act(driver, world.alice, "5♣")
    shown = record_shown(world, monkeypatch)
    await act(driver, world.bob, "Play 3♣")
    await act(driver, world.bob, "Play 5♣")
    assert driver.table.required_seats() == [2] and driver.table.state.caller == 1
    await act(driver, world.bob, "Last one!")
    assert Called(seat=1) in shown and not penalties(shown)
    assert driver.turn() == 0  # Carol's turn was played once Bob had called
