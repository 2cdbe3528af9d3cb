"""A real Triple Draw Lowball hand played through the table runtime on each backend, then read
back as a hand history: listed with who won what, replayed to the very state the table saved,
seen by each member without another seat's hidden cards (a folded hand stays hidden), and
exported as JSON Lines and as PHH, which pokerkit reads back and replays to the same stacks.

Seats: alice 0 (deals), bob 1 (small blind), carol 2 (big blind, folds in round 2)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import orjson
import pytest

from bot.cards import parse_french
from bot.discord.history import step_message
from bot.discord.presenter import TablePresenter
from bot.engine import registry
from bot.games import lowball  # noqa: F401  (registers the game)
from bot.games.betting import Bet, Call, Check, Fold
from bot.games.lowball.rules import Draw, StandPat, pokerkit_code
from bot.store import Ledger, TableStore
from bot.store.history import HistoryStore
from bot.tables import TableRuntime
from bot.tables.history import final_state, replay_table
from tests.conformance import strings_of
from tests.discord.test_lowball_e2e import CAROL, deal
from tests.tables_e2e import card_names, names_in

GUILD, CHANNEL = 1, 2
ALICE, BOB, CAROL_ID = 1, 2, 3
CAROLS_CARDS = parse_french(CAROL)


class Quiet:
    async def table_changed(self, table, events) -> None:
        pass


@pytest.fixture
async def runtime(database):
    ledger = Ledger(database, starting_chips=100)
    runtime = TableRuntime(
        TableStore(database, ledger),
        ledger,
        Quiet(),
        clock=lambda: datetime.now(UTC),
        new_seed=lambda: 3,
    )
    yield runtime
    await runtime.shutdown()


async def play(runtime: TableRuntime, table, *actions) -> None:
    """Each action by the seat whose turn it is."""
    for action in actions:
        (seat,) = table.required_seats()
        record = table.seats[seat]
        await runtime.act(table.id, record.member_id, record.prompt, action=action)


async def played_table(runtime: TableRuntime):
    """The hand of tests/discord/test_lowball_e2e.py: carol times out in the first draw and
    folds in round 2; alice's 7-5-4-3-2 beats bob at the showdown. Then the table closes."""
    spec = registry.get("lowball")
    runtime.stacked = [deal()]
    table = await runtime.open(
        spec,
        spec.options_model(small_bet=2),
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=ALICE,
        creator_name="Alice",
        buy_in=50,
        turn_seconds=60,
        key="open",
    )
    await runtime.join(table.id, BOB, "Bob", key="join bob")
    await runtime.join(table.id, CAROL_ID, "Carol", key="join carol")
    await runtime.start(table.id, ALICE, can_manage=False)
    cards = parse_french
    await play(runtime, table, Call(), Call(), Check())
    await play(runtime, table, Draw(cards=cards("Ks 9d")))
    await runtime.fire_deadline(table.id)  # carol stands pat
    await play(runtime, table, Draw(cards=cards("10d")))
    await play(runtime, table, Bet(amount=2), Fold(), Call())
    for _ in range(2):  # two more draws, each followed by a round of checks
        await play(runtime, table, StandPat(), StandPat(), Check(), Check())
    assert table.awaiting_next_hand()
    await runtime.close(table.id, ALICE, can_manage=False, key="close", why="closed")
    return table


async def test_a_played_hand_is_listed_with_its_winner(runtime, database):
    table = await played_table(runtime)
    (played,) = await HistoryStore(database).hands_in_channel(GUILD, CHANNEL, limit=10)
    assert (played.table_id, played.game_id, played.hand, played.replayable) == (
        table.id,
        "lowball",
        1,
        True,
    )
    assert [s.name for s in played.seats] == ["Alice", "Bob", "Carol"]
    winners = [r.seat for r in played.results if r.won]
    assert winners == [0]
    assert sum(r.chip_net for r in played.results) == 0
    assert [r.chip_net for r in played.results if r.seat == 2] == [-2]  # her big blind


async def test_the_replay_reaches_the_state_the_table_saved(runtime, database):
    table = await played_table(runtime)
    log = await HistoryStore(database).table_log(table.id)
    assert log is not None and log.closed and log.first_state is not None
    spec = registry.get("lowball")
    assert final_state(spec, log).snapshot() == log.state
    (hand,) = replay_table(spec, log)
    assert hand.ended and hand.number == 1
    assert any(step.timed_out for step in hand.steps)


