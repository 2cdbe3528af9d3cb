"""Driving a table game end to end as its players would, with the checks every game shares:
chips conserved at every step, and no channel message naming a card hidden from the public."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.cards import FrenchCard, Joker
from bot.cards.decktet import DecktetCard
from bot.i18n import speaking
from bot.tables import Table
from tests.e2e import World
from tests.fakediscord import Interaction, Message, User
from tests.fakediscord.tester import DEFERRED_MESSAGE


def card_names(card) -> set[str]:
    """Every way the bot writes a card in a message, in the language of the moment: a French
    card's label (`10♥`, `A♠#2` for a second pack's copy, `BJ`) and, for a first-pack joker,
    its name in prose (`black joker`, as Dou Dizhu names a single joker); a Decktet card's
    name, which its title and its label contain (`the Author (2 ☾∞)`), and its title. Codes
    such as `As` or `Kd` are left out: the bot never prints them, and they are also words."""
    if isinstance(card, FrenchCard):
        names = {card.label}
        if card.joker is not None and card.pack == 1:
            colour = "black" if card.joker is Joker.BLACK else "red"
            names |= {f"{colour} joker", f"{colour.capitalize()} joker"}
        return names
    if isinstance(card, DecktetCard):
        return {card.name, card.shown_title}
    return {str(card)}


@functools.cache
def mention(name: str) -> re.Pattern[str]:
    """`name` written as a card of its own, wherever cards are run together ("5♠6♥" names
    5♠ and 6♥): not part of a longer word or number (the "0♠" in "10♠", "Sea" in "Season"),
    and not the first pack's copy inside another pack's (`A♠` in `A♠#2`)."""
    before = r"(?:(?<!\w)|(?<=#\d))" if name[0].isalnum() else ""  # "K♠#25♠" names 5♠
    after = r"(?!\w)" if name[-1].isalnum() else ""
    return re.compile(rf"{before}{re.escape(name)}{after}(?!#\d)")


def names_in(text: str, names: Iterable[str]) -> list[str]:
    """The names in `names` that `text` writes as cards, sorted."""
    return sorted(name for name in names if mention(name).search(text))


# ---- what members see and hold ------------------------------------------------------------


def channel_text(world: World) -> str:
    """Every message in the test channel, as text, oldest first."""
    return "\n".join(m.text() for m in world.tester.channel_messages(world.channel))


def dm_text(world: World, user: User) -> str:
    """Every DM `user` has had from the bot, as text, oldest first."""
    return "\n".join(m.text() for m in world.tester.dms(user))


def fields(message: Message) -> dict[str, str]:
    """The message's embed fields, value by name."""
    return {f["name"]: f["value"] for e in message.embeds for f in e.get("fields", [])}


def labels(message: Message | None) -> list[str]:
    """The message's button labels, then its select options' (none without a message)."""
    if message is None:
        return []
    found = [b.get("label", "") for b in message.buttons()]
    for row in message.components:
        for item in row["components"]:
            found += [option["label"] for option in item.get("options") or []]
    return found


def card_labels(message: Message) -> list[str]:
    """The labels of the card picker's card buttons on the message."""
    return [b["label"] for b in message.buttons() if b["custom_id"].startswith("pc:")]


async def balances(world: World, *members: User) -> list[int]:
    return [await world.bot.ledger.balance(world.guild.id, m.id) for m in members]


def assert_no_leak(world: World, table: Table, checked: dict[int, str]) -> None:
    """No channel message names a card hidden from the public at the moment it was sent or
    last edited, each card named as the channel's language names it. `checked` remembers
    each message's text as last checked, so a showdown message is judged when it was posted,
    not after its cards went back into the deck."""
    if table.state is None:
        return
    with speaking(world.bot.speakers.server(table.record.guild_id)):  # as the channel reads
        hidden = {name for card in table.state.hidden_from(None) for name in card_names(card)}
    for message in world.tester.channel_messages(world.channel):
        text = message.text()
        if checked.get(message.id) == text:
            continue
        checked[message.id] = text
        leaked = names_in(text, hidden)
        assert not leaked, f"channel message {message.id} shows hidden cards {leaked}:\n{text}"


async def assert_chips_conserved(world: World, table: Table, total: int) -> None:
    """Balances, escrows and the house hold the chips there were, the house never below zero;
    each table's escrow holds its game's chips (the house's bank at the table included)."""
    ledger = world.bot.ledger
    totals = await ledger.totals(world.guild.id)
    assert totals.consistent
    assert totals.house >= 0
    assert totals.held == total
    if table.record.status == "playing":
        assert await ledger.escrow(world.guild.id, table.id) == table.state.chip_total()


