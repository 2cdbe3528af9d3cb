"""Re-dealing a closed table's later hands from what Discord shows (issue 50), end to end.

A Triple Draw Lowball table of three members is dealt from a known table seed and played into
its third hand, then closed. Its first hand throws enough cards to reshuffle the stub, so the
later hands' draw numbers are not simply their hand numbers less one. Then, as a player
following README "Verifiable deals" would, from what Discord showed them only:

- the seed and the Start click's id: the closed table message's text;
- each later hand's draw number: the `"draws"` of its deal's line in the hand's Export (JSON
  Lines) from `/table history`, as its replay's "Table seed draw N." says too;
- the dealer: the replay's "Hand N: Bob deals" line, seats in the order the replay lists them;
- each member's cards as dealt: the first DM of the hand showing their hand;

docs/verify_deal.py, run as a process on the fresh French deck's codes in README's order,
re-deals the hand, and its cards go five rounds of one card each from the dealer's left."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import orjson

from bot.games import lowball  # noqa: F401  (registers the game)
from tests.discord.test_history_e2e import settled
from tests.discord.test_lowball_e2e import throw
from tests.fakediscord import User
from tests.tables_e2e import TableDriver, card_labels

SCRIPT = Path(__file__).parents[2] / "docs" / "verify_deal.py"
SEED = bytes.fromhex("5eed" * 16)
SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
# README's fresh French deck: spades, hearts, diamonds, clubs; each A 2 … 10 J Q K.
FRESH_DECK = [
    f"{rank}{suit}" for suit in "shdc" for rank in ["A", *map(str, range(2, 11)), "J", "Q", "K"]
]
CARDS = re.compile(r"^(?:(?:10|[2-9AJQK])[♠♥♦♣] ?){5}$")
HAND_TITLE = re.compile(r"^Triple Draw Lowball · hand (\d+)$", re.M)
OWN_HAND = "Your Triple Draw Lowball hand · table "
LATER_HANDS = (2, 3)


def card_codes(text: str) -> list[str]:
    """Cards as Lowball's private view writes them ("10♣ 5♥ 4♦") as README's codes."""
    return [label[:-1] + SUITS[label[-1]] for label in text.split()]


class Seen:
    """What each member was shown in their DMs, hand by hand: the hands shown by every new DM
    or edit of one, a list per look (each after a step settled), under the hand the table
    message showed then."""

    def __init__(self, driver: TableDriver, members: list[User]) -> None:
        self.driver, self.members = driver, members
        self.last: dict[int, str] = {}
        self.shown: dict[tuple[str, int], list[list[str]]] = {}

    def look(self) -> None:
        (hand,) = HAND_TITLE.findall(self.driver.message().text())
        for member in self.members:
            changed = []
            for dm in self.driver.world.tester.dms(member):
                text = dm.text()
                if self.last.get(dm.id) == text:
                    continue
                self.last[dm.id] = text
                (embed,) = dm.embeds
                if embed["title"].startswith(OWN_HAND) and CARDS.match(embed["description"]):
                    changed.append(embed["description"])
            if changed:
                self.shown.setdefault((member.name, int(hand)), []).append(changed)

    def dealt(self, member: User, hand: int) -> list[str]:
        """The cards the member's first DMs of the hand showed them holding, as codes."""
        (cards,) = set(self.shown[(member.name, hand)][0])
        return card_codes(cards)


async def play(driver: TableDriver, seen: Seen, until_hand: int) -> None:
    """Hand 1: everyone calls, and throws all five cards at every draw until the stub is
    reshuffled; every other decision times out (its default played) until `until_hand` is
    dealt."""
    world = driver.world
    await driver.play("Call 2")  # alice, the dealer
    seen.look()
    await driver.play("Call 1")  # bob, the small blind
    seen.look()
    throws = 0
    while "The stub ran out" not in driver.message().text():
        state = driver.table.state
        if state.phase == "draw":
            user = driver.member(driver.turn())
            await throw(driver, user, card_labels(await driver.controls(user)))
            throws += 1
        else:
            await world.bot.runtime.fire_deadline(driver.table.id)
            await driver.settle()
        seen.look()
        assert throws < 12, "the stub was never reshuffled"
    for _ in range(100):
        if HAND_TITLE.findall(driver.message().text()) == [str(until_hand)]:
            return
        await world.bot.runtime.fire_deadline(driver.table.id)
        await driver.settle()
        seen.look()
    raise AssertionError(f"hand {until_hand} was never dealt")


