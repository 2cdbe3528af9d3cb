"""Every table game under random operations, as players, a moderator and restarts would mix
them: legal moves, forged ones, deadlines, leaving and coming back, AI seats, restarts. After
each: no step sets off endless play, and every chip is accounted for; a close at the end closes
the table and empties its escrow. Longer runs of it (more seeds and operations) found Liar's
turns played on for ever for a player out of the game (test_runtime.py now has that case)."""

import contextlib
import random

import pytest

from bot.engine import IllegalAction, registry
from bot.errors import UserError
from bot.store import SQLiteDatabase, TableStatus
from bot.tables import TableRuntime, action_token
from bot.tables.play import AWAY_STEPS_AT_ONCE
from tests.tables.test_runtime import GUILD, make_runtime, open_lobby

TABLE_GAMES = [spec.id for spec in registry.games() if not spec.solo]
OPERATIONS = 300
WEIGHTS = {
    "move": 60,
    "forged": 8,
    "deadline": 15,
    "leave": 0.4,
    "back": 4,
    "restart": 2,
    "add_ai": 3,
}
FORGED = ["fold", "bet.999999", "play.zz", "garbage", "leave", "close", "take_seat.5"]


class Player:
    """The random operations on one table, and the runtime they go through."""

    def __init__(self, runtime: TableRuntime, table_id: int, players: int, seed: str) -> None:
        self.runtime, self.table_id, self.members = runtime, table_id, range(1, players + 1)
        self.chooser = random.Random(seed)

    async def move(self, step: int) -> None:
        table = self.runtime.tables[self.table_id]
        seats = [s for s in table.pending_seats() if table.legal_actions(s)]
        if seats:
            record = table.seats[self.chooser.choice(seats)]
            action = self.chooser.choice(table.legal_actions(record.seat))
            await self.runtime.act(
                self.table_id, record.member_id, record.prompt, action_token(action)
            )

    async def forged(self, step: int) -> None:
        table = self.runtime.tables[self.table_id]
        record = self.chooser.choice(table.seats)
        prompt = record.prompt + self.chooser.choice([0, 0, 1, -1])
        token = self.chooser.choice(FORGED)
        await self.runtime.act(self.table_id, record.member_id, prompt, token)

    async def deadline(self, step: int) -> None:
        await self.runtime.fire_deadline(self.table_id)

    async def leave(self, step: int) -> None:
        await self.runtime.leave(self.table_id, self.chooser.choice(self.members), key=f"{step}")

    async def back(self, step: int) -> None:
        await self.runtime.back(self.table_id, self.chooser.choice(self.members))

    async def restart(self, step: int) -> None:
        await self.runtime.shutdown()
        self.runtime = make_runtime(self.runtime.store.db)
        await self.runtime.resume()

    async def add_ai(self, step: int) -> None:
        await self.runtime.add_ai(self.table_id, 1, can_manage=True, key=f"ai {step}")


async def seated(runtime: TableRuntime, game: str, chooser: random.Random) -> tuple[int, int]:
    """A table of `game` started with a few players (and an AI one, now and then)."""
    spec = registry.get(game)
    table = await open_lobby(runtime, game=game)
    players = chooser.randint(spec.min_players, min(spec.max_players, spec.min_players + 2))
    for member in range(2, players + 1):
        await runtime.join(table.id, member, f"P{member}", key=f"join {member}")
    if players < spec.max_players and chooser.random() < 0.3:
        await runtime.add_ai(table.id, 1, can_manage=True, key="ai", level="beginner")
    await runtime.start(table.id, 1, can_manage=False)
    return table.id, players


@pytest.mark.parametrize("game", TABLE_GAMES)
async def test_random_operations_keep_every_table_recoverable_and_every_chip(tmp_path, game):
    db = await SQLiteDatabase.open(tmp_path / "random.sqlite3")
    runtime = make_runtime(db)
    await runtime.ledger.fund_house(GUILD, 100_000, reason="test", key="fund")
    chooser = random.Random(game)
    table_id, players = await seated(runtime, game, chooser)
    player = Player(runtime, table_id, players, game)
    held = (await runtime.ledger.totals(GUILD)).held
    names, weights = list(WEIGHTS), list(WEIGHTS.values())
    try:
        for step in range(OPERATIONS):
            if table_id not in player.runtime.tables:
                break
            version = player.runtime.tables[table_id].record.version
            operation = chooser.choices(names, weights)[0]
            with contextlib.suppress(UserError, IllegalAction):  # refused, changing nothing
                await getattr(player, operation)(step)
            if table_id in player.runtime.tables:
                steps = player.runtime.tables[table_id].record.version - version
                assert steps < AWAY_STEPS_AT_ONCE, f"{operation} set off {steps} steps"
            assert (await player.runtime.ledger.totals(GUILD)).held == held, operation
        if table_id in player.runtime.tables:
            await player.runtime.close(table_id, 1, can_manage=True, key="close", why="closed")
        totals = await player.runtime.ledger.totals(GUILD)
        assert (totals.held, totals.escrows) == (held, 0)
        row = await db.fetch_one("SELECT status FROM game_tables WHERE id = ?", table_id)
        assert row["status"] == TableStatus.CLOSED
    finally:
        await player.runtime.shutdown()
        await db.close()