@dataclass
class TableDriver:
    world: World
    total_chips: int = 0
    checked: dict[int, str] = field(default_factory=dict)

    @property
    def table(self) -> Table:
        table = self.world.bot.runtime.in_channel(self.world.channel.id)
        assert table is not None, "no table is open in the channel"
        return table

    def message(self) -> Message:
        return self.world.fake.messages[self.table.record.message_id]

    def member(self, seat: int) -> User:
        return self.world.fake.users[self.table.seats[seat].member_id]

    def turn(self) -> int:
        """The one seat play waits for (optional choices others may hold aside)."""
        (seat,) = self.table.required_seats()
        return seat

    def seat_of(self, user: User) -> int:
        return self.table.seat_of(user.id).seat

    async def open(self, command: str, host: User, guests: list[User], **options) -> Table:
        reply = await self.world.tester.slash(host, self.world.channel, command, **options)
        assert reply.response.ephemeral, reply.text
        await self.world.tester.idle()
        for guest in guests:
            joined = await self.world.tester.click(guest, self.message(), "Join")
            assert joined.text == "You joined the table.", joined.text
        await self.world.tester.idle()
        totals = await self.world.bot.ledger.totals(self.world.guild.id)
        self.total_chips = totals.held
        return self.table

    async def start(self, host: User) -> None:
        reply = await self.world.tester.click(host, self.message(), "Start")
        assert "started" in reply.text, reply.text
        await self.settle()

    async def settle(self) -> None:
        await self.world.tester.idle()
        table = self.world.bot.runtime.tables.get(self.table_id) if self.table_id else None
        if table is not None:
            assert_no_leak(self.world, table, self.checked)
            await assert_chips_conserved(self.world, table, self.total_chips)

    @property
    def table_id(self) -> int | None:
        table = self.world.bot.runtime.in_channel(self.world.channel.id)
        return table.id if table else None

    async def take_suggestion(self, label: str) -> None:
        """The seat to act chooses `label` among the picker's suggested plays (a select)."""
        user = self.member(self.turn())
        dm = await self.controls(user)
        (select,) = [
            item
            for row in dm.components
            for item in row["components"]
            if item["type"] == 3 and item["custom_id"].startswith("ps:")
        ]
        (value,) = [option["value"] for option in select["options"] if option["label"] == label]
        await self.world.tester.choose(user, dm, [value], select["custom_id"])
        await self.settle()

    async def finish_by_timeouts(self, limit: int = 400) -> None:
        """Let every decision (and pause between hands) time out, the safe default played,
        until the table closes."""
        for _ in range(limit):
            if self.table_id is None:
                return
            await self.world.bot.runtime.fire_deadline(self.table.id)
            await self.settle()
        raise AssertionError("the game did not end")

    async def leave(self, user: User) -> tuple[Interaction, Interaction]:
        """`user` presses Leave during the game, then "Leave now" on the confirmation:
        (the confirmation, the reply). "Leave now" is acknowledged at once ("thinking...":
        the turns played for away seats until the hand ends may take long)."""
        asked = await self.world.tester.click(user, self.message(), "Leave")
        assert asked.text.startswith("Leave the table?"), asked.text
        reply = await self.world.tester.click(user, asked.response, "Leave now")
        assert reply.response_type == DEFERRED_MESSAGE and reply.response.ephemeral
        return asked, reply

    async def leave_one_player(self, *leavers: User) -> Table:
        """`leavers` leave between hands; when the pause ends the table closes with the one
        player left, its escrow paid out."""
        for member in leavers:
            await self.leave(member)
        table, world = self.table, self.world
        await world.bot.runtime.fire_deadline(table.id)
        await world.tester.idle()
        assert world.bot.runtime.in_channel(world.channel.id) is None
        assert await world.bot.ledger.escrow(world.guild.id, table.id) == 0
        return table

    async def controls(self, user: User) -> Message:
        """Where `user` sees their controls: their latest DM, or an ephemeral "My hand"."""
        dms = [m for m in self.world.tester.dms(user) if m.components]
        if dms and user.accepts_dms:
            return dms[-1]
        reply = await self.world.tester.click(user, self.message(), "My hand")
        return reply.response

    async def play(self, label: str, seat: int | None = None) -> Interaction:
        """The seat to act (or `seat`) presses `label`: a button, or a select option."""
        return await answer(self, self.member(self.turn() if seat is None else seat), label)

    async def press(self, user: User, where: Message, label: str) -> Interaction:
        for button in where.buttons():
            if button.get("label") == label:
                return await self.world.tester.click(user, where, label)
        for row in where.components:
            for item in row["components"]:
                for option in item.get("options") or []:
                    if option["label"] == label:
                        return await self.world.tester.choose(
                            user, where, [option["value"]], item["custom_id"]
                        )
        raise LookupError(f"{user.name} has no control {label!r}; controls: {where.components}")


async def answer(driver: TableDriver, user: User, label: str) -> Interaction:
    """`user` presses `label` among their controls (a button, or a select option), and the
    table settles."""
    reply = await driver.press(user, await driver.controls(user), label)
    await driver.settle()
    return reply


async def play_western_hand(western: TableDriver) -> None:
    """A Western Terrapin hand with bets, a raise, a fold, the draw and the showdown, from
    whoever deals (the driver checks every step). Comments name the seats of hand 1."""
    await western.play("Bet 2")  # bob
    raiser = western.turn()
    await western.play("Raise by 1 (put in 3)")  # carol
    await western.play("Call 3")  # alice
    await western.play("Call 1")  # bob
    state = western.table.state
    assert state.phase == "betting" and state.betting_round == 2
    assert western.turn() == raiser  # the last aggressive player opens
    await western.play("Bet 1")  # carol
    await western.play("Fold")  # alice
    await western.play("Call 1")  # bob
    assert western.table.state.phase == "draw" and western.turn() == raiser
    await western.play("Take a card")  # carol
    await western.play("Stand")  # bob
    await western.play("Stand")  # carol
    await western.play("Bet 1")  # carol
    await western.play("Call 1")  # bob
    while western.table.state.phase == "showdown":
        await western.play("Muck")


async def add_ai(world: World, user: User, message: Message, level: str = "Standard"):
    """`user` presses Add AI on the lobby `message`, then the level asked for: the answer to
    the level's button (or the refusal of Add AI itself)."""
    asked = await world.tester.click(user, message, "Add AI")
    if asked.response is None or not any(b.get("label") == level for b in asked.response.buttons()):
        return asked
    return await world.tester.click(user, asked.response, level)