def codes(cards) -> set[str]:
    return {card.code for card in cards}


async def test_nobody_sees_the_folded_hand_but_its_owner(runtime, database):
    table = await played_table(runtime)
    spec = registry.get("lowball")
    log = await HistoryStore(database).table_log(table.id)
    (hand,) = replay_table(spec, log)
    carols = codes(CAROLS_CARDS)
    for seat in (None, 0, 1, 2):
        shown: set[str] = set()
        for number in range(len(hand.steps)):
            seen = hand.seen(spec, number, seat)
            shown |= strings_of(seen.public) | set().union(*map(strings_of, seen.events))
            shown |= strings_of(seen.own) if seen.own is not None else set()
        assert (carols <= shown) if seat == 2 else not (carols & shown), seat
    # Carol, folded, still saw the showdown: the cards alice and bob drew, shown there.
    assert {"4s", "Qh", "Jh"} <= shown


async def test_the_json_lines_export_is_the_public_record(runtime, database):
    table = await played_table(runtime)
    spec = registry.get("lowball")
    (hand,) = replay_table(spec, await HistoryStore(database).table_log(table.id))
    text = hand.jsonl(spec, table.id)
    lines = [orjson.loads(line) for line in text.splitlines()]
    assert [line["step"] for line in lines] == list(range(len(hand.steps)))
    thrown_by_alice = "10d"  # face down in the discards: only her own draw named it
    assert thrown_by_alice not in text
    assert not codes(CAROLS_CARDS) & set(text.replace('"', " ").split())
    assert all(line["view"]["my_cards"] is None for line in lines)
    draws = [line for line in lines if line["action"] == "draw"]
    assert [line["seat"] for line in draws] == [1, 0]


async def test_the_phh_export_replays_in_pokerkit_to_the_same_stacks(runtime, database):
    from pokerkit import HandHistory  # here: pokerkit builds its hand tables as it is imported

    table = await played_table(runtime)
    spec = registry.get("lowball")
    log = await HistoryStore(database).table_log(table.id)
    (hand,) = replay_table(spec, log)
    names = [seat.name for seat in log.seats]
    end = hand.state_at(spec, len(hand.steps) - 1)
    for viewer in (None, 0, 2):
        text = hand.hand_history(spec, names, viewer)
        assert text is not None
        history = HandHistory.loads(text)
        *_, last = iter(history)
        order = [1, 2, 0]  # dealt from the dealer's left: bob, carol, then alice
        assert list(last.stacks) == [end.stacks[seat] for seat in order], viewer
        carols = {pokerkit_code(card) for card in CAROLS_CARDS}
        hidden = [code for code in carols if code in text]
        assert (len(hidden) == 5) if viewer == 2 else not hidden, (viewer, text)


def replay_bot():
    """Just what drawing a replay step asks of the bot: the presenter, with Lowball's UI."""
    from bot.games.lowball.ui import LowballUI

    presenter = TablePresenter(SimpleNamespace(), edit_seconds=1)
    presenter.register(LowballUI())
    return SimpleNamespace(presenter=presenter)


async def test_each_drawn_step_shows_a_member_their_own_hand_and_never_the_folded_one(
    runtime, database
):
    table = await played_table(runtime)
    spec = registry.get("lowball")
    log = await HistoryStore(database).table_log(table.id)
    (hand,) = replay_table(spec, log)
    carols = {name for card in CAROLS_CARDS for name in card_names(card)}
    bot = replay_bot()
    for member in (ALICE, BOB, CAROL_ID, 99):
        drawn = []
        for step in range(len(hand.steps)):
            embeds, controls = step_message(bot, spec, log, hand, step, member)
            drawn.append(str([embed.to_dict() for embed in embeds]))
            buttons = [c for row in controls.components() for c in row["components"]]
            assert buttons and all(b["custom_id"].endswith(f":{member}") for b in buttons)
        seen = names_in("\n".join(drawn), carols)
        assert bool(seen) == (member == CAROL_ID), (member, seen)
    assert "Replay · hand 1 · step 1 of" in drawn[0]