def verify_deal(seed: str, start: str, draw: int) -> tuple[str, list[str]]:
    """docs/verify_deal.py run as a player runs it: (the commitment it prints, the cards)."""
    argv = [sys.executable, str(SCRIPT), seed, start, str(draw), *FRESH_DECK]
    printed = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    commitment, cards = printed.splitlines()
    return commitment.removeprefix("commitment "), cards.split()


async def exported_hand(world, member: User, table_id: int, hand: int) -> tuple[str, list[dict]]:
    """`member` runs /table history, picks the hand and presses Export: the replay's text at its
    first step and the JSON Lines record, a dict a line."""
    listed = await world.tester.slash(member, world.channel, "table history")
    assert listed.response is not None and listed.response.ephemeral, listed.text
    wanted = f"Triple Draw Lowball · table {table_id} · hand {hand}"
    (value,) = [
        option["value"]
        for row in listed.response.components
        for item in row["components"]
        for option in item.get("options") or []
        if option["label"] == wanted
    ]
    await settled(world, await world.tester.choose(member, listed.response, [value]))
    replay = listed.response
    sent = await (await world.tester.click(member, replay, "Export")).followup()
    (jsonl,) = [a for a in sent.attachments if a["filename"].endswith(".jsonl")]
    lines = world.fake.uploads[jsonl["id"]].decode().splitlines()
    return replay.text(), [orjson.loads(line) for line in lines]


async def test_later_hands_re_deal_from_what_discord_shows(world):
    runtime = world.bot.runtime
    runtime.new_seed, runtime.table_seed = None, lambda: SEED  # the production way, seed known
    members = [world.alice, world.bob, world.carol]
    driver = TableDriver(world)
    await driver.open("lowball new", world.alice, members[1:])
    await driver.start(world.alice)
    seen = Seen(driver, members)
    seen.look()
    table_message = driver.message()
    await play(driver, seen, until_hand=LATER_HANDS[-1])
    closed = await world.tester.slash(world.alice, world.channel, "table close")
    assert closed.text.startswith("The table is closed"), closed.text
    await world.tester.idle()

    # The closed table's message: the seed, the commitment and the Start click.
    shown = table_message.text()
    seed = re.search(r"Seed `([0-9a-f]{64})`", shown)
    commitment = re.search(r"Commitment `([0-9a-f]{64})`", shown)
    start = re.search(r"Start click `(\d+)`", shown)
    assert seed and commitment and start, shown
    assert hashlib.sha256(bytes.fromhex(seed[1])).hexdigest() == commitment[1]
    assert seed[1] == SEED.hex()
    (own,) = {m.embeds[0]["title"] for m in world.tester.dms(world.carol) if m.embeds}
    table_id = int(own.removeprefix(OWN_HAND))

    draws = []
    for hand in LATER_HANDS:
        replay, record = await exported_hand(world, world.carol, table_id, hand)
        deal = record[0]  # the hand's first step: its deal
        assert deal["hand"] == hand and deal["action"] == "next_hand", deal
        (draw,) = deal["draws"]
        assert f"Table seed draw {draw}." in replay, replay
        draws.append(draw)
        # The seats in their order, as the replay lists them; the dealer, as it says.
        seats = re.findall(r"^(?:▶ )?\*\*(\w+)\*\* ·", replay, re.M)
        assert sorted(seats) == sorted(m.name for m in members), replay
        (dealer,) = re.findall(rf"Hand {hand}: (\w+) deals;", replay)
        at = seats.index(dealer)
        order = [seats[(at + step) % len(seats)] for step in range(1, len(seats) + 1)]
        (started,) = [e for e in deal["events"] if e["kind"] == "hand_started"]
        assert [seats[seat] for seat in started["players"]] == order  # the export agrees

        printed, dealt = verify_deal(seed[1], start[1], draw)
        assert printed == commitment[1]
        for index, name in enumerate(order):  # five rounds of one card from the dealer's left
            member = world.members[name.lower()]
            re_dealt = dealt[index : 5 * len(order) : len(order)]
            assert sorted(seen.dealt(member, hand)) == sorted(re_dealt), (hand, name, draw)
    # Hand 1's deal was draw 0 and its reshuffle draw 1: counting hands alone would be wrong.
    assert draws == [2, 3], draws
